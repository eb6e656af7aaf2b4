package at1

import (
	"bytes"
	"crypto/sha256"
	"strconv"
	"sync/atomic"

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

// splitTrailer strips the integrity trailer, if any.
func splitTrailer(src []byte) (body []byte, sum []byte) {
	if len(src) >= TrailerSize && bytes.HasSuffix(src, trailerMagic) {
		n := len(src) - TrailerSize
		return src[:n], src[n : n+32]
	}
	return src, nil
}

// Decode decodes a whole AT-1 file (whole-file or framed) and returns the
// original bytes. If the file carries an integrity trailer, the output is
// verified against it (ErrChecksum on mismatch).
func Decode(src []byte, opts ...Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.decode(nil, src)
}

// AppendDecode appends the decoded file to dst.
func AppendDecode(dst, src []byte, opts ...Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.decode(dst, src)
}

func (c *config) decode(dst, src []byte) ([]byte, error) {
	body, sum := splitTrailer(src)
	start := len(dst)
	out, err := c.decodeBody(dst, body)
	if err != nil {
		return nil, err
	}
	if sum != nil {
		got := sha256.Sum256(out[start:])
		if !bytes.Equal(got[:], sum) {
			return nil, errs.At(ErrChecksum, int64(len(body)), "trailer", "decoded bytes do not match the embedded SHA-256")
		}
	}
	return out, nil
}

func checkHeader(body []byte) (framed bool, codec Codec, err error) {
	if len(body) < 5 {
		return false, 0, errs.At(ErrCorrupt, 0, "header", "file of %d bytes is shorter than the 5-byte header", len(body))
	}
	switch {
	case bytes.Equal(body[:4], MagicWhole):
	case bytes.Equal(body[:4], MagicFramed):
		framed = true
	default:
		return false, 0, errs.At(ErrCorrupt, 0, "header", "bad magic % x", body[:4])
	}
	return framed, Codec(body[4]), nil
}

func (c *config) decodeBody(dst, body []byte) ([]byte, error) {
	framed, codec, err := checkHeader(body)
	if err != nil {
		return nil, err
	}
	limit := int64(len(dst)) + c.maxDecoded
	if framed {
		return c.decodeFramed(dst, body, codec, limit)
	}
	if codec == CodecRaw {
		return c.decodeRaw(dst, body[5:], 5, limit, "raw")
	}
	if !codec.Supported() {
		return nil, unsupportedCodec(codec)
	}
	ss, err := c.parseStreamSet(body[5:], 5)
	if err != nil {
		return nil, err
	}
	return c.reconstruct(dst, codec, ss, limit)
}

func unsupportedCodec(codec Codec) error {
	return errs.At(ErrUnsupported, 4, "header", "codec %d (%s) has no reconstructor", int(codec), codec)
}

// decodeRaw decodes a RAW payload: a backend byte and data, or (the
// spec-literal form) an xz stream with no backend byte.
func (c *config) decodeRaw(dst, p []byte, off int64, limit int64, path string) ([]byte, error) {
	backend := byte(BackendXZ)
	data := p
	if !bytes.HasPrefix(p, xzMagic) {
		if len(p) == 0 {
			return nil, errs.At(ErrCorrupt, off, path, "missing backend byte")
		}
		if p[0] > BackendStored {
			// The reference decodes unknown ids as xz; its encoder
			// never writes them (vector raw_backend_7).
			return nil, errs.At(ErrCorrupt, off, path, "unknown backend id %d", p[0])
		}
		backend, data, off = p[0], p[1:], off+1
	}
	lim := min(limit-int64(len(dst)), c.maxStream)
	out, err := c.decompress(backend, data, lim, off, path)
	if err != nil {
		return nil, err
	}
	return append(dst, out...), nil
}

func (c *config) decodeFramed(dst, body []byte, codec Codec, limit int64) ([]byte, error) {
	cur := &cursor{b: body, off: 5, path: "frame header"}
	if _, err := cur.uv("chunk_lines"); err != nil {
		return nil, err
	}
	var frames []frame
	for i := 0; cur.rest() > 0; i++ {
		fr, err := nextFrame(cur, i)
		if err != nil {
			return nil, err
		}
		frames = append(frames, fr)
	}
	if c.concurrency <= 1 || len(frames) <= 1 {
		var err error
		for _, fr := range frames {
			if dst, err = c.decodeFrame(dst, fr, codec, limit); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	// Frames are independent: decode them in parallel (each serially
	// inside, so goroutines stay bounded by the concurrency) and
	// concatenate in order.
	inner := *c
	inner.concurrency = 1
	outs := make([][]byte, len(frames))
	var budget atomic.Int64
	budget.Store(limit - int64(len(dst)))
	err := parallel(c.concurrency, len(frames), func(i int) error {
		out, err := inner.decodeFrame(nil, frames[i], codec, c.maxDecoded)
		if err != nil {
			return err
		}
		if budget.Add(-int64(len(out))) < 0 {
			return errs.At(ErrTooLarge, frames[i].off, "frame "+strconv.Itoa(i), "decoded output exceeds the limit of %d bytes", c.maxDecoded)
		}
		outs[i] = out
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, o := range outs {
		dst = append(dst, o...)
	}
	return dst, nil
}

// frame is one frame of a framed container.
type frame struct {
	index   int
	off     int64 // offset of the payload (the method byte)
	payload []byte
}

func nextFrame(cur *cursor, i int) (frame, error) {
	cur.path = "frame " + strconv.Itoa(i)
	n, err := cur.uv("payload_len")
	if err != nil {
		return frame{}, err
	}
	if n == 0 {
		return frame{}, cur.errf("payload_len 0")
	}
	off := cur.base + int64(cur.off)
	p, err := cur.take(n, "frame payload")
	if err != nil {
		return frame{}, err
	}
	return frame{index: i, off: off, payload: p}, nil
}

func (c *config) decodeFrame(dst []byte, fr frame, codec Codec, limit int64) ([]byte, error) {
	path := "frame " + strconv.Itoa(fr.index)
	switch fr.payload[0] {
	case methodRaw:
		return c.decodeRaw(dst, fr.payload[1:], fr.off+1, limit, path)
	case methodStructured:
		if codec == CodecRaw {
			return nil, errs.At(ErrCorrupt, fr.off, path, "structured frame in a RAW (codec 255) file")
		}
		if !codec.Supported() {
			return nil, unsupportedCodec(codec)
		}
		ss, err := c.parseStreamSet(fr.payload[1:], fr.off+1)
		if err != nil {
			return nil, err
		}
		return c.reconstruct(dst, codec, ss, limit)
	}
	return nil, errs.At(ErrCorrupt, fr.off, path, "unknown frame method %d", fr.payload[0])
}

// reconstruct runs the codec's reconstructor, appending to dst.
func (c *config) reconstruct(dst []byte, codec Codec, ss *streamSet, limit int64) ([]byte, error) {
	switch codec {
	case CodecColumnar:
		return c.decodeColumnar(dst, ss, limit)
	case CodecQColumnar, CodecQJSON:
		return c.decodeQuery(dst, codec, ss, limit)
	case CodecQJSON2:
		return c.decodeQJSON2(dst, ss, limit)
	}
	return nil, unsupportedCodec(codec)
}
