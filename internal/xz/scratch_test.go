package xz

import (
	"bytes"
	"fmt"
	"testing"
)

// encodeFresh is AppendEncode(nil, src, opts...) with new scratches, as
// before scratches were pooled.
func encodeFresh(t *testing.T, src []byte, opts ...Option) []byte {
	t.Helper()
	c, err := newConfig(opts)
	if err != nil {
		t.Fatal(err)
	}
	dst := appendStreamHeader(nil, c.check)
	dst, recs := appendBlocks(dst, src, &c, nil, true, newScratches(c.concurrency))
	return appendIndexAndFooter(dst, recs, c.check)
}

// TestReusedScratchSameOutput encodes inputs of different sizes, kinds,
// presets and literal models one after another through one scratch (and
// through the pool), each time over the tables, model and parser window
// the previous encoding left, and checks every output against a fresh
// encoder's and that it decodes.
func TestReusedScratchSameOutput(t *testing.T) {
	srcs := [][]byte{
		structured(1)[:60000], randomBytes(2, 5000), structured(3)[:300], []byte("ab"),
		bytes.Repeat([]byte("abcabcabd"), 2000), structured(4)[:20000], randomBytes(5, 100),
	}
	type cfg struct {
		level      int
		extreme    bool
		lc, lp, pb int
	}
	cfgs := []cfg{{9, true, 3, 0, 2}, {6, false, 0, 2, 0}, {1, false, 3, 0, 2}, {0, false, 4, 0, 0}, {6, true, 1, 0, 0}}
	if testing.Short() {
		cfgs = cfgs[1:4]
	}
	shared := newScratches(1)
	for i, src := range srcs {
		for _, k := range cfgs {
			opts := []Option{WithPreset(k.level), WithExtreme(k.extreme), WithLiteralModel(k.lc, k.lp, k.pb), WithCheck(CheckCRC32)}
			name := fmt.Sprintf("src%d/len%d/%d%v/lc%dlp%dpb%d", i, len(src), k.level, k.extreme, k.lc, k.lp, k.pb)
			want := encodeFresh(t, src, opts...)
			c, _ := newConfig(opts)
			got := appendStreamHeader(nil, c.check)
			got, recs := appendBlocks(got, src, &c, nil, true, shared)
			got = appendIndexAndFooter(got, recs, c.check)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: reused scratch: %d bytes, fresh %d", name, len(got), len(want))
			}
			pooled, err := AppendEncode(nil, src, opts...)
			if err != nil || !bytes.Equal(pooled, want) {
				t.Fatalf("%s: AppendEncode differs from a fresh encoder (%v)", name, err)
			}
			if dec := decodeUlikunitz(t, pooled); !bytes.Equal(dec, src) {
				t.Fatalf("%s: decoded output differs from the input", name)
			}
		}
		models := []LiteralModel{{3, 0, 2}, {0, 0, 0}, {4, 0, 0}, {0, 2, 1}}
		outs, err := EncodeModels(src, models, WithPreset(6), WithExtreme(true))
		if err != nil {
			t.Fatal(err)
		}
		for j, m := range models {
			if want := encodeFresh(t, src, WithPreset(6), WithExtreme(true), m.option()); !bytes.Equal(outs[j], want) {
				t.Fatalf("src%d: EncodeModels model %v differs from a fresh encoder", i, m)
			}
		}
	}
}
