package lance

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// BenchmarkLanceDBTable reads the tables scripts/lancedb/gen-bench-table.mjs
// writes with LanceDB 0.39 (scalars: 300,000 rows of int64, float64, small
// int32, bool, short/long/low-cardinality strings and list<int32>, some
// nulls; vectors: 20,000 rows of a 768-d float32 fixed_size_list), once per
// file format 2.2, 2.1 and 2.0, from $COLFMT_LANCE_BENCH_DIR/<format>/.
// Its peer is scripts/lancedb/read-bench.mjs, which times LanceDB's
// query().toArrow() (full) and query().select([col]) (column) on the same
// tables; like it, every read opens the table afresh.
//
// Sub-benchmarks <format>/<table>/full and /column:<col> (col is "long" for
// scalars, "vec" for vectors, or $COLFMT_LANCE_BENCH_COL). Bytes (MB/s) are
// the Arrow bytes produced, counted as a compact layout (lanceDBArrowBytes).
// Metrics:
//
//   - rows/s: table rows read per second of wall time;
//   - cpu-ms/op: process CPU time (user+system, all threads: the GC too)
//     per read, on systems with getrusage (0 elsewhere);
//   - peak-heap-MB: the high water of the heap (live objects and garbage
//     not yet swept, runtime/metrics) sampled at every batch of the timed
//     reads, after a GC before the first;
//   - peak-live-MB: the live heap after a GC at every batch of one untimed
//     read, the batch still held: what a streaming reader must keep;
//   - peak-rss-MB: the process's resident-set high water (getrusage, on
//     systems that have it), all sub-benchmarks run so far included: run
//     one sub-benchmark per process (as compare.sh does) to compare it
//     with LanceDB's peak RSS;
//   - table-MB: the Arrow bytes of the whole read, batch-MB the largest
//     batch, page-MB the largest stored page of the selected columns.
//
// Streaming keeps peak-live-MB near batch-MB + page-MB, not table-MB.
//
// $COLFMT_LANCE_BENCH_TABLES (default "scalars,vectors") picks the tables.
func BenchmarkLanceDBTable(b *testing.B) {
	root := os.Getenv("COLFMT_LANCE_BENCH_DIR")
	if root == "" {
		b.Skip("COLFMT_LANCE_BENCH_DIR is unset: write the tables with `node scripts/lancedb/gen-bench-table.mjs DIR` and set it to DIR (see scripts/lancedb/README.md)")
	}
	tables := strings.Split(envOr("COLFMT_LANCE_BENCH_TABLES", "scalars,vectors"), ",")
	found := false
	for _, fv := range []string{"2.2", "2.1", "2.0"} {
		for _, name := range tables {
			dir := filepath.Join(root, fv)
			if _, err := os.Stat(filepath.Join(dir, name+".lance")); err != nil {
				continue
			}
			found = true
			col := envOr("COLFMT_LANCE_BENCH_COL", map[string]string{"scalars": "long", "vectors": "vec"}[name])
			for _, mode := range []string{"full", "column:" + col} {
				var cols []string
				if mode != "full" {
					cols = []string{col}
				}
				b.Run(fv+"/"+name+"/"+mode, func(b *testing.B) {
					benchLanceDBTable(b, dir, name+".lance", cols)
				})
			}
		}
	}
	if !found {
		b.Fatalf("no table of %q under %s/{2.2,2.1,2.0}", tables, root)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// lanceDBRead is one read as a service does it: open the table, stream all
// records of the selection, release each.
func lanceDBRead(b *testing.B, dir, table string, cols []string, batch func(arrow.RecordBatch)) (rows int64) {
	tb, err := OpenTable(os.DirFS(dir), table)
	if err != nil {
		b.Fatal(err)
	}
	for rec, err := range tb.Records(ReadOptions{Columns: cols}) {
		if err != nil {
			b.Fatal(err)
		}
		rows += rec.NumRows()
		batch(rec)
		rec.Release()
	}
	if rows != tb.NumRows() {
		b.Fatalf("%d rows, want %d", rows, tb.NumRows())
	}
	return rows
}

func benchLanceDBTable(b *testing.B, dir, table string, cols []string) {
	// One untimed read (also the warm-up): Arrow bytes, largest batch and
	// the live heap at each batch.
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var total, maxBatch int64
	var peakLive uint64
	rows := lanceDBRead(b, dir, table, cols, func(rec arrow.RecordBatch) {
		var n int64
		for _, c := range rec.Columns() {
			n += lanceDBArrowBytes(c)
		}
		total += n
		maxBatch = max(maxBatch, n)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peakLive = max(peakLive, ms.HeapAlloc-min(base, ms.HeapAlloc))
	})
	page := largestPage(b, dir, table, cols)

	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peakHeap uint64
	runtime.GC()
	metrics.Read(sample)
	baseHeap := sample[0].Value.Uint64()
	b.SetBytes(total)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		lanceDBRead(b, dir, table, cols, func(arrow.RecordBatch) {
			metrics.Read(sample)
			peakHeap = max(peakHeap, sample[0].Value.Uint64()-min(baseHeap, sample[0].Value.Uint64()))
		})
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
	const mb = 1 << 20
	b.ReportMetric(float64(peakHeap)/mb, "peak-heap-MB")
	if rss := maxRSS(); rss > 0 {
		b.ReportMetric(float64(rss)/mb, "peak-rss-MB")
	}
	b.ReportMetric(float64(peakLive)/mb, "peak-live-MB")
	b.ReportMetric(float64(total)/mb, "table-MB")
	b.ReportMetric(float64(maxBatch)/mb, "batch-MB")
	b.ReportMetric(float64(page)/mb, "page-MB")
}

// largestPage is the largest stored page (the sum of its buffers) of the
// columns of the selected fields, over the table's data files.
func largestPage(b *testing.B, dir, table string, cols []string) int64 {
	tb, err := OpenTable(os.DirFS(dir), table)
	if err != nil {
		b.Fatal(err)
	}
	var largest int64
	for _, fr := range tb.Fragments() {
		for _, df := range fr.Files {
			f, cl, err := tb.OpenDataFile(df)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range f.Columns() {
				if !pathSelected(c.Path, cols) {
					continue
				}
				for _, p := range c.Pages {
					var n int64
					for _, r := range p.Buffers {
						n += r.Size
					}
					largest = max(largest, n)
				}
			}
			cl.Close()
		}
	}
	return largest
}

// pathSelected tells whether a ColumnInfo.Path ("column 9 (tags.item)")
// belongs to one of cols (all when cols is empty).
func pathSelected(path string, cols []string) bool {
	if len(cols) == 0 {
		return true
	}
	i := strings.IndexByte(path, '(')
	name := strings.TrimSuffix(path[i+1:], ")")
	for _, c := range cols {
		if name == c || strings.HasPrefix(name, c+".") {
			return true
		}
	}
	return false
}

// lanceDBArrowBytes is the size of a in a compact Arrow layout (what an
// IPC writer or LanceDB's toArrow would hold): values of its rows only,
// offsets, and a validity bitmap when it has nulls. Buffer lengths would
// count a page shared by several sliced batches once per batch.
func lanceDBArrowBytes(a arrow.Array) int64 {
	n := int64(a.Len())
	if n == 0 {
		return 0
	}
	var size int64
	if a.NullN() > 0 {
		size = (n + 7) / 8
	}
	switch a := a.(type) {
	case *array.String:
		offs := a.ValueOffsets()
		size += 4*(n+1) + int64(offs[len(offs)-1]-offs[0])
	case *array.Binary:
		offs := a.ValueOffsets()
		size += 4*(n+1) + int64(offs[len(offs)-1]-offs[0])
	case *array.LargeString:
		offs := a.ValueOffsets()
		size += 8*(n+1) + offs[len(offs)-1] - offs[0]
	case array.ListLike:
		lo, _ := a.ValueOffsets(0)
		_, hi := a.ValueOffsets(a.Len() - 1)
		if _, fixed := a.(*array.FixedSizeList); !fixed {
			size += 4 * (n + 1)
			if a.DataType().ID() == arrow.LARGE_LIST {
				size += 4 * (n + 1)
			}
		}
		child := array.NewSlice(a.ListValues(), lo, hi)
		size += lanceDBArrowBytes(child)
		child.Release()
	case *array.Struct:
		for i := range a.NumField() {
			size += lanceDBArrowBytes(a.Field(i))
		}
	case *array.Dictionary:
		size += lanceDBArrowBytes(a.Indices()) + lanceDBArrowBytes(a.Dictionary())
	case *array.Boolean:
		size += (n + 7) / 8
	default:
		if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok {
			size += n * int64(fw.BitWidth()) / 8
		} else {
			for _, buf := range a.Data().Buffers() {
				if buf != nil {
					size += int64(buf.Len())
				}
			}
		}
	}
	return size
}
