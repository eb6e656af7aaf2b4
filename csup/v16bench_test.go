package csup_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
)

// The same 1M rows (v16RowAt) as a CSUP v16 file, a Super Binary stream
// and JSON lines (as `super -j` prints them), written once per run.
var benchV16 = sync.OnceValues(func() ([]byte, [2][]byte) {
	var c bytes.Buffer
	w, _ := csup.NewWriter(&c, csup.WithLayout(csup.LayoutCSUP16))
	var s bytes.Buffer
	bw, _ := bsup.NewWriter(&s)
	var j []byte
	for i := 0; i < 1_000_000; i++ {
		v := v16RowAt(i)
		_ = w.Write(v)
		_ = bw.Write(v)
		j = append(bsup.AppendJSON(j, v, bsup.JSONSuper), '\n')
	}
	_ = w.Close()
	_ = bw.Close()
	return c.Bytes(), [2][]byte{s.Bytes(), j}
})

// v16JSONRow is the Go shape of a v16RowAt row, for encoding/json.
type v16JSONRow struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	Score  float64  `json:"score"`
	Tags   []string `json:"tags"`
	Nested struct {
		A int64  `json:"a"`
		B uint64 `json:"b"`
	} `json:"nested"`
}

// BenchmarkCSUPv16Scan: in one run, a full scan and a one-column projection
// of the CSUP v16 file, the same rows from Super Binary (bsup.Reader) and
// from JSON lines decoded by encoding/json into a reused struct (the
// fastest way Go's standard library reads them). Each reuses one value;
// b.SetBytes is the size of the input read, so compare values/s across
// formats.
func BenchmarkCSUPv16Scan(b *testing.B) {
	file, other := benchV16()
	stream, js := other[0], other[1]
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
	b.Run("json-full", func(b *testing.B) {
		b.SetBytes(int64(len(js)))
		b.ReportAllocs()
		rows := 0
		for i := 0; i < b.N; i++ {
			d := json.NewDecoder(bufio.NewReaderSize(bytes.NewReader(js), 1<<16))
			var row v16JSONRow
			for {
				if err := d.Decode(&row); err == io.EOF {
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

// BenchmarkCSUPv16Write: in one run, the CSUP v16 writer and the Super
// Binary writer on the same 200 000 rows (built before timing); b.SetBytes
// is the Super Binary size of the rows for both, so MB/s compare directly.
func BenchmarkCSUPv16Write(b *testing.B) {
	vals := make([]bsup.Value, 200_000)
	var s bytes.Buffer
	bw, _ := bsup.NewWriter(&s)
	for i := range vals {
		vals[i] = v16RowAt(i)
		_ = bw.Write(vals[i])
	}
	_ = bw.Close()
	size := int64(s.Len())
	run := func(b *testing.B, open func(io.Writer) (interface {
		Write(bsup.Value) error
		Close() error
	}, error)) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			w, err := open(io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			for _, v := range vals {
				if err := w.Write(v); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(vals)*b.N)/b.Elapsed().Seconds(), "values/s")
	}
	b.ResetTimer()
	b.Run("csup16", func(b *testing.B) {
		run(b, func(w io.Writer) (interface {
			Write(bsup.Value) error
			Close() error
		}, error) {
			return csup.NewWriter(w, csup.WithLayout(csup.LayoutCSUP16))
		})
	})
	b.Run("bsup", func(b *testing.B) {
		run(b, func(w io.Writer) (interface {
			Write(bsup.Value) error
			Close() error
		}, error) {
			return bsup.NewWriter(w)
		})
	})
}
