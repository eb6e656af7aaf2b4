package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/onpair"
	"github.com/stretchr/testify/require"
)

func TestOnPairPackCatInspectValidate(t *testing.T) {
	lines := "hello\nworld\n\nhello world\nhello\xffbinary\n"
	in := writeTemp(t, "lines.txt", []byte(lines))
	out := filepath.Join(t.TempDir(), "x.onpair")
	code, _, stderr := runCLI(t, "pack", "--format", "onpair", "--bits", "10", "--out", out, in)
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "OPCOL"))
	c, err := onpair.ParseColumn(b)
	require.NoError(t, err)
	require.Equal(t, 5, c.Len())

	code, stdout, stderr := runCLI(t, "cat", out)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, lines, stdout)

	code, stdout, stderr = runCLI(t, "inspect", out)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "rows:          5")
	require.Contains(t, stdout, "bits:          9")
	require.Contains(t, stdout, "tokens:")
	require.Contains(t, stdout, "ratio:")
	require.Contains(t, stdout, "conformant:    yes")

	code, stdout, _ = runCLI(t, "validate", out)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "valid onpair file")

	// No final newline: the last line is still a row.
	in2 := writeTemp(t, "nonl.txt", []byte("a\nb"))
	code, stdout, _ = runCLI(t, "pack", "--format", "onpair", in2)
	require.Equal(t, 0, code)
	p := writeTemp(t, "y.onpair", []byte(stdout))
	code, stdout, _ = runCLI(t, "cat", p)
	require.Equal(t, 0, code)
	require.Equal(t, "a\nb\n", stdout)

	code, _, stderr = runCLI(t, "pack", "--format", "onpair", "--bits", "20", in)
	require.Equal(t, 2, code, "a flag out of range is a usage error")
	require.Contains(t, stderr, "onpair: invalid option: WithBits(20)")
}

func TestOnPairBadFiles(t *testing.T) {
	for _, name := range []string{"bad_code.opcol", "bad_truncated.opcol", "bad_padding.opcol"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "onpair", "testdata", name))
		require.NoError(t, err)
		p := writeTemp(t, name, b)
		for _, cmd := range []string{"validate", "cat", "inspect"} {
			code, _, stderr := runCLI(t, cmd, p)
			require.Equal(t, 1, code, cmd+" "+name)
			// Named by the file; a cut file is found truncated by detection.
			require.True(t, strings.HasPrefix(stderr, "colfmt: "+p+": onpair: corrupt input") ||
				strings.HasPrefix(stderr, "colfmt: "+p+": truncated OnPair column"), stderr)
			require.Equal(t, 1, strings.Count(stderr, "\n"), "one-line error")
		}
	}
}

func TestOnPairDemo(t *testing.T) {
	row, err := onpairDemo()
	require.NoError(t, err)
	require.Greater(t, row.InputBytes, 200_000)
	require.Less(t, row.EncodedBytes, row.InputBytes/3)
}

// TestOnPairRealFile packs a dbtext column and cats it back unchanged.
func TestOnPairRealFile(t *testing.T) {
	src := filepath.Join(shareddata.Path(t, "onpair", "dbtext"), "street")
	want, err := os.ReadFile(src)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "street.onpair")
	code, _, stderr := runCLI(t, "pack", "--format", "onpair", "--out", out, src)
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr := runCLI(t, "cat", out)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, string(want), stdout)
	code, stdout, _ = runCLI(t, "inspect", out)
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "rows:          10329")
}
