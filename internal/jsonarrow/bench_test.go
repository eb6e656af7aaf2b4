package jsonarrow

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// benchLines: 2,000 rows of ints, floats, strings, a list, a struct and a
// 768-d vector (about 9 KB a row, 18 MB).
func benchLines() []byte {
	var sb strings.Builder
	x := uint32(7)
	next := func() uint32 { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x }
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, `{"id": %d, "score": %g, "title": "item %d", "tags": ["a", "b%d"], "info": {"n": %d, "city": "c%d"}, "vector": [`,
			i, float64(next()%10000)/100, i, next()%9, i, next()%30)
		for k := 0; k < 768; k++ {
			if k > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "%.6f", float32(int32(next()))/(1<<31))
		}
		sb.WriteString("]}\n")
	}
	return []byte(sb.String())
}

// BenchmarkJSONLines: MB/s of JSON Lines input for inference and for
// building records (the two passes of `colfmt pack --format lance`).
func BenchmarkJSONLines(b *testing.B) {
	data := benchLines()
	b.Run("infer", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := InferSchema(bytes.NewReader(data), Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	s, _, err := InferSchema(bytes.NewReader(data), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("records", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			for _, err := range Records(bytes.NewReader(data), s, Options{}) {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
