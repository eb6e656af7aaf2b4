package at1

import "sync/atomic"

// asyncMin is the smallest row output streamRows hands to an emitter.
// Fresh colfmt cat, with and without it, 25 alternating rounds, load
// under 1 (2026-11-28): flights-200k.jsonl (9.9 MB) 0.90x the wall time
// and 1.06x the CPU (the handoffs and the other core's idle spinning);
// zipcodes.csv (2 MB) 0.96x and 1.00x. Below a few MiB it is not worth
// the CPU.
const asyncMin = 4 << 20

// emitter hashes and writes a chunkWriter's chunks on a goroutine of its
// own while the caller assembles the next chunk's rows, so on a second
// core the SHA-256 and the writes to w (about a quarter of a columnar
// table's streaming decode) overlap the row writing. Two buffers take
// turns; the output order is unchanged.
//
// While it runs, only its goroutine touches the chunkWriter's count
// and hash (emit), and only the caller its buffer.
type emitter struct {
	cw      *chunkWriter
	full    chan []byte // chunks to hash and write, in order
	free    chan []byte // buffers back from the emitter
	stopped chan struct{}
	err     error       // the first emit error; read after stopped
	failed  atomic.Bool // err is set
	closed  bool
}

func (cw *chunkWriter) async() *emitter {
	e := &emitter{cw: cw, full: make(chan []byte, 1), free: make(chan []byte, 2), stopped: make(chan struct{})}
	e.free <- (*chunkBufs.Get().(*[]byte))[:0]
	go func() {
		defer close(e.stopped)
		for b := range e.full {
			if e.err == nil {
				if e.err = cw.emit(b); e.err != nil {
					e.failed.Store(true)
				}
			}
			e.free <- b[:0]
		}
	}()
	return e
}

// flush hands the caller's buffer to the emitter and takes a free one.
func (e *emitter) flush() error {
	if e.failed.Load() {
		return e.stop()
	}
	if len(e.cw.buf) == 0 {
		return nil
	}
	e.full <- e.cw.buf
	e.cw.buf = <-e.free
	return nil
}

// stop waits until every chunk handed over is written and returns the
// first write error. The caller's buffer (cw.buf) is left to it; the
// spare goes back to the pool. It may be called more than once.
func (e *emitter) stop() error {
	if !e.closed {
		e.closed = true
		close(e.full)
		<-e.stopped
		spare := <-e.free
		if cap(spare) >= streamChunk && cap(spare) <= 4*streamChunk {
			chunkBufs.Put(&spare)
		}
	}
	return e.err
}
