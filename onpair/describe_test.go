package onpair

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDescribe(t *testing.T) {
	rows := []string{"hello world", "hello there", "", "world", strings.Repeat("abc", 200)}
	c, err := CompressStrings(rows, WithBits(9))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, c.Describe(&buf))
	out := buf.String()
	b, err := c.MarshalBinary()
	require.NoError(t, err)
	require.Contains(t, out, "format:        OnPair column (OPCOL framing v1)\n")
	require.Contains(t, out, "rows:          5\n")
	require.Contains(t, out, "bits:          9\n")
	require.Contains(t, out, "decoded bytes: 627\n")
	require.Contains(t, out, "conformant:    yes")
	require.Contains(t, out, " serialized "+strconv.Itoa(len(b))+"\n")
	require.Equal(t, 9, strings.Count(out, "\n"))

	// A failing writer's error comes back.
	errW := errors.New("full")
	require.ErrorIs(t, c.Describe(failWriter{errW}), errW)
}

// TestMarshaledLen: the size Describe reports is MarshalBinary's, for
// empty, one-row and many-row columns.
func TestMarshaledLen(t *testing.T) {
	for _, rows := range [][]string{{}, {""}, {"a"}, {"x", "yy", strings.Repeat("z", 5000)}} {
		c, err := CompressStrings(rows)
		require.NoError(t, err)
		b, err := c.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, len(b), c.marshaledLen(), "%d rows", len(rows))
		require.NoError(t, c.Describe(&bytes.Buffer{}))
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }
