package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOnPairGrep(t *testing.T) {
	lines := "hello world\nhello\nhelp\n\nworld hello\nhe\n"
	in := writeTemp(t, "lines.txt", []byte(lines))
	col := filepath.Join(t.TempDir(), "x.onpair")
	code, _, stderr := runCLI(t, "pack", "--format", "onpair", "--bits", "9", "--out", col, in)
	require.Equal(t, 0, code, stderr)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"grep", "hello", col}, "0\thello world\n1\thello\n4\tworld hello\n"},
		{[]string{"grep", "--contains", "hello", col}, "0\thello world\n1\thello\n4\tworld hello\n"},
		{[]string{"grep", "--prefix", "hel", col}, "0\thello world\n1\thello\n2\thelp\n"},
		{[]string{"grep", "--equal", "hello", col}, "1\thello\n"},
		{[]string{"grep", "--equal", "", col}, "3\t\n"},
		{[]string{"grep", "--count", "--prefix", "he", col}, "4\n"},
		{[]string{"grep", "he", col, "--count"}, "5\n"}, // flags after the file
		{[]string{"grep", "--count", "absent", col}, "0\n"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		require.Equal(t, 0, code, "%v: %s", tc.args, stderr)
		require.Equal(t, tc.want, stdout, "%v", tc.args)
	}

	code, _, stderr = runCLI(t, "grep", "--equal", "--prefix", "a", col)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "exclude each other")
	code, _, _ = runCLI(t, "grep", col)
	require.Equal(t, 2, code, "PATTERN and FILE are both required")
	code, _, stderr = runCLI(t, "grep", "x", in)
	require.Equal(t, 1, code, "not an OnPair column")
	require.Contains(t, stderr, "lines.txt")
}
