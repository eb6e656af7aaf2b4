package csup_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

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
	batch := func(b *testing.B, touch bool, fields ...string) {
		b.SetBytes(int64(len(file)))
		b.ReportAllocs()
		rows := 0
		for i := 0; i < b.N; i++ {
			rows += scanBatches(b, file, touch, fields...)
		}
		b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "values/s")
	}
	b.Run("batch-full", func(b *testing.B) { batch(b, false) })
	b.Run("batch-full-touch", func(b *testing.B) { batch(b, true) })
	b.Run("batch-project-name", func(b *testing.B) { batch(b, false, "name") })
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

// BenchmarkCSUPv16Ratios measures the readers and writers interleaved in
// each iteration, so that a shared, loaded machine slows them alike, and
// reports the ratios of their best per-value times: csup-vs-bsup (full
// CSUP v16 scan against the Super Binary scan of the same rows; >1 means
// CSUP is faster), project-vs-bsup (the one-column projection),
// csup-vs-json (against encoding/json on the first 100 000 JSON lines),
// write-vs-bsup (the CSUP v16 writer against the Super Binary writer, on
// 100 000 rows), batch-vs-bsup, batchtouch-vs-bsup and
// batchproject-vs-bsup (the BatchReader: full scan into vectors, the same
// reading every value of every vector, the one-column projection, each
// against the Super Binary scan) and batch-vs-rows (BatchReader against
// the row reader) and jsonbatch-vs-bsup (JSON lines written from the
// batches, as colfmt cat does, against Super Binary values rendered by
// bsup.AppendJSON). Run with -benchtime 5x or more.
func BenchmarkCSUPv16Ratios(b *testing.B) {
	file, other := benchV16()
	stream, js := other[0], other[1]
	jsSub := js
	for i, n := 0, 0; i < len(js); i++ {
		if js[i] == '\n' {
			if n++; n == 100_000 {
				jsSub = js[:i+1]
				break
			}
		}
	}
	wvals := make([]bsup.Value, 100_000)
	for i := range wvals {
		wvals[i] = v16RowAt(i)
	}
	best := map[string]float64{}
	timeIt := func(name string, rows int, fn func() int) {
		start := time.Now()
		n := fn()
		if n != rows {
			b.Fatalf("%s: %d rows, want %d", name, n, rows)
		}
		per := float64(time.Since(start).Nanoseconds()) / float64(rows)
		if old, ok := best[name]; !ok || per < old {
			best[name] = per
		}
	}
	scanCSUP := func(fields ...string) func() int {
		return func() int {
			f, err := csup.Open(bytes.NewReader(file), int64(len(file)))
			if err != nil {
				b.Fatal(err)
			}
			r := f.NewReader(fields...)
			var v bsup.Value
			n := 0
			for ; ; n++ {
				if err := r.ReadInto(&v); err == io.EOF {
					return n
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	batchCSUP := func(touch bool, fields ...string) func() int {
		return func() int { return scanBatches(b, file, touch, fields...) }
	}
	// To JSON lines, as colfmt cat prints them: Batch.AppendJSON against
	// Super Binary values through bsup.AppendJSON.
	jsonBatch := func() int {
		f, err := csup.Open(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			b.Fatal(err)
		}
		r, err := f.NewBatchReader()
		if err != nil {
			b.Fatal(err)
		}
		var bt csup.Batch
		var out []byte
		n := 0
		for {
			if err := r.Next(&bt); err == io.EOF {
				return n
			} else if err != nil {
				b.Fatal(err)
			}
			if out, err = bt.AppendJSON(out[:0], bsup.JSONSuper); err != nil {
				b.Fatal(err)
			}
			n += bt.Rows
		}
	}
	jsonBSUP := func() int {
		r, err := bsup.NewReader(bytes.NewReader(stream))
		if err != nil {
			b.Fatal(err)
		}
		var v bsup.Value
		var out []byte
		n := 0
		for ; ; n++ {
			if err := r.ReadInto(&v); err == io.EOF {
				return n
			} else if err != nil {
				b.Fatal(err)
			}
			out = append(bsup.AppendJSON(out[:0], v, bsup.JSONSuper), '\n')
		}
	}
	scanBSUP := func() int {
		r, err := bsup.NewReader(bytes.NewReader(stream))
		if err != nil {
			b.Fatal(err)
		}
		var v bsup.Value
		n := 0
		for ; ; n++ {
			if err := r.ReadInto(&v); err == io.EOF {
				return n
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	scanJSON := func() int {
		d := json.NewDecoder(bytes.NewReader(jsSub))
		var row v16JSONRow
		n := 0
		for ; ; n++ {
			if err := d.Decode(&row); err == io.EOF {
				return n
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	write := func(csup16 bool) func() int {
		return func() int {
			var w interface {
				Write(bsup.Value) error
				Close() error
			}
			var err error
			if csup16 {
				w, err = csup.NewWriter(io.Discard, csup.WithLayout(csup.LayoutCSUP16))
			} else {
				w, err = bsup.NewWriter(io.Discard)
			}
			if err != nil {
				b.Fatal(err)
			}
			for _, v := range wvals {
				if err := w.Write(v); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			return len(wvals)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		timeIt("csup", 1_000_000, scanCSUP())
		timeIt("bsup", 1_000_000, scanBSUP)
		timeIt("project", 1_000_000, scanCSUP("name"))
		timeIt("batch", 1_000_000, batchCSUP(false))
		timeIt("batch-touch", 1_000_000, batchCSUP(true))
		timeIt("batch-project", 1_000_000, batchCSUP(false, "name"))
		timeIt("json-batch", 1_000_000, jsonBatch)
		timeIt("json-bsup", 1_000_000, jsonBSUP)
		timeIt("json", 100_000, scanJSON)
		timeIt("write-csup", len(wvals), write(true))
		timeIt("write-bsup", len(wvals), write(false))
	}
	b.ReportMetric(best["bsup"]/best["csup"], "csup-vs-bsup")
	b.ReportMetric(best["bsup"]/best["project"], "project-vs-bsup")
	b.ReportMetric(best["bsup"]/best["batch"], "batch-vs-bsup")
	b.ReportMetric(best["bsup"]/best["batch-touch"], "batchtouch-vs-bsup")
	b.ReportMetric(best["bsup"]/best["batch-project"], "batchproject-vs-bsup")
	b.ReportMetric(best["csup"]/best["batch"], "batch-vs-rows")
	b.ReportMetric(best["json-bsup"]/best["json-batch"], "jsonbatch-vs-bsup")
	b.ReportMetric(best["json"]/best["csup"], "csup-vs-json")
	b.ReportMetric(best["write-bsup"]/best["write-csup"], "write-vs-bsup")
	b.ReportMetric(1e9/best["csup"], "csup-values/s")
	b.ReportMetric(1e9/best["bsup"], "bsup-values/s")
}

// scanBatches reads file with a BatchReader and returns the rows; with
// touch it also reads every value of every vector (sums the numbers and
// string lengths), as a consumer of the vectors would.
func scanBatches(b *testing.B, file []byte, touch bool, fields ...string) int {
	f, err := csup.Open(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		b.Fatal(err)
	}
	r, err := f.NewBatchReader(fields...)
	if err != nil {
		b.Fatal(err)
	}
	var bt csup.Batch
	n := 0
	var sum float64
	for {
		if err := r.Next(&bt); err == io.EOF {
			break
		} else if err != nil {
			b.Fatal(err)
		}
		n += bt.Rows
		if touch {
			sum += touchVector(bt.Root)
		}
	}
	if sum == -1 {
		b.Log(sum)
	}
	return n
}

func touchVector(v *csup.Vector) float64 {
	var s float64
	switch v.Kind {
	case csup.VecInt:
		var t int64
		for _, x := range v.Ints {
			t += x
		}
		s = float64(t)
	case csup.VecUint:
		var t uint64
		for _, x := range v.Uints {
			t += x
		}
		s = float64(t)
	case csup.VecFloat:
		for _, x := range v.Floats {
			s += x
		}
	case csup.VecBytes, csup.VecPrim:
		var t int
		for i := 0; i < v.Len; i++ {
			t += len(v.Bytes[v.Offsets[i]:v.Offsets[i+1]])
		}
		s = float64(t)
	case csup.VecDict:
		var t int
		for _, x := range v.Index {
			t += int(x)
		}
		s = float64(t)
	}
	for _, e := range v.Elems {
		if v.Kind != csup.VecDict {
			s += touchVector(e)
		}
	}
	return s
}
