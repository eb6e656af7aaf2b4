package at1

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"

	"github.com/colfmt/colfmt/internal/varint"
)

// Writer encodes a stream as a framed (AT1\x03) AT-1 file: it holds one
// chunk of input (WithChunkSize) at a time, cuts it after a '\n', and
// writes it as one frame, structured or raw, whichever is smaller. The
// codec is chosen from the first chunk. Close writes the SHA-256 trailer;
// the output is not complete until Close returns.
type Writer struct {
	cfg     *encoder
	w       io.Writer
	buf     []byte
	codec   Codec
	started bool
	sum     hash.Hash
	done    int64
	err     error
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
	return &Writer{cfg: c.encoder(), w: w, sum: sha256.New()}, nil
}

// Write buffers p, writing a frame each time a chunk is full.
func (z *Writer) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	n := len(p)
	size := int(z.cfg.enc.chunkSize)
	for len(p) > 0 {
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
		if z.err = z.writeFrame(z.buf[:cut]); z.err != nil {
			return n - len(p), z.err
		}
		z.buf = z.buf[:copy(z.buf, z.buf[cut:])]
	}
	return n, nil
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
	_, err := z.w.Write(hdr)
	return err
}

func (z *Writer) writeFrame(chunk []byte) error {
	if !z.started {
		if err := z.start(chunk); err != nil {
			return err
		}
	}
	f, err := z.cfg.frame(chunk, z.codec)
	if err != nil {
		return err
	}
	if z.cfg.enc.verify {
		v := z.cfg.verifier(int64(len(chunk)))
		fr := FrameInfo{Offset: 0, Size: int64(len(f)), Method: f[0]}
		got, err := v.decodeFrame(nil, memSource(f, 0), z.codec, fr, 0, v.maxDecoded, nil)
		if err != nil || !bytes.Equal(got, chunk) {
			return fmt.Errorf("at1: encoder self-check failed on a frame (%v)", err)
		}
	}
	z.sum.Write(chunk)
	hdr := varint.Append(nil, uint64(len(f)))
	if _, err := z.w.Write(hdr); err != nil {
		return err
	}
	if _, err := z.w.Write(f); err != nil {
		return err
	}
	z.done += int64(len(chunk))
	if z.cfg.enc.progress != nil {
		z.cfg.enc.progress(z.done, -1)
	}
	return nil
}

// Close writes the last frame and the trailer. It does not close the
// underlying writer.
func (z *Writer) Close() error {
	if z.err != nil {
		return z.err
	}
	z.err = fmt.Errorf("at1: Writer is closed: %w", ErrInvalidArgument)
	if len(z.buf) > 0 {
		if err := z.writeFrame(z.buf); err != nil {
			return err
		}
		z.buf = nil
	}
	if !z.started {
		if err := z.start(nil); err != nil {
			return err
		}
	}
	tr := append(z.sum.Sum(nil), trailerMagic...)
	_, err := z.w.Write(tr)
	return err
}
