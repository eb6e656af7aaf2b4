package bsup

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInvalidOptionSentinel(t *testing.T) {
	cases := map[string]Option{"WithMaxFrameSize": WithMaxFrameSize(0), "WithMaxTypes": WithMaxTypes(0), "WithMaxDepth": WithMaxDepth(0), "WithFrameThreshold": WithFrameThreshold(0)}
	for name, opt := range cases {
		_, err := NewReader(bytes.NewReader(nil), opt)
		require.ErrorIs(t, err, ErrInvalidOption)
		require.ErrorIs(t, err, ErrInvalidArgument)
		require.NotErrorIs(t, err, ErrUnsupported)
		require.True(t, strings.HasPrefix(err.Error(), "bsup: invalid option: "+name+"(0)"), err.Error())
		_, err = NewWriter(io.Discard, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
	}
	_, err := NewReader(nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = NewWriter(nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	// nil options are skipped
	_, err = NewReader(bytes.NewReader(nil), nil, nil)
	require.NoError(t, err)

	// NewJSONReader has NewReader's shape.
	_, err = NewJSONReader(nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = NewJSONReader(bytes.NewReader(nil), WithMaxDepth(0))
	require.ErrorIs(t, err, ErrInvalidOption)
	jr, err := NewJSONReader(bytes.NewReader([]byte(`[[[1]]] [[[[1]]]]`)), nil, WithMaxDepth(3), nil)
	require.NoError(t, err)
	_, err = jr.Read()
	require.NoError(t, err)
	_, err = jr.Read()
	require.ErrorIs(t, err, ErrTooLarge, "four levels past WithMaxDepth(3)")
}

// TestDefaultLimits: the exported defaults are what a reader with no
// options enforces.
func TestDefaultLimits(t *testing.T) {
	c, err := buildConfig(nil)
	require.NoError(t, err)
	require.Equal(t, DefaultMaxFrameSize, c.maxFrameSize)
	require.Equal(t, DefaultMaxTypes, c.maxTypes)
	require.Equal(t, DefaultMaxDepth, c.maxDepth)
	require.Equal(t, DefaultFrameThreshold, c.frameThreshold)
	jr, err := NewJSONReader(bytes.NewReader([]byte(strings.Repeat("[", DefaultMaxDepth+2))))
	require.NoError(t, err)
	_, err = jr.Read()
	require.ErrorIs(t, err, ErrTooLarge)
}
