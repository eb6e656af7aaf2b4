// Package le holds the one place where colfmt's hot loops do wide
// little-endian loads and stores without per-access bounds checks.
//
// The unsafe unaligned accesses (le_unsafe.go) are built only on the
// little-endian architectures where the Go compiler itself treats unaligned
// wide loads as safe and fast (cmd/compile's unalignedOK: 386, amd64,
// arm64, loong64, ppc64le, wasm; s390x is big-endian). Every other
// architecture (big-endian s390x, ppc64, mips, mips64; arm, mipsle,
// mips64le and riscv64, where an unaligned wide load traps or is emulated
// by the kernel or firmware), and any build with -tags purego, gets the
// portable version (le_purego.go), which goes through encoding/binary and
// keeps Go's bounds checks. This list is the one source of truth: onpair's
// decode kernels (onpair/kernel_*.go) carry the same build lines, which
// onpair's TestKernelArchListIsLes checks. Adding an architecture means
// adding it to the build lines here and there and to the list in
// le_arch_test.go. Callers must have
// proved that every access is in range before calling: the unsafe version
// does not check. Both versions behave identically on valid input, and the
// tests run against whichever is built.
package le
