package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/lancedbnode"
	"github.com/colfmt/colfmt/lance"
)

const packRows = `{"id": 1, "name": "a", "score": 0.5, "ok": true, "vec": [0.5, 1, 2], "tags": ["x", "y"], "meta": {"k": 1}}
{"id": 2, "name": null, "score": 2, "ok": false, "vec": [1.5, 0, -2], "tags": [], "meta": {"k": 2, "z": "q"}}

{"id": 3, "vec": [3, 3, 3.25], "meta": null, "extra": [1, "two"]}
`

// packRowsCat is what colfmt cat prints for packRows (LanceDB's rendering:
// int64 as strings).
const packRowsCat = `{"id":"1","name":"a","score":0.5,"ok":true,"vec":[0.5,1,2],"tags":["x","y"],"meta":{"k":"1","z":null},"extra":null}
{"id":"2","name":null,"score":2,"ok":false,"vec":[1.5,0,-2],"tags":[],"meta":{"k":"2","z":"q"},"extra":null}
{"id":"3","name":null,"score":null,"ok":null,"vec":[3,3,3.25],"tags":null,"meta":null,"extra":["1","two"]}
`

func TestPackLanceFile(t *testing.T) {
	in := writeTemp(t, "rows.jsonl", []byte(packRows))
	for _, fv := range []string{"", "2.1", "2.2"} {
		out := filepath.Join(t.TempDir(), "rows.lance")
		args := []string{"pack", "--format", "lance", in, "-o", out}
		if fv != "" {
			args = append(args, "--format-version", fv)
		}
		code, _, stderr := runCLI(t, args...)
		require.Equal(t, 0, code, stderr)
		code, stdout, stderr := runCLI(t, "cat", out)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, packRowsCat, stdout)
		code, stdout, stderr = runCLI(t, "inspect", out)
		require.Equal(t, 0, code, stderr)
		want := fv
		if want == "" {
			want = "2.2"
		}
		require.Contains(t, stdout, "Lance file format "+want)
		require.Contains(t, stdout, `vec: fixed_size_list<item: float32, nullable>[3]`)
		code, _, stderr = runCLI(t, "validate", out)
		require.Equal(t, 0, code, stderr)
	}
	// To stdout, from stdin.
	code, stdout, stderr := runIn(t, []byte(packRows), "pack", "--format", "lance", "-")
	require.Equal(t, 0, code, stderr)
	f, err := lance.Open(bytes.NewReader([]byte(stdout)), int64(len(stdout)))
	require.NoError(t, err)
	require.EqualValues(t, 3, f.NumRows())
}

func TestPackLanceTable(t *testing.T) {
	db := t.TempDir()
	table := filepath.Join(db, "t.lance")
	in := writeTemp(t, "rows.jsonl", []byte(packRows))
	code, _, stderr := runCLI(t, "pack", "--format", "lance", "--table", table, in)
	require.Equal(t, 0, code, stderr)
	// Append: the lines are read with the table's schema.
	more := writeTemp(t, "more.jsonl", []byte(`{"id": 4, "score": 1, "vec": [1, 2, 3], "extra": [5]}`+"\n"))
	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--table", table, more)
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr := runCLI(t, "cat", table)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, packRowsCat+`{"id":"4","name":null,"score":1,"ok":null,"vec":[1,2,3],"tags":null,"meta":null,"extra":["5"]}`+"\n", stdout)
	code, stdout, stderr = runCLI(t, "validate", table)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "version 2 (data storage version 2.2)")

	// A line that does not fit the table's schema names the line and field.
	bad := writeTemp(t, "bad.jsonl", []byte("{\"id\": 5}\n{\"id\": \"six\"}\n"))
	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--table", table, bad)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `line 2: field "id"`)
	// Nothing was committed, no data file left.
	tb, err := lance.OpenTable(os.DirFS(db), "t.lance")
	require.NoError(t, err)
	require.EqualValues(t, 2, tb.Version().Number)
	ents, err := os.ReadDir(filepath.Join(table, "data"))
	require.NoError(t, err)
	require.Len(t, ents, 2)

	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--table", table, "--format-version", "2.1", more)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "has file format 2.2")
	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--table", table, "-o", filepath.Join(db, "x"), more)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "exclude each other")
	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--max-rows-per-file", "2", more)
	require.Equal(t, 2, code, stderr)
	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--format-version", "3.0", more)
	require.Equal(t, 2, code, stderr)

	// Many fragments.
	var sb strings.Builder
	for i := 0; i < 25; i++ {
		sb.WriteString(`{"n": ` + string(rune('0'+i%10)) + "}\n")
	}
	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--table", filepath.Join(db, "n.lance"), "--max-rows-per-file", "10", writeTemp(t, "n.jsonl", []byte(sb.String())))
	require.Equal(t, 0, code, stderr)
	tb, err = lance.OpenTable(os.DirFS(db), "n.lance")
	require.NoError(t, err)
	require.Len(t, tb.Fragments(), 3)
	require.EqualValues(t, 25, tb.NumRows())
}

func TestPackLanceSchema(t *testing.T) {
	schema := writeTemp(t, "schema.json", []byte(`{"fields": [
		{"name": "id", "type": "int32", "nullable": false},
		{"name": "vec", "type": "fixed_size_list:3", "item": "float64"},
		{"name": "tags", "type": "list", "item": "string"}
	]}`))
	in := writeTemp(t, "rows.jsonl", []byte(packRows))
	out := filepath.Join(t.TempDir(), "s.lance")
	code, _, stderr := runCLI(t, "pack", "--format", "lance", "--schema", schema, in, "-o", out)
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr := runCLI(t, "cat", out)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, `{"id":1,"vec":[0.5,1,2],"tags":["x","y"]}
{"id":2,"vec":[1.5,0,-2],"tags":[]}
{"id":3,"vec":[3,3,3.25],"tags":null}
`, stdout)
	code, stdout, _ = runCLI(t, "inspect", out)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "id: int32")

	bad := writeTemp(t, "bad.json", []byte(`{"fields": [{"name": "id", "type": "decimal"}]}`))
	code, _, stderr = runCLI(t, "pack", "--format", "lance", "--schema", bad, in, "-o", out)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `unknown type "decimal"`)
	code, _, stderr = runCLI(t, "pack", "--format", "lance", writeTemp(t, "empty.jsonl", []byte("\n")), "-o", out)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no columns")
}

// TestPackLanceTableLanceDB: LanceDB reads a table packed from JSON Lines
// (when node and @lancedb/lancedb are installed, see lance's interop tests).
func TestPackLanceTableLanceDB(t *testing.T) {
	env := lancedbnode.Find(t)
	db := t.TempDir()
	in := writeTemp(t, "rows.jsonl", []byte(packRows))
	for _, fv := range []string{"2.2", "2.1"} {
		name := "j" + strings.ReplaceAll(fv, ".", "")
		code, _, stderr := runCLI(t, "pack", "--format", "lance", "--format-version", fv, "--table", filepath.Join(db, name+".lance"), in)
		require.Equal(t, 0, code, stderr)
		out, err := env.Command("table.mjs", "dump", db, name).Output()
		require.NoError(t, err)
		got := strings.Split(strings.TrimSpace(string(out)), "\n")
		want := strings.Split(strings.TrimSpace(packRowsCat), "\n")
		require.Len(t, got, len(want))
		for i := range want {
			require.JSONEq(t, want[i], got[i])
		}
		var info struct{ Schema string }
		out, err = env.Command("table.mjs", "info", db, name).Output()
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(out, &info))
		require.Contains(t, info.Schema, "vec: FixedSizeList[3]<Float32>")
	}
}
