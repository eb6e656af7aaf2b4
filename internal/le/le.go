// Package le holds the one place where colfmt's hot loops do wide
// little-endian loads and stores without per-access bounds checks.
//
// The default build uses unsafe unaligned accesses (le_unsafe.go); building
// with the purego tag selects a portable version (le_purego.go) that goes
// through encoding/binary and keeps Go's bounds checks. Callers must have
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
