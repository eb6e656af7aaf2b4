package at1

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkWriter streams a 3 MiB CSV through NewWriter in 64 KiB writes
// (512 KiB chunks, so six frames) beside Encode of the same input with the
// same options, which runs the same frame pipeline on slices of the input
// without copying it: the pair shows what streaming costs. cpu_s/op is the
// process's user+system time per operation, which wall time hides once the
// frames run in parallel. Compare the pairs with benchstat.
func BenchmarkWriter(b *testing.B) {
	src := tradesCSV(3 << 20)
	for _, conc := range []int{1, 2} {
		opts := []Option{WithChunkSize(512 << 10), WithConcurrency(conc)}
		want, err := Encode(src, opts...)
		if err != nil {
			b.Fatal(err)
		}
		run := func(name string, encode func() []byte) {
			b.Run(fmt.Sprintf("%s/c%d", name, conc), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				cpu := processCPU()
				var out []byte
				for i := 0; i < b.N; i++ {
					dropEstCache()
					out = encode()
				}
				b.StopTimer()
				if !bytes.Equal(out, want) {
					b.Fatalf("%s: %d bytes, not Encode's %d", name, len(out), len(want))
				}
				b.ReportMetric((processCPU()-cpu).Seconds()/float64(b.N), "cpu_s/op")
				b.ReportMetric(float64(len(out)), "bytes")
			})
		}
		run("Encode", func() []byte {
			out, err := Encode(src, opts...)
			if err != nil {
				b.Fatal(err)
			}
			return out
		})
		run("Writer", func() []byte {
			out, _ := writeAll(b, src, 64<<10, opts...)
			return out
		})
	}
}
