package csup_test

import (
	"bytes"
	"github.com/colfmt/colfmt/internal/readlog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

// Every CSUP v16 file super v0.3.0 wrote reads back exactly super's own
// JSON output (compared as parsed JSON), counts its rows and validates.
func TestCSUPv16RealFiles(t *testing.T) {
	dir := shareddata.Path(t, "csup", "csup-v16_super-v0.3.0")
	files, err := filepath.Glob(filepath.Join(dir, "*.csup"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 10)
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".csup")
		t.Run(name, func(t *testing.T) {
			f := openFile(t, p)
			require.Equal(t, csup.GenCSUPv16, f.Generation)
			want, err := os.ReadFile(filepath.Join(dir, name+".expected.json"))
			require.NoError(t, err)
			got := catJSON(t, f, bsup.JSONSuper)
			require.Equal(t, parseJSONLines(t, want), parseJSONLines(t, got), "got:\n%s", got)
			n, err := f.Count()
			require.NoError(t, err)
			require.Equal(t, int64(len(parseJSONLines(t, want))), n)
			require.NoError(t, f.Validate())
		})
	}
}

// The types rebuilt from the node DAG match super's own read-back
// (.expected.sup): names, enums, unions, float32, uint8, sets and maps.
func TestCSUPv16Types(t *testing.T) {
	dir := shareddata.Path(t, "csup", "csup-v16_super-v0.3.0")
	for name, want := range map[string][]string{
		"named_enum": {"{p:point={x:int64,y:int64},c:enum(red,green,blue)}"},
		"unions":     {"{u:(int64,string)}", "{u:(int64,string,null)}"},
		"primitives": {"{s:string,i:int64,u:uint8,f:float64,b:bool,t:time,d:duration,ip:ip,net:net,by:bytes,neg:int32,f32:float32}"},
		"maps":       {"{m:|{string:int64}|}"},
		"arrays":     {"{xs:[int64],ys:[[int64]],recs:[{k:string,v:int64}],set:|[string]|}"},
		"hello":      {"{a:string,b:string}"},
	} {
		f := openFile(t, filepath.Join(dir, name+".csup"))
		var got []string
		for _, st := range f.SuperTypes() {
			got = append(got, st.Key())
		}
		require.Equal(t, want, got, name)
	}
}

// Project("s") reads only the two segments of column s (bytes and
// offsets); a full scan reads more.
func TestCSUPv16ProjectionReadsOnlyItsColumn(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(shareddata.Path(t, "csup", "csup-v16_super-v0.3.0"), "primitives.csup"))
	require.NoError(t, err)
	rec := readlog.New(bytes.NewReader(b))
	f, err := csup.Open(rec, int64(len(b)))
	require.NoError(t, err)
	cols := f.Columns()
	require.Len(t, cols, 1)
	var s *csup.Column
	for i := range cols[0].Children {
		if cols[0].Children[i].Path == "super0.s" {
			s = &cols[0].Children[i]
		}
	}
	require.NotNil(t, s)
	require.Equal(t, "bytes", s.Kind)
	rec.Reset()
	var got []string
	for v, err := range f.Project("s") {
		require.NoError(t, err)
		require.Equal(t, "{s:string}", v.Type.Key())
		got = append(got, string(v.Elems[0].Bytes))
	}
	require.Equal(t, []string{"alpha", "", "gamma"}, got)
	ranges := rec.Reset()
	require.NotEmpty(t, ranges)
	for _, r := range ranges {
		inside := false
		for _, seg := range s.Segments {
			if r[0] >= seg.Offset && r[1] <= seg.Offset+max(seg.Length, seg.MemLength) {
				inside = true
			}
		}
		require.True(t, inside, "read %v outside column s's segments %v", r, s.Segments)
	}
	for range f.Values() {
	}
	require.Greater(t, len(rec.Reset()), len(ranges)+5)
}

// Min/max statistics are exposed per object, and a range predicate skips
// objects whose statistics rule it out without reading their data.
func TestCSUPv16StatsAndQuery(t *testing.T) {
	dir := shareddata.Path(t, "csup", "csup-v16_super-v0.3.0")
	f := openFile(t, filepath.Join(dir, "primitives.csup"))
	st := f.Stats("i")
	require.Len(t, st, 1)
	require.True(t, st[0].Known)
	require.Equal(t, int64(-1), st[0].Min.Int)
	require.Equal(t, int64(9223372036854775807), st[0].Max.Int)
	require.Equal(t, int64(3), st[0].Rows)

	iv := func(n int64) *bsup.Value { v := bsup.NewInt(bsup.TypeInt64, n); return &v }
	// A range outside [min,max]: the object is skipped, no data is read.
	b, err := os.ReadFile(filepath.Join(dir, "primitives.csup"))
	require.NoError(t, err)
	rec := readlog.New(bytes.NewReader(b))
	f, err = csup.Open(rec, int64(len(b)))
	require.NoError(t, err)
	rec.Reset()
	rows, err := f.Query(csup.Query{Columns: []string{"s"}, Where: []csup.Range{{Path: "i", Max: iv(-2)}}})
	require.NoError(t, err)
	for _, err := range rows.All() {
		require.NoError(t, err)
	}
	require.Equal(t, csup.QueryStats{Objects: 1, ObjectsSkipped: 1, Rows: 0}, rows.Stats())
	require.Empty(t, rec.Reset())
	// A range that overlaps: rows are filtered by value.
	rows, err = f.Query(csup.Query{Columns: []string{"s"}, Where: []csup.Range{{Path: "i", Min: iv(0), Max: iv(100)}}})
	require.NoError(t, err)
	var got []string
	for v, err := range rows.All() {
		require.NoError(t, err)
		sv, _ := v.Field("s")
		got = append(got, string(sv.Bytes))
	}
	require.Equal(t, []string{"alpha"}, got)
	require.Equal(t, csup.QueryStats{Objects: 1, Rows: 1}, rows.Stats())
	// Strings compare too; a hetero file's Dynamic variants are all searched.
	f = openFile(t, filepath.Join(dir, "hello.csup"))
	sv := bsup.NewString("h")
	rows, err = f.Query(csup.Query{Where: []csup.Range{{Path: "a", Min: &sv}}})
	require.NoError(t, err)
	n := 0
	for _, err := range rows.All() {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, 1, n)
	// Without statistics (ZST v2) a query filters rows by value.
	zf := openFile(t, "testdata/zst-v2_zed-v1.2.0/hello.zst")
	require.Empty(t, zf.Stats("a"))
	rows, err = zf.Query(csup.Query{Where: []csup.Range{{Path: "a", Min: &sv}}})
	require.NoError(t, err)
	n = 0
	for _, err := range rows.All() {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, 1, n)
	require.Equal(t, csup.QueryStats{Objects: 1, Rows: 1}, rows.Stats())
}

// Nested projection paths select inside records of every top-level type.
func TestCSUPv16NestedProjection(t *testing.T) {
	f := openFile(t, filepath.Join("testdata", "csup-v16_super-v0.3.0", "nested.csup"))
	var got []string
	for v, err := range f.Project("user.name", "id") {
		require.NoError(t, err)
		got = append(got, string(bsup.AppendJSON(nil, v, bsup.JSONSuper)))
	}
	require.Equal(t, []string{
		`{"id":1,"user":{"name":"ann"}}`,
		`{"id":2,"user":{"name":"bob"}}`,
		`{"id":3,"user":null}`,
		`{"id":4,"user":{"name":"cy"}}`,
	}, got)
}
