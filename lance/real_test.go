package lance

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/shareddata"
)

func openPath(t testing.TB, path string) *File {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err, path)
	return f
}

// readJSON reads every row of f through WriteJSONLines and parses it back.
func readJSON(t testing.TB, f *File, o JSONOptions) []map[string]any {
	t.Helper()
	rec, err := f.Read(ReadOptions{})
	require.NoError(t, err)
	defer rec.Release()
	var buf bytes.Buffer
	require.NoError(t, WriteJSONLines(&buf, rec, o))
	var rows []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var m map[string]any
		require.NoError(t, dec.Decode(&m), line)
		rows = append(rows, m)
	}
	return rows
}

// sameValue compares a value from the LanceDB JSON files (int64 as
// strings, binary as byte arrays, floats widened) with ours.
func sameValue(t testing.TB, path string, dt arrow.DataType, want, got any) {
	t.Helper()
	if want == nil || got == nil {
		require.Equal(t, want, got, path)
		return
	}
	switch dt := dt.(type) {
	case *arrow.StructType:
		w, g := want.(map[string]any), got.(map[string]any)
		require.Len(t, g, len(w), path)
		for _, f := range dt.Fields() {
			sameValue(t, path+"."+f.Name, f.Type, w[f.Name], g[f.Name])
		}
		return
	case arrow.ListLikeType:
		w, g := want.([]any), got.([]any)
		if dt.ID() == arrow.FIXED_SIZE_BINARY || isVarBinary(dt) {
			break
		}
		require.Len(t, g, len(w), path)
		for i := range w {
			sameValue(t, path+"[]", dt.Elem(), w[i], g[i])
		}
		return
	}
	switch dt.ID() {
	case arrow.FLOAT32, arrow.FLOAT64, arrow.FLOAT16:
		wf, err := strconv.ParseFloat(string(want.(json.Number)), 64)
		require.NoError(t, err)
		gf, err := strconv.ParseFloat(string(got.(json.Number)), 64)
		require.NoError(t, err)
		if dt.ID() != arrow.FLOAT64 {
			wf, gf = float64(float32(wf)), float64(float32(gf))
		}
		require.True(t, wf == gf || (math.IsNaN(wf) && math.IsNaN(gf)), "%s: want %v got %v", path, wf, gf)
	case arrow.INT64, arrow.UINT64:
		require.Equal(t, want.(string), string(got.(json.Number)), path)
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		var b []byte
		for _, x := range want.([]any) {
			v, err := x.(json.Number).Int64()
			require.NoError(t, err)
			b = append(b, byte(v))
		}
		require.Equal(t, base64.StdEncoding.EncodeToString(b), got, path)
	default:
		require.Equal(t, want, got, path)
	}
}

func checkAgainstJSON(t *testing.T, lancePath, jsonPath string) {
	f := openPath(t, lancePath)
	raw, err := os.ReadFile(jsonPath)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var want []map[string]any
	require.NoError(t, dec.Decode(&want))
	got := readJSON(t, f, JSONOptions{})
	require.Len(t, got, len(want))
	require.EqualValues(t, len(want), f.NumRows())
	for i := range want {
		require.Len(t, got[i], len(want[i]), "row %d", i)
		for _, fld := range f.Schema().Fields() {
			sameValue(t, fld.Name, fld.Type, want[i][fld.Name], got[i][fld.Name])
		}
	}
}

func TestRealFilesMatchJSON(t *testing.T) {
	files, _ := filepath.Glob("testdata/v2_0_*.lance")
	require.NotEmpty(t, files)
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			checkAgainstJSON(t, p, strings.TrimSuffix(p, ".lance")+".json")
		})
	}
	// The shared copies (the same bytes, plus any added later).
	dir := shareddata.Path(t, "lance")
	files, _ = filepath.Glob(filepath.Join(dir, "v2_0_*.lance"))
	for _, p := range files {
		j := strings.TrimSuffix(p, ".lance") + ".json"
		if _, err := os.Stat(j); err != nil {
			j = strings.Replace(j, "_multipage", "", 1)
		}
		t.Run("shared/"+filepath.Base(p), func(t *testing.T) { checkAgainstJSON(t, p, j) })
	}
}

func TestRefusedVersions(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "v0_2_legacy_alltypes_5rows.lance"))
	require.NoError(t, err)
	_, err = Open(bytes.NewReader(b), int64(len(b)))
	require.ErrorIs(t, err, ErrUnsupported)
	require.Contains(t, err.Error(), "version 0.2")
	// 2.3 and later are refused by version.
	c := append([]byte(nil), b...)
	b, err = os.ReadFile(filepath.Join("testdata", "v2_2_alltypes_5rows.lance"))
	require.NoError(t, err)
	c = append(c[:0], b...)
	c[len(c)-6] = 3
	_, err = Open(bytes.NewReader(c), int64(len(c)))
	require.ErrorIs(t, err, ErrUnsupported)
	require.Contains(t, err.Error(), "version 2.3")
}

// The 2.1 and 2.2 files hold the same rows as the 2.0 one.
func TestStructuralVersionsMatchJSON(t *testing.T) {
	for _, name := range []string{"v2_1_alltypes_5rows.lance", "v2_2_alltypes_5rows.lance"} {
		t.Run(name, func(t *testing.T) {
			checkAgainstJSON(t, filepath.Join("testdata", name), "testdata/v2_0_alltypes_5rows.json")
		})
	}
}

func TestUpstreamFiles(t *testing.T) {
	dir := shareddata.Path(t, "lance-upstream")
	rows := func(name string) []map[string]any {
		return readJSON(t, openPath(t, filepath.Join(dir, name)), JSONOptions{})
	}
	enc := func(rows []map[string]any) string {
		b, err := json.Marshal(rows)
		require.NoError(t, err)
		return string(b)
	}
	require.JSONEq(t, `[{"numbers":1,"strings":"foo","bins":"Zm9v","more_numbers":4},
		{"numbers":2,"strings":"bar","bins":"YmFy","more_numbers":5},
		{"numbers":3,"strings":"baz","bins":"YmF6","more_numbers":6}]`, enc(rows("v0_3_lance0.13.0_strings_as_list.lance")))
	require.JSONEq(t, `[{"x":1},{"x":2},{"x":3}]`, enc(rows("v0_3_lance0.15.0_int64_3rows.lance")))
	require.JSONEq(t, `[{"text":"frodo was a puppy"},{"text":"frodo was a happy puppy"},{"text":"frodo was a puppy with a tail"}]`,
		enc(rows("v0_3_lance0.27.0_string_3rows.lance")))

	f := openPath(t, filepath.Join(dir, "v0_3_lance0.21.0_fsl_float16dim_32rows.lance"))
	require.Equal(t, "fixed_size_list<item: float32, nullable>[16]", f.Schema().Field(0).Type.String())
	vr := rows("v0_3_lance0.21.0_fsl_float16dim_32rows.lance")
	require.Len(t, vr, 32)
	for _, r := range vr {
		v := r["vector"].([]any)
		require.Len(t, v, 16)
		for _, x := range v {
			_, err := x.(json.Number).Float64()
			require.NoError(t, err)
		}
	}
	// Round trip: the vectors written again by the test writer read back
	// identically.
	rec, err := f.Read(ReadOptions{})
	require.NoError(t, err)
	defer rec.Release()
	fsl := rec.Column(0).(*array.FixedSizeList)
	require.Zero(t, fsl.NullN())
	vals := fsl.ListValues().(*array.Float32).Float32Values()
	require.Len(t, vals, 32*16)
	var raw []byte
	for _, v := range vals {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	again := (&tFile{pad: true, rows: 32, fields: top(fld(0, -1, "vector", "fixed_size_list:float:16", true)),
		cols: []tCol{oneCol(tPage{bufs: [][]byte{raw}, length: 32, enc: noNull(fslE(16, noNull(flatE(32, pbuf(0)))))})}}).bytes()
	g, err := Open(bytes.NewReader(again), int64(len(again)))
	require.NoError(t, err)
	require.Equal(t, enc(vr), enc(readJSON(t, g, JSONOptions{})))
}
