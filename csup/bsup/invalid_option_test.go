package bsup

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInvalidOptionSentinel(t *testing.T) {
	for _, opt := range []Option{WithMaxFrameSize(0), WithMaxTypes(0), WithMaxDepth(0)} {
		_, err := NewReader(bytes.NewReader(nil), opt)
		require.ErrorIs(t, err, ErrInvalidOption)
		require.NotErrorIs(t, err, ErrUnsupported)
		require.Contains(t, err.Error(), "bsup: invalid option")
		_, err = NewWriter(io.Discard, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
	}
}
