package at1

import (
	"bytes"
	"crypto/sha256"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
)

// Magic numbers.
var (
	MagicWhole  = []byte{'A', 'T', '1', 0x02}
	MagicFramed = []byte{'A', 'T', '1', 0x03}
	// trailerMagic ends the 36-byte SHA-256 integrity trailer.
	trailerMagic = []byte{0xA1, 0x53, 0x36, 0x01}
)

// TrailerSize is the size of the integrity trailer: sha256 + magic.
const TrailerSize = 36

// Frame methods of a framed container.
const (
	methodStructured = 0
	methodRaw        = 1
)

// Decode decodes a whole AT-1 file (whole-file or framed) and returns the
// original bytes. If the file carries an integrity trailer, the output is
// verified against it (ErrChecksum on mismatch).
func Decode(src []byte, opts ...Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.decoder().decode(nil, src)
}

// AppendDecode appends the decoded file to dst.
func AppendDecode(dst, src []byte, opts ...Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.decoder().decode(dst, src)
}

func (dc *decoder) decode(dst, src []byte) ([]byte, error) {
	s := memSource(src, 0)
	p, err := dc.parse(s)
	if err != nil {
		return nil, err
	}
	return dc.decodePlan(dst, s, p)
}

// decodePlan decodes a parsed file onto dst and verifies its trailer.
func (dc *decoder) decodePlan(dst []byte, src *source, p *plan) ([]byte, error) {
	start := len(dst)
	limit := int64(len(dst)) + dc.maxDecoded
	var err error
	switch {
	case p.Framed:
		dst, err = dc.decodeFrames(dst, src, p, limit)
	case p.Codec == CodecRaw:
		dst, err = dc.decodeRaw(dst, src, p.RawBackend, p.rawData, p.end, limit, "raw")
	case !p.Codec.Supported():
		err = unsupportedCodec(p.Codec)
	default:
		var ss *streamSet
		if ss, err = dc.streamSetOf(src, p.Streams); err == nil {
			dst, err = dc.reconstruct(dst, p.Codec, ss, limit, nil)
		}
	}
	if err != nil {
		return nil, err
	}
	if p.Trailer != nil {
		got := sha256.Sum256(dst[start:])
		if !bytes.Equal(got[:], p.Trailer) {
			return nil, errs.At(ErrChecksum, p.end, "trailer", "decoded bytes do not match the embedded SHA-256")
		}
	}
	return dst, nil
}

func unsupportedCodec(codec Codec) error {
	return errs.At(ErrUnsupported, 4, "header", "codec %d (%s) has no reconstructor", int(codec), codec)
}

// decodeRaw decodes RAW data [data, end) with backend (-1: the
// spec-literal form, xz without a backend byte).
func (dc *decoder) decodeRaw(dst []byte, src *source, backend int, data, end, limit int64, path string) ([]byte, error) {
	b := byte(BackendXZ)
	if backend >= 0 {
		b = byte(backend)
	}
	p, err := src.read(data, end-data, path, "raw payload")
	if err != nil {
		return nil, err
	}
	lim := min(limit-int64(len(dst)), dc.maxStream)
	if len(dst) == 0 {
		// Decode straight into dst's array when it is large enough
		// (the streaming reader reuses one buffer for its frames).
		return dc.decompressInto(dst, b, p, lim, data, path)
	}
	if b == BackendStored {
		if int64(len(p)) > lim {
			return nil, errs.TooLarge(ErrTooLarge, data, path, "stored data", uint64(len(p)), lim)
		}
		return append(dst, p...), nil
	}
	out, err := dc.decompress(b, p, lim, data, path)
	if err != nil {
		return nil, err
	}
	return append(dst, out...), nil
}

func (dc *decoder) decodeFrames(dst []byte, src *source, p *plan, limit int64) ([]byte, error) {
	frames := p.Frames
	if dc.concurrency <= 1 || len(frames) <= 1 {
		// One frame after another: each frame's stream buffers are
		// reused by the next (see scratch).
		dc := dc.withScratch()
		var err error
		for i, fr := range frames {
			if dst, err = dc.decodeFrame(dst, src, p.Codec, fr, i, limit, nil); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	// Frames are independent: decode them in parallel, a window of
	// `concurrency` frames at a time (each serially inside, so goroutines
	// stay bounded), appending each window to dst in order, so at most a
	// window's outputs are held besides dst.
	inner := *dc
	inner.concurrency = 1
	conc := dc.concurrency
	outs := make([][]byte, conc)
	for w := 0; w < len(frames); w += conc {
		n := min(conc, len(frames)-w)
		rem := limit - int64(len(dst)) // each frame of the window may take what is left
		err := parallel(conc, n, func(k int) error {
			i := w + k
			out, err := inner.decodeFrame(nil, src, p.Codec, frames[i], i, rem, nil)
			outs[k] = out
			return err
		})
		if err != nil {
			return nil, err
		}
		for k := 0; k < n; k++ {
			if int64(len(dst)+len(outs[k])) > limit {
				return nil, errs.At(ErrTooLarge, frames[w+k].Offset, "frame "+strconv.Itoa(w+k), "decoded output exceeds the limit of %d bytes", dc.maxDecoded)
			}
			dst = append(dst, outs[k]...)
			outs[k] = nil
		}
	}
	return dst, nil
}

// decodeFrame decodes frame fr (the i-th) of src onto dst, or, when cw
// is not nil, writes it to cw (dst is then returned as it is).
func (dc *decoder) decodeFrame(dst []byte, src *source, codec Codec, fr FrameInfo, i int, limit int64, cw *chunkWriter) ([]byte, error) {
	path := "frame " + strconv.Itoa(i)
	end := fr.Offset + fr.Size
	if fr.Method == methodRaw {
		b, data, err := rawBackend(src, fr.Offset+1, end, path)
		if err != nil {
			return nil, err
		}
		if cw != nil {
			out, err := dc.decodeRaw(cw.scratch[:0], src, b, data, end, limit, path)
			if err != nil {
				return nil, err
			}
			cw.scratch = out
			return dst, cw.write(out)
		}
		return dc.decodeRaw(dst, src, b, data, end, limit, path)
	}
	if err := checkFrame(fr, codec, path); err != nil {
		return nil, err
	}
	if !codec.Supported() {
		return nil, unsupportedCodec(codec)
	}
	dir, err := dc.parseDirectory(src, fr.Offset+1, end)
	if err != nil {
		return nil, err
	}
	ss, err := dc.streamSetOf(src, dir)
	if err != nil {
		return nil, err
	}
	// The reconstructors copy every byte they output (onto dst, or into
	// cw's buffers, which hold copies too) and keep nothing of ss once
	// they return (the background values decode is joined first), so the
	// frame's stream buffers can go to the call's scratch.
	out, err := dc.reconstruct(dst, codec, ss, limit, cw)
	ss.release()
	return out, err
}

// reconstruct runs the codec's reconstructor, appending to dst, or, when
// cw is not nil, writing to cw (dst is then returned as it is; columnar,
// qcolumnar and qjson lines go out in chunks as they are assembled,
// qjson2's output is built in cw's scratch buffer and written whole).
func (dc *decoder) reconstruct(dst []byte, codec Codec, ss *streamSet, limit int64, cw *chunkWriter) ([]byte, error) {
	if cw != nil && codec != CodecColumnar && codec != CodecQColumnar && codec != CodecQJSON {
		if err := cw.flush(); err != nil {
			return nil, err
		}
		out, err := dc.reconstruct(cw.scratch[:0], codec, ss, limit, nil)
		if err != nil {
			return nil, err
		}
		cw.scratch = out
		return dst, cw.write(out)
	}
	switch codec {
	case CodecColumnar:
		return dc.decodeColumnar(dst, ss, limit, cw)
	case CodecQColumnar, CodecQJSON:
		return dc.decodeQuery(dst, codec, ss, limit, cw)
	case CodecQJSON2:
		return dc.decodeQJSON2(dst, ss, limit)
	}
	return nil, unsupportedCodec(codec)
}
