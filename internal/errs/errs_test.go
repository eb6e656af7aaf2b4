package errs

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

var (
	errCorrupt  = errors.New("pkg: corrupt input")
	errTooLarge = errors.New("pkg: too large")
)

func TestCorruptErrorMessageAndUnwrap(t *testing.T) {
	err := At(errCorrupt, 42, "column 3", "offset %d out of range", 99)
	require.EqualError(t, err, "pkg: corrupt input: offset 99 out of range (at offset 42, column 3)")
	require.ErrorIs(t, err, errCorrupt)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	require.EqualValues(t, 42, ce.Offset)
	require.Equal(t, "column 3", ce.Path)

	require.EqualError(t, At(errCorrupt, -1, "", "bad"), "pkg: corrupt input: bad")
	require.EqualError(t, At(errCorrupt, 7, "", "bad"), "pkg: corrupt input: bad (at offset 7)")
	require.EqualError(t, At(errCorrupt, -1, "a.b", "bad"), "pkg: corrupt input: bad (at a.b)")
	require.Equal(t, errCorrupt, Wrap(errCorrupt, ""))
}

func TestLocateKeepsInnermost(t *testing.T) {
	inner := At(errCorrupt, 5, "inner", "x")
	require.Same(t, inner, Locate(inner, 9, "outer"))
	outer := Locate(errCorrupt, 9, "outer")
	require.EqualError(t, outer, "pkg: corrupt input (at offset 9, outer)")
	require.NoError(t, Locate(nil, 1, "x"))
}

func TestCheckSize(t *testing.T) {
	n, err := CheckSize(10, 10, 100, errTooLarge, errCorrupt, 0, "", "stream")
	require.NoError(t, err)
	require.Equal(t, 10, n)

	_, err = CheckSize(11, 10, 100, errTooLarge, errCorrupt, 3, "s", "stream")
	require.ErrorIs(t, err, errCorrupt)
	require.NotErrorIs(t, err, errTooLarge)

	_, err = CheckSize(101, 1000, 100, errTooLarge, errCorrupt, 3, "s", "stream")
	require.ErrorIs(t, err, errTooLarge)

	_, err = CheckSize(math.MaxUint64, -1, 0, errTooLarge, errCorrupt, 0, "", "stream")
	require.ErrorIs(t, err, errTooLarge)

	// A size that fits in the platform's int passes; one past it is too large
	// (1<<40 on 64-bit hosts, 1<<31 on 32-bit ones).
	n, err = CheckSize(uint64(math.MaxInt), -1, 0, errTooLarge, errCorrupt, 0, "", "stream")
	require.NoError(t, err)
	require.Equal(t, math.MaxInt, n)
	_, err = CheckSize(uint64(math.MaxInt)+1, -1, 0, errTooLarge, errCorrupt, 0, "", "stream")
	require.ErrorIs(t, err, errTooLarge)
}

func TestMulSize(t *testing.T) {
	p, ok := MulSize(1<<31, 4)
	require.True(t, ok)
	require.Equal(t, int64(1)<<33, p)
	_, ok = MulSize(math.MaxInt64/2+1, 2)
	require.False(t, ok)
	_, ok = MulSize(-1, 2)
	require.False(t, ok)
	p, ok = MulSize(0, math.MaxInt64)
	require.True(t, ok)
	require.Zero(t, p)
}

func TestSubAndQuote(t *testing.T) {
	parent := errors.New("pkg: invalid argument")
	s := Sub(parent, "pkg: invalid option")
	require.ErrorIs(t, s, parent)
	require.EqualError(t, s, "pkg: invalid option")
	require.Equal(t, "info.city", Quote("info.city"))
	require.Equal(t, `"a\xff\x1b[31m"`, Quote("a\xff\x1b[31m"))
	require.Equal(t, "café", Quote("café"))
	require.Equal(t, `"a b\"c"`, Quote("a b\"c"))
}
