package zstdenc

import (
	"testing"
)

// BenchmarkEncode encodes text of a few sizes; compare with
// BenchmarkKlauspostBest in the same run.
func BenchmarkEncode(b *testing.B) {
	benchText(b, func(dst, src []byte) []byte {
		dst, _ = AppendEncode(dst, src)
		return dst
	})
}

// BenchmarkKlauspostBest is klauspost's best level on the same inputs.
func BenchmarkKlauspostBest(b *testing.B) {
	benchText(b, func(dst, src []byte) []byte { return kpBest.EncodeAll(src, dst) })
}

// benchText runs enc (appending a frame of src to dst) on text of a few
// sizes, reporting the output's ratio to the input.
func benchText(b *testing.B, enc func(dst, src []byte) []byte) {
	for _, n := range []int{1 << 10, 8 << 10, 64 << 10} {
		src := textLike(newRand(5), n)
		b.Run(itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			var dst []byte
			for b.Loop() {
				dst = enc(dst[:0], src)
			}
			b.ReportMetric(float64(len(dst))/float64(n), "ratio")
		})
	}
}
