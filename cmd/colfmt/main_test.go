package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// run executes the command line with an empty standard input.
func run(args []string, stdout, stderr io.Writer) int {
	return runStdin(args, strings.NewReader(""), stdout, stderr)
}

// runCLI runs the command in-process and returns status, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

func TestUsage(t *testing.T) {
	code, _, stderr := runCLI(t)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "Usage:")

	code, stdout, _ := runCLI(t, "--help")
	require.Equal(t, 0, code)
	for _, c := range []string{"inspect", "cat", "validate", "pack", "demo"} {
		require.Contains(t, stdout, "colfmt "+c)
	}

	code, _, stderr = runCLI(t, "frobnicate")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `unknown command "frobnicate"`)
}

func TestEverySubcommandAnswersHelp(t *testing.T) {
	for _, c := range []string{"inspect", "cat", "validate", "pack", "demo"} {
		code, _, stderr := runCLI(t, c, "--help")
		require.Equal(t, 0, code, c)
		require.Contains(t, stderr, "Usage: colfmt "+c, c)
	}
	for _, f := range formats {
		for _, c := range f.Commands {
			code, _, _ := runCLI(t, c.Name, "--help")
			require.Equal(t, 0, code, c.Name)
		}
	}
}

func TestFileCommandUsageErrors(t *testing.T) {
	for _, c := range []string{"inspect", "cat", "validate"} {
		code, _, stderr := runCLI(t, c)
		require.Equal(t, 2, code, c)
		require.Contains(t, stderr, "exactly one FILE")
		code, _, _ = runCLI(t, c, "--bogus", "x")
		require.Equal(t, 2, code, c)
		code, _, stderr = runCLI(t, c, filepath.Join(t.TempDir(), "missing"))
		require.Equal(t, 1, code, c)
		require.Contains(t, stderr, "no such file")
		code, _, stderr = runCLI(t, c, "--format", "nosuch", writeTemp(t, "x", []byte("x")))
		require.Equal(t, 2, code, c)
		require.Contains(t, stderr, `unknown format "nosuch"`)
	}
}

func TestUnrecognisedFile(t *testing.T) {
	p := writeTemp(t, "junk.bin", []byte("just some text\n"))
	code, _, stderr := runCLI(t, "validate", p)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "unrecognised format")
	require.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one-line error")

	code, _, _ = runCLI(t, "validate", writeTemp(t, "empty", nil))
	require.Equal(t, 1, code)
}

func TestDetectByMagic(t *testing.T) {
	cases := map[string][]byte{
		"at1":   append([]byte("AT1\x02\xff\x02"), make([]byte, 10)...),
		"lance": append(make([]byte, 60), []byte("LANC")...),
	}
	for want, data := range cases {
		p := writeTemp(t, want, data)
		in, err := os.Open(p)
		require.NoError(t, err)
		st, _ := in.Stat()
		got, err := detect(&input{Name: p, R: in, Size: st.Size()})
		in.Close()
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}

func TestPackUsage(t *testing.T) {
	code, _, stderr := runCLI(t, "pack", "in.txt")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "needs --format")
	code, _, _ = runCLI(t, "pack", "--format", "nosuch", "in.txt")
	require.Equal(t, 2, code)
}

func TestDemoPrintsTable(t *testing.T) {
	code, stdout, stderr := runCLI(t, "demo")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 1+len(formatNames()))
	require.Contains(t, lines[0], "encode MB/s")
	for i, name := range formatNames() {
		require.Contains(t, lines[i+1], name)
		if f, ok := formats[name]; ok {
			require.NotContains(t, lines[i+1], "not implemented", "%s is registered", name)
			if f.Demo != nil {
				require.NotContains(t, lines[i+1], "FAILED")
			}
		}
	}
	code, _, _ = runCLI(t, "demo", "extra")
	require.Equal(t, 2, code)
}
