package at1

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"

	"github.com/colfmt/colfmt/internal/varint"
)

// Writer encodes a stream as a framed (AT1\x03) AT-1 file. It cuts its
// input into chunks (WithChunkSize, each ending after a '\n' where one
// falls in it) and writes each as one frame, structured or raw,
// whichever is smaller; the codec is chosen from the first chunk.
// WithConcurrency frames are encoded at once, on goroutines of their own
// sharing that many compression slots, while Write goes on filling the
// next chunk; frames are written in input order, and the output is the
// same whatever the concurrency (the same bytes as Encode gives the whole
// input, but for the header's codec byte when every frame is raw: Encode
// then writes RAW, which the Writer cannot know when it writes the
// header). Memory is bounded by the chunk size: the chunk being filled
// and up to twice WithConcurrency chunks in flight, WithConcurrency of
// them with their encoders' working memory (see Security in the package
// doc). Close writes the SHA-256 trailer; the output is not complete
// until Close returns. A Writer is not safe for concurrent use.
type Writer struct {
	cfg     *encoder
	w       io.Writer
	buf     []byte
	free    [][]byte // chunk buffers whose frames are written, for reuse
	flight  []*flightFrame
	codec   Codec
	started bool
	sum     hash.Hash
	stats   WriterStats
	err     error
	// borrowed: the chunks are the caller's (Encode's input), so they are
	// neither hashed (Encode hashes its input) nor reused.
	borrowed  bool
	total     int64 // the input's size for progress, -1 when unknown
	submitted int64 // input bytes handed to frames
	// running holds a slot per frame being encoded (WithConcurrency of
	// them); up to twice as many may be in flight, so that a frame done
	// before an older one waits to be written without holding a core.
	running chan struct{}
}

// WriterStats counts what a Writer has written so far.
type WriterStats struct {
	In        int64 // input bytes written out as frames
	Out       int64 // output bytes: header, frames and, after Close, the trailer
	Frames    int   // frames written
	RawFrames int   // frames written raw (method 1): the codec did not pay there or did not apply
}

// Stats reports what the Writer has written so far; after Close, the
// whole file.
func (z *Writer) Stats() WriterStats { return z.stats }

// flightFrame is one chunk being encoded on its own goroutine; ready is
// closed when frame or err is set.
type flightFrame struct {
	at    int64 // the chunk's offset in the input
	chunk []byte
	frame []byte
	err   error
	ready chan struct{}
}

// NewWriter returns a Writer that writes an AT-1 file to w.
func NewWriter(w io.Writer, opts ...Option) (*Writer, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if w == nil {
		return nil, invalidArg("NewWriter: nil writer")
	}
	return newWriter(c.encoder(), w), nil
}

// newWriter returns a Writer for the encoding call enc.
func newWriter(enc *encoder, w io.Writer) *Writer {
	if enc.concurrency > 1 && enc.jobs == nil {
		// The frames in flight share the call's compression slots: a
		// frame's big jobs run beside another frame's, or, when the
		// frames are few or uneven (a 16 MiB frame and a small last
		// one), beside each other.
		enc.jobs = make(chan struct{}, enc.concurrency)
	}
	return &Writer{cfg: enc, w: w, sum: sha256.New(), total: -1, running: make(chan struct{}, max(enc.concurrency, 1))}
}

// Write buffers p, handing a chunk to the encoder each time one is full.
// It blocks while twice WithConcurrency frames are in flight and the
// oldest is not written yet.
func (z *Writer) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	n := len(p)
	size := int(z.cfg.enc.chunkSize)
	for len(p) > 0 {
		if z.buf == nil {
			z.buf = z.newBuf()
		}
		k := min(len(p), size-len(z.buf))
		z.buf = append(z.buf, p[:k]...)
		p = p[k:]
		if len(z.buf) < size {
			break
		}
		cut := size
		if i := bytes.LastIndexByte(z.buf, '\n'); i >= 0 {
			cut = i + 1
		}
		// The chunk goes to its frame; the rest starts the next buffer.
		chunk, rest := z.buf[:cut], z.buf[cut:]
		z.buf = append(z.newBuf(), rest...)
		if z.err = z.submit(chunk); z.err != nil {
			z.drain()
			return n - len(p), z.err
		}
	}
	return n, nil
}

// newBuf returns an empty chunk buffer, reused when one is free.
func (z *Writer) newBuf() []byte {
	if k := len(z.free); k > 0 {
		b := z.free[k-1]
		z.free = z.free[:k-1]
		return b[:0]
	}
	return make([]byte, 0, z.cfg.enc.chunkSize)
}

func (z *Writer) start(first []byte) error {
	z.started = true
	z.codec = CodecRaw
	if first != nil {
		codec, err := z.cfg.resolveCodec(z.cfg.chooseCodec(first), first)
		if err != nil {
			return err
		}
		z.codec = codec
	}
	hdr := append([]byte{}, MagicFramed...)
	hdr = append(hdr, byte(z.codec))
	hdr = varint.Append(hdr, uint64(bytes.Count(first, []byte{'\n'})))
	return z.write(hdr)
}

// write writes b to the underlying writer, counting it.
func (z *Writer) write(b []byte) error {
	n, err := z.w.Write(b)
	z.stats.Out += int64(n)
	return err
}

// submit starts encoding chunk as the next frame, first writing the
// oldest frames in flight while twice WithConcurrency are. With a
// concurrency of 1 the frame is encoded and written before submit
// returns.
func (z *Writer) submit(chunk []byte) error {
	if !z.started {
		if err := z.start(chunk); err != nil {
			return err
		}
	}
	if !z.borrowed {
		z.sum.Write(chunk)
	}
	f := &flightFrame{at: z.submitted, chunk: chunk, ready: make(chan struct{})}
	z.submitted += int64(len(chunk))
	if z.cfg.concurrency <= 1 {
		z.encodeFrame(f)
		z.flight = append(z.flight, f)
		return z.writeOldest()
	}
	for len(z.flight) >= 2*z.cfg.concurrency {
		if err := z.writeOldest(); err != nil {
			return err
		}
	}
	go z.encodeFrame(f)
	z.flight = append(z.flight, f)
	// Write what is already done, so finished frames do not wait for
	// the next full chunk.
	for len(z.flight) > 0 && isReady(z.flight[0]) {
		if err := z.writeOldest(); err != nil {
			return err
		}
	}
	return nil
}

func isReady(f *flightFrame) bool {
	select {
	case <-f.ready:
		return true
	default:
		return false
	}
}

// encodeFrame encodes f.chunk and, unless WithVerify(false), decodes the
// frame and compares it with the chunk.
func (z *Writer) encodeFrame(f *flightFrame) {
	defer close(f.ready)
	z.running <- struct{}{}
	defer func() { <-z.running }()
	fr, err := z.cfg.frame(f.chunk, z.codec)
	if err != nil {
		f.err = err
		return
	}
	if testHookFrame != nil {
		testHookFrame(fr)
	}
	if z.cfg.enc.verify {
		v := z.cfg.verifier(int64(len(f.chunk)))
		info := FrameInfo{Offset: 0, Size: int64(len(fr)), Method: fr[0]}
		got, err := v.decodeFrame(nil, memSource(fr, 0), z.codec, info, 0, v.maxDecoded, nil)
		if err == nil && !bytes.Equal(got, f.chunk) {
			err = fmt.Errorf("decodes to different bytes (%d, want %d)", len(got), len(f.chunk))
		}
		if err != nil {
			f.err = fmt.Errorf("at1: encoder self-check failed on the frame of input bytes %d..%d: %w", f.at, f.at+int64(len(f.chunk)), err)
			return
		}
	}
	f.frame = fr
}

// testHookFrame, when set (by tests only), sees each frame before it is
// checked, and may damage it.
var testHookFrame func(frame []byte)

// writeOldest waits for the oldest frame in flight and writes it.
func (z *Writer) writeOldest() error {
	f := z.flight[0]
	<-f.ready
	z.flight = z.flight[1:]
	if f.err != nil {
		return f.err
	}
	hdr := varint.Append(nil, uint64(len(f.frame)))
	if err := z.write(hdr); err != nil {
		return err
	}
	if err := z.write(f.frame); err != nil {
		return err
	}
	z.stats.In += int64(len(f.chunk))
	z.stats.Frames++
	if f.frame[0] != methodStructured {
		z.stats.RawFrames++
	}
	if !z.borrowed {
		z.free = append(z.free, f.chunk)
	}
	if z.cfg.enc.progress != nil {
		z.cfg.enc.progress(z.stats.In, z.total)
	}
	return nil
}

// Flush encodes the buffered input as a frame of its own, however short,
// and writes every frame in flight, so that what was written so far
// reaches the underlying writer (which Flush does not flush itself). The
// file stays incomplete until Close. Flushing changes where frames are
// cut, so the output is no longer Encode's; a first Flush with little
// input buffered chooses the codec from that little.
func (z *Writer) Flush() error {
	if z.err != nil {
		return z.err
	}
	if len(z.buf) > 0 {
		chunk := z.buf
		z.buf = nil
		if z.err = z.submit(chunk); z.err != nil {
			z.drain()
			return z.err
		}
	}
	if z.err = z.flush(); z.err != nil {
		z.drain()
	}
	return z.err
}

// flush writes every frame in flight.
func (z *Writer) flush() error {
	for len(z.flight) > 0 {
		if err := z.writeOldest(); err != nil {
			return err
		}
	}
	return nil
}

// drain waits for the frames still in flight after an error, so that no
// encoding outlives the call that reports it.
func (z *Writer) drain() {
	for _, f := range z.flight {
		<-f.ready
	}
	z.flight = nil
}

// Close encodes the last chunk, writes every frame still in flight and
// the trailer. It does not close the underlying writer.
func (z *Writer) Close() error {
	if z.err != nil {
		return z.err
	}
	z.err = fmt.Errorf("at1: Writer is closed: %w", ErrInvalidArgument)
	err := z.finish()
	if err != nil {
		z.drain()
		z.err = err // later calls report the cause
	}
	z.buf, z.free = nil, nil
	return err
}

func (z *Writer) finish() error {
	if len(z.buf) > 0 {
		if err := z.submit(z.buf); err != nil {
			return err
		}
	}
	if err := z.flush(); err != nil {
		return err
	}
	if !z.started {
		if err := z.start(nil); err != nil {
			return err
		}
	}
	return z.write(append(z.sum.Sum(nil), trailerMagic...))
}
