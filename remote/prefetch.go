package remote

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// Extent is a byte range without a buffer: Len bytes at Off.
type Extent struct{ Off, Len int64 }

// prefetched holds the blocks Prefetch read, sorted by offset; ReadAt and
// ReadRanges serve a range wholly inside one.
type prefetched struct {
	mu     sync.RWMutex
	blocks []block
	bytes  int64
}

type block struct {
	off int64
	b   []byte
}

// Prefetch reads the extents as ReadRanges would (merged when closer
// than WithCoalesceGap, the requests concurrent, at most WithMaxInFlight
// at once) and keeps the bytes, so that later ReadAt and ReadRanges calls
// that fall inside a prefetched block cost no request. A reader that
// knows its plan (the pages of the columns it will decode) turns many
// sequential round trips into one concurrent batch. At most
// WithMaxPrefetch bytes are kept per File; more fails with ErrTooLarge
// before anything is read.
func (f *File) Prefetch(ctx context.Context, es []Extent) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var spans []Extent
	for i, e := range es {
		if e.Off < 0 || e.Len < 0 || e.Off > f.size || e.Len > f.size-e.Off {
			return fmt.Errorf("%w: Prefetch: extent %d (%d bytes at %d) outside the object's %d bytes", ErrInvalidArgument, i, e.Len, e.Off, f.size)
		}
		if e.Len > 0 && !f.isCached(e.Off, e.Off+e.Len) {
			spans = append(spans, e)
		}
	}
	spans = mergeExtents(spans, f.cfg.gap)
	var total int64
	for _, s := range spans {
		total += s.Len
	}
	f.pre.mu.Lock()
	if f.pre.bytes+total > f.cfg.maxPrefetch {
		have := f.pre.bytes
		f.pre.mu.Unlock()
		return fmt.Errorf("%w: Prefetch of %d bytes over the %d already kept exceeds WithMaxPrefetch(%d)", ErrTooLarge, total, have, f.cfg.maxPrefetch)
	}
	f.pre.bytes += total // reserved; released if the read fails
	f.pre.mu.Unlock()
	rs := make([]Range, len(spans))
	for i, s := range spans {
		rs[i] = Range{Off: s.Off, Buf: make([]byte, s.Len)}
	}
	if err := f.ReadRanges(ctx, rs); err != nil {
		f.pre.mu.Lock()
		f.pre.bytes -= total
		f.pre.mu.Unlock()
		return err
	}
	f.pre.mu.Lock()
	for _, r := range rs {
		f.pre.blocks = append(f.pre.blocks, block{off: r.Off, b: r.Buf})
	}
	slices.SortFunc(f.pre.blocks, func(a, b block) int { return cmpInt64(a.off, b.off) })
	f.pre.mu.Unlock()
	return nil
}

// mergeExtents sorts es and merges extents less than gap apart.
func mergeExtents(es []Extent, gap int64) []Extent {
	slices.SortFunc(es, func(a, b Extent) int { return cmpInt64(a.Off, b.Off) })
	var out []Extent
	for _, e := range es {
		if n := len(out); n > 0 && e.Off <= out[n-1].Off+out[n-1].Len+gap {
			end := max(out[n-1].Off+out[n-1].Len, e.Off+e.Len)
			out[n-1].Len = end - out[n-1].Off
			continue
		}
		out = append(out, e)
	}
	return out
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cached returns the prefetched bytes [off, end), or nil.
func (f *File) cached(off, end int64) []byte {
	f.pre.mu.RLock()
	defer f.pre.mu.RUnlock()
	bs := f.pre.blocks
	// The last block starting at or before off, and a few before it
	// (blocks of separate Prefetch calls may overlap).
	i, _ := slices.BinarySearchFunc(bs, off+1, func(b block, t int64) int { return cmpInt64(b.off, t) })
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		b := bs[j]
		if b.off <= off && end <= b.off+int64(len(b.b)) {
			return b.b[off-b.off : end-b.off]
		}
	}
	return nil
}

func (f *File) isCached(off, end int64) bool {
	return (f.tail != nil && off >= f.tailOff) || f.cached(off, end) != nil
}
