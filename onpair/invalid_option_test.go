package onpair

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInvalidOptionSentinel(t *testing.T) {
	for _, opt := range []Option{WithBits(3), WithBits(17), WithPairThreshold(1), WithSampleFraction(0)} {
		_, err := CompressStrings([]string{"abc"}, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
		require.ErrorIs(t, err, ErrInvalidArgument, "ErrInvalidOption wraps ErrInvalidArgument")
		require.Contains(t, err.Error(), "onpair: invalid option: With")
	}
}

func TestNilOptionSkipped(t *testing.T) {
	c, err := CompressStrings([]string{"abc", "abd"}, nil, WithBits(9), nil)
	require.NoError(t, err)
	require.Equal(t, 2, c.Len())
	b, err := c.MarshalBinary()
	require.NoError(t, err)
	_, err = ParseColumn(b, nil)
	require.NoError(t, err)
}

func TestInvalidOptionNamesOption(t *testing.T) {
	_, err := ParseColumn(nil, WithMaxRows(-1))
	require.ErrorIs(t, err, ErrInvalidOption)
	require.EqualError(t, err, "onpair: invalid option: WithMaxRows(-1): negative")
}
