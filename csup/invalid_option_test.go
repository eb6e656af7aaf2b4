package csup

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInvalidOptionSentinel(t *testing.T) {
	cases := map[string]Option{
		"WithMaxSegmentSize": WithMaxSegmentSize(0), "WithMaxReassemblySize": WithMaxReassemblySize(0),
		"WithMaxDepth": WithMaxDepth(0), "WithMaxElements": WithMaxElements(0), "WithSegmentThreshold": WithSegmentThreshold(0),
		"WithSkewThreshold": WithSkewThreshold(0), "WithMemoryLimit": WithMemoryLimit(0),
		"WithObjectRows": WithObjectRows(0), "WithObjectSize": WithObjectSize(0), "WithBatchRows": WithBatchRows(0),
	}
	for name, opt := range cases {
		_, err := Open(bytes.NewReader(nil), 0, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
		require.ErrorIs(t, err, ErrInvalidArgument)
		require.NotErrorIs(t, err, ErrUnsupported)
		require.True(t, strings.HasPrefix(err.Error(), "csup: invalid option: "+name+"(0)"), err.Error())
		_, err = NewWriter(io.Discard, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
	}
}

// A nil Option is skipped, as in every colfmt package.
func TestNilOptionSkipped(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, nil, WithCompression(false), nil)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	_, err = Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), nil)
	require.NoError(t, err)
}
