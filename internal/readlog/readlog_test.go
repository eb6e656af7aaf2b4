package readlog

import (
	"bytes"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRecorder(t *testing.T) {
	c := New(bytes.NewReader([]byte("0123456789")))
	p := make([]byte, 3)
	n, err := c.ReadAt(p, 2)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	require.Equal(t, "234", string(p))
	_, _ = c.ReadAt(p[:2], 7)
	require.Equal(t, [][2]int64{{2, 5}, {7, 9}}, c.Ranges())

	require.EqualValues(t, 3, c.BytesIn(0, 6))
	require.EqualValues(t, 3, c.BytesIn(3, 8)) // bytes 3, 4 and 7
	require.EqualValues(t, 1, c.BytesIn(8, 100))
	require.True(t, c.Touched(4, 5))
	require.False(t, c.Touched(5, 7), "half-open ranges: [2,5) and [7,9) leave 5 and 6 untouched")
	require.False(t, c.Touched(9, 10))

	require.Equal(t, [][2]int64{{2, 5}, {7, 9}}, c.Reset())
	require.Empty(t, c.Ranges())
	require.False(t, c.Touched(0, 10))
}

func TestRecorderConcurrent(t *testing.T) {
	c := New(bytes.NewReader(make([]byte, 100)))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, _ = c.ReadAt(make([]byte, 10), int64(i*10))
		}(i)
	}
	wg.Wait()
	require.Len(t, c.Ranges(), 8)
	require.EqualValues(t, 80, c.BytesIn(0, 100))
}
