package at1

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInvalidOptionSentinel(t *testing.T) {
	src, err := AppendRaw(nil, []byte("hello\n"), BackendStored)
	require.NoError(t, err)
	for _, opt := range []Option{WithMaxDecodedSize(0), WithMaxStreamSize(-1), WithMaxStreams(0), WithMaxXZDictionary(1), WithConcurrency(0)} {
		_, err = Decode(src, opt)
		require.ErrorIs(t, err, ErrInvalidOption)
		require.Contains(t, err.Error(), "at1: invalid option: With")
		_, err = Open(bytes.NewReader(src), int64(len(src)), opt)
		require.ErrorIs(t, err, ErrInvalidOption)
	}
	got, err := Decode(src)
	require.NoError(t, err)
	require.Equal(t, "hello\n", string(got))
}
