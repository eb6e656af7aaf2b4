package at1

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"

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
	// est, when not nil, is what estimateStreams measures instead of
	// data: a values stream with columns xzRank chose is estimated with
	// pickChunk's choices (fast zstd ranks layouts as zstd ranks
	// columns). layoutsOf drops it once estimated.
	est []byte
}

// Encode writes src as an AT-1 file that decodes to exactly src: a
// whole-file container when src fits one chunk (WithChunkSize), else a
// framed one. See WithCodec for the codecs; any bytes at all round-trip.
func Encode(src []byte, opts ...Option) ([]byte, error) {
	return AppendEncode(nil, src, opts...)
}

// AppendEncode appends the AT-1 encoding of src to dst.
func AppendEncode(dst, src []byte, opts ...Option) ([]byte, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	c := cfg.encoder()
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
	// A framed output's frames were each checked as they were made.
	if c.enc.verify && int64(len(src)) <= c.enc.chunkSize {
		if err := c.verify(dst[start:], src); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// verify decodes an encoded file with limits sized for it and compares.
func (c *encoder) verify(file, want []byte) error {
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

// verifier is the decoder that checks an encoding of n bytes: limits
// sized for it, the strict checks on.
func (c *encoder) verifier(n int64) *decoder {
	v := &decoder{config: config{
		// Column text counts a separator per value: leave room.
		maxDecoded:  2*n + 1024,
		maxStream:   maxStreamLimit,
		maxStreams:  DefaultMaxStreams,
		maxDict:     1 << 30,
		memoryLimit: 1 << 48,
		strict:      true,
		concurrency: c.concurrency,
	}}
	return v
}

// encodeWhole writes a whole-file (AT1\x02) container: the structured
// encoding when it is smaller than RAW, else RAW.
func (c *encoder) encodeWhole(dst, src []byte) ([]byte, error) {
	chosen := c.chooseCodec(src)
	structured, codec, body, first, err := c.encodeUnit(src, chosen)
	if err != nil {
		return nil, err
	}
	if s, cd, b, err := c.underXZ9e(src, structured, chosen, body, first); err != nil {
		return nil, err
	} else if b != nil {
		structured, codec, body = s, cd, b
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
// the RAW payload (backend byte and data).
//
// Plain xz is tried as RAW always (WithXZBaseline(true)), only when the
// structured encoding does not beat plain zstd and stored
// (WithXZBaseline(false)), or, by default, unless an estimate of it
// (xzEstimate) says the structured encoding is well below it.
//
// The work runs in two rounds, each on up to c.concurrency goroutines:
// first the plain zstd, the plain xz estimate and the layouts (built,
// estimated and pruned, see layoutsOf); then one pool of every kept
// layout's streams and the plain xz, largest first, so that one big xz
// job does not leave the other core idle. The plain xz joins the pool
// when it is needed or, by the estimates, likely to be (with one
// goroutine it waits until it is known to be needed). Which results are
// kept never depends on the scheduling: the output is the same for any
// concurrency.
//
// codec may be codecJSONAuto (whole files only): the codec of the
// structured encoding is returned. first is src compressed plain with
// xzTuned's first model when that was made (xzFirst), else nil.
func (c *encoder) encodeUnit(src []byte, codec Codec) (structured bool, _ Codec, body, first []byte, err error) {
	defer zstdHold()()
	always := codec == CodecRaw || c.enc.xzBaseline && c.enc.xzBaselineSet
	estimate := !always && c.enc.xzBaseline
	level, extreme := c.enc.level, c.enc.xzExtreme()
	var (
		raw0    packed // plain stored or zstd
		layouts []layoutSet
		zest    = -1 // the columnar layouts' best zstd estimate
	)
	err = parallel(min(c.concurrency, 2), 2, func(i int) error {
		var err error
		if i == 0 {
			raw0 = smallestNoXZ(src, level)
		} else if codec != CodecRaw {
			layouts, zest, err = c.layoutsOf(src, codec, pickKept)
		}
		return err
	})
	if err != nil {
		return false, codec, nil, nil, err
	}
	// The plain xz joins the pool when it is needed whatever the
	// structure gives, or, by default, when the structure is not
	// predicted to beat it by far: its zstd estimate is at least
	// xzNowRatio times the plain zstd. Otherwise the pool estimates it
	// (xzEstimate), and it is made after the pool only when the
	// structure is not under the skip ratio times the estimate. The
	// prediction does not depend on the concurrency.
	xzCan := xzCanWin(raw0, src)
	xzNow := always && xzCan
	estNow := false
	if estimate && xzCan {
		xzNow = len(layouts) == 0 || zest < 0 || float64(zest) >= xzNowRatio*float64(len(raw0.data))
		estNow = !xzNow
	}
	var (
		rawXZ   = raw0
		rawDone = !xzCan
		est     = -1    // estimated plain xz size
		ratio   float64 // the skip ratio for est
	)
	var extra func() error
	switch {
	case xzNow:
		extra = func() error {
			var err error
			rawXZ, first, err = smallestXZFirst(raw0, src, level, extreme, nil, true)
			rawDone = true
			return err
		}
	case estNow:
		extra = func() error {
			var err error
			est, ratio, first, err = c.plainXZEstimate(src, raw0, xzSampled(len(src), zest, len(raw0.data)))
			return err
		}
	}
	sets, err := c.packLayouts(layouts, extra, len(src))
	if err != nil {
		return false, codec, nil, nil, err
	}
	s, codec := smallestSet(sets, layouts, codec)
	if s != nil && (len(s) < 1+len(raw0.data) || c.enc.force) {
		switch {
		case !always && !estimate: // WithXZBaseline(false)
			return true, codec, s, first, nil
		case estNow && float64(len(s)) < ratio*float64(est):
			return true, codec, s, first, nil
		case estNow && first == nil && len(src) <= xzExactMax:
			// The samples did not decide: the exact estimate, as when
			// not sampled (smallestXZFirst below reuses it).
			if first, err = xzFirst(src, level, extreme); err != nil {
				return false, codec, nil, nil, err
			}
			if float64(len(s)) < xzSkipRatioExact*float64(min(len(first), len(raw0.data))) {
				return true, codec, s, first, nil
			}
		}
	}
	if !rawDone {
		if rawXZ, first, err = smallestXZFirst(raw0, src, level, extreme, first, true); err != nil {
			return false, codec, nil, nil, err
		}
	}
	if s != nil && (len(s) < 1+len(rawXZ.data) || c.enc.force) {
		if first == nil && rawXZ.backend == BackendXZ && len(src) <= xzSearchMax &&
			float64(len(s)) > xzNearPlain*float64(1+len(rawXZ.data)) {
			// So close to the plain xz, whose model was chosen on pieces,
			// that xz -9e could be smaller: make xz's own model's stream,
			// which gives its size (underXZ9e).
			if first, err = xzFirst(src, level, extreme); err != nil {
				return false, codec, nil, nil, err
			}
		}
		return true, codec, s, first, nil
	}
	return false, codec, append([]byte{rawXZ.backend}, rawXZ.data...), first, nil
}

// xzNearPlain: a structured encoding over this share of the plain xz
// (made with a model chosen on pieces of the input) has its input
// compressed with xz's own model as well, to know xz -9e's size. A model
// chosen on pieces was up to 2% off on the whole input on the files
// measured (see xzExactTrialMax).
const xzNearPlain = 0.97

// The plain-xz estimate (xzSampled): inputs up to xzSampledMin bytes
// are compressed whole with xzTuned's first model (exact for that model;
// the skip ratio xzSkipRatioExact leaves room for the others), so that
// the bound on plain xz holds without a sampled guess (a whole file
// compresses better than its samples, and small files are where the
// container's 42 bytes count); inputs over xzExactMax are sampled as
// xzSamples pieces of up to xzSampleSize bytes (at most an eighth of the
// input each) spread evenly, and the plain xz is skipped when the
// structured encoding is under xzSkipRatio times the estimate.
//
// In between, the samples come first only when the layouts' zstd
// estimate is under xzSampleZstd times the plain zstd, so that they
// likely decide; when they do not, the exact estimate is made after them
// and decides as when not sampled. The exact pass was a third of the
// encode CPU of sp500-2000.csv (416 KB, 0.58x xz -9e; layouts' zstd 0.50
// of the plain zstd). On the 37 real files between 64 KiB and 1 MiB, the
// samples decide all 19 of ratio 0.19-0.74 (structures 0.30-0.74 of the
// sampled estimate). The 7 of 0.79-0.90 (structures 0.72-0.85 of the
// exact estimate; Unihan_Variants.tsv, iso_3166-2.jsonl,
// world-countries.jsonl, airports.csv...) are not sampled, as the
// samples would not have decided most of them and they would have paid
// both; the other 11, from 0.91, make the plain xz at once (xzNowRatio).
// Until 2026-12-01 every input up to xzExactMax was estimated exactly.
//
// xzNowRatio: the plain xz is made at once, beside the layouts, when
// the layouts' zstd estimate is at least this times the plain zstd.
// Until 2026-11-28 it was 0.95 times the skip ratio (0.71 for sampled
// inputs), which made it on files the structure beats by far:
// airport-codes.csv (layouts' zstd 0.80 of the plain zstd; the output
// is 0.79 of the plain xz), emoji-datasource.jsonl (0.72; 0.75),
// cities-admin2.jsonl (0.73; 0.84), up to 45% of their encode CPU. Of
// 15 files over 1 MiB the estimate erred high on all, by 1.003 to
// 1.23 (the skip ratio leaves room for 1.33), and the three the
// structure does not beat by much (oui.csv and a package list at 0.97
// of the plain xz, pci.ids 1.03) have layouts' zstd 0.96 to 1.09 of the
// plain zstd.
const xzNowRatio = 0.9

const (
	xzSampledMin     = 64 << 10
	xzSampleZstd     = 0.75
	xzExactMax       = 1 << 20
	xzSamples        = 4
	xzSampleSize     = 128 << 10
	xzSkipRatio      = 0.75
	xzSkipRatioExact = 0.95
)

// plainXZEstimate is xzEstimate capped by raw0, the plain zstd or
// stored of src: samples miss repeats farther apart than they are (a
// file twice over), which the plain zstd sees, and plain xz is no larger
// than it on any input measured.
func (c *encoder) plainXZEstimate(src []byte, raw0 packed, sampled bool) (est int, ratio float64, first []byte, err error) {
	est, ratio, first, err = c.xzEstimate(src, sampled)
	return min(est, len(raw0.data)), ratio, first, err
}

// xzSampled reports whether the plain xz of an input of n bytes is
// estimated by samples first, given the layouts' zstd estimate zest and
// the plain zstd's size.
func xzSampled(n, zest, plainZstd int) bool {
	return n > xzExactMax || n > xzSampledMin && float64(zest) < xzSampleZstd*float64(plainZstd)
}

// xzEstimate is the size plain xz would give src and the ratio under
// which a structured encoding skips it: unless sampled, the size with
// xzTuned's first model (first: that stream, for xzTuned to reuse);
// else extrapolated from xz of samples (one at the start, the others
// spread evenly). The samples use the level without its extreme variant
// (several times cheaper on repetitive data, a few percent to 15%
// larger: the estimate errs high, which the skip ratio's margin absorbs).
func (c *encoder) xzEstimate(src []byte, sampled bool) (est int, ratio float64, first []byte, err error) {
	if !sampled {
		first, err = xzFirst(src, c.enc.level, c.enc.xzExtreme())
		return len(first), xzSkipRatioExact, first, err
	}
	n := min(xzSampleSize, len(src)/(2*xzSamples))
	var sample []byte
	step := (len(src) - n) / (xzSamples - 1)
	for i := 0; i < xzSamples; i++ {
		off := i * step
		sample = append(sample, src[off:off+n]...)
	}
	x, err := xzCompress(nil, sample, c.enc.level, false)
	if err != nil {
		return 0, 0, nil, err
	}
	return int(float64(len(x)) * float64(len(src)) / float64(len(sample))), xzSkipRatio, nil, nil
}

// codecJSONAuto is chooseCodec's answer for JSON Lines under CodecAuto:
// the smaller of qjson and columnar token tables (never on the wire).
const codecJSONAuto Codec = 253

// layoutSet is one candidate layout's streams, laid out and not yet
// compressed.
type layoutSet struct {
	codec   Codec
	streams []namedStream
}

// structuredBody is the packed stream set of src under codec (nil when
// the codec does not apply to src) and the codec it is in: the smallest
// of the candidate layouts pick selects (layoutsOf).
func (c *encoder) structuredBody(src []byte, codec Codec, pick layoutPick) ([]byte, Codec, error) {
	layouts, _, err := c.layoutsOf(src, codec, pick)
	if err != nil {
		return nil, codec, err
	}
	sets, err := c.packLayouts(layouts, nil, 0)
	if err != nil {
		return nil, codec, err
	}
	best, bestCodec := smallestSet(sets, layouts, codec)
	return best, bestCodec, nil
}

// smallestSet is the smallest of the packed stream sets (the first of
// equals; nil when none was packed) and its layout's codec (codec when
// none).
func smallestSet(sets [][]byte, layouts []layoutSet, codec Codec) ([]byte, Codec) {
	var best []byte
	for i, b := range sets {
		if b != nil && (best == nil || len(b) < len(best)) {
			best, codec = b, layouts[i].codec
		}
	}
	return best, codec
}

// layoutsOf lays src out as each candidate layout of codec (none when
// the codec does not apply to src) and keeps those worth packing in
// full, with the best zstd estimate of the columnar ones (-1: none);
// pick may ask for the others instead, or for all.
// Columnar tries the table as split and its token table (see
// tokenTable), or for JSON Lines the token table of the line shape;
// codecJSONAuto tries qjson and the columnar ones. The columnar layouts'
// streams are estimated with fast zstd, and those within layoutMargin of
// the best are kept. qjson's blocks are compressed already: it is always
// packed.
func (c *encoder) layoutsOf(src []byte, codec Codec, pick layoutPick) ([]layoutSet, int, error) {
	type layout struct {
		codec Codec
		name  string // for tests: encConfig.layout keeps one
		make  func() []namedStream
		// plan, when set instead of make (qjson beside the columnar
		// layouts), splits the input, estimates it and returns how to
		// finish it: a layout whose streams cost a full compression to
		// make is only made when the estimates keep it.
		plan func() (est int, finish func() []namedStream)
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
				}, nil})
			}
			return
		}
		if isJSONLines(sampleLines(src)) {
			layouts = append(layouts, layout{CodecColumnar, "jsontokens", func() []namedStream {
				if t := jsonTokenTable(src, c.concurrency); t != nil && len(t.cols) <= maxEncodeColumns {
					return c.columnarStreamsOf(t)
				}
				return nil
			}, nil}, layout{CodecColumnar, "jsonunion", func() []namedStream {
				if t := jsonUnionTable(src, c.concurrency); t != nil && len(t.cols) <= maxEncodeColumns {
					return c.columnarStreamsOf(t)
				}
				return nil
			}, nil})
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
		}, nil}, layout{CodecColumnar, "tokens", func() []namedStream {
			// The last layout of the table: the columns tt cuts are
			// garbage once it is made (tt keeps those it takes whole).
			tab := tableOf()
			t = nil
			if len(tab.cols) <= maxEncodeColumns/4 {
				if tt := tokenTable(tab, c.concurrency); tt != nil && len(tt.cols) <= maxEncodeColumns {
					return c.columnarStreamsOf(tt)
				}
			}
			return nil
		}, nil})
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
		}, nil})
	case CodecQJSON:
		layouts = append(layouts, layout{CodecQJSON, "qjson", func() []namedStream { return c.qjsonStreamsOf(src) }, nil})
	case codecJSONAuto:
		layouts = append(layouts, layout{codec: CodecQJSON, name: "qjson", plan: func() (int, func() []namedStream) {
			if p := c.qjsonPlanOf(src); p != nil {
				return p.estimate(), p.streams
			}
			return -1, nil
		}})
		columnar()
	default:
		return nil, -1, nil
	}
	if c.enc.layout != "" {
		layouts = slices.DeleteFunc(layouts, func(l layout) bool { return l.name != c.enc.layout })
	}
	sets := make([][]namedStream, len(layouts))
	finish := make([]func() []namedStream, len(layouts))
	est := make([]int, len(layouts)) // -1: not estimated (always packed)
	for i, l := range layouts {
		est[i] = -1
		if l.plan != nil {
			est[i], finish[i] = l.plan()
			continue
		}
		if sets[i] = l.make(); sets[i] != nil && l.codec == CodecColumnar {
			est[i] = estimateStreams(sets[i], c.concurrency)
		}
		for j := range sets[i] {
			sets[i][j].est = nil
		}
	}
	keep, bestEst := keptLayouts(est)
	for i := range keep {
		switch pick {
		case pickPruned:
			keep[i] = !keep[i]
		case pickAll:
			keep[i] = true
		}
	}
	var out []layoutSet
	for i := range layouts {
		if keep[i] && finish[i] != nil {
			sets[i] = finish[i]()
		}
		if sets[i] != nil && keep[i] {
			out = append(out, layoutSet{layouts[i].codec, sets[i]})
		}
	}
	return out, bestEst, nil
}

// layoutPick is which layouts layoutsOf returns.
type layoutPick int

const (
	pickKept   layoutPick = iota // those keptLayouts keeps
	pickPruned                   // the others
	pickAll
)

// keptLayouts is which layouts of zstd estimates est are packed in full
// (an estimate of -1 is a layout packed whatever the estimates) and the
// best estimate (-1: none): those within layoutMargin of the best.
func keptLayouts(est []int) (keep []bool, bestEst int) {
	bestEst, best := -1, -1
	for i, e := range est {
		if e >= 0 && (best < 0 || e < bestEst) {
			bestEst, best = e, i
		}
	}
	keep = make([]bool, len(est))
	for i, e := range est {
		f := float64(e)
		keep[i] = e < 0 || i == best || f <= layoutMargin*float64(bestEst)
	}
	return keep, bestEst
}

// layoutMargin: a layout whose zstd estimate is more than this times the
// best one is not packed (xz and zstd rank tables alike within a few
// percent). Layouts closer than that are all packed, however close: on
// seattle-weather-hourly-normals.csv the split table and the token table
// are 0.17% apart under zstd, 0.5% under plain xz -1 and -3 of their
// streams, and 16% apart as packed (each stream's own literal model).
// (Ranking them by xz of samples of the streams instead, also tried: off
// by 5-15%, and wrong on movies.jsonl by 10%.)
const layoutMargin = 1.08

// packLayouts packs each layout's stream set. Every stream of every
// layout is one job of a pool of c.concurrency goroutines, largest
// first; extra, when not nil, is one more job of extraSize bytes
// (encodeUnit's plain xz or its estimate).
func (c *encoder) packLayouts(layouts []layoutSet, extra func() error, extraSize int) ([][]byte, error) {
	type job struct{ set, stream, size, cut int }
	type ref struct{ set, stream int }
	type key struct {
		sum [32]byte
		cut int
	}
	var jobs []job
	// Layouts share streams (a column laid out the same way in both, the
	// meta stream), and a layout can hold one twice: each distinct
	// stream is packed once, and its copies take its result.
	first := make(map[key]ref)
	var copies [][2]ref
	out := make([][]packed, len(layouts))
	for i, l := range layouts {
		out[i] = make([]packed, len(l.streams))
		vi, cut := -1, 0
		if l.codec == CodecColumnar {
			vi, cut = valuesCut(l.streams)
		}
		for k, s := range l.streams {
			if s.stored || len(s.data) == 0 {
				out[i][k] = packed{BackendStored, s.data}
				continue
			}
			kc := 0
			if k == vi {
				kc = cut
			}
			key := key{sha256.Sum256(s.data), kc}
			if r, ok := first[key]; ok {
				copies = append(copies, [2]ref{{i, k}, r})
				continue
			}
			first[key] = ref{i, k}
			jobs = append(jobs, job{i, k, len(s.data), kc})
		}
	}
	if extra != nil {
		jobs = append(jobs, job{-1, 0, extraSize, 0})
	}
	slices.SortStableFunc(jobs, func(a, b job) int { return b.size - a.size })
	err := parallel(c.concurrency, len(jobs), func(j int) error {
		if c.jobs != nil {
			c.jobs <- struct{}{}
			defer func() { <-c.jobs }()
		}
		jb := jobs[j]
		if jb.set < 0 {
			return extra()
		}
		p, err := smallestCut(layouts[jb.set].streams[jb.stream].data, c.enc.level, c.enc.xzExtreme(), jb.cut, c.concurrency)
		out[jb.set][jb.stream] = p
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, c := range copies {
		out[c[0].set][c[0].stream] = out[c[1].set][c[1].stream]
	}
	sets := make([][]byte, len(layouts))
	for i, l := range layouts {
		sets[i] = appendStreamSet(nil, l.streams, out[i])
	}
	return sets, nil
}

// estimateStreams is the size of streams under fast zstd.
func estimateStreams(streams []namedStream, concurrency int) int {
	sizes := make([]int, len(streams))
	parallel(concurrency, len(streams), func(i int) error {
		data := streams[i].data
		if streams[i].est != nil {
			data = streams[i].est
		}
		sizes[i] = len(data)
		if len(data) >= 64 {
			sizes[i] = min(sizes[i], len(zstdCompress(nil, data, 3)))
		}
		return nil
	})
	total := 0
	for _, n := range sizes {
		total += n
	}
	return total
}

// packStreams compresses the streams (in parallel, each with the smallest
// backend) and appends the packed stream set.
func (c *encoder) packStreams(dst []byte, streams []namedStream) ([]byte, error) {
	sets, err := c.packLayouts([]layoutSet{{streams: streams}}, nil, 0)
	if err != nil {
		return nil, err
	}
	return append(dst, sets[0]...), nil
}

// resolveCodec settles codecJSONAuto for a framed file, whose frames
// share one codec: the one that wins on the first MiB of lines.
func (c *encoder) resolveCodec(codec Codec, first []byte) (Codec, error) {
	if codec != codecJSONAuto {
		return codec, nil
	}
	sample := first[:min(len(first), 1<<20)]
	if len(sample) < len(first) {
		if i := bytes.LastIndexByte(sample, '\n'); i > 0 {
			sample = sample[:i+1]
		}
	}
	b, got, err := c.structuredBody(sample, codec, pickKept)
	if err != nil || b == nil {
		return CodecQJSON, err
	}
	return got, nil
}

// tableOf splits delimited text (the delimiter and header detected from
// the first lines). Text with no delimiter is a one-column table.
func (c *encoder) tableOf(src []byte) *table {
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
func (c *encoder) chooseCodec(src []byte) Codec {
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

// appendStreamSet appends the packed stream set of streams, each
// compressed as packed.
func appendStreamSet(dst []byte, streams []namedStream, packed []packed) []byte {
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
		dst = append(dst, packed[i].backend)
		dst = varint.Append(dst, uint64(len(packed[i].data)))
		dst = append(dst, packed[i].data...)
	}
	return dst
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

// encodeFramed writes a framed (AT1\x03) container through the Writer's
// pipeline: the codec is chosen from the first chunk, each frame is
// structured or raw, whichever is smaller, up to WithConcurrency frames
// are encoded at once, and each is decoded and compared as it is made
// (unless WithVerify(false)). The header says RAW when every frame is.
func (c *encoder) encodeFramed(dst, src []byte) ([]byte, error) {
	out := bytes.NewBuffer(dst)
	z := newWriter(c, out)
	z.borrowed, z.total = true, int64(len(src))
	for _, part := range chunks(src, c.enc.chunkSize) {
		if err := z.submit(part); err != nil {
			z.drain()
			return nil, err
		}
	}
	if err := z.flush(); err != nil {
		z.drain()
		return nil, err
	}
	b := out.Bytes()
	if z.stats.RawFrames == z.stats.Frames {
		b[len(dst)+len(MagicFramed)] = byte(CodecRaw)
	}
	return b, nil
}

// frame encodes one chunk as a frame payload: method 0 and a stream set,
// or method 1, a backend byte and data, whichever is smaller.
func (c *encoder) frame(chunk []byte, codec Codec) ([]byte, error) {
	structured, _, body, _, err := c.encodeUnit(chunk, codec)
	if err != nil {
		return nil, err
	}
	if structured {
		return append([]byte{methodStructured}, body...), nil
	}
	return append([]byte{methodRaw}, body...), nil
}
