package bsup_test

import (
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/stretchr/testify/require"
)

// Types that share subtypes (each level uses the one below twice) have a
// tree form of 2^depth nodes: String, SameType and writing stay linear.
func TestSharedSubtypes(t *testing.T) {
	build := func() *bsup.Type {
		typ := bsup.TypeInt64
		for i := 0; i < 80; i++ {
			typ = bsup.NewRecord([]bsup.Field{{Name: "a", Type: typ}, {Name: "b", Type: typ}})
		}
		return typ
	}
	a, b := build(), build()
	require.True(t, bsup.SameType(a, b))
	require.False(t, bsup.SameType(a, bsup.NewRecord([]bsup.Field{{Name: "a", Type: a.Fields[0].Type}, {Name: "b", Type: bsup.TypeString}})))
	s := a.String()
	require.LessOrEqual(t, len(s), 4200)
	require.True(t, strings.HasSuffix(s, "…"))
	var buf strings.Builder
	w, err := bsup.NewWriter(&buf)
	require.NoError(t, err)
	require.NoError(t, w.Write(bsup.NewNull(a)))
	require.NoError(t, w.Write(bsup.NewNull(b)))
	require.NoError(t, w.Close())
	require.Less(t, buf.Len(), 2000)
}
