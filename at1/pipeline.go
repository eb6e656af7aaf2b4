package at1

import "sync"

// A columnar file keeps every column in one values stream, so its xz
// decode is one serial job. To use a second core, the column decoders
// work on the stream's prefix while the rest is still being decoded:
// column k needs only the bytes up to the end of its chunk.

// progressive is a byte stream being decoded by another goroutine.
type progressive struct {
	mu   sync.Mutex
	cond sync.Cond
	data []byte // decoded so far
	done bool
	err  error
}

func newProgressive() *progressive {
	p := &progressive{}
	p.cond.L = &p.mu
	return p
}

func (p *progressive) publish(b []byte) {
	p.mu.Lock()
	p.data = b
	p.mu.Unlock()
	p.cond.Broadcast()
}

func (p *progressive) finish(b []byte, err error) {
	p.mu.Lock()
	if b != nil {
		p.data = b
	}
	p.done, p.err = true, err
	p.mu.Unlock()
	p.cond.Broadcast()
}

// upTo blocks until n bytes are decoded or the stream has ended, and
// returns the bytes decoded so far.
func (p *progressive) upTo(n int) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.data) < n && !p.done {
		p.cond.Wait()
	}
	return p.data
}

// wait blocks until the stream has ended and returns it.
func (p *progressive) wait() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.done {
		p.cond.Wait()
	}
	return p.data, p.err
}

// startValues starts decoding the values stream in the background when
// that pays: xz, with its size known from the stream's index, and more
// than one goroutine allowed. It returns nil otherwise.
func (dc *decoder) startValues(ss *streamSet) *progressive {
	i := ss.find("values")
	if dc.concurrency <= 1 || dc.safe || i < 0 || ss.streams[i].Backend != BackendXZ {
		return nil
	}
	src := ss.data[i]
	if n, ok := xzIndexSize(src); !ok || n < 2*progressChunk {
		return nil
	}
	p := newProgressive()
	go func() {
		d, err := ss.decompress(i, p.publish)
		p.finish(d, err)
	}()
	return p
}
