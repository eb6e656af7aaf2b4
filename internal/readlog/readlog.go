// Package readlog records the byte ranges asked of an io.ReaderAt, so the
// container packages' tests can prove that Open and each request read only
// the ranges they need.
package readlog

import (
	"io"
	"sync"
)

// Recorder is an io.ReaderAt that logs every ReadAt as a half-open range
// [off, off+len(p)) before passing it on. It is safe for concurrent use, as
// readers that decode in parallel need.
type Recorder struct {
	r      io.ReaderAt
	mu     sync.Mutex
	ranges [][2]int64
}

// New returns a Recorder reading from r.
func New(r io.ReaderAt) *Recorder { return &Recorder{r: r} }

// ReadAt records the range and reads it from the underlying reader.
func (c *Recorder) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	c.ranges = append(c.ranges, [2]int64{off, off + int64(len(p))})
	c.mu.Unlock()
	return c.r.ReadAt(p, off)
}

// Ranges returns a copy of the ranges read so far, in call order.
func (c *Recorder) Ranges() [][2]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][2]int64(nil), c.ranges...)
}

// Reset returns the ranges read so far and forgets them.
func (c *Recorder) Reset() [][2]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.ranges
	c.ranges = nil
	return r
}

// BytesIn counts the bytes read inside [lo, hi), counting a byte once per
// read that covered it.
func (c *Recorder) BytesIn(lo, hi int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, r := range c.ranges {
		if a, b := max(r[0], lo), min(r[1], hi); b > a {
			n += b - a
		}
	}
	return n
}

// Touched reports whether any read overlapped [lo, hi).
func (c *Recorder) Touched(lo, hi int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.ranges {
		if r[0] < hi && lo < r[1] {
			return true
		}
	}
	return false
}
