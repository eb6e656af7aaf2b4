package at1

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"hash"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/hugepage"
	"github.com/colfmt/colfmt/internal/varint"
)

// Reader decodes an AT-1 file from an io.Reader. A framed (AT1\x03) file
// is decoded one frame at a time, so memory is bounded by the largest
// frame rather than the file (WriteTo of a columnar file, with more than
// one goroutine allowed (WithConcurrency), reads the next frame and
// decodes its streams while the previous frame's rows are written, so it
// holds two frames' payloads and streams, each within the limits); a
// whole-file (AT1\x02) file is read whole
// (up to the decoded size limit) and decoded at once. The integrity
// trailer, if present, is verified when the last frame has been read:
// Read returns ErrChecksum instead of io.EOF on a mismatch.
type Reader struct {
	dec    *decoder
	br     *bufio.Reader
	codec  Codec
	framed bool
	off    int64 // input offset of br's next byte
	frame  int
	out    []byte // decoded bytes not yet returned
	buf    []byte // the last frame's output buffer, reused for the next
	sum    hash.Hash
	err    error
	// A whole-file container, parsed by NewReader and decoded by the
	// first Read (whole, verified) or WriteTo (streamed in chunks).
	whole    *plan
	wholeSrc *source
	// ahead delivers the frames read (and decoded) ahead while WriteTo
	// runs; nil otherwise.
	ahead chan aheadFrame
}

// NewReader reads the header of r and returns a Reader of the original.
func NewReader(r io.Reader, opts ...Option) (*Reader, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, invalidArg("NewReader: nil reader")
	}
	// The header is peeked through a minimal buffer: a whole-file
	// container is then read straight into its own buffer (no 64 KiB
	// buffer's fresh pages and copy); a framed one gets a 64 KiB buffer
	// over it for the frame headers.
	br := bufio.NewReaderSize(r, 16)
	head, err := br.Peek(5)
	if err != nil && len(head) < 5 {
		if err == io.EOF {
			return nil, errs.At(ErrCorrupt, 0, "header", "file of %d bytes is shorter than the 5-byte header", len(head))
		}
		return nil, err
	}
	framed, codec, err := checkHeader(head)
	if err != nil {
		return nil, err
	}
	z := &Reader{dec: c.decoder(), br: br, codec: codec, framed: framed, sum: sha256.New()}
	if !framed {
		// Whole-file containers are one unit: read it (bounded) and decode.
		src, err := readWhole(br, r, c.maxDecoded+c.maxStream+TrailerSize)
		if err != nil {
			return nil, err
		}
		if int64(len(src)) > c.maxDecoded+c.maxStream+TrailerSize {
			return nil, errs.At(ErrTooLarge, int64(len(src)), "file", "whole-file container larger than the limits allow")
		}
		s := memSource(src, 0)
		if z.whole, err = z.dec.parse(s); err != nil {
			return nil, err
		}
		z.wholeSrc = s
		return z, nil
	}
	// Frames come one after another: their stream buffers are reused
	// (see scratch), also by the goroutine that decodes ahead.
	z.dec = z.dec.withScratch()
	br.Discard(5)
	z.br = bufio.NewReaderSize(br, 64<<10)
	z.off = 5
	if _, err := z.uv("chunk_lines"); err != nil {
		return nil, err
	}
	return z, nil
}

// readWhole reads the rest of br, whose source is r, up to limit+1 bytes
// (more than limit means too large). When r tells its size (a
// *io.SectionReader or *bytes.Reader, or a regular *os.File), the bytes
// are read into one buffer of that size, not grown by doubling (each
// step a copy and a fresh, zeroed array). The size is only a hint: a
// source that holds fewer or more bytes is read as it is.
func readWhole(br *bufio.Reader, r io.Reader, limit int64) ([]byte, error) {
	n := int64(-1)
	switch s := r.(type) {
	case interface{ Size() int64 }:
		n = s.Size()
	case *os.File:
		if fi, err := s.Stat(); err == nil && fi.Mode().IsRegular() {
			n = fi.Size()
		}
	}
	if n <= 0 || n > limit {
		return io.ReadAll(io.LimitReader(br, limit+1))
	}
	buf := hugepage.Make(int(n + 1))[:n+1] // one more, to see whether the hint was short
	k, err := io.ReadFull(br, buf)
	hugepage.Done(buf)
	switch err {
	case nil:
		rest, err := io.ReadAll(io.LimitReader(br, limit+1-int64(k)))
		return append(buf, rest...), err
	case io.EOF, io.ErrUnexpectedEOF:
		return buf[:k], nil
	}
	return nil, err
}

// Codec returns the file's codec id.
func (z *Reader) Codec() Codec { return z.codec }

func (z *Reader) uv(what string) (uint64, error) {
	var buf [varint.MaxLen]byte
	for i := 0; i < len(buf); i++ {
		b, err := z.br.ReadByte()
		if err != nil {
			if err == io.EOF {
				return 0, errs.At(ErrCorrupt, z.off, "frame "+strconv.Itoa(z.frame), "truncated varint (%s)", what)
			}
			return 0, err
		}
		buf[i] = b
		if b < 0x80 {
			v, n := varint.Consume(buf[:i+1])
			if n < 0 {
				break
			}
			z.off += int64(n)
			return v, nil
		}
	}
	return 0, errs.At(ErrCorrupt, z.off, "frame "+strconv.Itoa(z.frame), "bad varint (%s)", what)
}

// Read implements io.Reader.
func (z *Reader) Read(p []byte) (int, error) {
	for len(z.out) == 0 {
		if z.err != nil {
			return 0, z.err
		}
		// Drop the spent frame before decoding the next, so only one
		// frame's output is alive at a time.
		z.out = nil
		z.err = z.nextFrame(nil)
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	return n, nil
}

// WriteTo implements io.WriterTo, writing frame by frame; columnar rows
// are written in chunks as they are assembled (see DecodeTo), so the
// integrity trailer is checked after the bytes it covers were written:
// on a mismatch WriteTo returns ErrChecksum, w having received them.
func (z *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	if len(z.out) > 0 {
		n, err := w.Write(z.out)
		total += int64(n)
		z.out = z.out[n:]
		if err != nil {
			return total, err
		}
	}
	z.out = nil
	if z.err == nil {
		cw := newChunkWriter(w, z.sum, 0)
		stop := z.startAhead()
		for z.err == nil {
			cw.limit = cw.n + z.dec.maxDecoded
			z.err = z.nextFrame(cw)
		}
		stop()
		total += cw.n
		cw.release()
	}
	if z.err == io.EOF {
		return total, nil
	}
	return total, z.err
}

// nextFrame decodes the next frame into z.out (or, when cw is not nil,
// writes it to cw), or checks the trailer and returns io.EOF at the end.
func (z *Reader) nextFrame(cw *chunkWriter) error {
	if z.whole != nil {
		p, src := z.whole, z.wholeSrc
		z.whole, z.wholeSrc = nil, nil
		if cw != nil {
			if err := z.dec.decodePlanTo(cw, src, p); err != nil {
				return err
			}
			return io.EOF
		}
		out, err := z.dec.decodePlan(nil, src, p)
		if err != nil {
			return err
		}
		z.out = out
		if len(out) == 0 {
			return io.EOF
		}
		return nil
	}
	if z.wholeSrc == nil && !z.framed {
		return io.EOF
	}
	var f aheadFrame
	if z.ahead != nil {
		f = <-z.ahead
	} else {
		f = z.readFrame(false)
	}
	switch {
	case f.err != nil:
		return f.err // io.EOF at the end of a file without a trailer
	case f.trailer != nil:
		if !bytes.Equal(z.sum.Sum(nil), f.trailer) {
			return errs.At(ErrChecksum, f.fr.Offset, "trailer", "decoded bytes do not match the embedded SHA-256")
		}
		return io.EOF
	}
	if cw != nil {
		if f.ss != nil || f.prepErr != nil {
			if f.prepErr != nil {
				return f.prepErr
			}
			// The rows are copied into cw's buffers: f.ss's buffers can
			// serve a later frame (decodeFrame releases its own).
			_, err := z.dec.decodeColumnarFrom(nil, f.ss, z.dec.maxDecoded, nil, cw)
			f.ss.release()
			if err != nil {
				return err
			}
		} else if _, err := z.dec.decodeFrame(nil, memSource(f.payload, f.fr.Offset), z.codec, f.fr, f.index, z.dec.maxDecoded, cw); err != nil {
			return err
		}
		return cw.flush() // the trailer check needs the frame's bytes hashed
	}
	// The previous frame's output has been consumed: decode into its
	// buffer, so streaming holds one frame's output, not two.
	out, err := z.dec.decodeFrame(z.buf[:0], memSource(f.payload, f.fr.Offset), z.codec, f.fr, f.index, z.dec.maxDecoded, nil)
	if err != nil {
		return err
	}
	z.sum.Write(out)
	z.out, z.buf = out, out
	return nil
}

// aheadFrame is one frame read from the input (payload, fr, index), the
// trailer (its digest, fr.Offset its position) or the error that ends
// the frames (io.EOF at a clean end without a trailer). ss is the frame's
// stream set when it was decoded ahead, prepErr the error doing so.
type aheadFrame struct {
	payload []byte
	fr      FrameInfo
	index   int
	trailer []byte
	err     error
	ss      *streamSet
	prepErr error
}

// readFrame reads the next frame (or the trailer) from z.br; with prep, a
// columnar frame's streams are also decoded (prepareColumnar).
func (z *Reader) readFrame(prep bool) aheadFrame {
	tail, err := z.br.Peek(TrailerSize + 1)
	if len(tail) == 0 {
		return aheadFrame{err: err} // io.EOF at the end, or the source's error
	}
	// Only a clean end after exactly 36 bytes makes them the trailer;
	// other read errors surface while reading the frame.
	if err == io.EOF && len(tail) == TrailerSize && bytes.HasSuffix(tail, trailerMagic) {
		f := aheadFrame{trailer: bytes.Clone(tail[:32]), fr: FrameInfo{Offset: z.off}}
		z.br.Discard(TrailerSize)
		return f
	}
	if err := z.checkTrailerOverlap(nil, tail, err); err != nil {
		return aheadFrame{err: err}
	}
	n, err := z.uv("payload_len")
	if err != nil {
		return aheadFrame{err: err}
	}
	path := "frame " + strconv.Itoa(z.frame)
	if err := checkFrameLen(n, -1, z.off, path); err != nil {
		return aheadFrame{err: err}
	}
	// A frame's payload is compressed (or stored) data of one decoded
	// frame, so it cannot usefully exceed the decoded limit.
	if n > uint64(z.dec.maxDecoded) {
		return aheadFrame{err: errs.TooLarge(ErrTooLarge, z.off, path, "frame payload", n, z.dec.maxDecoded)}
	}
	payload, err := readPayload(z.br, int64(n))
	if err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return aheadFrame{err: errs.At(ErrCorrupt, z.off+int64(len(payload)), path, "frame payload of %d bytes is truncated", n)}
		}
		return aheadFrame{err: err}
	}
	tail, perr := z.br.Peek(TrailerSize + 1)
	if err := z.checkTrailerOverlap(payload, tail, perr); err != nil {
		return aheadFrame{err: err}
	}
	fr := FrameInfo{Offset: z.off, Size: int64(n), Method: payload[0]}
	if err := checkFrame(fr, z.codec, path); err != nil {
		return aheadFrame{err: err}
	}
	z.off += int64(n)
	z.frame++
	f := aheadFrame{payload: payload, fr: fr, index: z.frame - 1}
	if prep && z.codec == CodecColumnar && fr.Method == methodStructured {
		f.ss, f.prepErr = z.dec.prepareColumnar(memSource(payload, fr.Offset), fr)
	}
	return f
}

// prepareColumnar parses a columnar frame's stream directory and decodes
// its streams, reporting errors in the order decodeFrame would: the
// directory's, then the values stream's, then the other streams'.
func (dc *decoder) prepareColumnar(src *source, fr FrameInfo) (*streamSet, error) {
	dir, err := dc.parseDirectory(src, fr.Offset+1, fr.Offset+fr.Size)
	if err != nil {
		return nil, err
	}
	ss, err := dc.streamSetOf(src, dir)
	if err != nil {
		return nil, err
	}
	if err := ss.load("values"); err != nil {
		return nil, err
	}
	var others []string
	for _, n := range columnarStreams {
		if n != "values" {
			others = append(others, n)
		}
	}
	if err := ss.load(others...); err != nil {
		return nil, err
	}
	return ss, nil
}

// startAhead starts, for a framed columnar file and more than one
// goroutine allowed, a goroutine that reads the frames in order and
// decodes each one's streams (all but the first) while the previous
// frame's rows are written: WriteTo then holds two frames' streams, not
// one. Frames, trailer and errors reach nextFrame in file order, through
// z.ahead. The returned function stops the goroutine and waits for it.
func (z *Reader) startAhead() (stop func()) {
	if !z.framed || z.codec != CodecColumnar || z.dec.concurrency <= 1 || z.dec.safe {
		return func() {}
	}
	ch := make(chan aheadFrame)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for first := true; ; first = false {
			f := z.readFrame(!first)
			select {
			case ch <- f:
			case <-quit:
				return
			}
			if f.err != nil || f.trailer != nil {
				return
			}
		}
	}()
	z.ahead = ch
	return func() {
		close(quit)
		wg.Wait()
		z.ahead = nil
	}
}

// readPayload reads n bytes, growing its buffer only as the bytes arrive:
// a length read from a header never allocates more than about twice what
// the input actually holds.
func readPayload(r io.Reader, n int64) ([]byte, error) {
	buf := make([]byte, 0, min(n, 1<<20))
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			nb := make([]byte, len(buf), min(n, 2*int64(cap(buf))))
			copy(nb, buf)
			buf = nb
		}
		k, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// checkTrailerOverlap fails when the file ends, fewer than 36 bytes after
// the bytes read so far, in the trailer magic: the trailer (which Decode
// strips before parsing) then starts inside data already read as frames,
// so those frames are truncated. read is the data just read (the frame
// payload), tail what follows it (a Peek of up to 37 bytes, peekErr its
// error).
func (z *Reader) checkTrailerOverlap(read, tail []byte, peekErr error) error {
	if peekErr != io.EOF || len(tail) >= TrailerSize {
		return nil
	}
	end := append(append([]byte{}, read[max(0, len(read)-4):]...), tail...)
	size := z.off + int64(len(read)) + int64(len(tail)) // the file's size
	if size < TrailerSize || !bytes.HasSuffix(end, trailerMagic) {
		return nil
	}
	return errs.At(ErrCorrupt, size-TrailerSize, "trailer", "the integrity trailer starts inside frame %d", z.frame)
}
