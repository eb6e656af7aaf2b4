package lancefetch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/lance"
	"github.com/colfmt/colfmt/remote"
)

var ctx = context.Background()

// server serves root with ranges, a latency per request, and counts
// requests and body bytes.
type server struct {
	*httptest.Server
	latency time.Duration
	mu      sync.Mutex
	n       int
	bytes   int64
}

func newServer(tb testing.TB, root string, latency time.Duration) *server {
	s := &server{latency: latency}
	fsrv := http.FileServer(http.Dir(root))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(s.latency)
		s.mu.Lock()
		s.n++
		s.mu.Unlock()
		fsrv.ServeHTTP(countWriter{w, s}, r)
	}))
	tb.Cleanup(s.Close)
	return s
}

type countWriter struct {
	http.ResponseWriter
	s *server
}

func (w countWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	w.s.bytes += int64(len(p))
	w.s.mu.Unlock()
	return w.ResponseWriter.Write(p)
}

func (s *server) count() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n, s.bytes
}

func tableJSON(tb testing.TB, t *lance.Table, cols []string) string {
	tb.Helper()
	var out bytes.Buffer
	for rec, err := range t.Records(lance.ReadOptions{Columns: cols}) {
		if err != nil {
			tb.Fatal(err)
		}
		if err := lance.WriteJSONLines(&out, rec, lance.JSONOptions{}); err != nil {
			tb.Fatal(err)
		}
		rec.Release()
	}
	return out.String()
}

// TestTables: every shared table read over HTTP through NewFS (after
// PrefetchTable) gives the local records, for all columns and for one;
// the prefetched read sends no more requests than the plain one.
func TestTables(t *testing.T) {
	root := shareddata.Path(t, "lance21")
	s := newServer(t, root, 0)
	for _, rel := range []string{"2.1/versions.lance", "2.1/multipage.lance", "2.1/nested.lance", "2.1/bitmap_deletes.lance", "2.2/primitives.lance", "2.1/wide.lance"} {
		local, err := lance.OpenTable(os.DirFS(filepath.Join(root, rel)), ".")
		if err != nil {
			t.Fatal(err)
		}
		first := local.Schema().Field(0).Name
		for _, cols := range [][]string{nil, {first}} {
			want := tableJSON(t, local, cols)
			plainFS, err := remote.FS(ctx, s.URL+"/"+rel)
			if err != nil {
				t.Fatal(err)
			}
			n0, _ := s.count()
			pt, err := lance.OpenTable(plainFS, ".")
			if err != nil {
				t.Fatal(err)
			}
			if got := tableJSON(t, pt, cols); got != want {
				t.Fatalf("%s %v: plain remote read differs", rel, cols)
			}
			n1, _ := s.count()
			pf := NewFS(ctx, plainFS, cols)
			tt, err := lance.OpenTable(pf, ".")
			if err != nil {
				t.Fatal(err)
			}
			pf.PrefetchTable(tt)
			if got := tableJSON(t, tt, cols); got != want {
				t.Fatalf("%s %v: prefetched read differs", rel, cols)
			}
			n2, _ := s.count()
			// PrefetchTable may open one file of each field-id set to
			// learn whether it holds a selected column.
			sets := map[string]bool{}
			for _, fr := range tt.Fragments() {
				for _, df := range fr.Files {
					sets[fmt.Sprint(df.FieldIDs)] = true
				}
			}
			if n2-n1 > n1-n0+len(sets)-1 {
				t.Fatalf("%s %v: %d requests prefetched, %d plain", rel, cols, n2-n1, n1-n0)
			}
			pf.mu.Lock()
			left := len(pf.ready)
			pf.mu.Unlock()
			if left != 0 {
				t.Fatalf("%s: %d files made ready were not read", rel, left)
			}
		}
	}
}

// TestPrefetchOneColumn: after Prefetch, reading one column of a data
// file costs no further request, and what was fetched is that column's
// extents (coalesced) beyond the tail.
func TestPrefetchOneColumn(t *testing.T) {
	root := shareddata.Path(t, "lance21")
	s := newServer(t, root, 0)
	dir := filepath.Join(root, "2.1", "wide.lance", "data")
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) == 0 {
		t.Fatal(err)
	}
	f, err := remote.Open(ctx, s.URL+"/2.1/wide.lance/data/"+ents[0].Name(), remote.WithTailCache(8<<10))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lf, err := lance.Open(f, f.Size())
	if err != nil {
		t.Fatal(err)
	}
	es := Extents(lf, []string{"vec"})
	var colBytes int64
	for _, e := range es {
		colBytes += e.Len
	}
	if len(es) == 0 {
		t.Fatal("no extents for vec")
	}
	for _, c := range lf.Columns() {
		if (strings.HasSuffix(c.Path, "(vec)") || strings.Contains(c.Path, "(vec.")) != selected(fieldPath(c.Path), []string{"vec"}) {
			t.Fatalf("%s: selection", c.Path)
		}
	}
	if err := Prefetch(ctx, f, lf, []string{"vec"}); err != nil {
		t.Fatal(err)
	}
	before := f.Stats()
	rec, err := lf.Read(lance.ReadOptions{Columns: []string{"vec"}})
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	after := f.Stats()
	if after.Requests != before.Requests {
		t.Fatalf("read after Prefetch sent %d requests", after.Requests-before.Requests)
	}
	if after.Bytes > 8<<10+colBytes*12/10 {
		t.Fatalf("fetched %d bytes for a %d-byte column", after.Bytes, colBytes)
	}
}
