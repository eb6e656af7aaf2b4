package at1

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/colfmt/colfmt/internal/varint"
)

// The encoder: detect the input's structure, write it with a structured
// codec, keep RAW when that is smaller, append the SHA-256 trailer, then
// decode the result and compare it with the input (WithVerify).

// maxEncodeColumns is the most columns the encoder lays out; text whose
// lines split into more is not treated as a table.
const maxEncodeColumns = 4096

// namedStream is one stream of a packed stream set before compression.
type namedStream struct {
	name   string
	data   []byte
	stored bool // always stored (qcolumnar/qjson blocks: range-readable)
}

// Encode writes src as an AT-1 file that decodes to exactly src: a
// whole-file container when src fits one chunk (WithChunkSize), else a
// framed one. See WithCodec for the codecs; any bytes at all round-trip.
func Encode(src []byte, opts ...Option) ([]byte, error) {
	return AppendEncode(nil, src, opts...)
}

// AppendEncode appends the AT-1 encoding of src to dst.
func AppendEncode(dst, src []byte, opts ...Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	start := len(dst)
	if int64(len(src)) > c.enc.chunkSize {
		dst, err = c.encodeFramed(dst, src)
	} else {
		dst, err = c.encodeWhole(dst, src)
		if err == nil && c.enc.progress != nil {
			c.enc.progress(int64(len(src)), int64(len(src)))
		}
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(src)
	dst = append(append(dst, sum[:]...), trailerMagic...)
	if c.enc.verify {
		if err := c.verify(dst[start:], src); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// verify decodes an encoded file with limits sized for it and compares.
func (c *config) verify(file, want []byte) error {
	v := c.verifier(int64(len(want)))
	got, err := v.decode(nil, file)
	if err != nil {
		return fmt.Errorf("at1: encoder self-check: decoding the output failed: %w", err)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("at1: encoder self-check: output decodes to different bytes (%d, want %d)", len(got), len(want))
	}
	return nil
}

func (c *config) verifier(n int64) *config {
	v := &config{
		// Column text counts a separator per value: leave room.
		maxDecoded:  2*n + 1024,
		maxStream:   maxStreamLimit,
		maxStreams:  DefaultMaxStreams,
		maxDict:     1 << 30,
		memoryLimit: 1 << 48,
		strict:      true,
		concurrency: c.concurrency,
	}
	return v
}

// encodeWhole writes a whole-file (AT1\x02) container: the structured
// encoding when it is smaller than RAW, else RAW.
func (c *config) encodeWhole(dst, src []byte) ([]byte, error) {
	codec := c.chooseCodec(src)
	structured, codec, body, err := c.encodeUnit(src, codec)
	if err != nil {
		return nil, err
	}
	dst = append(dst, MagicWhole...)
	if structured {
		dst = append(dst, byte(codec))
	} else {
		dst = append(dst, byte(CodecRaw))
	}
	return append(dst, body...), nil
}

// encodeUnit encodes a whole file's body or one frame's: the packed
// stream set under codec when it is smaller than the RAW payload, else
// the RAW payload (backend byte and data). The two are made in parallel.
// Plain xz is tried as RAW always (WithXZBaseline(true)), only when the
// structured encoding does not beat plain zstd and stored
// (WithXZBaseline(false)), or, by default, unless a sampled estimate of
// it says the structured encoding is well below it (xzBaselineNeeded).
//
// codec may be codecJSONAuto (whole files only): the codec of the
// structured encoding is returned.
func (c *config) encodeUnit(src []byte, codec Codec) (structured bool, _ Codec, body []byte, err error) {
	var raw, s []byte
	always := codec == CodecRaw || c.enc.xzBaseline && (c.enc.xzBaselineSet || len(src) <= xzSampleMin)
	est := -1 // estimated plain xz size; -1: none (WithXZBaseline(false))
	err = parallel(min(c.concurrency, 2), 2, func(i int) error {
		var err error
		if i == 0 {
			raw, err = c.rawBody(src, always)
			if err == nil && !always && !c.enc.xzBaselineSet {
				est, err = c.xzEstimate(src)
			}
		} else if codec != CodecRaw {
			s, codec, err = c.structuredBody(src, codec)
		}
		return err
	})
	if err != nil {
		return false, codec, nil, err
	}
	if s != nil && (len(s) < len(raw) || c.enc.force) {
		if always || est >= 0 && float64(len(s)) < xzSkipRatio*float64(est) {
			return true, codec, s, nil
		}
	}
	if !always {
		if raw, err = c.rawBody(src, true); err != nil {
			return false, codec, nil, err
		}
		if s != nil && (len(s) < len(raw) || c.enc.force) {
			return true, codec, s, nil
		}
	}
	return false, codec, raw, nil
}

// The sampled plain-xz estimate: inputs above xzSampleMin bytes are
// sampled as xzSamples pieces of xzSampleSize bytes spread evenly; the
// plain xz is skipped when the structured encoding is under xzSkipRatio
// times the estimate.
const (
	xzSampleMin  = 1 << 20
	xzSamples    = 4
	xzSampleSize = 128 << 10
	xzSkipRatio  = 0.75
)

// xzEstimate is the size plain xz would give src, extrapolated from
// xz of samples (one at the start, the others spread evenly). The samples
// use the level without its extreme variant (several times cheaper on
// repetitive data, at most a few percent larger: the estimate errs high,
// which the skip ratio's margin absorbs).
func (c *config) xzEstimate(src []byte) (int, error) {
	var sample []byte
	step := (len(src) - xzSampleSize) / (xzSamples - 1)
	for i := 0; i < xzSamples; i++ {
		off := i * step
		sample = append(sample, src[off:off+xzSampleSize]...)
	}
	x, err := xzCompress(nil, sample, c.enc.level, false)
	if err != nil {
		return 0, err
	}
	return int(float64(len(x)) * float64(len(src)) / float64(len(sample))), nil
}

// rawBody is a RAW payload: the backend byte and the smallest encoding
// (xz tried only when withXZ).
func (c *config) rawBody(src []byte, withXZ bool) ([]byte, error) {
	level := c.enc.level
	if !withXZ {
		level = -level
	}
	p, err := smallest(src, level, c.enc.xzExtreme())
	if err != nil {
		return nil, err
	}
	return append([]byte{p.backend}, p.data...), nil
}

// codecJSONAuto is chooseCodec's answer for JSON Lines under CodecAuto:
// the smaller of qjson and columnar token tables (never on the wire).
const codecJSONAuto Codec = 253

// structuredBody is the packed stream set of src under codec (nil when
// the codec does not apply to src) and the codec it is in: the smallest
// of the candidate layouts. Columnar tries the table as split and its
// token table (see tokenTable), or for JSON Lines the token table of
// the line shape; codecJSONAuto tries qjson and the columnar ones.
func (c *config) structuredBody(src []byte, codec Codec) ([]byte, Codec, error) {
	type layout struct {
		codec Codec
		name  string // for tests: encConfig.layout keeps one
		make  func() []namedStream
	}
	var layouts []layout
	columnar := func() {
		if c.enc.noTokens {
			if codec == CodecColumnar {
				layouts = append(layouts, layout{CodecColumnar, "split", func() []namedStream {
					if t := c.tableOf(src); len(t.cols) <= maxEncodeColumns {
						return c.columnarStreamsOf(t)
					}
					return nil
				}})
			}
			return
		}
		if isJSONLines(sampleLines(src)) {
			layouts = append(layouts, layout{CodecColumnar, "jsontokens", func() []namedStream {
				if t := jsonTokenTable(src, c.concurrency); t != nil && len(t.cols) <= maxEncodeColumns {
					return c.columnarStreamsOf(t)
				}
				return nil
			}})
		}
		var t *table
		tableOf := func() *table {
			if t == nil {
				t = c.tableOf(src)
			}
			return t
		}
		layouts = append(layouts, layout{CodecColumnar, "split", func() []namedStream {
			if t := tableOf(); len(t.cols) <= maxEncodeColumns {
				return c.columnarStreamsOf(t)
			}
			return nil // not a table: a line of many delimiters
		}}, layout{CodecColumnar, "tokens", func() []namedStream {
			if t := tableOf(); len(t.cols) <= maxEncodeColumns/4 {
				if tt := tokenTable(t, c.concurrency); tt != nil && len(tt.cols) <= maxEncodeColumns {
					return c.columnarStreamsOf(tt)
				}
			}
			return nil
		}})
	}
	switch codec {
	case CodecColumnar:
		columnar()
	case CodecQColumnar:
		layouts = append(layouts, layout{CodecQColumnar, "qcolumnar", func() []namedStream {
			if t := c.tableOf(src); len(t.cols) <= maxEncodeColumns {
				return c.qcolStreamsOf(t)
			}
			return nil
		}})
	case CodecQJSON, codecJSONAuto:
		layouts = append(layouts, layout{CodecQJSON, "qjson", func() []namedStream { return c.qjsonStreamsOf(src) }})
		if codec == codecJSONAuto {
			columnar()
		}
	default:
		return nil, codec, nil
	}
	if c.enc.layout != "" {
		layouts = slices.DeleteFunc(layouts, func(l layout) bool { return l.name != c.enc.layout })
	}
	// The columnar layouts' streams are estimated with fast zstd; only
	// those within layoutMargin of the best estimate are packed in full
	// (qjson's blocks are compressed already: it is always packed).
	sets := make([][]namedStream, len(layouts))
	est := make([]int, len(layouts))
	bestEst := -1
	for i, l := range layouts {
		if sets[i] = l.make(); sets[i] == nil || l.codec != CodecColumnar {
			continue
		}
		est[i] = estimateStreams(sets[i], c.concurrency)
		if bestEst < 0 || est[i] < bestEst {
			bestEst = est[i]
		}
	}
	var best []byte
	bestCodec := codec
	for i, l := range layouts {
		streams := sets[i]
		if streams == nil || l.codec == CodecColumnar && float64(est[i]) > layoutMargin*float64(bestEst) {
			continue
		}
		b, err := c.packStreams(nil, streams)
		if err != nil {
			return nil, codec, err
		}
		if best == nil || len(b) < len(best) {
			best, bestCodec = b, l.codec
		}
	}
	return best, bestCodec, nil
}

// layoutMargin: a layout whose zstd estimate is more than this times the
// best one is not packed in full (xz and zstd rank tables alike within
// a few percent).
const layoutMargin = 1.08

// estimateStreams is the size of streams under fast zstd.
func estimateStreams(streams []namedStream, concurrency int) int {
	sizes := make([]int, len(streams))
	parallel(concurrency, len(streams), func(i int) error {
		s := streams[i]
		sizes[i] = len(s.data)
		if len(s.data) >= 64 {
			sizes[i] = min(sizes[i], len(zstdCompress(nil, s.data, 3)))
		}
		return nil
	})
	total := 0
	for _, n := range sizes {
		total += n
	}
	return total
}

// resolveCodec settles codecJSONAuto for a framed file, whose frames
// share one codec: the one that wins on the first MiB of lines.
func (c *config) resolveCodec(codec Codec, first []byte) (Codec, error) {
	if codec != codecJSONAuto {
		return codec, nil
	}
	sample := first[:min(len(first), 1<<20)]
	if len(sample) < len(first) {
		if i := bytes.LastIndexByte(sample, '\n'); i > 0 {
			sample = sample[:i+1]
		}
	}
	b, got, err := c.structuredBody(sample, codec)
	if err != nil || b == nil {
		return CodecQJSON, err
	}
	return got, nil
}

// tableOf splits delimited text (the delimiter and header detected from
// the first lines). Text with no delimiter is a one-column table.
func (c *config) tableOf(src []byte) *table {
	sample := sampleLines(src)
	delim, ok := detectDelim(sample)
	header := false
	if ok {
		header = detectHeader(sample, delim)
	} else {
		delim = absentByte(src)
	}
	return buildTable(src, delim, header)
}

// sampleLines is the first lines of src (up to 1000 lines or 256 KiB).
func sampleLines(src []byte) [][]byte {
	s := src[:min(len(src), 256<<10)]
	if len(s) < len(src) {
		if i := bytes.LastIndexByte(s, '\n'); i > 0 {
			s = s[:i+1]
		}
	}
	ls, _ := lines(s)
	return ls[:min(len(ls), 1000)]
}

// absentByte is a delimiter for one-column text: a control byte that does
// not occur in src, so every line is one field.
func absentByte(src []byte) byte {
	var seen [256]bool
	for _, b := range src {
		seen[b] = true
	}
	for _, b := range []byte{0x1F, 0x1E, 0x1D, 0x1C, 0x00, 0x01, 0x02, 0x03} {
		if !seen[b] {
			return b
		}
	}
	for b := 0; b < 256; b++ {
		if !seen[b] && b != '\n' && b != '"' {
			return byte(b)
		}
	}
	return 0x1F // every byte occurs: lines with it become verbatim rows
}

// chooseCodec picks the structured codec for src (CodecRaw: none).
func (c *config) chooseCodec(src []byte) Codec {
	if c.enc.codec != CodecAuto {
		return c.enc.codec
	}
	if len(src) == 0 {
		return CodecRaw
	}
	sample := sampleLines(src)
	if isJSONLines(sample) {
		return codecJSONAuto
	}
	return CodecColumnar
}

// isJSONLines reports whether most sample lines are JSON objects.
func isJSONLines(sample [][]byte) bool {
	n, obj := 0, 0
	for _, l := range sample {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		n++
		if l[0] == '{' && l[len(l)-1] == '}' {
			obj++
		}
	}
	return n > 0 && obj*10 >= n*9
}

// packStreams compresses the streams (in parallel, each with the smallest
// backend) and appends the packed stream set.
func (c *config) packStreams(dst []byte, streams []namedStream) ([]byte, error) {
	out := make([]packed, len(streams))
	err := parallel(c.concurrency, len(streams), func(i int) error {
		s := streams[i]
		if s.stored {
			out[i] = packed{BackendStored, s.data}
			return nil
		}
		p, err := smallest(s.data, c.enc.level, c.enc.xzExtreme())
		out[i] = p
		return err
	})
	if err != nil {
		return nil, err
	}
	// An empty stream is left out: a missing stream reads as empty (the
	// reference's rule too), and each entry costs its name and 2 bytes.
	n := 0
	for _, s := range streams {
		if len(s.data) > 0 {
			n++
		}
	}
	dst = varint.Append(dst, uint64(n))
	for i, s := range streams {
		if len(s.data) == 0 {
			continue
		}
		dst = varint.Append(dst, uint64(len(s.name)))
		dst = append(dst, s.name...)
		dst = append(dst, out[i].backend)
		dst = varint.Append(dst, uint64(len(out[i].data)))
		dst = append(dst, out[i].data...)
	}
	return dst, nil
}

// chunks cuts src into pieces of at most size bytes, each ending just
// after a '\n' when there is one in range.
func chunks(src []byte, size int64) [][]byte {
	var out [][]byte
	for int64(len(src)) > size {
		cut := int(size)
		if i := bytes.LastIndexByte(src[:cut], '\n'); i >= 0 {
			cut = i + 1
		}
		out = append(out, src[:cut])
		src = src[cut:]
	}
	if len(src) > 0 {
		out = append(out, src)
	}
	return out
}

// encodeFramed writes a framed (AT1\x03) container: the codec is chosen
// from the first chunk, and each frame is structured or raw, whichever is
// smaller. Frames are encoded in parallel.
func (c *config) encodeFramed(dst, src []byte) ([]byte, error) {
	parts := chunks(src, c.enc.chunkSize)
	codec, err := c.resolveCodec(c.chooseCodec(parts[0]), parts[0])
	if err != nil {
		return nil, err
	}
	inner := *c
	inner.concurrency = 1
	frames := make([][]byte, len(parts))
	var done atomic.Int64
	var mu sync.Mutex
	err = parallel(c.concurrency, len(parts), func(i int) error {
		f, err := inner.frame(parts[i], codec)
		frames[i] = f
		if c.enc.progress != nil {
			mu.Lock()
			c.enc.progress(done.Add(int64(len(parts[i]))), int64(len(src)))
			mu.Unlock()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	dst = append(dst, MagicFramed...)
	dst = append(dst, byte(frameCodec(codec, frames)))
	dst = varint.Append(dst, uint64(bytes.Count(parts[0], []byte{'\n'})))
	for _, f := range frames {
		dst = varint.Append(dst, uint64(len(f)))
		dst = append(dst, f...)
	}
	return dst, nil
}

// frameCodec is the codec byte of a framed file: RAW when every frame is
// raw.
func frameCodec(codec Codec, frames [][]byte) Codec {
	for _, f := range frames {
		if f[0] == methodStructured {
			return codec
		}
	}
	return CodecRaw
}

// frame encodes one chunk as a frame payload: method 0 and a stream set,
// or method 1, a backend byte and data, whichever is smaller.
func (c *config) frame(chunk []byte, codec Codec) ([]byte, error) {
	structured, _, body, err := c.encodeUnit(chunk, codec)
	if err != nil {
		return nil, err
	}
	if structured {
		return append([]byte{methodStructured}, body...), nil
	}
	return append([]byte{methodRaw}, body...), nil
}
