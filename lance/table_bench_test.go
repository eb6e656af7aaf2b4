package lance

import (
	"os"
	"testing"

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
