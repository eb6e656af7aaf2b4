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
	cfg     *config
	streams []StreamInfo
	data    [][]byte // compressed bytes of each stream
	decoded map[string][]byte
	// budget is what the decoded streams of this set may still take in
	// total, on top of each stream's own limit.
	budget atomic.Int64
}

// parseStreamSet parses the directory of a packed stream set in b, which
// starts at file offset base.
func (c *config) parseStreamSet(b []byte, base int64) (*streamSet, error) {
	cur := &cursor{b: b, base: base, path: "stream set"}
	n, err := cur.count("n_streams", 2)
	if err != nil {
		return nil, err
	}
	if n > c.maxStreams {
		return nil, errs.TooLarge(ErrTooLarge, base, "stream set", "stream count", uint64(n), int64(c.maxStreams))
	}
	ss := &streamSet{cfg: c, streams: make([]StreamInfo, 0, n), data: make([][]byte, 0, n)}
	// Streams hold about the output's bytes; twice the output limit
	// leaves room for per-row bookkeeping streams.
	ss.budget.Store(2*c.maxDecoded + 1<<20)
	for i := 0; i < n; i++ {
		name, err := cur.lstr("stream name")
		if err != nil {
			return nil, err
		}
		cur.path = "stream " + quoteName(name)
		si := StreamInfo{Name: string(name)}
		b0, err := cur.u8("backend")
		if err != nil {
			return nil, err
		}
		if b0 >= 0x20 {
			// Spec-literal form: this byte starts comp_len, which is at
			// least 32 for any xz stream; a backend byte is 0..2.
			cur.off--
			si.Legacy = true
			si.Backend = BackendXZ
		} else {
			if b0 > BackendStored {
				cur.off--
				return nil, cur.errf("unknown backend id %d", b0)
			}
			si.Backend = b0
		}
		clen, err := cur.uv("comp_len")
		if err != nil {
			return nil, err
		}
		si.Offset = base + int64(cur.off)
		d, err := cur.take(clen, "stream data")
		if err != nil {
			return nil, err
		}
		si.Size = int64(len(d))
		ss.streams = append(ss.streams, si)
		ss.data = append(ss.data, d)
	}
	if c.strict && cur.rest() > 0 {
		return nil, cur.errf("%d bytes after the last stream", cur.rest())
	}
	return ss, nil
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
	out := make([][]byte, len(jobs))
	err := parallel(ss.cfg.concurrency, len(jobs), func(k int) error {
		j := jobs[k]
		s := ss.streams[j.i]
		d, err := ss.cfg.decompress(s.Backend, ss.data[j.i], ss.cfg.maxStream, s.Offset, "stream "+quoteName([]byte(s.Name)))
		if err != nil {
			return err
		}
		if err := ss.spend(s, d); err != nil {
			return err
		}
		out[k] = d
		return nil
	})
	if err != nil {
		return err
	}
	for k, j := range jobs {
		ss.decoded[j.name] = out[k]
	}
	return nil
}

// spend takes a decoded stream from the stream set's budget.
func (ss *streamSet) spend(s StreamInfo, d []byte) error {
	if ss.budget.Add(-int64(len(d))) < 0 {
		return errs.At(ErrTooLarge, s.Offset, "stream "+quoteName([]byte(s.Name)), "decoded streams exceed twice the output limit of %d bytes", ss.cfg.maxDecoded)
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
