package lance

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"

	"github.com/colfmt/colfmt/lance/internal/tablepb"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// BenchmarkTableScan reads whole shared LanceDB tables through the table
// layer (field-id mapping, deletions, multi-file fragments) and, as the
// peer in the same run, the same data files straight through File.Records
// with no deletions applied: the difference is the table layer's cost.
func BenchmarkTableScan(b *testing.B) {
	for _, c := range []struct{ fv, table string }{{"2.2", "versions.lance"}, {"2.1", "bitmap_deletes.lance"}, {"2.2", "primitives.lance"}} {
		fsys := os.DirFS(shareddata.Path(b, "lance21", c.fv))
		tb, err := OpenTable(fsys, c.table)
		if err != nil {
			b.Fatal(err)
		}
		var bytes int64
		for _, fr := range tb.Fragments() {
			for _, df := range fr.Files {
				bytes += df.Size
			}
		}
		b.Run(c.fv+"/"+c.table+"/table", func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				var n int64
				for rec, err := range tb.Records(ReadOptions{}) {
					if err != nil {
						b.Fatal(err)
					}
					n += rec.NumRows()
					rec.Release()
				}
				if n != tb.NumRows() {
					b.Fatalf("%d rows, want %d", n, tb.NumRows())
				}
			}
			b.ReportMetric(float64(tb.NumRows())*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(c.fv+"/"+c.table+"/files", func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				for _, fr := range tb.Fragments() {
					for _, df := range fr.Files {
						f, cl, err := tb.OpenDataFile(df)
						if err != nil {
							b.Fatal(err)
						}
						for rec, err := range f.Records(ReadOptions{}) {
							if err != nil {
								b.Fatal(err)
							}
							rec.Release()
						}
						cl.Close()
					}
				}
			}
			b.ReportMetric(float64(tb.NumRows())*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkTableStreamMemory scans a 400-fragment table (every fragment
// the shared 2.2 primitives data file, 2000 rows, 31 columns: 800,000 rows)
// and reports the live heap high-water mark (sampled after a GC at each
// batch, the batch still held) against the decoded size of the whole
// scan: it stays near one batch's size however many fragments there are.
func BenchmarkTableStreamMemory(b *testing.B) {
	dir := shareddata.Path(b, "lance21", "2.2")
	src, err := OpenTable(os.DirFS(dir), "primitives.lance")
	if err != nil {
		b.Fatal(err)
	}
	df := src.Fragments()[0].Files[0]
	data, err := os.ReadFile(filepath.Join(dir, "primitives.lance", df.Path))
	if err != nil {
		b.Fatal(err)
	}
	m := proto.Clone(src.manifest).(*tablepb.Manifest)
	frag := m.Fragments[0]
	m.Fragments = nil
	for i := range 400 {
		f := proto.Clone(frag).(*tablepb.DataFragment)
		f.Id = uint64(i)
		m.Fragments = append(m.Fragments, f)
	}
	fsys := fstest.MapFS{
		"t/" + df.Path: {Data: data},
		"t/_versions/" + manifestFileName(m.Version, true): {Data: manifestFile(m)},
	}
	tb, err := OpenTable(fsys, "t")
	if err != nil {
		b.Fatal(err)
	}
	var peak uint64
	var decoded int64
	for b.Loop() {
		var ms runtime.MemStats
		decoded = 0
		for rec, err := range tb.Records(ReadOptions{}) {
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range rec.Columns() {
				decoded += dataBytes(c.Data())
			}
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			rec.Release()
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(decoded)/(1<<20), "decoded-MB")
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}
