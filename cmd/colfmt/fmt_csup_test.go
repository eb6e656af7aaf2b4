package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

func jsonLines(t *testing.T, s string) []any {
	t.Helper()
	var out []any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	for d.More() {
		var v any
		require.NoError(t, d.Decode(&v))
		out = append(out, v)
	}
	return out
}

func TestCSUPRealFilesCLI(t *testing.T) {
	for dir, ext := range map[string]string{
		"../../csup/testdata/zst-v2_zed-v1.2.0":             ".zst",
		"../../csup/testdata/vng-v3_zed-v1.6.0":             ".vng",
		shareddata.Path(t, "csup", "vng-v4_zed-v1.18.0"):    ".vng",
		shareddata.Path(t, "csup", "csup-v16_super-v0.3.0"): ".csup",
	} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.expected.json"))
		require.NotEmpty(t, files)
		for _, exp := range files {
			p := strings.TrimSuffix(exp, ".expected.json") + ext
			code, stdout, stderr := runCLI(t, "cat", p)
			require.Equal(t, 0, code, stderr)
			want, _ := os.ReadFile(exp)
			require.Equal(t, jsonLines(t, string(want)), jsonLines(t, stdout), p)
			require.Equal(t, strings.Count(string(want), "\n"), strings.Count(stdout, "\n"), "one value per line")
			code, stdout, _ = runCLI(t, "validate", p)
			require.Equal(t, 0, code)
			require.Contains(t, stdout, "valid csup file")
			code, stdout, _ = runCLI(t, "inspect", p)
			require.Equal(t, 0, code)
			require.Contains(t, stdout, "super types:")
			require.Contains(t, stdout, "columns:")
		}
	}
}

// TestCSUPCatColumns: cat --columns projects nested paths in every
// generation (csup.File.Project: only those columns are read), rows in
// file order, fields in the file's order, nulls kept where a parent is null.
func TestCSUPCatColumns(t *testing.T) {
	want := `{"id":1,"user":{"addr":{"city":"paris"}}}
{"id":2,"user":{"addr":{"city":"rome"}}}
{"id":3,"user":null}
{"id":4,"user":{"addr":null}}
`
	for _, p := range []string{
		"../../csup/testdata/zst-v2_zed-v1.2.0/nested.zst",
		"../../csup/testdata/vng-v3_zed-v1.6.0/nested.vng",
		"../../csup/testdata/vng-v4_zed-v1.18.0/nested.vng",
		"../../csup/testdata/csup-v16_super-v0.3.0/nested.csup",
	} {
		code, stdout, stderr := runCLI(t, "cat", "--columns", "user.addr.city,id", p)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, want, stdout, p)
		// Flags after FILE, and one top-level column.
		code, stdout, stderr = runCLI(t, "cat", p, "--columns", "tags")
		require.Equal(t, 0, code, stderr)
		require.Equal(t, `{"tags":["a","b"]}`+"\n"+`{"tags":[]}`+"\n"+`{"tags":null}`+"\n"+`{"tags":["c"]}`+"\n", stdout, p)
	}
}

// TestBSUPIsAKnownFormat: bsup, which pack writes, is listed wherever the
// command names its formats.
func TestBSUPIsAKnownFormat(t *testing.T) {
	code, _, stderr := runCLI(t, "pack", "--help")
	require.Equal(t, 0, code)
	require.Contains(t, stderr, "format to write: onpair, at1, lance, csup, bsup")
	require.Contains(t, stderr, "--format bsup: Super Binary stream")
	code, _, stderr = runCLI(t, "pack", "--format", "nosuch", "in.json")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "(formats: onpair, at1, lance, csup, bsup)")
	code, stdout, _ := runCLI(t, "--help")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "csup, bsup")
	// A bsup error is one line naming the file.
	bad := writeTemp(t, "bad.json", []byte(`{"a":`))
	code, _, stderr = runCLI(t, "pack", "--format", "bsup", bad)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, bad)
}

func TestCSUPRefusesNewerVersions(t *testing.T) {
	for _, c := range []struct {
		src string
		ver byte
	}{
		{filepath.Join(shareddata.Path(t, "csup", "vng-v4_zed-v1.18.0"), "hello.vng"), 5},
		{filepath.Join(shareddata.Path(t, "csup", "csup-v16_super-v0.3.0"), "hello.csup"), 17},
	} {
		b, err := os.ReadFile(c.src)
		require.NoError(t, err)
		b[4] = c.ver
		p := filepath.Join(t.TempDir(), filepath.Base(c.src))
		require.NoError(t, os.WriteFile(p, b, 0o644))
		code, _, stderr := runCLI(t, "cat", p)
		require.Equal(t, 1, code)
		require.Contains(t, stderr, "csup: unsupported")
		require.Contains(t, stderr, "version")
		require.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1)
	}
}

// pack infers types from JSON Lines; cat of the packed file prints the same
// values zq -j printed for zed's own file of that input.
func TestCSUPPackCat(t *testing.T) {
	in := filepath.Join(shareddata.Path(t, "csup", "inputs", "zson-zed-v1"), "mixed.json")
	out := filepath.Join(t.TempDir(), "mixed.csup")
	code, _, stderr := runCLI(t, "pack", "--format", "csup", "--out", out, in)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	got, err := detect(&input{Name: out, R: bytes.NewReader(data), Size: int64(len(data))})
	require.NoError(t, err)
	require.Equal(t, "csup", got)
	code, stdout, stderr := runCLI(t, "cat", out)
	require.Equal(t, 0, code, stderr)
	want, _ := os.ReadFile("../../csup/testdata/zst-v2_zed-v1.2.0/mixed.expected.json")
	require.Equal(t, jsonLines(t, string(want)), jsonLines(t, stdout))
	code, stdout, _ = runCLI(t, "inspect", out)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "CSUP version 16")
	require.Contains(t, stdout, "super types: 4")
	require.Contains(t, stdout, "values: 4")
	// What super v0.3.0 wrote for the same input, byte for byte.
	super, err := os.ReadFile(filepath.Join(shareddata.Path(t, "csup", "csup-v16_super-v0.3.0"), "mixed.csup"))
	require.NoError(t, err)
	require.Equal(t, super, data)
	// --layout spec writes the spec's layout.
	code, _, stderr = runCLI(t, "pack", "--format", "csup", "--layout", "spec", "--out", out+".spec", in)
	require.Equal(t, 0, code, stderr)
	code, stdout, _ = runCLI(t, "inspect", out+".spec")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "spec layout")
	// --format bsup writes a Super Binary stream.
	code, _, stderr = runCLI(t, "pack", "--format", "bsup", "--out", out+".bsup", in)
	require.Equal(t, 0, code, stderr)
	bs, err := os.ReadFile(out + ".bsup")
	require.NoError(t, err)
	require.Equal(t, byte(0xff), bs[len(bs)-1])

	bad := writeTemp(t, "bad.json", []byte(`{"a":1}`+"\n"+`{"a":`))
	code, _, stderr = runCLI(t, "pack", "--format", "csup", "--out", out+"2", bad)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "csup")
}

func TestCSUPDetect(t *testing.T) {
	require.True(t, detectCSUP([]byte("CSUP\x10\x00\x00\x00"), nil, 100))
	require.True(t, detectCSUP([]byte("VNG\x00"), nil, 100))
	require.False(t, detectCSUP([]byte("AT1\x02"), []byte("LANC"), 100))
	require.False(t, detectCSUP(nil, []byte("just text\n"), 10))
	// A corrupt file that looks like csup gives a one-line error.
	p := writeTemp(t, "trunc.csup", append([]byte("\x00\x01garbage"), []byte("ZNG Trailer\xff")...))
	code, _, stderr := runCLI(t, "validate", p)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "csup:")
}

func TestCSUPCatRaw(t *testing.T) {
	p := "../../csup/testdata/vng-v3_zed-v1.6.0/primitives.vng"
	code, stdout, _ := runCLI(t, "cat", p)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, `"t":"2023-01-01T00:00:00Z","d":"1s"`)
	code, stdout, _ = runCLI(t, "cat", "--raw", p)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, `"t":1672531200000000000,"d":1000000000`)
}

// csup-query uses the statistics: an out-of-range predicate skips the
// object, an overlapping one filters rows; flags may follow the file.
func TestCSUPQueryCLI(t *testing.T) {
	p := filepath.Join(shareddata.Path(t, "csup", "csup-v16_super-v0.3.0"), "primitives.csup")
	code, stdout, stderr := runCLI(t, "csup-query", p, "--cols", "s", "--where", "i=0..100", "--stats")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, `{"s":"alpha","i":1}`+"\n", stdout)
	require.Contains(t, stderr, "1 rows; objects 1, skipped 0")
	code, stdout, stderr = runCLI(t, "csup-query", "--where", "i<=-2", "--stats", p)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "skipped 1")
	code, _, _ = runCLI(t, "csup-query", "--where", "i", p)
	require.Equal(t, 2, code)
}
