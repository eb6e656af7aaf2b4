package at1

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
