package remote

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/at1"
	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/lance"
)

// decodeAs renders a file's content through its format package: Lance as
// JSON lines, CSUP values as JSON, AT-1 decoded bytes.
func decodeAs(t *testing.T, format string, r io.ReaderAt, size int64) []byte {
	t.Helper()
	var out bytes.Buffer
	switch format {
	case "lance":
		f, err := lance.Open(r, size)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := f.Read(lance.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		if err := lance.WriteJSONLines(&out, rec, lance.JSONOptions{}); err != nil {
			t.Fatal(err)
		}
	case "csup":
		f, err := csup.Open(r, size)
		if err != nil {
			t.Fatal(err)
		}
		for v, err := range f.Values() {
			if err != nil {
				t.Fatal(err)
			}
			out.Write(bsup.AppendJSON(nil, v, bsup.JSONSuper))
			out.WriteByte('\n')
		}
	case "at1":
		f, err := at1.Open(r, size)
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.Decode()
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
	}
	if out.Len() == 0 {
		t.Fatalf("%s: decoded nothing", format)
	}
	return out.Bytes()
}

// TestFormatsMatchLocal opens real files of every format over HTTP and
// decodes them; the output equals the local file's.
func TestFormatsMatchLocal(t *testing.T) {
	s := newTestServer(t)
	for _, c := range []struct {
		format string
		rel    []string
	}{
		{"lance", []string{"lance", "v2_2_alltypes_5rows.lance"}},
		{"lance", []string{"lance", "v2_0_alltypes_5rows.lance"}},
		{"lance", []string{"lance21", "2.2", "primitives.lance", "data", dataFile(t)}},
		{"csup", []string{"csup", "csup-v16_super-v0.3.0", "nested.csup"}},
		{"csup", []string{"csup", "csup-v16_super-v0.3.0", "primitives.csup"}},
		{"at1", []string{"at1", "qcol.at1"}},
		{"at1", []string{"at1", "columnar_edge.at1"}},
	} {
		local := filepath.Join(append([]string{s.root}, c.rel...)...)
		fh, err := os.Open(local)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		want := decodeAs(t, c.format, fh, st.Size())
		fh.Close()
		for _, tail := range []int64{0, DefaultTailCache} {
			f := mustOpen(t, s.url(c.rel...), WithTailCache(tail))
			if got := decodeAs(t, c.format, f, f.Size()); !bytes.Equal(got, want) {
				t.Fatalf("%s (tail %d): output differs from the local file's", s.url(c.rel...), tail)
			}
		}
	}
}

// TestLanceTableOverHTTP opens a Lance table directory served over HTTP
// (no listing: the version hint) and reads it whole and one column; the
// records equal those of the local table.
func TestLanceTableOverHTTP(t *testing.T) {
	s := newTestServer(t)
	for _, rel := range [][]string{
		{"lance21", "2.2", "primitives.lance"},
		{"lance21", "2.1", "bitmap_deletes.lance"},
		{"lance21", "2.1", "versions.lance"},
	} {
		localFS, err := FS(ctx, "file://"+filepath.Join(append([]string{s.root}, rel...)...))
		if err != nil {
			t.Fatal(err)
		}
		remoteFS, err := FS(ctx, s.url(rel...)+"/")
		if err != nil {
			t.Fatal(err)
		}
		for _, cols := range [][]string{nil, {"id"}} {
			want := readTable(t, localFS, cols)
			got := readTable(t, remoteFS, cols)
			if !bytes.Equal(got, want) {
				t.Fatalf("%v columns %v: records over HTTP differ from local", rel, cols)
			}
		}
	}
}

func readTable(t *testing.T, fsys fs.FS, cols []string) []byte {
	t.Helper()
	tb, err := lance.OpenTable(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for rec, err := range tb.Records(lance.ReadOptions{Columns: cols}) {
		if err != nil {
			t.Fatal(err)
		}
		err = lance.WriteJSONLines(&out, rec, lance.JSONOptions{})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if out.Len() == 0 {
		t.Fatal("table read nothing")
	}
	return out.Bytes()
}
