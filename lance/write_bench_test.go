package lance

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// mixedRecords is the benchmark table: ids, small ints, prices, a
// low-cardinality category, short names, sentences, a list of ints and a
// 768-d float32 vector per row.
func mixedRecords(rows, batch int) (*arrow.Schema, []arrow.RecordBatch, int64) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "category", Type: arrow.BinaryTypes.String},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "text", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "vector", Type: arrow.FixedSizeListOf(768, arrow.PrimitiveTypes.Float32)},
	}, nil)
	words := []string{"lance", "columnar", "vector", "search", "arrow", "format", "page", "chunk", "fast", "data", "table", "query", "index", "golang", "writer", "reader"}
	cats := []string{"books", "music", "garden", "toys", "tools", "food", "games", "sports"}
	r := rand.New(rand.NewPCG(42, 42))
	var recs []arrow.RecordBatch
	var total int64
	for start := 0; start < rows; start += batch {
		n := min(batch, rows-start)
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := range n {
			row := start + i
			b.Field(0).(*array.Int64Builder).Append(int64(row))
			if row%17 == 0 {
				b.Field(1).AppendNull()
				b.Field(2).AppendNull()
			} else {
				b.Field(1).(*array.Int32Builder).Append(int32(r.IntN(1000)))
				b.Field(2).(*array.Float64Builder).Append(float64(r.IntN(100000)) / 100)
			}
			b.Field(3).(*array.StringBuilder).Append(cats[r.IntN(len(cats))])
			b.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("user-%06d", r.IntN(50000)))
			nw := 5 + r.IntN(20)
			s := make([]byte, 0, 200)
			for k := range nw {
				if k > 0 {
					s = append(s, ' ')
				}
				s = append(s, words[r.IntN(len(words))]...)
			}
			b.Field(5).(*array.StringBuilder).Append(string(s))
			lb := b.Field(6).(*array.ListBuilder)
			lb.Append(true)
			for range r.IntN(5) {
				lb.ValueBuilder().(*array.Int32Builder).Append(int32(r.IntN(100)))
			}
			vb := b.Field(7).(*array.FixedSizeListBuilder)
			vb.Append(true)
			fb := vb.ValueBuilder().(*array.Float32Builder)
			for range 768 {
				fb.Append(r.Float32()*2 - 1)
			}
		}
		rec := b.NewRecordBatch()
		b.Release()
		for _, c := range rec.Columns() {
			total += int64(arrowBytes(c.Data()))
		}
		recs = append(recs, rec)
	}
	return schema, recs, total
}

func BenchmarkWrite(b *testing.B) {
	schema, recs, total := mixedRecords(10000, 1024)
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for _, v := range []string{"2.2", "2.0"} {
		b.Run(v, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				w, err := NewWriter(io.Discard, schema, WithFormatVersion(v))
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range recs {
					if err := w.Write(r); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// TestWriteVsLanceDB writes the benchmark table with LanceDB and with our
// writer in the same run and reports the size and write-time ratios (the
// figures in doc.go). It needs node and @lancedb/lancedb.
func TestWriteVsLanceDB(t *testing.T) {
	if testing.Short() {
		t.Skip("LanceDB comparison skipped in -short")
	}
	np := lancedbNode(t)
	schema, recs, total := mixedRecords(10000, 1024)
	dir := t.TempDir()
	ipcPath := dir + "/in.arrow"
	writeIPC(t, ipcPath, schema, recs)
	for _, v := range []string{"2.2", "2.0"} {
		var lanceMS float64
		var theirSize int64
		for k := range 2 {
			var created struct {
				MS float64 `json:"ms"`
			}
			out := runNode(t, np, "create", dir, fmt.Sprintf("t%s-%d", v, k), ipcPath, v)
			if err := jsonUnmarshal(out, &created); err != nil {
				t.Fatal(err)
			}
			if lanceMS == 0 || created.MS < lanceMS {
				lanceMS = created.MS
			}
		}
		theirSize = tableDataBytes(t, dir+"/t"+v+"-0.lance")
		var best time.Duration
		var size int64
		for range 3 {
			cw := &countWriter{}
			t0 := time.Now()
			w, err := NewWriter(cw, schema, WithFormatVersion(v))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				if err := w.Write(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			d := time.Since(t0)
			if best == 0 || d < best {
				best = d
			}
			size = cw.n
		}
		ourMS := float64(best.Microseconds()) / 1000
		t.Logf("%s: 10,000 rows, %.1f MB of Arrow: size ours %d / LanceDB %d = %.3fx; write ours %.0f ms (%.0f MB/s) / LanceDB createTable %.0f ms = %.2fx faster",
			v, float64(total)/1e6, size, theirSize, float64(size)/float64(theirSize), ourMS, float64(total)/1e3/ourMS, lanceMS, lanceMS/ourMS)
	}
}

// tableDataBytes sums the sizes of a table's data files.
func tableDataBytes(t testing.TB, dir string) int64 {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "data", "*.lance"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no data files under %s", dir)
	}
	var n int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		n += st.Size()
	}
	return n
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
