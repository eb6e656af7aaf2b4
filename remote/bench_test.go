package remote

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/colfmt/colfmt/lance"
)

// lanceColumnExtents lists the byte ranges of column field's metadata,
// buffers and pages.
func lanceColumnExtents(f *lance.File, field string) []Extent {
	var es []Extent
	for _, c := range f.Columns() {
		if !strings.HasSuffix(c.Path, "("+field+")") {
			continue
		}
		es = append(es, Extent{c.Metadata.Offset, c.Metadata.Size})
		for _, r := range c.Buffers {
			es = append(es, Extent{r.Offset, r.Size})
		}
		for _, p := range c.Pages {
			for _, r := range p.Buffers {
				es = append(es, Extent{r.Offset, r.Size})
			}
		}
	}
	return es
}

// lanceColumnBytes is the bytes of column field's pages, column buffers
// and metadata: what reading that column needs beyond the footer.
func lanceColumnBytes(tb testing.TB, path, field string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := lance.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		tb.Fatal(err)
	}
	var n int64
	for _, c := range f.Columns() {
		if !strings.HasSuffix(c.Path, "("+field+")") {
			continue
		}
		n += c.Metadata.Size
		for _, r := range c.Buffers {
			n += r.Size
		}
		for _, p := range c.Pages {
			for _, r := range p.Buffers {
				n += r.Size
			}
		}
	}
	if n == 0 {
		tb.Fatalf("no column %s", field)
	}
	return n
}

// BenchmarkLanceColumnOverHTTP opens a Lance data file over HTTP with 20 ms
// injected per request and reads one column ("column", default tail cache;
// "column-tail8k" with an 8 KiB one; "column-prefetch" prefetching the
// column's pages, as listed by lance.File.Columns, in one batch), against one plain GET of the whole
// file and reading the column from memory ("whole"). Loopback has no
// bandwidth limit, so the wall time counts round trips only.
// Metrics: requests, bytes received, and bytes of the column's pages and
// metadata (colbytes) per op; ns/op is the wall time.
func BenchmarkLanceColumnOverHTTP(b *testing.B) {
	benchLanceColumn(b, 0)
}

// BenchmarkLanceColumnOverHTTP100Mbit is BenchmarkLanceColumnOverHTTP with
// responses sent at 12.5 MB/s (100 Mbit/s), so bytes cost time too.
func BenchmarkLanceColumnOverHTTP100Mbit(b *testing.B) {
	benchLanceColumn(b, 12_500_000)
}

func benchLanceColumn(b *testing.B, bandwidth int64) {
	s := newTestServer(b)
	s.set(func(s *testServer) { s.latency, s.bandwidth = 20*time.Millisecond, bandwidth })
	for _, c := range []struct {
		name, field string
		rel         []string
	}{
		{"v2.2-primitives-id", "id", []string{"lance21", "2.2", "primitives.lance", "data"}},
		{"v2.1-wide-vec", "vec", []string{"lance21", "2.1", "wide.lance", "data"}},
	} {
		ents, err := os.ReadDir(filepath.Join(append([]string{s.root}, c.rel...)...))
		if err != nil || len(ents) == 0 {
			b.Fatal(err)
		}
		rel := append(c.rel, ents[0].Name())
		colBytes := lanceColumnBytes(b, filepath.Join(append([]string{s.root}, rel...)...), c.field)
		url := s.url(rel...)
		for _, mode := range []string{"column", "column-tail8k", "column-prefetch", "whole"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				var requests, recv, rounds int64
				for b.Loop() {
					var (
						r    io.ReaderAt
						size int64
					)
					n0, bytes0 := s.count()
					if mode == "whole" {
						resp, err := http.Get(url)
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
						tail := int64(DefaultTailCache)
						if mode == "column-tail8k" {
							tail = 8 << 10
						}
						f, err := Open(ctx, url, WithTailCache(tail))
						if err != nil {
							b.Fatal(err)
						}
						defer f.Close()
						r, size = f, f.Size()
					}
					lf, err := lance.Open(r, size)
					if err != nil {
						b.Fatal(err)
					}
					if mode == "column-prefetch" {
						// The column's pages in one concurrent batch.
						if err := r.(*File).Prefetch(ctx, lanceColumnExtents(lf, c.field)); err != nil {
							b.Fatal(err)
						}
					}
					rec, err := lf.Read(lance.ReadOptions{Columns: []string{c.field}})
					if err != nil {
						b.Fatal(err)
					}
					rec.Release()
					rounds = 1 // the whole file's GET
					if f, ok := r.(*File); ok {
						rounds = f.Stats().Rounds
					}
					n1, bytes1 := s.count()
					requests, recv = int64(n1-n0), bytes1-bytes0
					b.SetBytes(size)
				}
				b.ReportMetric(float64(requests), "requests/op")
				b.ReportMetric(float64(rounds), "rounds/op")
				b.ReportMetric(float64(recv), "recv-bytes/op")
				b.ReportMetric(float64(colBytes), "colbytes")
			})
		}
	}
}
