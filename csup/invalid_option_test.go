package csup

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInvalidOptionSentinel(t *testing.T) {
	for _, opt := range []Option{WithMaxSegmentSize(0), WithMaxReassemblySize(0), WithMaxDepth(0), WithMaxElements(0), WithSegmentThresh(0), WithSkewThresh(0)} {
		_, err := Open(bytes.NewReader(nil), 0, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
		require.NotErrorIs(t, err, ErrUnsupported)
		require.Contains(t, err.Error(), "csup: invalid option")
		_, err = NewWriter(io.Discard, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
	}
}
