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
