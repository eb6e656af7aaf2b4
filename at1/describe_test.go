package at1

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// TestDescribe checks that Describe prints the container, the streams and,
// for qcolumnar, the columns and zone maps, and that a failing writer's
// error comes back.
func TestDescribe(t *testing.T) {
	src, err := os.ReadFile(shareddata.Path(t, "at1", "qcol.at1"))
	require.NoError(t, err)
	f, err := Open(bytes.NewReader(src), int64(len(src)))
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, f.Describe(&b))
	out := b.String()
	require.Contains(t, out, "container: whole-file (AT1\\x02), codec 7 (qcolumnar)")
	require.Contains(t, out, "integrity: no trailer")
	require.Contains(t, out, "streams: ")
	require.Contains(t, out, "  column 0: ")
	require.Contains(t, out, "  group 0:")
	boom := errors.New("boom")
	require.ErrorIs(t, f.Describe(failWriter{boom}), boom)
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }
