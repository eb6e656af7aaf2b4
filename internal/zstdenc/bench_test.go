package zstdenc

import (
	"testing"
)

// BenchmarkEncode encodes text of a few sizes; compare with
// BenchmarkKlauspostBest in the same run.
func BenchmarkEncode(b *testing.B) {
	for _, n := range []int{1 << 10, 8 << 10, 64 << 10} {
		src := textLike(newRand(5), n)
		b.Run(itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			var dst []byte
			for b.Loop() {
				dst, _ = AppendEncode(dst[:0], src)
			}
			b.ReportMetric(float64(len(dst))/float64(n), "ratio")
		})
	}
}

// BenchmarkKlauspostBest is klauspost's best level on the same inputs.
func BenchmarkKlauspostBest(b *testing.B) {
	for _, n := range []int{1 << 10, 8 << 10, 64 << 10} {
		src := textLike(newRand(5), n)
		b.Run(itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			var dst []byte
			for b.Loop() {
				dst = kpBest.EncodeAll(src, dst[:0])
			}
			b.ReportMetric(float64(len(dst))/float64(n), "ratio")
		})
	}
}
