package bsup

import (
	"bufio"
	"errors"
	"io"
	"iter"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
	"github.com/pierrec/lz4/v4"
)

// lz4MaxRatio bounds how much an LZ4 block can expand (each byte of input
// yields at most 255 bytes of output); a declared size beyond it is corrupt.
const lz4MaxRatio = 255

// Reader reads values from a Super Binary stream (frames, LZ4 frames,
// end-of-stream markers; concatenated streams are read as one sequence,
// with the type table reset at each end of stream).
type Reader struct {
	br      *bufio.Reader
	cfg     config
	ctx     *Context
	dec     decoder
	off     int64  // stream offset of the next unread byte
	vals    []byte // payload of the current values frame
	valPos  int
	valOff  int64 // stream offset of vals (of the frame, for compressed ones)
	ends    int   // end-of-stream markers seen
	version int   // 0, or 2 once a version byte was read
	err     error
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader, opts ...Option) (*Reader, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "nil reader")
	}
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), cfg: cfg, ctx: newContext(cfg), dec: decoder{maxDepth: cfg.maxDepth}}, nil
}

// Offset returns the number of stream bytes consumed so far.
func (r *Reader) Offset() int64 { return r.off }

// EndsOfStream returns how many end-of-stream markers have been read.
func (r *Reader) EndsOfStream() int { return r.ends }

// Version returns the Super Binary version of the frames read so far: 0,
// or 2 for streams whose frames carry version bytes (CSUP metadata).
func (r *Reader) Version() int { return r.version }

// Context returns the current type table.
func (r *Reader) Context() *Context { return r.ctx }

// Read returns the next value, or io.EOF after the last one. A stream that
// ends without an end-of-stream marker is accepted, as zed does.
func (r *Reader) Read() (Value, error) {
	var v Value
	err := r.ReadInto(&v)
	return v, err
}

// ReadInto reads the next value into dst, reusing the element storage dst
// already has: a value read earlier into the same dst is overwritten. It
// returns io.EOF after the last value.
func (r *Reader) ReadInto(dst *Value) error {
	if r.err != nil {
		return r.err
	}
	err := r.read(dst)
	if err != nil {
		r.err = err
	}
	return err
}

// All returns the rest of the values as an iterator that stops at the
// first error, which it yields (the shape of csup.Reader.All).
func (r *Reader) All() iter.Seq2[Value, error] {
	return func(yield func(Value, error) bool) {
		for {
			v, err := r.Read()
			if err == io.EOF {
				return
			}
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}

func (r *Reader) read(dst *Value) error {
	for r.valPos >= len(r.vals) {
		if err := r.nextFrame(); err != nil {
			return err
		}
	}
	at := r.valOff + int64(r.valPos)
	b := r.vals[r.valPos:]
	id, n := varint.Consume(b)
	if n < 0 {
		return errs.At(ErrCorrupt, at, "values frame", "bad type ID")
	}
	t := r.ctx.Lookup(id)
	if t == nil {
		return errs.At(ErrCorrupt, at, "values frame", "unknown type ID %d", id)
	}
	body, null, k, ok := ConsumeTagged(b[n:])
	if !ok {
		return errs.At(ErrCorrupt, at, "values frame", "value of type %s runs past the end of its frame", t)
	}
	r.valPos += n + k
	if err := r.dec.decode(dst, t, body, null, 0); err != nil {
		return errs.Locate(err, at, "values frame")
	}
	return nil
}

// nextFrame reads frames until a values frame is loaded.
func (r *Reader) nextFrame() error {
	at := r.off
	code, err := r.br.ReadByte()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return err
	}
	r.off++
	if code == codeEOS {
		r.ends++
		r.ctx.reset()
		r.vals, r.valPos = nil, 0
		return nil
	}
	if code&0x80 != 0 {
		// Super Binary version 2 (CSUP metadata) puts a version byte
		// 1VVVVVVV before every frame.
		if v := code & 0x7f; v == 0 {
			return errs.At(ErrCorrupt, at, "frame", "bad frame code 0x%02x", code)
		} else if v != 2 {
			return errs.At(ErrUnsupported, at, "frame", "Super Binary version %d (byte 0x%02x)", v, code)
		}
		if r.version == 0 && (r.ctx.Len() > 0 || r.vals != nil) {
			return errs.At(ErrCorrupt, at, "frame", "version 2 frame inside a version 0 stream")
		}
		r.version = 2
		r.ctx.v2, r.dec.v2 = true, true
		if code, err = r.br.ReadByte(); err != nil {
			return errs.At(ErrCorrupt, at, "frame", "stream ends after a version byte")
		}
		r.off++
		if code == codeEOS || code&0x80 != 0 {
			return errs.At(ErrCorrupt, at, "frame", "bad frame code 0x%02x after a version byte", code)
		}
	} else if r.version == 2 {
		return errs.At(ErrCorrupt, at, "frame", "version 2 stream has a frame without its version byte")
	}
	hi, err := r.uvarint()
	if err != nil || hi > 1<<58 {
		return errs.At(ErrCorrupt, at, "frame", "bad frame length")
	}
	length := hi<<4 | uint64(code&0x0f)
	if length > uint64(r.cfg.maxFrameSize) {
		return errs.TooLarge(ErrTooLarge, at, "frame", "frame", length, int64(r.cfg.maxFrameSize))
	}
	payloadOff := r.off
	payload, err := r.readN(int(length))
	if err != nil {
		return errs.At(ErrCorrupt, at, "frame", "frame of %d bytes is truncated", length)
	}
	if code&codeCompressed != 0 {
		if payload, err = r.decompress(payload, payloadOff); err != nil {
			return err
		}
	}
	switch (code >> 4) & 3 {
	case frameTypes:
		return r.ctx.typedefs(payload, payloadOff)
	case frameValues:
		r.vals, r.valPos, r.valOff = payload, 0, payloadOff
		return nil
	case frameControl:
		return nil // control messages carry nothing for a reader of values
	}
	return errs.At(ErrCorrupt, at, "frame", "frame type 3 is not defined")
}

func (r *Reader) uvarint() (uint64, error) {
	v, n, err := varint.Read(r.br)
	r.off += int64(n)
	return v, err
}

// readN reads n bytes, growing the buffer as data arrives so a lying length
// on a short stream cannot make it allocate the whole claim up front.
func (r *Reader) readN(n int) ([]byte, error) {
	const chunk = 1 << 20
	buf := make([]byte, 0, min(n, chunk))
	for len(buf) < n {
		want := min(n-len(buf), chunk)
		if cap(buf)-len(buf) < want {
			nb := make([]byte, len(buf), min(n, 2*cap(buf)+want))
			copy(nb, buf)
			buf = nb
		}
		k, err := io.ReadFull(r.br, buf[len(buf):len(buf)+want])
		buf = buf[:len(buf)+k]
		r.off += int64(k)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = io.EOF
			}
			return buf, err
		}
	}
	return buf, nil
}

func (r *Reader) decompress(p []byte, at int64) ([]byte, error) {
	if len(p) < 2 || p[0] != compressionLZ4 {
		if len(p) > 0 && p[0] != compressionLZ4 {
			return nil, errs.At(ErrUnsupported, at, "frame", "compression format %d", p[0])
		}
		return nil, errs.At(ErrCorrupt, at, "frame", "compressed frame too short")
	}
	size, n := varint.Consume(p[1:])
	if n < 0 {
		return nil, errs.At(ErrCorrupt, at, "frame", "bad uncompressed size")
	}
	block := p[1+n:]
	if size > uint64(r.cfg.maxFrameSize) {
		return nil, errs.TooLarge(ErrTooLarge, at, "frame", "uncompressed frame", size, int64(r.cfg.maxFrameSize))
	}
	if size > uint64(len(block))*lz4MaxRatio+16 {
		return nil, errs.At(ErrCorrupt, at, "frame", "uncompressed size %d is impossible for a %d-byte LZ4 block", size, len(block))
	}
	out := make([]byte, size)
	k, err := lz4.UncompressBlock(block, out)
	if err != nil || uint64(k) != size {
		return nil, errs.At(ErrCorrupt, at, "frame", "LZ4 block does not decompress to its declared %d bytes", size)
	}
	return out, nil
}
