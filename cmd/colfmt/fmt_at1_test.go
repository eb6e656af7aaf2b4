package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/at1"
	"github.com/colfmt/colfmt/internal/xz"
)

func at1Vector(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "at1", "testdata", name))
	require.NoError(t, err)
	return writeTemp(t, name, b)
}

func TestAT1Cat(t *testing.T) {
	for _, v := range []string{"columnar_edge", "qcol", "qjson", "stream_columnar", "raw_xz_integrity_ok"} {
		p := at1Vector(t, v+".at1")
		want, err := os.ReadFile(filepath.Join("..", "..", "at1", "testdata", v+".expected"))
		require.NoError(t, err)
		code, stdout, stderr := runCLI(t, "cat", p)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, string(want), stdout, v)
		code, stdout, stderr = runCLI(t, "validate", p)
		require.Equal(t, 0, code, stderr)
		require.Contains(t, stdout, "valid at1 file")
	}
}

func TestAT1RejectsBadFiles(t *testing.T) {
	for _, v := range []string{"raw_xz_integrity_bad", "columnar_dec_scale_19", "raw_backend_7"} {
		p := at1Vector(t, v+".at1")
		code, _, stderr := runCLI(t, "validate", p)
		require.Equal(t, 1, code, v)
		require.True(t, strings.HasPrefix(stderr, "colfmt: "+p+": at1: "), stderr)
		code, _, _ = runCLI(t, "cat", p)
		require.Equal(t, 1, code, v)
	}
}

func TestAT1Inspect(t *testing.T) {
	code, stdout, stderr := runCLI(t, "inspect", at1Vector(t, "qcol.at1"))
	require.Equal(t, 0, code, stderr)
	for _, s := range []string{"whole-file", "codec 7 (qcolumnar)", "blocks", "stored", "6 lines, 4 structured rows, row groups of 2",
		"column 1: decimal", "group 1: c0 23B [1003,1005]"} {
		require.Contains(t, stdout, s)
	}
	code, stdout, _ = runCLI(t, "inspect", at1Vector(t, "stream_columnar.at1"))
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "framed")
	require.Contains(t, stdout, "frame 1: raw")
	code, stdout, _ = runCLI(t, "inspect", at1Vector(t, "raw_xz_integrity_ok.at1"))
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "integrity: sha256 492d5ea4")
}

func TestAT1Query(t *testing.T) {
	p := at1Vector(t, "qcol.at1")
	code, stdout, stderr := runCLI(t, "query", p, "--cols", "2,0", "--where", "0>=1002", "--stats")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "CCC,1005\n,1003\n", stdout)
	require.Contains(t, stderr, "blocks read 2")
	require.Contains(t, stderr, "skipped 2")
	code, stdout, _ = runCLI(t, "query", "--where", "1=1.5..1.75", p)
	require.Equal(t, 0, code)
	require.Equal(t, "1000,1.50,AAA\n1003,1.75,\n", stdout)
	// Text bounds compare text columns byte by byte (a quoted field by
	// what is inside its quotes); on a numeric column they are refused.
	code, stdout, stderr = runCLI(t, "query", p, "--where", "2=CCC")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "1005,2.00,CCC\n", stdout)
	code, stdout, stderr = runCLI(t, "query", p, "--cols", "0", "--where", "2=B..C")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "1001\n", stdout)
	code, stdout, _ = runCLI(t, "query", p, "--where", "2>=1")
	require.Equal(t, 0, code)
	require.Equal(t, "", stdout) // no sym is a number
	code, _, stderr = runCLI(t, "query", p, "--where", "0>=abc")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `bound "abc" on integer column 0 is not a decimal number`)
	code, _, _ = runCLI(t, "query", p, "--where", "bogus")
	require.Equal(t, 2, code)
	code, _, stderr = runCLI(t, "query", at1Vector(t, "columnar_edge.at1"))
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "at1: unsupported")
}

// TestAT1QueryExitCodes: a malformed flag exits 2 whatever the file (even a
// missing or corrupt one); what does not fit the file exits 1.
func TestAT1QueryExitCodes(t *testing.T) {
	qcol, raw := at1Vector(t, "qcol.at1"), at1Vector(t, "raw_xz.at1")
	missing := filepath.Join(t.TempDir(), "missing.at1")
	junk := writeTemp(t, "junk.at1", []byte("AT1\x02\x07\xff\xff\x00"))
	for _, w := range []string{"bogus", "0>=", "0<=", "0=", "0=..", ">=5", "0<=1>=2", "-1>=0"} {
		for _, f := range []string{qcol, raw, missing, junk} {
			code, _, stderr := runCLI(t, "query", f, "--where", w)
			require.Equal(t, 2, code, "--where %q on %s: %s", w, f, stderr)
			require.Contains(t, stderr, "--where")
		}
	}
	for _, c := range []string{"0,,1", "-1", ","} {
		code, _, stderr := runCLI(t, "query", qcol, "--cols", c)
		require.Equal(t, 2, code, "--cols %q: %s", c, stderr)
	}
	// Well-formed flags that the file cannot satisfy, and bad files.
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"query", qcol, "--cols", "price"}, "need a qjson file"},
		{[]string{"query", qcol, "--where", "price>=1"}, "need a qjson file"},
		{[]string{"query", qcol, "--cols", "7"}, "out of range"},
		{[]string{"query", qcol, "--where", "9>=1"}, "out of range"},
		{[]string{"query", qcol, "--where", "0>=1e3"}, `bound "1e3" on integer column 0 is not a decimal number`},
		{[]string{"query", qcol, "--where", "1=1..x"}, `bound "x" on decimal column 1 is not a decimal number`},
		{[]string{"query", at1Vector(t, "qjson.at1"), "--cols", "nosuch"}, "no column with path"},
		{[]string{"query", raw, "--cols", "name"}, "at1: unsupported"},
		{[]string{"query", raw, "--where", "0=1"}, "at1: unsupported"},
		{[]string{"query", missing, "--where", "0=1"}, "no such file"},
		{[]string{"query", junk}, "16383"},
		{[]string{"query", at1Vector(t, "bad_query_nstruct_low.at1")}, "n_struct"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		require.Equal(t, 1, code, "%v: %s", tc.args, stderr)
		require.Contains(t, stderr, tc.msg, "%v", tc.args)
	}
	code, stdout, stderr := runCLI(t, "query", qcol, "--where", "0=..1001", "--where", " 1 >= +1.5")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "1000,1.50,AAA\n", stdout)
}

func TestAT1PackRaw(t *testing.T) {
	in := writeTemp(t, "in.csv", []byte(strings.Repeat("a,b\n1,2\n", 100)))
	for _, b := range []string{"xz", "zstd", "stored", "auto"} {
		out := filepath.Join(t.TempDir(), "x.at1")
		code, _, stderr := runCLI(t, "pack", "--format", "at1", "--backend", b, "--out", out, in)
		require.Equal(t, 0, code, stderr)
		code, stdout, stderr := runCLI(t, "cat", out)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, strings.Repeat("a,b\n1,2\n", 100), stdout)
		code, stdout, _ = runCLI(t, "inspect", out)
		require.Equal(t, 0, code)
		require.Contains(t, stdout, "codec 255 (raw)")
	}
	code, _, _ := runCLI(t, "pack", "--format", "at1", "--backend", "lz4", in)
	require.Equal(t, 2, code)
}

func TestAT1PackCodecs(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,price,sym\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "%d,%d.%02d,%s\n", 1000+i, i%50, i%100, []string{"AAA", "BB", "\"C,C\""}[i%3])
	}
	src := b.String()
	in := writeTemp(t, "in.csv", []byte(src))
	for _, codec := range []string{"auto", "columnar", "raw"} {
		out := filepath.Join(t.TempDir(), "x.at1")
		code, _, stderr := runCLI(t, "pack", "--format", "at1", "--codec", codec, "--level", "3", "--no-xz-baseline", "--out", out, in)
		require.Equal(t, 0, code, stderr)
		code, stdout, stderr := runCLI(t, "cat", out)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, src, stdout)
		code, _, stderr = runCLI(t, "validate", out)
		require.Equal(t, 0, code, stderr)
	}
	code, _, _ := runCLI(t, "pack", "--format", "at1", "--codec", "lz4", in)
	require.Equal(t, 2, code)
	code, _, _ = runCLI(t, "pack", "--format", "at1", "--level", "12", in)
	require.Equal(t, 2, code)
}

// TestAT1PackRawXZPreset checks that --backend xz --level N[e] writes a RAW
// file whose payload is internal/xz's stream at that preset: the bytes
// between the 5-byte header (magic, codec, backend) and the 32-byte
// SHA-256 plus trailer magic are exactly xz.AppendEncode's output (with
// no check, as at1 writes its xz streams). At 9e it is the smaller of
// that and the multi-arrival parser's stream (at1 level 9: 4 arrivals).
func TestAT1PackRawXZPreset(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "CONVENTIONS.md"))
	require.NoError(t, err)
	src = bytes.Repeat(src, 3)
	in := writeTemp(t, "in.txt", src)
	sizes := map[string]int{}
	for _, level := range []string{"1", "6", "9e"} {
		out := filepath.Join(t.TempDir(), "x.at1")
		code, _, stderr := runCLI(t, "pack", "--format", "at1", "--codec", "raw", "--backend", "xz", "--level", level, "--out", out, in)
		require.Equal(t, 0, code, stderr)
		file, err := os.ReadFile(out)
		require.NoError(t, err)
		n, extreme, err := xz.ParsePreset(level)
		require.NoError(t, err)
		want, err := xz.AppendEncode(nil, src, xz.WithPreset(n), xz.WithExtreme(extreme), xz.WithCheck(xz.CheckNone))
		require.NoError(t, err)
		if level == "9e" {
			multi, err := xz.AppendEncode(nil, src, xz.WithPreset(n), xz.WithExtreme(extreme), xz.WithCheck(xz.CheckNone), xz.WithArrivals(4))
			require.NoError(t, err)
			require.Less(t, len(multi), len(want), "the multi-arrival stream of this text")
			want = multi
		}
		head := len(at1.MagicWhole) + 2 // magic, codec, backend
		require.Greater(t, len(file), head+len(want), "--level %s", level)
		require.Equal(t, want, file[head:head+len(want)], "--level %s: payload is internal/xz's stream at that preset", level)
		require.Equal(t, sha256.Sum256(src), [32]byte(file[head+len(want):head+len(want)+32]))
		sizes[level] = len(file)
		code, stdout, stderr := runCLI(t, "cat", out)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, string(src), stdout)
	}
	require.Less(t, sizes["6"], sizes["1"])
	code, _, _ := runCLI(t, "pack", "--format", "at1", "--level", "10", in)
	require.Equal(t, 2, code)
}

// TestAT1PackTokenTables checks --token-tables: JSON Lines go to a token
// table (columnar, not queryable; query says how to get a queryable file)
// by default, and to qjson (queryable) with --token-tables=false.
func TestAT1PackTokenTables(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "{\"id\":%d,\"price\":%d.%02d,\"sym\":%q}\n", 1000+i, i%50, i%100, []string{"AAA", "BB", "C"}[i%3])
	}
	src := b.String()
	in := writeTemp(t, "in.jsonl", []byte(src))
	for _, tc := range []struct {
		flag, codec string
		query       bool
	}{{"--token-tables=true", "codec 4 (columnar)", false}, {"--token-tables=false", "codec 8 (qjson)", true}} {
		out := filepath.Join(t.TempDir(), "x.at1")
		code, _, stderr := runCLI(t, "pack", "--format", "at1", tc.flag, "--level", "3", "--out", out, in)
		require.Equal(t, 0, code, stderr)
		code, stdout, stderr := runCLI(t, "cat", out)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, src, stdout)
		code, stdout, _ = runCLI(t, "inspect", out)
		require.Equal(t, 0, code)
		require.Contains(t, stdout, tc.codec, tc.flag)
		code, stdout, stderr = runCLI(t, "query", out, "--cols", "sym", "--where", "id=1001")
		if tc.query {
			require.Equal(t, 0, code, stderr)
			require.Equal(t, "BB\n", stdout) // every sym is a string: its quotes are in the template
		} else {
			require.Equal(t, 1, code)
			require.Contains(t, stderr, "--codec qcolumnar|qjson")
		}
	}
}

// --codec qcolumnar on an input where qcolumnar does not pay writes RAW
// and says so on stderr; --keep-codec writes a queryable qcolumnar file.
func TestAT1PackKeepCodec(t *testing.T) {
	var b strings.Builder
	r := rand.New(rand.NewPCG(4, 4))
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%x\n", r.IntN(1000), r.Uint64())
	}
	src := b.String()
	in := writeTemp(t, "in.csv", []byte(src))
	out := filepath.Join(t.TempDir(), "x.at1")
	code, _, stderr := runCLI(t, "pack", "--format", "at1", "--codec", "qcolumnar", "--out", out, in)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "written RAW, smaller than --codec qcolumnar")
	code, stdout, _ := runCLI(t, "inspect", out)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "codec 255 (raw)")

	code, _, stderr = runCLI(t, "pack", "--format", "at1", "--codec", "qcolumnar", "--keep-codec", "--out", out, in)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	code, stdout, _ = runCLI(t, "inspect", out)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "codec 7 (qcolumnar)")
	code, stdout, stderr = runCLI(t, "cat", out)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, src, stdout)
	code, _, stderr = runCLI(t, "query", out)
	require.Equal(t, 0, code, stderr)

	// Kept, qjson finds no JSON Lines in a CSV: RAW, and a note.
	code, _, stderr = runCLI(t, "pack", "--format", "at1", "--codec", "qjson", "--keep-codec", "--out", out, in)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "written RAW: --codec qjson does not apply to this input")
}
