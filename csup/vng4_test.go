package csup_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/colfmt/colfmt/internal/readlog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

// Every VNG v4 file zed v1.18.0 wrote reads back exactly zq's own JSON
// output (zed v1.18 prints maps as objects, as super does), counts its
// rows and validates. unions has no JSON (zq hangs on a null union): its
// values are checked against the .expected.zson by hand.
func TestVNGv4RealFiles(t *testing.T) {
	dir := shareddata.Path(t, "csup", "vng-v4_zed-v1.18.0")
	files, err := filepath.Glob(filepath.Join(dir, "*.vng"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 11)
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".vng")
		t.Run(name, func(t *testing.T) {
			f := openFile(t, p)
			require.Equal(t, csup.GenVNGv4, f.Generation)
			got := catJSON(t, f, bsup.JSONSuper)
			want, err := os.ReadFile(filepath.Join(dir, name+".expected.json"))
			if name == "unions" {
				require.True(t, os.IsNotExist(err))
				want = []byte(`{"u":1}` + "\n" + `{"u":"two"}` + "\n" + `{"u":3}` + "\n" + `{"u":null}` + "\n")
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, parseJSONLines(t, want), parseJSONLines(t, got), "got:\n%s", got)
			n, err := f.Count()
			require.NoError(t, err)
			require.Equal(t, int64(len(parseJSONLines(t, want))), n)
			require.NoError(t, f.Validate())
		})
	}
}

// The types rebuilt from VNG v4 metadata match zq's read-back.
func TestVNGv4Types(t *testing.T) {
	dir := shareddata.Path(t, "csup", "vng-v4_zed-v1.18.0")
	for name, want := range map[string][]string{
		"named_enum": {"{p:point={x:int64,y:int64},c:enum(red,green,blue)}"},
		"unions":     {"{u:(int64,string)}"},
		"primitives": {"{s:string,i:int64,u:uint8,f:float64,b:bool,t:time,d:duration,ip:ip,net:net,by:bytes,neg:int32,f32:float32}"},
		"maps":       {"{m:|{string:int64}|}"},
		"arrays":     {"{xs:[int64],ys:[[int64]],recs:[{k:string,v:int64}],set:|[string]|}"},
		"allnull":    {"{a:int64,b:string}"},
	} {
		f := openFile(t, filepath.Join(dir, name+".vng"))
		var got []string
		for _, st := range f.SuperTypes() {
			got = append(got, st.Key())
		}
		require.Equal(t, want, got, name)
	}
	// unions: the null is a null of the union type, as zq prints it.
	f := openFile(t, filepath.Join(dir, "unions.vng"))
	var last bsup.Value
	for v, err := range f.Values() {
		require.NoError(t, err)
		last = v
	}
	u, _ := last.Field("u")
	require.True(t, u.Null)
	require.Equal(t, "(int64,string)", u.Type.Key())
}

func readVNG4(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "vng-v4_zed-v1.18.0", name+".vng"))
	require.NoError(t, err)
	return b
}

// Hand-built bad VNG v4 files: located csup errors, never a panic.
func TestVNGv4BadFiles(t *testing.T) {
	le := binary.LittleEndian
	data := func(b []byte) int { return len(b) - int(le.Uint32(b[12:])) }
	for name, c := range map[string]struct {
		base  string
		patch func(b []byte) []byte
		want  error
		text  string
	}{
		"sizes":        {"hello", func(b []byte) []byte { return b[:len(b)-1] }, csup.ErrCorrupt, "do not add up"},
		"meta size":    {"hello", func(b []byte) []byte { le.PutUint32(b[8:], 0xffffff00); return b }, csup.ErrCorrupt, "do not add up"},
		"dict index":   {"hello", func(b []byte) []byte { b[data(b)] = 9; return b }, csup.ErrCorrupt, "dictionary index 9"},
		"variant tag":  {"hetero", func(b []byte) []byte { b[data(b)+1] = 0x02; b[data(b)+2] = 0x40; return b }, csup.ErrCorrupt, "super ID"},
		"short column": {"hello", func(b []byte) []byte { le.PutUint32(b[12:], 3); return b[:len(b)-1] }, csup.ErrCorrupt, ""},
	} {
		b := c.patch(append([]byte(nil), readVNG4(t, c.base)...))
		err := openAndScan(b)
		require.Error(t, err, name)
		require.True(t, errors.Is(err, c.want), "%s: %v", name, err)
		require.Contains(t, err.Error(), c.text, name)
		var ce *csup.CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v has no location", name, err)
	}
}

// FuzzVNGv4: mutations of real VNG v4 files open, scan and validate or
// fail with a csup error, within the allocation limits.
func FuzzVNGv4(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "vng-v4_zed-v1.18.0", "*.vng"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	opts := append(append([]csup.Option{}, fuzzLimits...), csup.WithMemoryLimit(32<<20))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err := openAndScan(b, opts...)
		runtime.ReadMemStats(&m1)
		if err != nil && !errors.Is(err, csup.ErrCorrupt) && !errors.Is(err, csup.ErrTooLarge) && !errors.Is(err, csup.ErrUnsupported) {
			t.Fatalf("error without a csup sentinel: %v", err)
		}
		if d := m1.TotalAlloc - m0.TotalAlloc; d > 256<<20 {
			t.Fatalf("allocated %d bytes for a %d-byte file", d, len(b))
		}
	})
}

// Project reads only the projected column's segment of a VNG v4 file.
func TestVNGv4ProjectionReadsOnlyItsColumn(t *testing.T) {
	b := readVNG4(t, "primitives")
	rec := readlog.New(bytes.NewReader(b))
	f, err := csup.Open(rec, int64(len(b)))
	require.NoError(t, err)
	var s *csup.Column
	cols := f.Columns()
	for i := range cols[0].Children {
		if cols[0].Children[i].Path == "super0.s" {
			s = &cols[0].Children[i]
		}
	}
	require.NotNil(t, s)
	rec.Reset()
	var got []string
	for v, err := range f.Project("s") {
		require.NoError(t, err)
		got = append(got, string(v.Elems[0].Bytes))
	}
	require.Equal(t, []string{"alpha", "", "gamma"}, got)
	ranges := rec.Reset()
	require.NotEmpty(t, ranges)
	for _, r := range ranges {
		inside := false
		for _, seg := range s.Segments {
			if r[0] >= seg.Offset && r[1] <= seg.Offset+seg.Length {
				inside = true
			}
		}
		require.True(t, inside, "read %v outside column s's segments %v", r, s.Segments)
	}
}

// VNG v4 statistics: exposed by Stats, and a range they rule out skips
// the file without reading its data.
func TestVNGv4StatsAndQuery(t *testing.T) {
	b := readVNG4(t, "primitives")
	rec := readlog.New(bytes.NewReader(b))
	f, err := csup.Open(rec, int64(len(b)))
	require.NoError(t, err)
	st := f.Stats("i")
	require.Len(t, st, 1)
	require.True(t, st[0].Known)
	require.Equal(t, int64(-1), st[0].Min.Int)
	require.Equal(t, int64(9223372036854775807), st[0].Max.Int)
	zzz := bsup.NewString("zzz")
	rec.Reset()
	rows, err := f.Query(csup.Query{Where: []csup.Range{{Path: "s", Min: &zzz}}})
	require.NoError(t, err)
	for _, err := range rows.All() {
		require.NoError(t, err)
	}
	require.Equal(t, csup.QueryStats{Objects: 1, ObjectsSkipped: 1}, rows.Stats())
	require.Empty(t, rec.Reset())
	lo, hi := bsup.NewInt(bsup.TypeInt64, -5), bsup.NewInt(bsup.TypeInt64, 0)
	rows, err = f.Query(csup.Query{Columns: []string{"s"}, Where: []csup.Range{{Path: "i", Min: &lo, Max: &hi}}})
	require.NoError(t, err)
	var got []string
	for v, err := range rows.All() {
		require.NoError(t, err)
		got = append(got, string(bsup.AppendJSON(nil, v, bsup.JSONSuper)))
	}
	require.Equal(t, []string{`{"s":"","i":-1}`}, got)
}
