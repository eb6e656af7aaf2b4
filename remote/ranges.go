package remote

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// Range is one byte range to read: len(Buf) bytes at Off, into Buf.
type Range struct {
	Off int64
	Buf []byte
}

// span is one request: bytes [off, end) serving parts of ranges.
type span struct {
	off, end int64
	parts    []Range // each within [off, end)
}

// ReadRanges fills every range's Buf. Ranges the tail cache holds are
// copied from it; the others are sorted and coalesced: two ranges closer
// than WithCoalesceGap (overlapping ones included) become one request,
// up to WithMaxRequestSize. The requests run concurrently, at most
// WithMaxInFlight at once per File. Every range must lie within the object.
func (f *File) ReadRanges(ctx context.Context, rs []Range) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var todo []Range
	for i, r := range rs {
		end := r.Off + int64(len(r.Buf))
		if r.Off < 0 || end > f.size || end < r.Off {
			return fmt.Errorf("%w: ReadRanges: range %d (%d bytes at %d) outside the object's %d bytes", ErrInvalidArgument, i, len(r.Buf), r.Off, f.size)
		}
		if len(r.Buf) == 0 {
			continue
		}
		// The part at or after tailOff comes from the tail cache.
		if f.tail != nil && end > f.tailOff {
			from := max(r.Off, f.tailOff)
			copy(r.Buf[from-r.Off:], f.tail[from-f.tailOff:end-f.tailOff])
			r.Buf = r.Buf[:from-r.Off]
			if len(r.Buf) == 0 {
				continue
			}
		}
		if b := f.cached(r.Off, r.Off+int64(len(r.Buf))); b != nil {
			copy(r.Buf, b)
			continue
		}
		todo = append(todo, r)
	}
	spans := plan(todo, f.cfg.gap, f.cfg.maxRequest)
	if len(spans) == 0 {
		return nil
	}
	defer f.round()()
	switch len(spans) {
	case 1:
		return f.readSpan(ctx, spans[0])
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for _, s := range spans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.readSpan(ctx, s); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	return first
}

// readSpan fetches one span, within the File's in-flight bound, and
// copies it to its parts.
func (f *File) readSpan(ctx context.Context, s span) error {
	select {
	case f.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-f.sem }()
	if len(s.parts) == 1 {
		return f.src.fetch(ctx, f, s.parts[0].Buf, s.off)
	}
	buf := make([]byte, s.end-s.off)
	if err := f.src.fetch(ctx, f, buf, s.off); err != nil {
		return err
	}
	for _, p := range s.parts {
		copy(p.Buf, buf[p.Off-s.off:])
	}
	return nil
}

// plan sorts rs by offset and merges them into spans: a range joins the
// current span when it starts at most gap bytes after the span's end and
// the span stays within maxReq bytes. A range longer than maxReq is split.
func plan(rs []Range, gap, maxReq int64) []span {
	var parts []Range
	for _, r := range rs {
		for int64(len(r.Buf)) > maxReq {
			parts = append(parts, Range{Off: r.Off, Buf: r.Buf[:maxReq]})
			r = Range{Off: r.Off + maxReq, Buf: r.Buf[maxReq:]}
		}
		if len(r.Buf) > 0 {
			parts = append(parts, r)
		}
	}
	slices.SortFunc(parts, func(a, b Range) int {
		switch {
		case a.Off < b.Off:
			return -1
		case a.Off > b.Off:
			return 1
		}
		return 0
	})
	var spans []span
	for _, p := range parts {
		end := p.Off + int64(len(p.Buf))
		if n := len(spans); n > 0 {
			s := &spans[n-1]
			if p.Off <= s.end+gap && max(end, s.end)-s.off <= maxReq {
				s.end = max(s.end, end)
				s.parts = append(s.parts, p)
				continue
			}
		}
		spans = append(spans, span{off: p.Off, end: end, parts: []Range{p}})
	}
	return spans
}

// round counts a round trip: a batch of requests that starts while no
// other batch of this File is in flight. It returns the function that
// ends the batch.
func (f *File) round() func() {
	if f.inflight.Add(1) == 1 {
		f.rounds.Add(1)
	}
	return func() { f.inflight.Add(-1) }
}
