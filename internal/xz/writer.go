package xz

import (
	"io"
	"math"
	"sync"

	"github.com/colfmt/colfmt/internal/errs"
)

// AppendEncode appends to dst one .xz stream holding src, compressed with
// the options' preset. src is split into independent blocks of the block
// size (see WithBlockSize); up to WithConcurrency blocks are compressed at
// once. The output depends only on src, the preset, the extreme flag, the
// check and the block size. src must not overlap dst's spare capacity.
// Bad options return dst unchanged and an error wrapping ErrInvalidOption.
func AppendEncode(dst, src []byte, opts ...Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return dst, err
	}
	dst = appendStreamHeader(dst, c.check)
	var recs []blockRecord
	ss := getScratches(min(c.concurrency, max(1, len(c.blockBounds(len(src))))))
	dst, recs = appendBlocks(dst, src, &c, recs, true, ss)
	for _, s := range ss {
		putScratch(s)
	}
	return appendIndexAndFooter(dst, recs, c.check), nil
}

// Encode is AppendEncode(nil, src, opts...).
func Encode(src []byte, opts ...Option) ([]byte, error) { return AppendEncode(nil, src, opts...) }

func newScratches(n int) []*scratch {
	s := make([]*scratch, n)
	for i := range s {
		s[i] = new(scratch)
	}
	return s
}

// appendBlocks compresses src as blocks of c's block size, concurrently;
// worker w uses scratch[w]. whole says src is the stream's whole data: a
// lone block then leaves its sizes out of its header.
func appendBlocks(dst, src []byte, c *config, recs []blockRecord, whole bool, scratch []*scratch) ([]byte, []blockRecord) {
	if len(src) == 0 {
		return dst, recs
	}
	p := c.params()
	ends := c.blockBounds(len(src))
	n := len(ends)
	part := func(i int) []byte {
		if i == 0 {
			return src[:ends[0]]
		}
		return src[ends[i-1]:ends[i]]
	}
	if n == 1 || c.concurrency == 1 {
		sizes := !whole || n > 1
		for i := 0; i < n; i++ {
			var r blockRecord
			dst, r = appendBlock(dst, part(i), p, c.check, sizes, scratch[0])
			recs = append(recs, r)
		}
		return dst, recs
	}
	// Workers take blocks in order; results are joined in order, so the
	// output does not depend on scheduling.
	outs := make([][]byte, n)
	rs := make([]blockRecord, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	nextBlock := 0
	for w := 0; w < min(c.concurrency, n); w++ {
		wg.Add(1)
		s := scratch[w]
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := nextBlock
				nextBlock++
				mu.Unlock()
				if i >= n {
					return
				}
				outs[i], rs[i] = appendBlock(nil, part(i), p, c.check, true, s)
			}
		}()
	}
	wg.Wait()
	for i := range outs {
		dst = append(dst, outs[i]...)
		outs[i] = nil
	}
	return dst, append(recs, rs...)
}

// Writer compresses what is written to it into one .xz stream. It buffers
// up to concurrency x block size bytes, then compresses those blocks (in
// parallel when WithConcurrency > 1) and writes them. Close writes the
// last blocks, the index and the footer; it does not close the underlying
// writer.
type Writer struct {
	w      io.Writer
	c      config
	buf    []byte
	recs   []blockRecord
	header bool
	// scratch holds each worker's tables between batches.
	scratch []*scratch
	err     error
	closed  bool
}

// NewWriter returns a Writer that writes a .xz stream to w.
func NewWriter(w io.Writer, opts ...Option) (*Writer, error) {
	if w == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "nil writer")
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	c.cuts = nil // AppendEncode's alone
	return &Writer{w: w, c: c, scratch: newScratches(c.concurrency)}, nil
}

// batch is how many bytes the Writer buffers: one block per worker (fewer
// workers when that would not fit an int, on 32-bit platforms).
func (z *Writer) batch() int {
	bs := z.c.effBlockSize()
	return bs * max(1, min(z.c.concurrency, math.MaxInt/2/bs))
}

// Write buffers p, compressing and writing whole batches of blocks.
func (z *Writer) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if z.closed {
		return 0, errs.Wrap(ErrInvalidArgument, "write after Close")
	}
	n := 0
	for len(p) > 0 {
		// A full batch is written only once more data comes, so that
		// Close knows whether a lone block is the whole stream.
		if len(z.buf) == z.batch() {
			if err := z.flushBlocks(false); err != nil {
				return n, err
			}
		}
		room := z.batch() - len(z.buf)
		k := min(room, len(p))
		z.buf = append(z.buf, p[:k]...)
		p = p[k:]
		n += k
	}
	return n, nil
}

// flushBlocks compresses and writes the buffered blocks; last says no
// more data follows them.
func (z *Writer) flushBlocks(last bool) error {
	var out []byte
	whole := last && !z.header
	if !z.header {
		out = appendStreamHeader(out, z.c.check)
		z.header = true
	}
	out, z.recs = appendBlocks(out, z.buf, &z.c, z.recs, whole, z.scratch)
	z.buf = z.buf[:0]
	if _, err := z.w.Write(out); err != nil {
		z.err = err
		return err
	}
	return nil
}

// Close compresses the buffered data and ends the stream.
func (z *Writer) Close() error {
	if z.err != nil {
		return z.err
	}
	if z.closed {
		return nil
	}
	z.closed = true
	if err := z.flushBlocks(true); err != nil {
		return err
	}
	z.buf = nil
	z.scratch = nil
	if _, err := z.w.Write(appendIndexAndFooter(nil, z.recs, z.c.check)); err != nil {
		z.err = err
		return err
	}
	return nil
}
