package lance

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInvalidOptionSentinel(t *testing.T) {
	data, err := os.ReadFile("testdata/v2_0_alltypes_5rows.lance")
	require.NoError(t, err)
	for _, opt := range []Option{WithMaxBufferSize(0), WithMaxMetadataSize(-1), WithMaxColumns(0), WithMaxDepth(0), WithAllocator(nil)} {
		_, err := Open(bytes.NewReader(data), int64(len(data)), opt)
		require.ErrorIs(t, err, ErrInvalidOption)
		require.Contains(t, err.Error(), "lance: invalid option: With")
	}
	_, err = Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
}
