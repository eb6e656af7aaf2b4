// Package le holds the one place where colfmt's hot loops do wide
// little-endian loads and stores without per-access bounds checks.
//
// The unsafe unaligned accesses (le_unsafe.go) are built only on an explicit
// list of little-endian architectures whose loads tolerate any alignment:
// 386, amd64, arm64, loong64, ppc64le, riscv64 and wasm (the list
// klauspost/compress uses, plus 386, loong64 and wasm). Every other
// architecture (big-endian s390x, ppc64, mips, mips64; arm and mipsle, whose
// unaligned wide loads trap or are emulated by the kernel), and any build
// with -tags purego, gets the portable version (le_purego.go), which goes
// through encoding/binary and keeps Go's bounds checks. Adding an
// architecture to the unsafe list means adding it to both build lines. Callers must have
// proved that every access is in range before calling: the unsafe version
// does not check. Both versions behave identically on valid input, and the
// tests run against whichever is built.
package le

// Fat is the table of a fat-read gather decoder (see Gather16): token c's
// bytes start at Rows[16c], which must be readable for 16 bytes, and Lens[c]
// is its length (1..16).
type Fat struct {
	Rows []byte
	Lens []uint8
}
