package at1

import (
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/colfmt/colfmt/internal/xz"
	"github.com/colfmt/colfmt/internal/zstdenc"
)

// The encoder's backends. Each stream (and block, and raw payload) is
// written with the smallest of xz, zstd and stored.

// xzCheck is the integrity check of the xz streams the encoder writes:
// none, as zstd frames carry no checksum either. The container's SHA-256
// trailer, which the encoder always writes and both decoders verify,
// covers the whole output. The reference decoder opens each xz stream
// with liblzma's lzma_stream_decoder and flags 0, which accepts check
// type None (with LZMA_TELL_NO_CHECK it would not), and so do Python's
// lzma and internal/xz; the tests' AT1_REFERENCE_DECODER cross-check
// runs the reference on every encoding they make. Against CRC32 (used until
// 2026-11-28, itself 4 bytes less than xz's default CRC64) it saves 4
// bytes per xz stream and the CRC's share of the decode.
const xzCheck = xz.CheckNone

// xzCompress appends one .xz stream (no check: xzCheck) holding src to dst at
// level 1..9, the xz preset of that number (its extreme variant, as
// xz -9e, when extreme). It is the pure-Go encoder of
// internal/xz (whose output is within 0.2% of liblzma's at the same
// preset); blocks are compressed one at a time, as the callers already
// work in parallel.
func xzCompress(dst, src []byte, level int, extreme bool) ([]byte, error) {
	return xz.AppendEncode(dst, src, xz.WithPreset(level), xz.WithExtreme(extreme), xz.WithCheck(xzCheck))
}

// xzModels are the LZMA literal models (lc, pb) xzTuned tries: xz's
// default first (it wins ties), then pb=0 with lc 3 and 4, which suit
// text (no 2- or 4-byte alignment); 0.1-1% smaller on most tables and
// text, which is what keeps small text files under xz -9e once the
// container's 42 bytes are added.
var xzModels = []xz.LiteralModel{{LC: 3, LP: 0, PB: 2}, {LC: 3, LP: 0, PB: 0}, {LC: 4, LP: 0, PB: 0}}

// xzModelsExact are the models tried on inputs small enough to be their
// own trial: lc 1 and 2 as well, which suit values streams of varint
// deltas and dictionary indices (1-2% on small token tables; judged on
// samples of larger streams they chose worse than the three above).
var xzModelsExact = []xz.LiteralModel{{LC: 3, LP: 0, PB: 2}, {LC: 3, LP: 0, PB: 0}, {LC: 4, LP: 0, PB: 0}, {LC: 1, LP: 0, PB: 0}, {LC: 2, LP: 0, PB: 0}}

// xzModelsWhole are the models tried on a whole input small enough to be
// its own trial, when it is compressed plain (the RAW candidate): the
// exact ones and three with literal position bits or pb=1, which won on
// binary files and some text (on the 300 small files of /usr/share,
// where AT-1's 42 bytes of container can put a file over xz -9e, they
// saved 403 bytes on 28 files; a full grid of lc/lp/pb would have saved
// 33 more). Columns' streams do not try them: they never won there by
// more than a few bytes.
var xzModelsWhole = append(xzModelsExact[:len(xzModelsExact):len(xzModelsExact)],
	xz.LiteralModel{LC: 0, LP: 1, PB: 2}, xz.LiteralModel{LC: 0, LP: 0, PB: 1}, xz.LiteralModel{LC: 0, LP: 2, PB: 0})

// xzExactTrialMax is the largest input xzTuned compresses whole with
// each model of xzModelsExact to keep the smallest (one match-finder
// pass); larger ones are judged by xzTrialPieces pieces spread evenly
// over them, xzTrialMax bytes in all (a values stream holds its columns
// one after another), with xzModels. Inputs under xzTrialMin bytes take
// xz's model untried (until 2026-11-28 the floor was 1 KiB: a 752-byte
// keymap was 25 bytes smaller with lc=1).
//
// Until 2026-12-01 the whole trial stopped at xzTrialMax. On 91 streams
// of 64 KiB to 5 MB (the vega, JSON Lines and corpus sets), the pieces
// chose a model larger on the whole stream than the best of
// xzModelsExact by 0.20% in all, by 0.3-2% on values streams of digits
// that lc1 or lc2 suits. Trying inputs up to 256 KiB whole made 15 of
// 74 files 0.1-2.0% smaller (quoted-birdstrikes.csv 2.0%, randhie.csv
// 1.3%, species.csv 1.1%, sp500-2000.csv 0.8%) and none larger, for
// 0.98-1.21x their encode CPU; 1.95x on 259 KB of random words, whose
// matches are many and which stays RAW (1.48x if the RAW candidate kept
// its pieces, but then a column could be compressed better than the
// same bytes as the plain xz the output is bounded by). Up to 512 KiB,
// 20 files smaller, for up to 2.35x (mam.csv).
const (
	xzTrialMin      = 128
	xzTrialMax      = 64 << 10
	xzExactTrialMax = 256 << 10
	xzTrialPieces   = 4
)

// xzTuned is xzCompress with the literal model chosen per input: each
// model in xzModels compresses the input (or xzTrialMax bytes sampled
// from it) and the smallest is kept (or used for the whole input). Only levels
// 6..9 tune; below that the trials would cost more than the level saves.
// first, when not nil, is src already compressed with the first model
// (xzFirst): it is used instead of compressing again. whole: src is the
// whole input, compressed plain (xzModelsWhole).
func xzTuned(dst, src []byte, level int, extreme bool, first []byte, whole bool) ([]byte, error) {
	out, _, err := xzTunedCut(dst, src, level, extreme, first, whole, 0, 1)
	return out, err
}

// xzTunedCut is xzTuned that, when cut > 0 and src is larger than
// xzTrialMax, writes src as two xz blocks, the second starting at cut,
// both with the model the trial chose, compressed at once when conc > 1
// (a decoder can decode them at once: see valuesCut). The output does
// not depend on conc. It also returns src compressed with the first
// model (xzFirst) when it was made or given, else nil.
func xzTunedCut(dst, src []byte, level int, extreme bool, first []byte, whole bool, cut, conc int) (out, firstOut []byte, err error) {
	if level < 6 || len(src) < xzTrialMin {
		if cut > 0 && len(src) > xzTrialMax {
			out, err = xz.AppendEncode(dst, src, xz.WithPreset(level), xz.WithExtreme(extreme), xz.WithCheck(xzCheck),
				xz.WithBlockCuts(cut), xz.WithConcurrency(min(max(conc, 1), 2)))
			return out, first, err
		}
		if first == nil {
			if first, err = xzCompress(nil, src, level, extreme); err != nil {
				return nil, nil, err
			}
		}
		best, err := xzPolish(first, src, level, extreme, xzModels[0])
		return append(dst, best...), first, err
	}
	trial := src
	if len(src) > xzExactTrialMax || (cut > 0 && len(src) > xzTrialMax) {
		trial = spreadSample(src, xzTrialMax, xzTrialPieces)
	}
	models := xzModels
	if len(trial) == len(src) {
		models = xzModelsExact
		if whole && len(src) <= xzTrialMax {
			models = xzModelsWhole
		}
	}
	// The trials share one match-finder pass (xz.EncodeModels); the
	// first model's stream is first when given.
	reuse := first != nil && len(trial) == len(src)
	run := models
	if reuse {
		run = models[1:]
	}
	xs, err := xz.EncodeModels(trial, run, xz.WithPreset(level), xz.WithExtreme(extreme), xz.WithCheck(xzCheck))
	if err != nil {
		return nil, nil, err
	}
	if reuse {
		xs = append([][]byte{first}, xs...)
	}
	if len(trial) == len(src) {
		first = xs[0]
	}
	var best []byte
	bestModel := 0
	for i, x := range xs {
		if best == nil || len(x) < len(best) {
			best, bestModel = x, i
		}
	}
	if len(trial) == len(src) {
		best, err = xzPolish(best, src, level, extreme, models[bestModel])
		return append(dst, best...), first, err
	}
	if cut > 0 {
		m := xzModels[bestModel]
		out, err = xz.AppendEncode(dst, src, xz.WithPreset(level), xz.WithExtreme(extreme), xz.WithLiteralModel(m.LC, m.LP, m.PB),
			xz.WithCheck(xzCheck), xz.WithBlockCuts(cut), xz.WithConcurrency(min(max(conc, 1), 2)),
			xz.WithArrivals(xzArrivals(level, extreme)))
		return out, first, err
	}
	var x []byte
	if bestModel == 0 && first != nil {
		x = first
	} else {
		if x, err = xzModel(nil, src, level, extreme, xzModels[bestModel]); err != nil {
			return nil, nil, err
		}
		if bestModel == 0 {
			first = x
		}
	}
	x, err = xzPolish(x, src, level, extreme, xzModels[bestModel])
	return append(dst, x...), first, err
}

// levelNineArrivals is how many arrivals per position the multi-arrival
// parser (xz.WithArrivals) keeps on the xz streams written at level 9
// (extreme): level 9 is otherwise xz -9e, which differs from -6e only by
// its dictionary, so it would be no smaller than level 6 under 8 MiB.
// On the 74 files of the encode list, level 9 with 4 arrivals is 0.51%
// smaller than level 6 (59 files 0.02-3.9% smaller, emp.txt 0.45%
// larger) for 1.9x the encode CPU. Measured before the parser tried
// match+literal+rep0: 8 arrivals gave 0.06% more than 4 for 1.15x the
// CPU on the 44 files under 400 KB.
const levelNineArrivals = 4

// xzArrivals is the parser breadth (xz.WithArrivals) of the xz streams
// the encoder writes at level (1: liblzma's parser).
func xzArrivals(level int, extreme bool) int {
	if level == 9 && extreme {
		return levelNineArrivals
	}
	return 1
}

// xzPolish returns the smaller of x (src compressed with model m by
// liblzma's parser) and src compressed with m by the multi-arrival
// parser, at the levels that use it (xzArrivals); else x. x stays the
// stream whose size is xz -9e's (the bound of encode_xz9e.go), so the
// multi-arrival stream is made apart and kept only when smaller.
func xzPolish(x, src []byte, level int, extreme bool, m xz.LiteralModel) ([]byte, error) {
	k := xzArrivals(level, extreme)
	if k == 1 || len(src) < xzTrialMin {
		return x, nil
	}
	y, err := xz.AppendEncode(nil, src, xz.WithPreset(level), xz.WithExtreme(extreme), xz.WithLiteralModel(m.LC, m.LP, m.PB),
		xz.WithCheck(xzCheck), xz.WithArrivals(k))
	if err != nil || len(y) >= len(x) {
		return x, err
	}
	return y, nil
}

// spreadSample is pieces pieces of src spread evenly over it, size bytes
// in all (len(src) > size, pieces >= 2).
func spreadSample(src []byte, size, pieces int) []byte {
	sample := make([]byte, 0, size)
	piece := size / pieces
	step := (len(src) - piece) / (pieces - 1)
	for i := 0; i < pieces; i++ {
		sample = append(sample, src[i*step:i*step+piece]...)
	}
	return sample
}

// xzModel is xzCompress with the literal model m (lc, pb).
func xzModel(dst, src []byte, level int, extreme bool, m xz.LiteralModel) ([]byte, error) {
	return xz.AppendEncode(dst, src, xz.WithPreset(level), xz.WithExtreme(extreme), xz.WithLiteralModel(m.LC, m.LP, m.PB), xz.WithCheck(xzCheck))
}

// xzFirst is src compressed as xzTuned compresses it with its first
// model (xz's default), so xzTuned can take it as its first argument.
func xzFirst(src []byte, level int, extreme bool) ([]byte, error) {
	if level < 6 || len(src) < xzTrialMin {
		return xzCompress(nil, src, level, extreme)
	}
	return xzModel(nil, src, level, extreme, xzModels[0])
}

// zstdShared holds one zstd encoder per speed (indexed by
// zstd.EncoderLevel) while encoding calls run (zstdHold) and for
// zstdIdle after the last one has returned; then it drops them. An
// encoder keeps its tables and history buffers while it lives (12 to 20
// MB at the better speeds, whatever the input's size): kept in package
// variables for good, as before, a process that had encoded one 200 KB
// table held 88 MB. Building one again costs more than encoding a small
// file (the best speed's tables: 20 to 140 ms of CPU here, mostly page
// faults), hence the grace period rather than dropping them at once (or
// a sync.Pool, which the collector empties during an Encode). Concurrent
// calls of one encoder take turns (it is built with concurrency 1).
var zstdShared struct {
	sync.Mutex
	users int
	enc   [zstd.SpeedBestCompression + 1]*zstd.Encoder
	idle  *time.Timer // running while users == 0 and enc holds encoders
}

// zstdIdle is how long the shared encoders outlive the last encoding
// call.
var zstdIdle = 5 * time.Second

// zstdHold keeps the shared encoders alive until the returned function
// is called (and zstdIdle after the last such call).
func zstdHold() (release func()) {
	zstdShared.Lock()
	zstdShared.users++
	if zstdShared.idle != nil {
		zstdShared.idle.Stop()
		zstdShared.idle = nil
	}
	zstdShared.Unlock()
	return func() {
		zstdShared.Lock()
		defer zstdShared.Unlock()
		if zstdShared.users--; zstdShared.users > 0 {
			return
		}
		var t *time.Timer
		t = time.AfterFunc(zstdIdle, func() {
			zstdShared.Lock()
			if zstdShared.idle == t { // not stopped or replaced since
				zstdShared.enc = [len(zstdShared.enc)]*zstd.Encoder{}
				zstdShared.idle = nil
			}
			zstdShared.Unlock()
		})
		zstdShared.idle = t
	}
}

func zstdLevel(level int) zstd.EncoderLevel {
	switch {
	case level <= 2:
		return zstd.SpeedFastest
	case level <= 4:
		return zstd.SpeedDefault
	case level <= 6:
		return zstd.SpeedBetterCompression
	}
	return zstd.SpeedBestCompression
}

// newZstdEncoder is an encoder at speed l for EncodeAll: single-segment
// frames (so every frame carries its content size, which the reference
// decoder requires, even for empty input) without a content checksum (4
// bytes a frame; the container's SHA-256 trailer covers the output).
// WithLowerEncoderMem sizes the history buffer to the window plus one
// block rather than twice the window: 8 MB less per encoder at the
// default 8 MB window (the three shared encoders held 48 MB of history
// for inputs of at most zstdEncSharedMax bytes). It changes buffer sizes
// only, not the output.
//
// shared is for the shared encoders, whose inputs are at most
// zstdEncSharedMax bytes: their window is that size rather than the
// speed's 8 MiB (SpeedFastest's is 4 MiB already, and a window of our
// own would change its block size), which halves their history again,
// 12 MB for three. A single-segment frame has no window field, and no
// match in an input that fits the window reaches past it either way:
// the output is the same.
func newZstdEncoder(l zstd.EncoderLevel, shared bool) *zstd.Encoder {
	opts := []zstd.EOption{zstd.WithSingleSegment(true), zstd.WithEncoderLevel(l),
		zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true)}
	if shared && l != zstd.SpeedFastest {
		opts = append(opts, zstd.WithWindowSize(zstdEncSharedMax))
	}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		panic("at1: zstd encoder options: " + err.Error()) // constant options: a bug
	}
	return enc
}

// zstdEncSharedMax is the largest input zstdCompress gives a shared
// encoder.
const zstdEncSharedMax = 4 << 20

// zstdCompress appends one zstd frame holding src to dst (see
// newZstdEncoder for its form).
func zstdCompress(dst, src []byte, level int) []byte {
	l := zstdLevel(level)
	if len(src) > zstdEncSharedMax {
		// A shared encoder's history grows to the largest input it
		// took; a large input gets an encoder of its own, released after.
		enc := newZstdEncoder(l, false)
		defer enc.Close()
		return enc.EncodeAll(src, dst)
	}
	release := zstdHold()
	defer release()
	zstdShared.Lock()
	enc := zstdShared.enc[l]
	if enc == nil {
		enc = newZstdEncoder(l, true)
		zstdShared.enc[l] = enc
	}
	zstdShared.Unlock()
	return enc.EncodeAll(src, dst)
}

// xzMinSize is the smallest .xz stream holding any data (stream header
// and footer 24 bytes, block header 12, no check (xzCheck), index 8,
// LZMA2 chunk of one stored byte 5, padded to 8): when another backend
// already fits in it, xz cannot win.
const xzMinSize = 52

// zstdBestMax is the largest input whose zstd is made by
// internal/zstdenc (an optimal-parsing encoder as good as libzstd -19,
// about 4% smaller than klauspost's best level on small text, for
// several times its CPU) rather than by klauspost/compress.
const zstdBestMax = 64 << 10

// zstdencMinLevel is the lowest level that runs internal/zstdenc, as
// the literal-model trials of xz (xzTuned): an optimal parser at about
// 1 MB/s is no part of a fast level. Below it small streams get
// klauspost's zstd at the level (and xz at the preset), about 4% larger
// on small text.
const zstdencMinLevel = 6

// zstdSmall is zstdCompress by internal/zstdenc: the same frame layout
// (single-segment, no checksum), smaller on small inputs.
func zstdSmall(dst, src []byte) ([]byte, error) {
	return zstdenc.AppendEncode(dst, src)
}

// packed is data under one backend.
type packed struct {
	backend byte
	data    []byte
}

// smallest compresses src with each backend and keeps the smallest
// (stored on ties, then zstd: both decode faster than xz). Below 48 bytes
// xz cannot win against stored (its framing alone takes more).
// A negative level -l means level l without xz.
func smallest(src []byte, level int, extreme bool) (packed, error) {
	if level < 0 {
		return smallestNoXZ(src, -level), nil
	}
	if len(src) < xzFirstMin || len(src) > zstdBestMax {
		return smallestXZ(smallestNoXZ(src, level), src, level, extreme, nil, false)
	}
	// xz first, then klauspost's zstd at level (the plain zstd the
	// output must not exceed), then internal/zstdenc unless xz is under
	// zstdencSkip times klauspost's zstd at level 6.
	best, err := smallestXZ(packed{BackendStored, src}, src, level, extreme, nil, false)
	if err != nil {
		return packed{}, err
	}
	kl := zstdCompress(nil, src, level)
	if len(kl) < len(best.data) || len(kl) == len(best.data) && best.backend == BackendXZ {
		best = packed{BackendZstd, kl}
	}
	k6 := kl
	if level != 6 {
		k6 = zstdCompress(nil, src, 6)
	}
	if level < zstdencMinLevel || best.backend == BackendXZ && float64(len(best.data)) < zstdencSkip*float64(len(k6)) {
		return best, nil
	}
	if z, err := zstdSmall(nil, src); err == nil && (len(z) < len(best.data) || len(z) == len(best.data) && best.backend == BackendXZ) {
		best = packed{BackendZstd, z}
	}
	return best, nil
}

// smallestCut is smallest that writes an xz stream of src as two blocks
// cut at cut (see xzTunedCut) when cut > 0, on up to conc goroutines.
func smallestCut(src []byte, level int, extreme bool, cut, conc int) (packed, error) {
	if cut <= 0 || level < 0 || len(src) <= zstdBestMax {
		return smallest(src, level, extreme)
	}
	best := smallestNoXZ(src, level)
	if !xzCanWin(best, src) {
		return best, nil
	}
	x, _, err := xzTunedCut(nil, src, level, extreme, nil, false, cut, conc)
	if err != nil {
		return packed{}, err
	}
	if len(x) < len(best.data) {
		best = packed{BackendXZ, x}
	}
	return best, nil
}

// xzFirstMin is the smallest stream smallest compresses with xz before
// internal/zstdenc, and skips internal/zstdenc on (zstdencSkip); smaller
// streams get both, zstd first.
const xzFirstMin = 4 << 10

// zstdencSkip: internal/zstdenc (about 1 MB/s) is not run on a stream of
// xzFirstMin bytes or more whose xz is under this times klauspost's zstd
// at level 6 (SpeedBetterCompression, 4 MB of tables): it does not win
// there. Of 164 streams of 4 to 64 KiB in 328 small files (the 300 of
// /usr/share, the vega-datasets CSV and TSV under 1 MB, the JSON Lines
// under 2 MB), internal/zstdenc won 95, none where xz was under 0.90
// times that zstd; the bound skips it on 27 (594 of 2171 KB), the
// streams of digits where xz wins by far (windvectors.csv's,
// flights-airport.csv's, github.csv's). Below 4 KiB the two sizes
// separate less (it won a 1.4 KB stream where xz was 0.75 times that
// zstd). Before 2026-11-28 it was skipped on every stream whose xz was
// under 0.85 times that zstd, which also skipped 7 streams it would have
// won.
const zstdencSkip = 0.87

// smallestNoXZ is smallest without xz: stored or zstd. The zstd of
// inputs of 10 bytes (a zstd frame takes at least 9) to zstdBestMax is
// also internal/zstdenc's from zstdencMinLevel; larger inputs get
// klauspost's at level.
//
// Until 2026-11-28 small inputs were also compressed by klauspost's
// zstd at level and at its best level, and internal/zstdenc ran after
// xz unless xz was under 0.85 times klauspost's zstd. On 328 small
// files (the 300 of /usr/share, the vega-datasets CSV and TSV under 1
// MB, the JSON Lines under 2 MB) internal/zstdenc ran on all but 13 of
// 533 streams over 1 KB, and klauspost's zstd was smaller on 7 of 826
// streams under 1 KB, by a byte, and on none since zstdenc's dropSeqs.
// Leaving it out keeps a process that packs a small text file from
// building klauspost's best-level encoder (34 MB of tables, whose first
// use cost more page faults than the rest of the file's encoding); a
// table still builds it to rank its column candidates (estSize).
func smallestNoXZ(src []byte, level int) packed {
	best := packed{BackendStored, src}
	switch {
	case len(src) < 10:
	case len(src) <= zstdBestMax:
		// klauspost's zstd at level too: internal/zstdenc was never
		// larger on the corpus above 1 KB, but that is no bound, and the
		// output must never exceed our plain zstd (a fuzzed 12-byte CSV
		// was one byte larger with internal/zstdenc alone).
		if z := zstdCompress(nil, src, level); len(z) < len(best.data) {
			best = packed{BackendZstd, z}
		}
		if level < zstdencMinLevel {
			break
		}
		if z, err := zstdSmall(nil, src); err == nil && len(z) < len(best.data) {
			best = packed{BackendZstd, z}
		}
	default:
		if z := zstdCompress(nil, src, level); len(z) < len(src) {
			best = packed{BackendZstd, z}
		}
	}
	return best
}

// xzCanWin reports whether xz is tried against best, the smallest of
// stored and zstd of src.
func xzCanWin(best packed, src []byte) bool {
	return len(src) >= 48 && len(best.data) > xzMinSize
}

// smallestXZ completes smallest: best (smallestNoXZ of src) or xz,
// whichever is smaller; first and whole are as for xzTuned.
func smallestXZ(best packed, src []byte, level int, extreme bool, first []byte, whole bool) (packed, error) {
	p, _, err := smallestXZFirst(best, src, level, extreme, first, whole)
	return p, err
}

// smallestXZFirst is smallestXZ that also returns src compressed with
// xzTuned's first model, when it was made or given (else nil).
func smallestXZFirst(best packed, src []byte, level int, extreme bool, first []byte, whole bool) (packed, []byte, error) {
	if !xzCanWin(best, src) {
		return best, first, nil
	}
	x, first, err := xzTunedCut(nil, src, level, extreme, first, whole, 0, 1)
	if err != nil {
		return packed{}, nil, err
	}
	if len(x) < len(best.data) {
		best = packed{BackendXZ, x}
	}
	return best, first, nil
}
