package xz

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestEncodeModelsSameAsAppendEncode checks that EncodeModels writes, for
// each literal model, exactly the bytes of AppendEncode with that model:
// structured and random inputs, Go source, every preset with and without
// the extreme variant (and the multi-arrival parser, which replays the
// recorded matches too), and inputs of several blocks (no shared
// matches).
func TestEncodeModelsSameAsAppendEncode(t *testing.T) {
	models := []LiteralModel{{3, 0, 2}, {3, 0, 0}, {4, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}, {0, 2, 0}, {1, 1, 2}}
	src, _ := os.ReadFile(filepath.Join("..", "..", "at1", "encode.go"))
	inputs := [][]byte{
		nil, {'a'}, []byte("abcabcabcabc"), randomBytes(1, 3000),
		structured(2)[:min(40<<10, len(structured(2)))], src,
		bytes.Repeat([]byte("x,1\ny,22\n"), 2000),
	}
	presets := []int{0, 3, 6, 9}
	if testing.Short() {
		presets = []int{6}
	}
	for i, in := range inputs {
		for _, level := range presets {
			for _, extreme := range []bool{false, true} {
				opts := []Option{WithPreset(level), WithExtreme(extreme), WithCheck(CheckCRC32)}
				if extreme && level == presets[len(presets)-1] {
					opts = append(opts, WithArrivals(4))
				}
				got, err := EncodeModels(in, models, opts...)
				if err != nil {
					t.Fatal(err)
				}
				for k, m := range models {
					want, err := AppendEncode(nil, in, append(opts, m.option())...)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got[k], want) {
						t.Fatalf("input %d (%d bytes), preset %d extreme %v, model %v: %d bytes, AppendEncode %d", i, len(in), level, extreme, m, len(got[k]), len(want))
					}
				}
			}
		}
	}
	// Several blocks: each model is encoded on its own, same bytes.
	big := structured(3)
	opts := []Option{WithPreset(6), WithBlockSize(MinBlockSize)}
	got, err := EncodeModels(big[:min(len(big), 20<<10)], models[:2], opts...)
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range models[:2] {
		want, _ := AppendEncode(nil, big[:min(len(big), 20<<10)], append(opts, m.option())...)
		if !bytes.Equal(got[k], want) {
			t.Fatalf("several blocks, model %v: output differs", m)
		}
	}
}

func TestEncodeModelsInvalid(t *testing.T) {
	if _, err := EncodeModels([]byte("abc"), []LiteralModel{{3, 0, 2}, {9, 0, 0}}); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("lc 9: err %v, want ErrInvalidOption", err)
	}
	if _, err := EncodeModels([]byte("abc"), []LiteralModel{{3, 0, 2}, {2, 3, 0}}); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("lc 2 lp 3: err %v, want ErrInvalidOption", err)
	}
	if _, err := Encode([]byte("abc"), WithLiteralModel(0, 0, 3)); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("pb 3: err %v, want ErrInvalidOption", err)
	}
	if _, err := EncodeModels([]byte("abc"), []LiteralModel{{3, 0, 2}}, WithPreset(10)); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("preset 10: err %v, want ErrInvalidOption", err)
	}
}

// BenchmarkEncodeModels is the five literal-model trials at1 runs on a
// small stream (preset 6e), with one match-finder pass (shared) or one
// per model (separate).
func BenchmarkEncodeModels(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "..", "at1", "encode.go"))
	if err != nil {
		b.Fatal(err)
	}
	src = src[:min(len(src), 20<<10)]
	models := []LiteralModel{{3, 0, 2}, {3, 0, 0}, {4, 0, 0}, {1, 0, 0}, {2, 0, 0}}
	opts := []Option{WithPreset(6), WithExtreme(true), WithCheck(CheckCRC32)}
	b.Run("shared", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := EncodeModels(src, models, opts...); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("separate", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, m := range models {
				if _, err := AppendEncode(nil, src, append(opts, m.option())...); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
