package lancefetch

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/colfmt/colfmt/internal/lancedbnode"
	"github.com/colfmt/colfmt/lance"
	"github.com/colfmt/colfmt/remote"
)

// benchTable returns a multi-MB LanceDB table (4 fragments of 250k rows:
// id int64, x float64, y int32, s utf8; about 25 MB), written once by
// testdata/gentable.cjs with LanceDB for Node into a cache folder under
// os.TempDir. It skips without node and LanceDB (internal/lancedbnode).
func benchTable(b *testing.B) string {
	dir := filepath.Join(os.TempDir(), "colfmt-lancefetch-bench-v1")
	table := filepath.Join(dir, "big.lance")
	if _, err := os.Stat(filepath.Join(table, "_versions", "latest_version_hint.json")); err == nil {
		return table
	}
	env := lancedbnode.Find(b)
	os.RemoveAll(dir)
	gen, err := filepath.Abs(filepath.Join("testdata", "gentable.cjs"))
	if err != nil {
		b.Fatal(err)
	}
	cmd := env.Command(gen, dir, "4", "250000")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		b.Fatalf("gentable: %v\n%s", err, out)
	}
	return table
}

// BenchmarkOneColumn reads one column ("id", 1.26 MB of pages in each
// 6.3 MB data file) of the multi-MB table over HTTP with 20 ms injected
// per request (loopback: no bandwidth limit, so the wall time counts
// sequential round trips):
//
//   - file/plain: remote.Open + lance.Open + Read of one data file;
//   - file/lancefetch: the same with Prefetch between open and read;
//   - file/whole: one GET of the whole data file, read from memory;
//   - table/plain: lance.OpenTable over remote.FS, Read of the column;
//   - table/lancefetch: the same over NewFS, with PrefetchTable.
//
// Metrics: requests/op, recv-bytes/op, colbytes (the column's metadata
// and page buffers, all files read), rounds/op (wall time / 20 ms, the
// sequential round trips, open included) and, for files, the File's own
// count of round trips (file-rounds/op).
func BenchmarkOneColumn(b *testing.B) {
	table := benchTable(b)
	const latency = 20 * time.Millisecond
	s := newServer(b, filepath.Dir(table), latency)
	base := s.URL + "/" + filepath.Base(table)
	ents, err := os.ReadDir(filepath.Join(table, "data"))
	if err != nil || len(ents) == 0 {
		b.Fatal(err)
	}
	dataFile := "data/" + ents[0].Name()
	cols := []string{"id"}
	colBytes := func(paths ...string) int64 {
		var n int64
		for _, p := range paths {
			raw, err := os.ReadFile(filepath.Join(table, p))
			if err != nil {
				b.Fatal(err)
			}
			lf, err := lance.Open(bytes.NewReader(raw), int64(len(raw)))
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range Extents(lf, cols) {
				n += e.Len
			}
		}
		return n
	}
	var all []string
	for _, e := range ents {
		all = append(all, "data/"+e.Name())
	}
	report := func(b *testing.B, n0 int, bytes0 int64, start time.Time, cb int64, fileRounds int64) {
		n1, bytes1 := s.count()
		b.ReportMetric(float64(n1-n0)/float64(b.N), "requests/op")
		b.ReportMetric(float64(bytes1-bytes0)/float64(b.N), "recv-bytes/op")
		b.ReportMetric(float64(cb), "colbytes")
		b.ReportMetric(float64(time.Since(start))/float64(b.N)/float64(latency), "rounds/op")
		if fileRounds > 0 {
			b.ReportMetric(float64(fileRounds)/float64(b.N), "file-rounds/op")
		}
	}
	for _, mode := range []string{"plain", "lancefetch", "whole"} {
		b.Run("file/"+mode, func(b *testing.B) {
			b.ReportAllocs()
			cb := colBytes(dataFile)
			b.SetBytes(cb)
			n0, bytes0 := s.count()
			start := time.Now()
			var rounds int64
			for i := 0; i < b.N; i++ {
				var (
					r    io.ReaderAt
					size int64
					rf   *remote.File
				)
				if mode == "whole" {
					resp, err := http.Get(base + "/" + dataFile)
					if err != nil {
						b.Fatal(err)
					}
					buf, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil {
						b.Fatal(err)
					}
					r, size = bytes.NewReader(buf), int64(len(buf))
				} else {
					rf, err = remote.Open(ctx, base+"/"+dataFile)
					if err != nil {
						b.Fatal(err)
					}
					r, size = rf, rf.Size()
				}
				lf, err := lance.Open(r, size)
				if err != nil {
					b.Fatal(err)
				}
				if mode == "lancefetch" {
					if err := Prefetch(ctx, rf, lf, cols); err != nil {
						b.Fatal(err)
					}
				}
				rec, err := lf.Read(lance.ReadOptions{Columns: cols})
				if err != nil {
					b.Fatal(err)
				}
				rec.Release()
				if rf != nil {
					rounds += rf.Stats().Rounds
					rf.Close()
				}
			}
			report(b, n0, bytes0, start, cb, rounds)
		})
	}
	for _, mode := range []string{"plain", "lancefetch"} {
		b.Run("table/"+mode, func(b *testing.B) {
			b.ReportAllocs()
			cb := colBytes(all...)
			b.SetBytes(cb)
			n0, bytes0 := s.count()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				fsys, err := remote.FS(ctx, base)
				if err != nil {
					b.Fatal(err)
				}
				var pf *FS
				if mode == "lancefetch" {
					pf = NewFS(ctx, fsys, cols)
					fsys = pf
				}
				t, err := lance.OpenTable(fsys, ".")
				if err != nil {
					b.Fatal(err)
				}
				if pf != nil {
					pf.PrefetchTable(t)
				}
				rec, err := t.Read(lance.ReadOptions{Columns: cols})
				if err != nil {
					b.Fatal(err)
				}
				if rec.NumRows() != 1_000_000 {
					b.Fatalf("%d rows", rec.NumRows())
				}
				rec.Release()
			}
			report(b, n0, bytes0, start, cb, 0)
		})
	}
}
