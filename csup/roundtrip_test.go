package csup_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/testgen"
	"github.com/stretchr/testify/require"
)

func writeCSUP(t testing.TB, vals []bsup.Value, opts ...csup.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := csup.NewWriter(&buf, opts...)
	require.NoError(t, err)
	for _, v := range vals {
		require.NoError(t, w.Write(v))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func readCSUP(t testing.TB, b []byte, opts ...csup.Option) (*csup.File, []bsup.Value) {
	t.Helper()
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
	require.NoError(t, err)
	var out []bsup.Value
	for v, err := range f.Values() {
		require.NoError(t, err)
		out = append(out, v)
	}
	require.NoError(t, f.Validate())
	return f, out
}

func requireSame(t testing.TB, want, got []bsup.Value) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if !bsup.Equal(want[i], got[i]) {
			t.Fatalf("value %d differs:\nwant %s %s\ngot  %s %s", i,
				want[i].Type.Key(), bsup.AppendJSON(nil, want[i], bsup.JSONSuper),
				got[i].Type.Key(), bsup.AppendJSON(nil, got[i], bsup.JSONSuper))
		}
	}
}

func TestRoundTripGenerated(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(5), g.Type(5), g.Type(3)}
		var vals []bsup.Value
		for i := 0; i < 400; i++ {
			vals = append(vals, g.Value(types[g.R.IntN(len(types))]))
		}
		for _, opts := range [][]csup.Option{nil, {csup.WithCompression(false)}, {csup.WithSegmentThreshold(64), csup.WithSkewThreshold(300)}} {
			t.Logf("seed %d opts %d", seed, len(opts))
			b := writeCSUP(t, vals, opts...)
			f, got := readCSUP(t, b)
			require.Equal(t, csup.GenSpec, f.Generation)
			requireSame(t, vals, got)
		}
	}
}

func TestRoundTripShapes(t *testing.T) {
	str := bsup.NewString
	i64 := func(v int64) bsup.Value { return bsup.NewInt(bsup.TypeInt64, v) }
	pt := bsup.NewNamed("point", bsup.NewRecord([]bsup.Field{{Name: "x", Type: bsup.TypeInt64}, {Name: "y", Type: bsup.TypeInt64}}))
	recA := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}})
	recB := bsup.NewRecord([]bsup.Field{{Name: "b", Type: bsup.NewArray(bsup.TypeInt64)}})
	un := bsup.NewUnion([]*bsup.Type{recA, recB, bsup.TypeInt64})
	outer := bsup.NewRecord([]bsup.Field{
		{Name: "u", Type: un},
		{Name: "allnull", Type: bsup.TypeString},
		{Name: "empty", Type: bsup.NewArray(pt)},
		{Name: "m", Type: bsup.NewMap(bsup.TypeString, un)},
		{Name: "e", Type: bsup.NewError(bsup.TypeString)},
		{Name: "nul", Type: bsup.TypeNull},
	})
	arr := func(t *bsup.Type, e ...bsup.Value) bsup.Value { return bsup.Value{Type: t, Elems: e} }
	mk := func(u bsup.Value, empty bsup.Value, m bsup.Value) bsup.Value {
		return bsup.NewRecordValue(outer, u, bsup.NewNull(bsup.TypeString), empty, m, bsup.Value{Type: outer.Fields[4].Type, Bytes: []byte("boom")}, bsup.NewNull(bsup.TypeNull))
	}
	ea := outer.Fields[2].Type
	mt := outer.Fields[3].Type
	vals := []bsup.Value{
		mk(bsup.NewUnionValue(un, 0, bsup.NewRecordValue(recA, str("x"))), arr(ea), arr(mt)),
		mk(bsup.NewUnionValue(un, 1, bsup.NewRecordValue(recB, arr(recB.Fields[0].Type))), arr(ea, bsup.NewRecordValue(pt, i64(1), i64(2))), bsup.NewNull(mt)),
		mk(bsup.NewNull(un), arr(ea, bsup.NewNull(pt)), arr(mt, str("k"), bsup.NewNull(un), str("j"), bsup.NewUnionValue(un, 0, bsup.NewNull(recA)))),
		mk(bsup.NewUnionValue(un, 2, i64(-7)), bsup.NewNull(ea), arr(mt)),
		bsup.NewNull(outer), // a null at the top level
		bsup.NewString("a bare string"),
		bsup.NewNull(bsup.TypeNull),
		i64(42),
	}
	_, got := readCSUP(t, writeCSUP(t, vals))
	requireSame(t, vals, got)
}

func TestRoundTripDeep(t *testing.T) {
	// 90 levels of alternating arrays and records; each row is a chain, with
	// a null or an empty array cutting it short at a row-dependent level.
	var types []*bsup.Type
	typ := bsup.TypeInt64
	for i := 0; i < 90; i++ {
		if i%2 == 0 {
			typ = bsup.NewArray(typ)
		} else {
			typ = bsup.NewRecord([]bsup.Field{{Name: "f", Type: typ}, {Name: "g", Type: bsup.TypeBool}})
		}
		types = append(types, typ)
	}
	var vals []bsup.Value
	for row := 0; row < 40; row++ {
		v := bsup.NewInt(bsup.TypeInt64, int64(row))
		for i, tt := range types {
			switch {
			case i == 2*row+1:
				v = bsup.NewNull(tt)
			case i == 2*row+3 && tt.Kind == bsup.KindArray:
				v = bsup.Value{Type: tt}
			case tt.Kind == bsup.KindArray:
				v = bsup.Value{Type: tt, Elems: []bsup.Value{v, v}[:1+i%2]}
			default:
				v = bsup.NewRecordValue(tt, v, bsup.NewBool(i%3 == 0))
			}
		}
		vals = append(vals, v)
	}
	_, got := readCSUP(t, writeCSUP(t, vals))
	requireSame(t, vals, got)
	// Past the depth limit the writer refuses, and so does the reader.
	w, err := csup.NewWriter(&bytes.Buffer{}, csup.WithMaxDepth(50))
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(vals[0]), csup.ErrTooLarge)
	b := writeCSUP(t, vals)
	_, err = csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithMaxDepth(50))
	require.Error(t, err)
}

// bigRecord is the row shape of the million-row tests and benchmarks.
var bigRecord = bsup.NewRecord([]bsup.Field{
	{Name: "id", Type: bsup.TypeInt64},
	{Name: "name", Type: bsup.TypeString},
	{Name: "score", Type: bsup.TypeFloat64},
	{Name: "tags", Type: bsup.NewArray(bsup.TypeString)},
	{Name: "nested", Type: bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeInt32}, {Name: "ok", Type: bsup.TypeBool}})},
})

var tagNames = []string{"red", "green", "blue", "cyan"}

func bigRows(n int) []bsup.Value {
	vals := make([]bsup.Value, n)
	nt := bigRecord.Fields[4].Type
	tt := bigRecord.Fields[3].Type
	names := make([]bsup.Value, 100)
	for i := range names {
		names[i] = bsup.NewString("user" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
	}
	for i := range vals {
		name := names[i%len(names)]
		if i%97 == 0 {
			name = bsup.NewNull(bsup.TypeString)
		}
		tags := bsup.Value{Type: tt, Elems: make([]bsup.Value, i%3)}
		for j := range tags.Elems {
			tags.Elems[j] = bsup.NewString(tagNames[(i+j)%4])
		}
		vals[i] = bsup.NewRecordValue(bigRecord,
			bsup.NewInt(bsup.TypeInt64, int64(i)),
			name,
			bsup.NewFloat(bsup.TypeFloat64, float64(i%1000)/8),
			tags,
			bsup.NewRecordValue(nt, bsup.NewInt(bsup.TypeInt32, int64(i%50-25)), bsup.NewBool(i%2 == 0)))
	}
	return vals
}

func TestRoundTripMillion(t *testing.T) {
	vals := bigRows(bigRowsCount)
	var buf bytes.Buffer
	w, err := csup.NewWriter(&buf, csup.WithSegmentThreshold(1<<20), csup.WithSkewThreshold(4<<20))
	require.NoError(t, err)
	for _, v := range vals {
		require.NoError(t, w.Write(v))
	}
	require.NoError(t, w.Close())
	b := buf.Bytes()
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	// Reading into one reused Value gives the same rows.
	r := f.NewReader()
	var v bsup.Value
	for i := range vals {
		require.NoError(t, r.ReadInto(&v))
		if !bsup.Equal(vals[i], v) {
			t.Fatalf("reused read: row %d differs", i)
		}
	}
	require.ErrorIs(t, r.ReadInto(&v), io.EOF)
}

// The writer refuses values that do not match their declared types.
func TestWriterRefusesMistypedValues(t *testing.T) {
	rec := bsup.NewRecord([]bsup.Field{{Name: "n", Type: bsup.TypeInt64}})
	w, err := csup.NewWriter(&bytes.Buffer{})
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(bsup.NewRecordValue(rec, bsup.NewString("x"))), csup.ErrCorrupt)
	w, _ = csup.NewWriter(&bytes.Buffer{})
	require.ErrorIs(t, w.Write(bsup.NewRecordValue(rec)), csup.ErrCorrupt)
	w, _ = csup.NewWriter(&bytes.Buffer{})
	un := bsup.NewUnion([]*bsup.Type{bsup.TypeInt64, bsup.TypeString})
	require.ErrorIs(t, w.Write(bsup.NewUnionValue(un, 5, bsup.NewString("x"))), csup.ErrCorrupt)
	w, _ = csup.NewWriter(&bytes.Buffer{})
	require.Error(t, w.Write(bsup.Value{}))
}

// A type whose levels share subtypes expands into 2^depth columns: the
// writer stops with ErrTooLarge instead of building them.
func TestWriterRefusesExplodingTypes(t *testing.T) {
	typ := bsup.TypeInt64
	for i := 0; i < 60; i++ {
		typ = bsup.NewRecord([]bsup.Field{{Name: "a", Type: typ}, {Name: "b", Type: typ}})
	}
	w, err := csup.NewWriter(&bytes.Buffer{})
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(bsup.NewNull(typ)), csup.ErrTooLarge)
}

// An all-null field is written as column null with no presence data, and
// a field without nulls has presence [].
func TestWriterOmitsNeedlessPresence(t *testing.T) {
	rec := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeInt64}, {Name: "b", Type: bsup.TypeString}})
	vals := []bsup.Value{
		bsup.NewRecordValue(rec, bsup.NewInt(bsup.TypeInt64, 1), bsup.NewNull(bsup.TypeString)),
		bsup.NewRecordValue(rec, bsup.NewInt(bsup.TypeInt64, 2), bsup.NewNull(bsup.TypeString)),
	}
	b := writeCSUP(t, vals, csup.WithCompression(false))
	f, got := readCSUP(t, b)
	requireSame(t, vals, got)
	// Data: a's two values (2 bytes each) and the super column (2 bytes).
	require.Equal(t, int64(6), f.Trailer.Sections[0])
	cols := f.Columns()[0].Children
	require.Equal(t, "primitive", cols[0].Kind)
	require.Equal(t, "all-null", cols[1].Kind)
}
