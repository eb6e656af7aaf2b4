package xz

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// smallBenchInputs returns text (this package's Go files joined: small
// text files, as at1 packs) and binary (a part of the test binary)
// inputs of 300 B to 64 KiB.
func smallBenchInputs(b *testing.B) map[string][]byte {
	var text []byte
	names, _ := filepath.Glob("*.go")
	for _, name := range names {
		if d, err := os.ReadFile(name); err == nil && len(text) < 64<<10 {
			text = append(text, d...)
		}
	}
	if len(text) < 64<<10 {
		b.Skip("not 64 KiB of Go files in the package directory")
	}
	bin, err := os.ReadFile(os.Args[0])
	if err != nil || len(bin) < 1<<20 {
		b.Skip("no binary input")
	}
	bin = bin[len(bin)/2:]
	in := map[string][]byte{}
	for _, n := range []int{300, 3 << 10, 20 << 10, 64 << 10} {
		in[fmt.Sprintf("text%d", n)] = text[:n]
	}
	in["bin20480"] = bin[:20<<10]
	return in
}

var smallBenchOrder = []string{"text300", "text3072", "text20480", "text65536", "bin20480"}

var smallBenchModels = []LiteralModel{{3, 0, 2}, {3, 0, 0}, {4, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 2}, {0, 0, 1}, {0, 2, 0}}

// BenchmarkSmallAppendEncode is the per-call cost of AppendEncode on
// small inputs at presets 6e and 9e.
func BenchmarkSmallAppendEncode(b *testing.B) {
	benchSmall(b, func(src []byte, opts ...Option) error {
		_, err := AppendEncode(nil, src, opts...)
		return err
	})
}

// BenchmarkSmallEncodeModels is EncodeModels with at1's 8 literal models.
func BenchmarkSmallEncodeModels(b *testing.B) {
	benchSmall(b, func(src []byte, opts ...Option) error {
		_, err := EncodeModels(src, smallBenchModels, opts...)
		return err
	})
}

// benchSmall runs encode on each small input at presets 6e and 9e.
func benchSmall(b *testing.B, encode func(src []byte, opts ...Option) error) {
	in := smallBenchInputs(b)
	for _, name := range smallBenchOrder {
		for _, level := range []int{6, 9} {
			src := in[name]
			b.Run(fmt.Sprintf("%s/%de", name, level), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := encode(src, WithPreset(level), WithExtreme(true), WithCheck(CheckNone)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
