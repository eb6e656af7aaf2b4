package at1

import (
	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// cursor reads the primitives of a decoded stream (or of the container
// bytes) and reports failures with the offset and a path.
type cursor struct {
	b    []byte
	off  int
	base int64  // offset of b[0] in the input, for error locations
	path string // stream or column name
}

func (c *cursor) rest() int { return len(c.b) - c.off }

func (c *cursor) errf(format string, args ...any) error {
	return errs.At(ErrCorrupt, c.base+int64(c.off), c.path, format, args...)
}

func (c *cursor) uv(what string) (uint64, error) {
	v, n := varint.Consume(c.b[c.off:])
	switch n {
	case varint.Truncated:
		return 0, c.errf("truncated varint (%s)", what)
	case varint.Overflow:
		return 0, c.errf("varint overflows 64 bits (%s)", what)
	}
	c.off += n
	return v, nil
}

func (c *cursor) sv(what string) (int64, error) {
	v, err := c.uv(what)
	return varint.DecodeZigzag(v), err
}

func (c *cursor) u8(what string) (byte, error) {
	if c.off >= len(c.b) {
		return 0, c.errf("truncated (%s)", what)
	}
	v := c.b[c.off]
	c.off++
	return v, nil
}

// take returns the next n bytes (n already validated or not).
func (c *cursor) take(n uint64, what string) ([]byte, error) {
	if n > uint64(c.rest()) {
		return nil, c.errf("%s of %d bytes runs past the %d bytes that remain", what, n, c.rest())
	}
	s := c.b[c.off : c.off+int(n)]
	c.off += int(n)
	return s, nil
}

// lstr reads a varint length and that many bytes.
func (c *cursor) lstr(what string) ([]byte, error) {
	n, err := c.uv(what + " length")
	if err != nil {
		return nil, err
	}
	return c.take(n, what)
}

// count reads a varint count of items that each take at least minBytes
// bytes of what remains, so it can size an allocation safely.
func (c *cursor) count(what string, minBytes int) (int, error) {
	at := c.off
	n, err := c.uv(what)
	if err != nil {
		return 0, err
	}
	if minBytes > 0 && n > uint64(c.rest()/minBytes) {
		c.off = at
		return 0, c.errf("%s %d needs more than the %d bytes that remain", what, n, c.rest())
	}
	if n > 1<<40 {
		c.off = at
		return 0, c.errf("%s %d is implausibly large", what, n)
	}
	return int(n), nil
}
