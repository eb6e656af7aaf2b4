package csup_test

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
)

// The same 1M rows (v16RowAt) as a CSUP v16 file and as a Super Binary
// stream, written once per run. b.SetBytes is the size of the file read;
// values/s is reported as rows/s.
var benchV16 = sync.OnceValues(func() ([]byte, []byte) {
	var c bytes.Buffer
	w, _ := csup.NewWriter(&c, csup.WithLayout(csup.LayoutCSUP16))
	var s bytes.Buffer
	bw, _ := bsup.NewWriter(&s)
	for i := 0; i < 1_000_000; i++ {
		v := v16RowAt(i)
		_ = w.Write(v)
		_ = bw.Write(v)
	}
	_ = w.Close()
	_ = bw.Close()
	return c.Bytes(), s.Bytes()
})

// BenchmarkCSUPv16Scan: full scan, one-column projection, and the same
// rows from Super Binary, in one run.
func BenchmarkCSUPv16Scan(b *testing.B) {
	file, stream := benchV16()
	b.ResetTimer()
	scan := func(b *testing.B, fields ...string) {
		b.SetBytes(int64(len(file)))
		b.ReportAllocs()
		rows := 0
		for i := 0; i < b.N; i++ {
			f, err := csup.Open(bytes.NewReader(file), int64(len(file)))
			if err != nil {
				b.Fatal(err)
			}
			r := f.NewReader(fields...)
			var v bsup.Value
			for {
				if err := r.ReadInto(&v); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
				rows++
			}
		}
		b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "values/s")
	}
	b.Run("full", func(b *testing.B) { scan(b) })
	b.Run("project-name", func(b *testing.B) { scan(b, "name") })
	b.Run("bsup-full", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		b.ReportAllocs()
		rows := 0
		for i := 0; i < b.N; i++ {
			r, err := bsup.NewReader(bytes.NewReader(stream))
			if err != nil {
				b.Fatal(err)
			}
			var v bsup.Value
			for {
				if err := r.ReadInto(&v); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
				rows++
			}
		}
		b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "values/s")
	})
}

// BenchmarkCSUPv16Write: the writer on the same rows.
func BenchmarkCSUPv16Write(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var c bytes.Buffer
		w, _ := csup.NewWriter(&c, csup.WithLayout(csup.LayoutCSUP16))
		for j := 0; j < 200_000; j++ {
			if err := w.Write(v16RowAt(j)); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(c.Len()))
	}
}
