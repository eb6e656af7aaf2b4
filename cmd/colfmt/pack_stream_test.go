package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/at1"
)

// streamInput is a table of about n bytes with, in its middle, a run of
// one random line repeated, which a frame writes raw.
func streamInput(n int) []byte {
	var b bytes.Buffer
	b.WriteString("id,price,sym\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d,%d.%02d,%s\n", 1000+i*3, i%997, i%100, []string{"AAA", "BB", "C"}[i%3])
		if i == 6000 {
			r := rand.New(rand.NewPCG(5, 5))
			line := make([]byte, 997)
			for k := range line {
				line[k] = 'a' + byte(r.IntN(26))
			}
			for k := 0; k < 200; k++ {
				b.Write(line)
				b.WriteByte('\n')
			}
		}
	}
	return b.Bytes()
}

// An input over one chunk is streamed through at1.NewWriter: from a file
// or from standard input (where maxStdin does not apply), the same bytes
// as at1.Encode of the whole input; one chunk or less on standard input
// is encoded whole, as before.
func TestAT1PackStreams(t *testing.T) {
	src := streamInput(500 << 10)
	want, err := at1.Encode(src, at1.WithChunkSize(64<<10))
	require.NoError(t, err)
	f, err := at1.Open(bytes.NewReader(want), int64(len(want)))
	require.NoError(t, err)
	require.True(t, f.Framed)

	in := writeTemp(t, "in.csv", src)
	out := filepath.Join(t.TempDir(), "x.at1")
	code, _, stderr := runCLI(t, "pack", "--format", "at1", "--chunk-size", "65536", "--out", out, in)
	require.Equal(t, 0, code, stderr)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "file: %d bytes, Encode %d", len(got), len(want))

	old := maxStdin
	maxStdin = 1000
	defer func() { maxStdin = old }()
	code, stdout, stderr := runIn(t, src, "pack", "--format", "at1", "--chunk-size", "65536", "-")
	require.Equal(t, 0, code, stderr)
	require.True(t, bytes.Equal(want, []byte(stdout)), "stdin: %d bytes, Encode %d", len(stdout), len(want))

	small := src[:50<<10]
	wantSmall, err := at1.Encode(small, at1.WithChunkSize(64<<10))
	require.NoError(t, err)
	code, stdout, stderr = runIn(t, small, "pack", "--format", "at1", "--chunk-size", "65536", "-")
	require.Equal(t, 0, code, stderr)
	require.True(t, bytes.Equal(wantSmall, []byte(stdout)), "one chunk on stdin: %d bytes, Encode %d", len(stdout), len(wantSmall))

	// A forced codec streamed: the frames it did not pay on are named.
	raw := 0
	for _, fr := range f.Frames {
		if fr.Method != 0 {
			raw++
		}
	}
	require.Greater(t, raw, 0)
	code, _, stderr = runCLI(t, "pack", "--format", "at1", "--codec", "columnar", "--chunk-size", "65536", "--out", out, in)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, fmt.Sprintf("%d of %d frames written RAW, smaller than --codec columnar there", raw, len(f.Frames)))

	// A chunk size out of range is a usage error, before any input is read.
	code, _, stderr = runIn(t, src, "pack", "--format", "at1", "--chunk-size", "100", "-")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "WithChunkSize")
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// A read error in the middle of a streamed input fails the command, and
// what was written has no integrity trailer: it does not pass for a whole
// file of the part that was read (a framed file without a trailer is
// still readable, frame by frame, as the format allows).
func TestAT1PackStreamReadError(t *testing.T) {
	src := streamInput(300 << 10)
	boom := errors.New("pipe broke")
	var out, errb bytes.Buffer
	code := runStdin([]string{"pack", "--format", "at1", "--chunk-size", "65536", "-"},
		io.MultiReader(bytes.NewReader(src[:200<<10]), failingReader{boom}), &out, &errb)
	require.Equal(t, 1, code, errb.String())
	require.Contains(t, errb.String(), "pipe broke")
	f, err := at1.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	require.NoError(t, err)
	require.Nil(t, f.Trailer, "%d bytes written", out.Len())
}
