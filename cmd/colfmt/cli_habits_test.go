package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// runIn runs the command with stdin.
func runIn(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runStdin(args, bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// onlyReader hides every method but Read, as a pipe does.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func sampleFiles(t *testing.T) map[string]string {
	return map[string]string{
		"at1":   shareddata.Path(t, "at1", "qcol.at1"),
		"at1f":  shareddata.Path(t, "at1", "stream_columnar.at1"),
		"csup":  shareddata.Path(t, "csup", "vng-v3_zed-v1.6.0", "nested.vng"),
		"lance": shareddata.Path(t, "lance", "v2_0_alltypes_5rows.lance"),
	}
}

func TestFlagsBeforeOrAfterFile(t *testing.T) {
	for name, p := range sampleFiles(t) {
		for _, cmd := range []string{"inspect", "cat", "validate"} {
			c1, out1, err1 := runCLI(t, cmd, "--format", strings.TrimSuffix(name, "f"), p)
			c2, out2, err2 := runCLI(t, cmd, p, "--format", strings.TrimSuffix(name, "f"))
			require.Equal(t, 0, c1, "%s %s: %s", cmd, name, err1)
			require.Equal(t, c1, c2, "%s %s: %s", cmd, name, err2)
			require.Equal(t, out1, out2, "%s %s", cmd, name)
		}
	}
	p := sampleFiles(t)["csup"]
	_, a, _ := runCLI(t, "cat", "--raw", p)
	_, b, _ := runCLI(t, "cat", p, "--raw")
	require.Equal(t, a, b)
	// After "--" a name that looks like a flag is a file.
	code, _, stderr := runCLI(t, "validate", "--", "--raw")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "--raw")
	code, _, stderr = runCLI(t, "cat", p, "extra")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "exactly one FILE")

	// pack too.
	in := writeTemp(t, "in.txt", []byte("alpha\nbeta\n"))
	c1, o1, _ := runCLI(t, "pack", "--format", "onpair", in, "--bits", "10")
	c2, o2, _ := runCLI(t, "pack", in, "--bits", "10", "--format", "onpair")
	require.Equal(t, 0, c1)
	require.Equal(t, 0, c2)
	require.Equal(t, o1, o2)
}

func TestStdinMatchesFile(t *testing.T) {
	for name, p := range sampleFiles(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, cmd := range []string{"inspect", "cat", "validate"} {
			code, want, stderr := runCLI(t, cmd, p)
			require.Equal(t, 0, code, "%s %s: %s", cmd, name, stderr)
			var out, errb bytes.Buffer
			code = runStdin([]string{cmd, "-"}, onlyReader{bytes.NewReader(data)}, &out, &errb)
			require.Equal(t, 0, code, "%s %s: %s", cmd, name, errb.String())
			require.Equal(t, strings.ReplaceAll(want, p, stdinName), out.String(), "%s %s", cmd, name)
		}
	}
	// pack - and cat - round trip.
	code, packed, stderr := runIn(t, []byte("one\ntwo\nthree\n"), "pack", "--format", "onpair", "-")
	require.Equal(t, 0, code, stderr)
	code, out, stderr := runIn(t, []byte(packed), "cat", "-")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "one\ntwo\nthree\n", out)
}

func TestStdinLimitSaysSo(t *testing.T) {
	old := maxStdin
	maxStdin = 100
	defer func() { maxStdin = old }()
	data, err := os.ReadFile(sampleFiles(t)["lance"])
	require.NoError(t, err)
	code, _, stderr := runIn(t, data, "cat", "-")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "<stdin>: more than 100 bytes")
	require.Contains(t, stderr, "random access")
	// AT-1 cat streams: no limit applies.
	data, err = os.ReadFile(sampleFiles(t)["at1f"])
	require.NoError(t, err)
	require.Greater(t, len(data), 100)
	code, _, stderr = runIn(t, data, "cat", "-")
	require.Equal(t, 0, code, stderr)
	// pack of a format encoded whole reads standard input under the same
	// bound, and says why.
	code, _, stderr = runIn(t, bytes.Repeat([]byte("word\n"), 30), "pack", "--format", "onpair", "-")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "<stdin>: more than 100 bytes")
	require.Contains(t, stderr, "encoded whole")
}

func TestVersionFlag(t *testing.T) {
	code, out, _ := runCLI(t, "--version")
	require.Equal(t, 0, code)
	require.True(t, strings.HasPrefix(out, "colfmt "), out)
	require.Contains(t, out, "go1.")
}

func TestPackHelpListsWritableFormats(t *testing.T) {
	code, _, stderr := runCLI(t, "pack", "--help")
	require.Equal(t, 0, code)
	for _, n := range formatNames() {
		f, ok := formats[n]
		if ok && f.PackFlags != nil {
			require.Contains(t, stderr, "--format "+n+":")
		} else {
			require.NotContains(t, stderr, "--format "+n+":", "%s cannot be written", n)
		}
	}
	require.Contains(t, stderr, "-bits")    // onpair
	require.Contains(t, stderr, "-backend") // at1
	require.Contains(t, stderr, "-segment-thresh")
	require.Contains(t, stderr, "-table") // lance
}

func TestCatHelpSaysWhatColumnsSelect(t *testing.T) {
	code, _, stderr := runCLI(t, "cat", "--help")
	require.Equal(t, 0, code)
	require.Contains(t, stderr, "--columns selects, per format:")
	require.Contains(t, stderr, "csup     "+formats["csup"].Columns)
	require.Contains(t, stderr, "onpair   (no columns)")
}

func TestCatColumns(t *testing.T) {
	files := sampleFiles(t)
	code, out, stderr := runCLI(t, "cat", files["csup"], "--columns", "user.addr.city,id")
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(out, `{"id":1,"user":{"addr":{"city":"paris"}}}`+"\n"), out)

	code, out, stderr = runCLI(t, "cat", "--columns", "s,id", files["lance"])
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(out, `{"id":0,"s":"str0"}`+"\n") || strings.HasPrefix(out, `{"s":"str0","id":0}`+"\n"), out)
	code, out, stderr = runCLI(t, "cat", "--columns", "st.a", files["lance"])
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(out, `{"st.a":0}`+"\n"), out)
	code, _, stderr = runCLI(t, "cat", "--columns", "st.zz", files["lance"])
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no column st.zz")
	require.Contains(t, stderr, files["lance"])

	code, out, stderr = runCLI(t, "cat", "--columns", "2,0", files["at1"])
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(out, "AAA,1000\n"), out)

	in := writeTemp(t, "in.txt", []byte("a\nb\n"))
	_, packed, _ := runCLI(t, "pack", "--format", "onpair", in)
	col := writeTemp(t, "c.opcol", []byte(packed))
	code, _, stderr = runCLI(t, "cat", "--columns", "x", col)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "onpair has no columns")
	require.Contains(t, stderr, col)

	code, _, _ = runCLI(t, "cat", "--columns", "a,,b", col)
	require.Equal(t, 2, code)
}

func TestErrorsNameTheFile(t *testing.T) {
	for name, p := range sampleFiles(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, bad := range [][]byte{data[:len(data)/2], append(append([]byte{}, data[:len(data)-9]...), 0, 1, 2, 3, 4, 5, 6, 7, 8)} {
			bp := writeTemp(t, name+".bad", bad)
			for _, cmd := range []string{"inspect", "cat", "validate"} {
				code, _, stderr := runCLI(t, cmd, bp)
				if code == 0 {
					continue // a cut that still decodes (a framed AT-1 file cut at a frame)
				}
				require.Equal(t, 1, code, "%s %s: %s", cmd, name, stderr)
				require.Contains(t, stderr, bp, "%s %s", cmd, name)
				require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
			}
		}
	}
}

func TestTruncatedLanceSaysTruncated(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "lance", "v2_1_alltypes_5rows.lance"))
	require.NoError(t, err)
	p := writeTemp(t, "cut.lance", data[:len(data)-100])
	code, _, stderr := runCLI(t, "validate", p)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, p+": truncated Lance")
}

func TestPanicIsAnInternalErrorNotUsage(t *testing.T) {
	register(&format{Name: "panicky", Validate: func(*input) error { panic("boom") }})
	defer delete(formats, "panicky")
	p := writeTemp(t, "x", []byte("x"))
	code, _, stderr := runCLI(t, "validate", "--format", "panicky", p)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, p+": internal error: panic: boom")
}

func TestDirectories(t *testing.T) {
	code, _, stderr := runCLI(t, "cat", t.TempDir())
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "is a directory")

	table := shareddata.Path(t, "lance21", "2.1", "versions.lance")
	lance := formats["lance"]
	if lance.CatDir == nil {
		code, _, stderr = runCLI(t, "cat", table)
		require.Equal(t, 1, code)
		require.Contains(t, stderr, table+": is a directory (a Lance table directory, version 7")
	}
	// The hooks get the directory, what DetectDir found and --version.
	saved := *lance
	defer func() { *lance = saved }()
	var got *dirInput
	lance.CatDir = func(w io.Writer, d *dirInput, o catOptions) error {
		got = d
		_, err := io.WriteString(w, strings.Join(o.Columns, "|"))
		return err
	}
	lance.ValidateDir = func(d *dirInput) error { got = d; return nil }
	code, out, stderr := runCLI(t, "cat", table, "--version", "3", "--columns", "a,b")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "a|b", out)
	require.Equal(t, uint64(3), got.Version)
	require.Equal(t, uint64(7), got.Info.TableVersion)
	require.Equal(t, table, got.Path)
	_, err := got.FS.Open("_versions")
	require.NoError(t, err)
	code, out, _ = runCLI(t, "validate", table)
	require.Equal(t, 0, code)
	require.Contains(t, out, "valid Lance table directory")
	require.Equal(t, uint64(0), got.Version)

	// --version on a file is a usage error.
	code, _, _ = runCLI(t, "cat", "--version", "2", sampleFiles(t)["lance"])
	require.Equal(t, 2, code)
}
