package at1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// poolInputs are inputs that take each of encodeUnit's paths at the
// default level: tables the structure wins by far (events: the plain xz
// estimated exactly, then skipped; trades and trades-mid, over
// xzSampledMin: decided by samples; trades-large, over xzExactMax:
// estimated by samples), random hex (the plain xz made in the pool, RAW wins), and
// prose a little larger than xzTrialMax and below it (the exact
// first-model estimate, reused by xzTuned).
func poolInputs() map[string][]byte {
	r := rand.New(rand.NewPCG(11, 12))
	var hex, prose []byte
	for len(hex) < 96<<10 {
		hex = fmt.Appendf(hex, "%016x,%08x\n", r.Uint64(), r.Uint32())
	}
	words := []string{"alpha", "beta", "gamma", "delta", "the", "of", "and", "column", "table", "row"}
	for len(prose) < 80<<10 {
		for i := 0; i < 8+r.IntN(8); i++ {
			prose = append(prose, words[r.IntN(len(words))]...)
			prose = append(prose, ' ')
		}
		prose = append(prose, '\n')
	}
	return map[string][]byte{
		"trades": tradesCSV(150 << 10), "trades-mid": tradesCSV(400 << 10), "trades-large": tradesCSV(xzExactMax + 100<<10), "events": eventsJSONL(60 << 10), "hex": hex,
		"prose": prose, "prose-small": prose[:bytes.LastIndexByte(prose[:40<<10], '\n')+1],
	}
}

// The output at the default level (xz trials, estimates, the plain xz
// in the pool or after it, frames sharing job slots) does not depend on
// the concurrency.
func TestEncodeDeterministicDefaultLevel(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("encodes each input at 6e four times")
	}
	for name, src := range poolInputs() {
		for _, opts := range [][]Option{nil, {WithChunkSize(64 << 10)}} {
			var want []byte
			for _, n := range []int{1, 4} {
				got, err := Encode(src, append(opts, WithConcurrency(n))...)
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = got
				} else if !bytes.Equal(got, want) {
					t.Fatalf("%s %d options: concurrency %d gives %d bytes, concurrency 1 %d", name, len(opts), n, len(got), len(want))
				}
			}
		}
	}
}

// The default encoder (plain xz estimated, not always made) stays within
// the bound: no larger than the smallest of plain xz (xzTuned), zstd and
// stored of the input plus the container.
func TestEncodePlainBoundDefault(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compresses each input with xz several times")
	}
	for name, src := range poolInputs() {
		enc, err := Encode(src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := smallest(src, DefaultLevel, true)
		if err != nil {
			t.Fatal(err)
		}
		if bound := len(p.data) + 6 + TrailerSize; len(enc) > bound {
			t.Errorf("%s: %d bytes (%v), more than the plain bound %d", name, len(enc), codecOf(enc), bound)
		}
		t.Logf("%s: %d -> %d (%v), plain %d", name, len(src), len(enc), codecOf(enc), len(p.data))
	}
}

// xzTuned given its first model's stream (xzFirst) writes what it writes
// without it, on inputs it compresses whole and on inputs it samples.
func TestXZTunedReusesFirst(t *testing.T) {
	for name, src := range poolInputs() {
		if name == "trades" || name == "events" {
			src = src[:min(len(src), 100<<10)]
		}
		for _, cut := range []int{900, 30 << 10, len(src)} {
			if raceEnabled && cut > 200<<10 {
				// Over a minute under the race detector for what the
				// smaller cuts cover; the run without it checks it.
				continue
			}
			for _, whole := range []bool{false, true} {
				s := src[:min(cut, len(src))]
				want, err := xzTuned(nil, s, DefaultLevel, true, nil, whole)
				if err != nil {
					t.Fatal(err)
				}
				first, err := xzFirst(s, DefaultLevel, true)
				if err != nil {
					t.Fatal(err)
				}
				got, err := xzTuned([]byte("x"), s, DefaultLevel, true, first, whole)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got[1:], want) || got[0] != 'x' {
					t.Errorf("%s[:%d] (whole %v): %d bytes with the first stream given, %d without", name, len(s), whole, len(got)-1, len(want))
				}
			}
		}
	}
}

func TestKeptLayouts(t *testing.T) {
	for _, c := range []struct {
		est  []int
		keep []bool
		best int
	}{
		{[]int{1000, 1004}, []bool{true, true}, 1000},            // however close: both
		{[]int{1100, 1000}, []bool{false, true}, 1000},           // the best wherever it is
		{[]int{1000, 1080}, []bool{true, true}, 1000},            // at the margin
		{[]int{1000, 1081}, []bool{true, false}, 1000},           // beyond the margin
		{[]int{-1, 1200, 1000}, []bool{true, false, true}, 1000}, // qjson always
		{[]int{-1}, []bool{true}, -1},
	} {
		keep, best := keptLayouts(c.est)
		if best != c.best || fmt.Sprint(keep) != fmt.Sprint(c.keep) {
			t.Errorf("keptLayouts(%v) = %v, %d; want %v, %d", c.est, keep, best, c.keep, c.best)
		}
	}
}

// packLayouts lays out each set as packStreams would alone, whatever
// the concurrency and with an extra job in the pool.
func TestPackLayoutsPool(t *testing.T) {
	src := tradesCSV(80 << 10)
	c, err := testEncoder(WithLevel(2))
	if err != nil {
		t.Fatal(err)
	}
	a := c.columnarStreamsOf(c.tableOf(src))
	b := []namedStream{{name: "x", data: src}, {name: "y", data: []byte("stored"), stored: true}, {name: "z"}}
	var want [][]byte
	for _, s := range [][]namedStream{a, b} {
		p, err := c.packStreams(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p)
	}
	for _, n := range []int{1, 3} {
		c.concurrency = n
		ran := false
		got, err := c.packLayouts([]layoutSet{{CodecColumnar, a}, {CodecColumnar, b}}, func() error { ran = true; return nil }, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		if !ran || !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) {
			t.Errorf("concurrency %d: extra ran %v, sets equal %v %v", n, ran, bytes.Equal(got[0], want[0]), bytes.Equal(got[1], want[1]))
		}
	}
}

// An input that repeats itself farther apart than the estimate's samples
// reach (random lines, then the same lines again): the samples see no
// repeat, the plain zstd does and caps the estimate near the plain xz.
func TestPlainXZEstimateRepeatedHalves(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compresses 1 MB with xz")
	}
	r := rand.New(rand.NewPCG(13, 14))
	var half []byte
	for len(half) < xzExactMax/2+(50<<10) { // sampled: over xzExactMax in all
		half = fmt.Appendf(half, "%d,%x,%d\n", r.IntN(1000), r.Uint64(), r.IntN(50))
	}
	src := append(append([]byte(nil), half...), half...)
	c, err := testEncoder()
	if err != nil {
		t.Fatal(err)
	}
	raw0 := smallestNoXZ(src, DefaultLevel)
	x, err := xzCompress(nil, src, DefaultLevel, true)
	if err != nil {
		t.Fatal(err)
	}
	sampled, _, _, err := c.xzEstimate(src, true)
	if err != nil {
		t.Fatal(err)
	}
	est, ratio, _, err := c.plainXZEstimate(src, raw0, true)
	if err != nil {
		t.Fatal(err)
	}
	// Without the cap a structure of 1.2x the plain xz would pass as under
	// the skip ratio; with it, it is not.
	if float64(sampled)*ratio < 1.2*float64(len(x)) {
		t.Logf("sampled estimate %d is not fooled (plain xz %d): the input does not test the cap", sampled, len(x))
	}
	if float64(est)*ratio >= float64(len(x)) {
		t.Errorf("capped estimate %d (ratio %.2f) lets a structure larger than the plain xz %d skip it (sampled %d, plain zstd %d)",
			est, ratio, len(x), sampled, len(raw0.data))
	}
}

// estSize gives what zstd at its level gives, from the cache or not, and
// a size cached at one level is not taken for another.
func TestEstSizeCache(t *testing.T) {
	chunks := [][]byte{tradesCSV(20 << 10), eventsJSONL(10 << 10), bytes.Repeat([]byte("ab"), 500)}
	for round := 0; round < 2; round++ {
		for i, ch := range chunks {
			for _, level := range []int{estLevel, estLevelSmall} {
				if got, want := estSize(ch, level), len(zstdCompress(nil, ch, level)); got != want {
					t.Errorf("round %d chunk %d level %d: estSize %d, zstd %d", round, i, level, got, want)
				}
			}
		}
	}
	// The two levels differ on these chunks, so the check above fails if
	// the cache ignored the level.
	if a, b := len(zstdCompress(nil, chunks[0], estLevel)), len(zstdCompress(nil, chunks[0], estLevelSmall)); a == b {
		t.Fatalf("zstd levels %d and %d give the same size %d: the test cannot tell them apart", estLevel, estLevelSmall, a)
	}
	// Filling the cache empties it rather than letting it grow.
	for i := 0; i <= estCacheMax; i++ {
		estSize(fmt.Appendf(nil, "chunk %d of the cache, long enough to be worth compressing", i), estLevel)
	}
	estCache.Lock()
	n := len(estCache.m)
	estCache.Unlock()
	if n > estCacheMax {
		t.Errorf("cache holds %d sizes, more than %d", n, estCacheMax)
	}
}

// A stream of up to xzExactTrialMax bytes gets the smallest of the
// models of xzModelsExact on the whole of it. The stream here is one-byte
// dictionary indexes, which lc1 suits, a model the trial on pieces does
// not try.
func TestXZTunedExactTrial(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compresses the input with xz once per model")
	}
	r := rand.New(rand.NewPCG(3, 3))
	src := make([]byte, 150<<10)
	for i := range src {
		src[i] = byte(r.IntN(40) * r.IntN(3))
	}
	sizes := make([]int, len(xzModelsExact))
	for i, m := range xzModelsExact {
		x, err := xzModel(nil, src, DefaultLevel, true, m)
		if err != nil {
			t.Fatal(err)
		}
		sizes[i] = len(x)
	}
	got, err := xzTuned(nil, src, DefaultLevel, true, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := slices.Min(sizes); len(got) != want {
		t.Fatalf("%d bytes, the models give %v", len(got), sizes)
	}
	if slices.Index(sizes, len(got)) < len(xzModels) {
		t.Fatalf("one of the sampled trial's models is the smallest (%v): the test no longer needs the whole trial", sizes)
	}
}

// A table of up to estSmallMax bytes ranks its candidates at
// estLevelSmall only (so an Encode of it never builds the best level's
// 34 MB encoder), a larger one at estLevel only.
func TestEstLevelBySize(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
		want int
	}{
		{"trades 16 KiB", tradesCSV(16 << 10), estLevelSmall},
		{"events 60 KiB", eventsJSONL(60 << 10), estLevelSmall},
		{"trades 256 KiB", tradesCSV(256 << 10), estLevel},
	} {
		if got := estSmall(len(tc.src)); got != (tc.want == estLevelSmall) {
			t.Fatalf("%s: estSmall(%d) = %v", tc.name, len(tc.src), got)
		}
		estCache.Lock()
		estCache.m = nil
		estCache.Unlock()
		if _, err := Encode(tc.src, WithCodec(CodecColumnar), WithKeepCodec(true)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		estCache.Lock()
		levels := map[int]int{}
		for k := range estCache.m {
			if k.level != xzEstLevel { // xzRank's sizes, not zstd's
				levels[k.level]++
			}
		}
		estCache.Unlock()
		if len(levels) != 1 || levels[tc.want] == 0 {
			t.Errorf("%s (%d bytes): estimates by level %v, want level %d only", tc.name, len(tc.src), levels, tc.want)
		}
	}
}

// An input between xzSampledMin and xzExactMax bytes is estimated by
// samples first: a structure far under them is kept without an exact
// plain xz (first is nil), and the output is the one the exact estimate
// gave before (no larger than the plain bound, TestEncodePlainBoundDefault
// on the same input).
func TestPlainXZSampledMid(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("encodes 400 KB at 6e")
	}
	src := tradesCSV(400 << 10)
	if len(src) <= xzSampledMin || len(src) > xzExactMax {
		t.Fatalf("input of %d bytes is not between %d and %d", len(src), xzSampledMin, xzExactMax)
	}
	c, err := testEncoder()
	if err != nil {
		t.Fatal(err)
	}
	structured, _, body, first, err := c.encodeUnit(src, c.chooseCodec(src))
	if err != nil {
		t.Fatal(err)
	}
	if !structured {
		t.Fatalf("trades table written RAW (%d bytes)", len(body))
	}
	if first != nil {
		t.Errorf("the exact plain xz was made (%d bytes) for a structure of %d bytes the samples decide", len(first), len(body))
	}
	est, ratio, _, err := c.xzEstimate(src, true)
	if err != nil {
		t.Fatal(err)
	}
	if ratio != xzSkipRatio || float64(len(body)) >= ratio*float64(est) {
		t.Errorf("sampled estimate %d (ratio %.2f) does not decide a structure of %d bytes", est, ratio, len(body))
	}
}

// xzSampled: exact up to xzSampledMin, sampled over xzExactMax, and in
// between sampled only when the layouts' zstd estimate is well under the
// plain zstd.
func TestXZSampled(t *testing.T) {
	for _, tc := range []struct {
		n, zest, plain int
		want           bool
	}{
		{xzSampledMin, 10, 100, false},
		{xzSampledMin + 1, 10, 100, true},
		{xzSampledMin + 1, 74, 100, true},
		{xzSampledMin + 1, 75, 100, false},
		{xzExactMax, 90, 100, false},
		{xzExactMax + 1, 90, 100, true},
		{xzExactMax + 1, 200, 100, true},
	} {
		if got := xzSampled(tc.n, tc.zest, tc.plain); got != tc.want {
			t.Errorf("xzSampled(%d, %d, %d) = %v, want %v", tc.n, tc.zest, tc.plain, got, tc.want)
		}
	}
}
