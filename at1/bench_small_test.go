package at1

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// BenchmarkDecodeSmall measures Decode of each small vector in
// ../shared/data/at1 that has an expected output: the fixed cost per
// call (decoder construction, tables, goroutines), which dominates tiny
// files.
func BenchmarkDecodeSmall(b *testing.B) {
	dir := shareddata.Path(b, "at1")
	files, _ := filepath.Glob(filepath.Join(dir, "*.at1"))
	for _, p := range files {
		want, err := os.ReadFile(strings.TrimSuffix(p, ".at1") + ".expected")
		if err != nil {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if got, err := Decode(src); err != nil || string(got) != string(want) {
			continue // vectors that decode only with options are not timed
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".at1"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Decode(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodeSmall measures Encode (default options) of small
// inputs: generated CSV and JSON Lines of 2 to 32 KB and the start of
// this package's doc.go as plain text. "warm" reuses the shared zstd
// encoders from one call to the next, as a long-running process does
// (not the cached estimates of the input's columns: dropEstCache);
// "fresh" drops them before every call, as a process that packs one
// small file pays for them (a fresh process also pays the page faults
// of their tables, which in-process reuse of the Go heap hides: measure
// that with colfmt pack under perf stat, see doc.go). B/op shows whether
// klauspost's encoders were built (34 MB for its best level).
func BenchmarkEncodeSmall(b *testing.B) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		b.Fatal(err)
	}
	inputs := []struct {
		name string
		src  []byte
	}{
		{"csv2k", tradesCSV(2 << 10)},
		{"csv8k", tradesCSV(8 << 10)},
		{"csv32k", tradesCSV(32 << 10)},
		{"jsonl8k", eventsJSONL(8 << 10)},
		{"text4k", doc[:4<<10]},
		{"text16k", doc[:16<<10]},
	}
	for _, in := range inputs {
		for _, fresh := range []bool{false, true} {
			mode := "warm"
			if fresh {
				mode = "fresh"
			}
			b.Run(in.name+"/"+mode, func(b *testing.B) {
				b.SetBytes(int64(len(in.src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if fresh {
						dropSharedZstd()
					} else {
						dropEstCache()
					}
					if _, err := Encode(in.src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// dropSharedZstd drops the shared zstd encoders and the size cache of
// column candidates, as at the start of a process.
func dropSharedZstd() {
	zstdShared.Lock()
	zstdShared.enc = [len(zstdShared.enc)]*zstd.Encoder{}
	zstdShared.Unlock()
	dropEstCache()
}

// dropEstCache drops the size cache of column candidates. A benchmark
// that encodes the same input b.N times calls it before each Encode:
// otherwise every call after the first finds its estimates cached, as
// no process encoding different inputs would (zipcodes.csv's second
// Encode took half the CPU of its first).
func dropEstCache() {
	estCache.Lock()
	estCache.m = nil
	estCache.Unlock()
}
