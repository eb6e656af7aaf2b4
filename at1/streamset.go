package at1

import (
	"sync"
	"sync/atomic"

	"github.com/colfmt/colfmt/internal/errs"
)

// nameMatchLen: the reference compares stream names on their first 31 bytes.
const nameMatchLen = 31

// StreamInfo describes one stream of a packed stream set.
type StreamInfo struct {
	Name    string
	Backend byte // BackendXZ, BackendZstd or BackendStored
	// Legacy is true for a stream written in the spec-literal form (no
	// backend byte; the data is xz).
	Legacy bool
	Offset int64 // file offset of the compressed data
	Size   int64 // compressed size
}

// streamSet is a parsed packed stream set; streams decode on demand.
type streamSet struct {
	dec     *decoder
	streams []StreamInfo
	data    [][]byte // compressed bytes of each stream
	decoded map[string][]byte
	// budget is what the decoded streams of this set may still take in
	// total, on top of each stream's own limit.
	budget atomic.Int64
	// owned are the outputs this set's decompressors allocated or took
	// from dc.scratch (not stored streams: those are the input's bytes),
	// given back by release.
	mu    sync.Mutex
	owned [][]byte
}

// own records buffers of this set's outputs for release.
func (ss *streamSet) own(bufs ...[]byte) {
	ss.mu.Lock()
	for _, b := range bufs {
		if cap(b) > 0 {
			ss.owned = append(ss.owned, b)
		}
	}
	ss.mu.Unlock()
}

// release gives the set's stream outputs to the call's scratch, for the
// next frame. The caller guarantees nothing refers to them any more: it
// is called when the frame's reconstructor has returned (its output is
// in dst, cw's buffers or written; its lazy column values, row plans and
// the background values decode, joined by values.wait, are done) and the
// set is not used again. decoded is dropped so that a use after release
// reads empty streams, never another frame's bytes.
func (ss *streamSet) release() {
	ss.mu.Lock()
	owned := ss.owned
	ss.owned, ss.decoded = nil, nil
	ss.mu.Unlock()
	ss.dec.scratch.put(owned)
}

func quoteName(b []byte) string {
	const max = 40
	if len(b) > max {
		b = b[:max]
	}
	return "\"" + string(b) + "\""
}

func nameKey(name string) string {
	if len(name) > nameMatchLen {
		return name[:nameMatchLen]
	}
	return name
}

// find returns the index of the first stream whose name matches, or -1.
func (ss *streamSet) find(name string) int {
	k := nameKey(name)
	for i, s := range ss.streams {
		if nameKey(s.Name) == k {
			return i
		}
	}
	return -1
}

// load decodes the named streams, in parallel. A missing stream reads as
// empty bytes, as in the reference.
func (ss *streamSet) load(names ...string) error {
	if ss.decoded == nil {
		ss.decoded = make(map[string][]byte, len(names))
	}
	type job struct {
		name string
		i    int
	}
	var jobs []job
	for _, name := range names {
		if _, ok := ss.decoded[name]; ok {
			continue
		}
		i := ss.find(name)
		if i < 0 {
			ss.decoded[name] = nil
			continue
		}
		jobs = append(jobs, job{name, i})
	}
	// Goroutines pay only when there is work to share: unless the
	// streams other than the largest declare parallelMinBytes of output
	// between them, all decode on this one (one large stream and a few
	// small ones, as in most files under a few MB, gain less from a
	// second thread than its start, wake-ups and fresh pages cost),
	// decided from the declared sizes before any decoding.
	conc := ss.dec.concurrency
	var total, largest uint64
	for _, j := range jobs {
		n, ok := declaredSize(ss.streams[j.i].Backend, ss.data[j.i])
		if !ok {
			n = parallelMinBytes
		}
		n = min(n, parallelMinBytes)
		total += n
		largest = max(largest, n)
	}
	if total-largest < parallelMinBytes {
		conc = 1
	}
	out := make([][]byte, len(jobs))
	err := parallel(conc, len(jobs), func(k int) error {
		d, err := ss.decompress(jobs[k].i, nil)
		out[k] = d
		return err
	})
	if err != nil {
		return err
	}
	for k, j := range jobs {
		ss.decoded[j.name] = out[k]
	}
	return nil
}

// parallelMinBytes is the declared output below which load decodes its
// streams on the calling goroutine.
const parallelMinBytes = 128 << 10

// decompress decodes stream i, charging the set's budget before the
// output is allocated: by the size the backend declares (stored length,
// zstd content size, xz index) when there is one, else by what the stream
// turned out to hold, with the decompressor capped at what is left.
// progress, if not nil, sees the xz output as it grows.
func (ss *streamSet) decompress(i int, progress func([]byte)) ([]byte, error) {
	s := ss.streams[i]
	src := ss.data[i]
	path := "stream " + quoteName([]byte(s.Name))
	lim := ss.dec.maxStream
	if n, ok := declaredSize(s.Backend, src); ok {
		if n > uint64(lim) {
			return nil, errs.TooLarge(ErrTooLarge, s.Offset, path, "decoded stream", n, lim)
		}
		if err := ss.charge(s, int64(n)); err != nil {
			return nil, err
		}
		// A buffer from the call's scratch: capped at n, so the limit
		// and the budget charged are those of the declared size.
		var full, buf []byte
		if s.Backend != BackendStored {
			if full = ss.dec.scratch.get(int(n)); full != nil {
				buf = full[:0:n]
			}
		}
		d, err := ss.dec.decompressBuf(buf, s.Backend, src, int64(n), s.Offset, path, progress)
		ss.ownOutput(s.Backend, full, d)
		return d, err
	}
	lim = min(lim, max(ss.budget.Load(), 0))
	d, err := ss.dec.decompressProgress(s.Backend, src, lim, s.Offset, path, progress)
	ss.ownOutput(s.Backend, nil, d)
	if err != nil {
		return nil, err
	}
	return d, ss.charge(s, int64(len(d)))
}

// ownOutput records a decompressor's output d (and buf, the scratch
// buffer it was given, full, when d is not in it) for release; a stored
// stream's output is the input itself and is never recorded.
func (ss *streamSet) ownOutput(backend byte, full, d []byte) {
	if backend == BackendStored || ss.dec.scratch == nil {
		return
	}
	if full != nil && (cap(d) == 0 || &d[:1][0] != &full[:1][0]) {
		ss.own(full, d) // d was regrown (or is nil): both are ours
		return
	}
	if full != nil {
		d = full
	}
	ss.own(d)
}

// declaredSize is the decoded size a stream's backend declares.
func declaredSize(backend byte, src []byte) (uint64, bool) {
	switch backend {
	case BackendStored:
		return uint64(len(src)), true
	case BackendZstd:
		n, _, msg := zstdFrame(src)
		return n, msg == ""
	case BackendXZ:
		return xzIndexSize(src)
	}
	return 0, false
}

// charge takes n decoded bytes from the stream set's budget.
func (ss *streamSet) charge(s StreamInfo, n int64) error {
	if ss.budget.Add(-n) < 0 {
		return errs.At(ErrTooLarge, s.Offset, "stream "+quoteName([]byte(s.Name)), "decoded streams exceed the memory limit of %d bytes", ss.dec.memoryLimit)
	}
	return nil
}

// get returns a stream loaded by load.
func (ss *streamSet) get(name string) []byte { return ss.decoded[name] }

// parallel runs f(0..n-1) on up to conc goroutines and returns the error
// of the lowest index that failed, so errors match the serial order.
func parallel(conc, n int, f func(i int) error) error {
	if conc <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	errsOut := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(conc, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errsOut[i] = f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errsOut {
		if err != nil {
			return err
		}
	}
	return nil
}
