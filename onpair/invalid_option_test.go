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
