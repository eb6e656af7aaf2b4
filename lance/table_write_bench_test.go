package lance

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/lancedbnode"
)

// benchWriteSchema: ints, floats, strings, lists and 768-d vectors.
var benchWriteSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "title", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "vector", Type: arrow.FixedSizeListOf(768, arrow.PrimitiveTypes.Float32), Nullable: true},
}, nil)

// benchWriteBatch makes n rows (about 3.2 KB each, mostly the vector).
func benchWriteBatch(n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, benchWriteSchema)
	defer b.Release()
	x := uint32(12345)
	next := func() uint32 { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x }
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Float64Builder).Append(float64(next()%10000) / 100)
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("item %d of category %d", i, next()%50))
		lb := b.Field(3).(*array.ListBuilder)
		lb.Append(true)
		for k := uint32(0); k < next()%4; k++ {
			lb.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("tag%d", next()%20))
		}
		fb := b.Field(4).(*array.FixedSizeListBuilder)
		fb.Append(true)
		vb := fb.ValueBuilder().(*array.Float32Builder)
		for k := 0; k < 768; k++ {
			vb.Append(float32(int32(next())) / (1 << 31))
		}
	}
	return b.NewRecordBatch()
}

func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, buf := range d.Buffers() {
			if buf != nil {
				n += int64(buf.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}

// BenchmarkTableWrite writes 4,096 rows (13 MB of Arrow data) as a new
// table (data file, manifest, commit, reopening the table) and, in the
// same run, as a bare data file to io.Discard: the ratio is what the
// table layer costs. rows/s is reported too.
func BenchmarkTableWrite(b *testing.B) {
	rec := benchWriteBatch(4096)
	defer rec.Release()
	size := recordBytes(rec)
	b.Run("file", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			w, err := NewWriter(io.Discard, benchWriteSchema)
			if err != nil {
				b.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rec.NumRows())*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("table", func(b *testing.B) {
		dir := b.TempDir()
		b.SetBytes(size)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if _, err := CreateTable(DirFS(dir), fmt.Sprintf("t%d.lance", i), benchWriteSchema, Batches(rec)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rec.NumRows())*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("append", func(b *testing.B) {
		dir := b.TempDir()
		t, err := CreateTable(DirFS(dir), "a.lance", benchWriteSchema, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if t, err = t.Append(Batches(rec)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rec.NumRows())*float64(b.N)/b.Elapsed().Seconds(), "rows/s")

	})
}

// BenchmarkTableWriteVsLanceDB creates the same 4,096-row table with
// CreateTable and with LanceDB's createTable (node, its defaults: file
// format 2.2), in the same run, and reports both speeds (LanceDB's timed
// inside node, without node's start-up) and the ratio of the tables' data
// file bytes (ours / LanceDB's). Skips without node and @lancedb/lancedb.
func BenchmarkTableWriteVsLanceDB(b *testing.B) {
	env := lancedbnode.Find(b)
	rec := benchWriteBatch(4096)
	defer rec.Release()
	size := recordBytes(rec)
	dir := b.TempDir()
	ipcPath := filepath.Join(dir, "rows.arrow")
	f, err := os.Create(ipcPath)
	if err != nil {
		b.Fatal(err)
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(benchWriteSchema))
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	dataBytes := func(table string) int64 {
		var n int64
		ents, err := os.ReadDir(filepath.Join(table, "data"))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			st, err := e.Info()
			if err != nil {
				b.Fatal(err)
			}
			n += st.Size()
		}
		return n
	}
	var ours, theirs time.Duration
	var oursBytes, theirsBytes int64
	b.SetBytes(size)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		name := fmt.Sprintf("t%d", i)
		start := time.Now()
		if _, err := CreateTable(DirFS(dir), "ours-"+name+".lance", benchWriteSchema, Batches(rec)); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(start)
		oursBytes = dataBytes(filepath.Join(dir, "ours-"+name+".lance"))
		b.StopTimer()
		out, err := env.Command("table.mjs", "create-ipc", dir, "theirs-"+name, ipcPath).Output()
		if err != nil {
			b.Fatalf("node: %v", err)
		}
		var res struct{ Ms float64 }
		if err := json.Unmarshal(out, &res); err != nil {
			b.Fatal(err)
		}
		theirs += time.Duration(res.Ms * float64(time.Millisecond))
		theirsBytes = dataBytes(filepath.Join(dir, "theirs-"+name+".lance"))
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(size)*n/ours.Seconds()/1e6, "ours-MB/s")
	b.ReportMetric(float64(size)*n/theirs.Seconds()/1e6, "lancedb-MB/s")
	b.ReportMetric(theirs.Seconds()/ours.Seconds(), "speedup")
	b.ReportMetric(float64(oursBytes)/float64(theirsBytes), "size-ratio")
}
