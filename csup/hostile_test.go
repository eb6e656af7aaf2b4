package csup_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

// 270 bytes that hold 64 values, each an array of 2^20 null records: a scan
// reusing one Value allocates about one value's worth, and a memory limit
// below one value stops the read with ErrTooLarge before it allocates.
func TestHostileNullArrays(t *testing.T) {
	b, err := os.ReadFile(shareddata.Path(t, "hostile", "csup_nullarrays_64x1048576.csup"))
	require.NoError(t, err)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)

	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	r := f.NewReader()
	var v bsup.Value
	n := 0
	for {
		err := r.ReadInto(&v)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		n++
	}
	runtime.ReadMemStats(&m1)
	require.Equal(t, 64, n)
	// One value is 2^20 elements; all 64 at once would be 64 times that.
	require.Less(t, m1.TotalAlloc-m0.TotalAlloc, uint64(300<<20), "a reused scan allocated %d bytes", m1.TotalAlloc-m0.TotalAlloc)

	f, err = csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithMemoryLimit(16<<20))
	require.NoError(t, err)
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_, err = f.NewReader().Read()
	runtime.ReadMemStats(&m1)
	require.ErrorIs(t, err, csup.ErrTooLarge)
	require.Less(t, m1.TotalAlloc-m0.TotalAlloc, uint64(32<<20))
	require.ErrorIs(t, f.Validate(), csup.ErrTooLarge)
}

// Corrupt column data in a ZST file: the error bsup reports is re-wrapped
// at the csup boundary, so both sentinels match and the location stays.
func TestHostileColumnErrorTyping(t *testing.T) {
	b, err := os.ReadFile(shareddata.Path(t, "hostile", "csup_column_error_bsup_only_small.zst"))
	require.NoError(t, err)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	if err == nil {
		err = f.Validate()
	}
	require.Error(t, err)
	require.ErrorIs(t, err, csup.ErrCorrupt)
	var ce *csup.CorruptError
	require.True(t, errors.As(err, &ce), "%v", err)
	if errors.Is(err, bsup.ErrCorrupt) {
		require.Contains(t, err.Error(), "bsup: ")
	}
}

// Field names read from a file reach error messages quoted: raw bytes
// such as 0xff and ESC never do.
func TestErrorPathsQuoteNames(t *testing.T) {
	name := "x\xff\x1b[31m"
	rt := bsup.NewRecord([]bsup.Field{{Name: name, Type: bsup.NewArray(bsup.TypeInt64)}})
	arr := bsup.Value{Type: rt.Fields[0].Type, Elems: []bsup.Value{bsup.NewInt(bsup.TypeInt64, 1), bsup.NewInt(bsup.TypeInt64, 2)}}
	b := writeCSUP(t, []bsup.Value{bsup.NewRecordValue(rt, arr)})
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithMaxElements(1))
	require.NoError(t, err)
	err = f.Validate()
	require.ErrorIs(t, err, csup.ErrTooLarge)
	require.NotContains(t, err.Error(), "\xff")
	require.NotContains(t, err.Error(), "\x1b")
	require.Contains(t, err.Error(), `"x\xff\x1b[31m"`)
}
