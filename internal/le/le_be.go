//go:build !purego && (armbe || arm64be || m68k || mips || mips64 || mips64p32 || ppc || ppc64 || s390 || s390x || shbe || sparc || sparc64)

package le

// The unsafe loads above assume a little-endian host; on big-endian hosts
// build with -tags purego. This declaration makes the mistake a compile error.
var _ = "colfmt/internal/le: big-endian host, build with -tags purego" + 1
