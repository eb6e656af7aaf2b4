package xz

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// table is n bytes of a CSV of numbers and names, the data the
// multi-arrival parser is for: columns repeat at distances that change
// from row to row, so which distance a rep holds matters.
func table(seed int64, n int) []byte {
	r := rand.New(rand.NewSource(seed))
	names := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	b := []byte("id,name,x,y,ratio\n")
	for i := 0; len(b) < n; i++ {
		b = fmt.Appendf(b, "%d,%s,%d.%02d,%d,0.%d\n", 1000+i, names[r.Intn(len(names))],
			r.Intn(30), r.Intn(100), r.Intn(5)*250, 10+r.Intn(20)*3)
	}
	return b[:n]
}

func TestArrivalsRoundTrip(t *testing.T) {
	inputs := map[string][]byte{
		"empty":      {},
		"one":        {'x'},
		"two":        []byte("ab"),
		"text":       []byte(strings.Repeat("the quick brown fox jumps over the lazy dog; ", 200)),
		"random":     randomBytes(3, 20000),
		"runs":       bytes.Repeat([]byte{0, 0, 0, 1, 1, 2}, 5000),
		"table":      table(1, 40000),
		"structured": structured(11)[:min(len(structured(11)), 80000)],
	}
	for name, src := range inputs {
		for _, k := range []int{2, 4, MaxArrivals} {
			for _, preset := range []int{1, 4, 6, 9} {
				enc, err := Encode(src, WithPreset(preset), WithExtreme(preset == 9), WithArrivals(k), WithLiteralModel(1, 0, 0))
				if err != nil {
					t.Fatal(err)
				}
				dec, err := Decode(enc)
				if err != nil || !bytes.Equal(dec, src) {
					t.Fatalf("%s, %d arrivals, preset %d: the round trip fails (%v)", name, k, preset, err)
				}
				if k == 4 && preset == 6 {
					if got := decodeUlikunitz(t, enc); !bytes.Equal(got, src) {
						t.Fatalf("%s: ulikunitz decodes another input", name)
					}
				}
			}
		}
	}
}

// TestArrivalsSmaller: on a table the multi-arrival parser writes a
// smaller stream than liblzma's; with one arrival (the default) it is
// liblzma's parser, byte for byte.
func TestArrivalsSmaller(t *testing.T) {
	src := table(2, 64<<10)
	opts := []Option{WithPreset(6), WithExtreme(true), WithCheck(CheckNone)}
	def, err := Encode(src, opts...)
	if err != nil {
		t.Fatal(err)
	}
	one, err := Encode(src, append(opts, WithArrivals(1))...)
	if err != nil || !bytes.Equal(one, def) {
		t.Fatalf("WithArrivals(1) is not the default parse (%v)", err)
	}
	sizes := []int{len(def)}
	for _, k := range []int{2, 4, 8} {
		enc, err := Encode(src, append(opts, WithArrivals(k))...)
		if err != nil {
			t.Fatal(err)
		}
		if len(enc) >= len(def) {
			t.Errorf("%d arrivals: %d bytes, not under liblzma's parse (%d)", k, len(enc), len(def))
		}
		sizes = append(sizes, len(enc))
	}
	t.Logf("1, 2, 4, 8 arrivals: %v bytes", sizes)
}

func TestWithArrivalsInvalid(t *testing.T) {
	for _, k := range []int{0, -1, MaxArrivals + 1} {
		if _, err := Encode([]byte("abc"), WithArrivals(k)); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("WithArrivals(%d): %v, want ErrInvalidOption", k, err)
		}
	}
}

// FuzzArrivals round-trips the multi-arrival parser's output through our
// decoder and ulikunitz/xz.
func FuzzArrivals(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabc, abcabcabcabd"), byte(4))
	f.Add(table(3, 3000), byte(0x27))
	f.Add(bytes.Repeat([]byte{0, 1, 0, 1, 2}, 300), byte(0x12))
	f.Fuzz(func(t *testing.T, src []byte, sel byte) {
		k := 2 + int(sel&0x07)%(MaxArrivals-1)
		opts := []Option{WithPreset(6), WithExtreme(sel&0x80 != 0), WithArrivals(k), WithBlockSize(MinBlockSize)}
		if sel&0x40 != 0 {
			opts = append(opts, WithMatchSearch(MinNiceLen+int(sel>>3&0x07)*9, 0))
		}
		enc, err := Encode(src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if dec, err := Decode(enc); err != nil || !bytes.Equal(dec, src) {
			t.Fatalf("%d arrivals: the round trip fails (%v)", k, err)
		}
		if got := decodeUlikunitz(t, enc); !bytes.Equal(got, src) {
			t.Fatalf("%d arrivals: ulikunitz decodes another input", k)
		}
	})
}

// BenchmarkEncodeArrivals encodes a 64 KiB table with each parser
// breadth; the size is reported against liblzma's parser in the same run.
func BenchmarkEncodeArrivals(b *testing.B) {
	src := table(4, 64<<10)
	base, err := Encode(src, WithPreset(6), WithExtreme(true))
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var out []byte
			for range b.N {
				if out, err = Encode(src, WithPreset(6), WithExtreme(true), WithArrivals(k)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(out))/float64(len(base)), "size/liblzma")
		})
	}
}
