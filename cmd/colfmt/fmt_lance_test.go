package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/shareddata"
)

func TestLanceCLI(t *testing.T) {
	const dir = "../../lance/testdata/"
	code, out, errOut := runCLI(t, "cat", dir+"v2_0_alltypes_5rows.lance")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5)
	// Row 1 per the file's generator: i64n null (1%3==1), l null (1%4==1),
	// ls ["a1", null], st.a null (odd), vec (1, 1.5, -1, 1/2).
	require.Equal(t, `{"id":1,"i64n":null,"f64":1.5,"f32n":0.25,"s":"str1x","cat":"green","flag":false,"l":null,"ls":["a1",null],"st":{"a":null,"b":"n1"},"vec":[1,1.5,-1,0.5]}`, lines[1])

	code, out, errOut = runCLI(t, "cat", "--columns", "st.a,id", dir+"v2_0_alltypes_5rows.lance")
	require.Equal(t, 0, code, errOut)
	require.True(t, strings.HasPrefix(out, `{"st.a":0,"id":0}`+"\n"+`{"st.a":null,"id":1}`+"\n"), out)
	code, _, errOut = runCLI(t, "cat", "--columns", "st.nope", dir+"v2_0_alltypes_5rows.lance")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no column st.nope")

	code, out, _ = runCLI(t, "cat", dir+"v2_0_zstd_allnull_binary_6rows.lance")
	require.Equal(t, 0, code)
	require.Contains(t, out, `{"id":0,"zs":"hello-0-","nulls":null,"big":"TDA=","u8":0}`)

	code, out, _ = runCLI(t, "inspect", dir+"v2_0_alltypes_5rows.lance")
	require.Equal(t, 0, code)
	require.Contains(t, out, "footer version 0.3")
	require.Contains(t, out, "nullable(some_nulls(validity=flat(1, page[0]), values=flat(64, page[1])))")
	require.Contains(t, out, "list(offsets=nullable(no_nulls(flat(64, page[0]))), null_offset_adjustment=5, num_items=4)")

	code, out, _ = runCLI(t, "validate", dir+"v2_0_alltypes_5rows.lance")
	require.Equal(t, 0, code)
	require.Contains(t, out, "valid")

	for _, v := range []string{"2_1", "2_2"} {
		code, out, errOut = runCLI(t, "cat", dir+"v"+v+"_alltypes_5rows.lance")
		require.Equal(t, 0, code, errOut)
		require.Equal(t, 5, strings.Count(out, "\n"))
	}
	code, out, _ = runCLI(t, "inspect", dir+"v2_2_alltypes_5rows.lance")
	require.Equal(t, 0, code)
	require.Contains(t, out, "Lance file format 2.2")
	require.Contains(t, out, "mini-block(")
	code, _, errOut = runCLI(t, "validate", dir+"v0_2_legacy_alltypes_5rows.lance")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "0.2")

	b, err := os.ReadFile(dir + "v2_0_alltypes_5rows.lance")
	require.NoError(t, err)
	b[len(b)-40] ^= 0xff // column_meta_start is unused; break the CMO table start instead
	b[len(b)-32] ^= 0x7f
	code, _, errOut = runCLI(t, "validate", writeTemp(t, "bad.lance", b))
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "lance: corrupt input")
}

// TestLanceCLIDataFile: `colfmt cat` of the one data file of a
// single-fragment LanceDB table prints exactly the table's expected rows
// (the shared lance21 README's rendering, the same renderer as tables).
func TestLanceCLIDataFile(t *testing.T) {
	for _, fv := range []string{"2.1", "2.2"} {
		dir := shareddata.Path(t, "lance21", fv)
		files, err := filepath.Glob(filepath.Join(dir, "primitives.lance", "data", "*.lance"))
		require.NoError(t, err)
		require.Len(t, files, 1, "primitives is one fragment of one data file")
		want, err := os.ReadFile(filepath.Join(dir, "primitives.expected.jsonl"))
		require.NoError(t, err)
		code, out, errOut := runCLI(t, "cat", files[0])
		require.Equal(t, 0, code, errOut)
		require.Equal(t, string(want), out, fv)
		// The same file's rows match the table directory's, column by column.
		code, fileOut, errOut := runCLI(t, "cat", "--columns", "i64,ts", files[0])
		require.Equal(t, 0, code, errOut)
		code, tableOut, errOut := runCLI(t, "cat", "--columns", "i64,ts", filepath.Join(dir, "primitives.lance"))
		require.Equal(t, 0, code, errOut)
		require.Equal(t, tableOut, fileOut)
	}
}

func TestLanceCLITypes(t *testing.T) {
	const f = "../../lance/testdata/golden_types.lance"
	code, out, errOut := runCLI(t, "cat", f)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, `"d32":"2024-01-01"`)
	// The shared lance21 README's rendering, as for tables: timestamps in
	// UTC with a Z, 64-bit integers as decimal strings.
	require.Contains(t, out, `"ts":"2024-01-01T00:00:00.123456Z"`)
	require.Contains(t, out, `"tsz":"2024-01-01T00:00:00.000000001Z"`)
	require.Contains(t, out, `"dec":"123.45"`)
	require.Contains(t, out, `"u64":"18446744073709551615"`)
	require.Contains(t, out, `"i64":"-9223372036854775808"`)
	require.Contains(t, out, `"f32":"NaN"`)
	code, out, _ = runCLI(t, "cat", "--raw", f)
	require.Equal(t, 0, code)
	require.Contains(t, out, `"d32":19723`)
	require.Contains(t, out, `"ts":1704067200123456`)
	require.Contains(t, out, `"dec":12345`)

	code, out, _ = runCLI(t, "inspect", "../../lance/testdata/golden_buffers.lance")
	require.Equal(t, 0, code)
	require.Contains(t, out, "zone index: 2 rows per zone, map in column[0]")
	require.Contains(t, out, "flat(32, file[1])")

	code, _, errOut = runCLI(t, "validate", "../../lance/testdata/bad_dict_index.lance")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "dictionary index out of range")
}

func TestLanceDemo(t *testing.T) {
	row, err := lanceDemo()
	require.NoError(t, err)
	require.Equal(t, "lance", row.Format)
	require.Greater(t, row.InputBytes, 0)
	require.Greater(t, row.DecodeMBps, 0.0)
	require.Greater(t, row.EncodeMBps, 0.0) // the rows written again as 2.2
	require.Greater(t, row.EncodedBytes, 0)
}
