package csup_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/stretchr/testify/require"
)

var v16Row = bsup.NewRecord([]bsup.Field{
	{Name: "id", Type: bsup.TypeInt64},
	{Name: "name", Type: bsup.TypeString},
	{Name: "score", Type: bsup.TypeFloat64},
	{Name: "tags", Type: bsup.NewArray(bsup.TypeString)},
	{Name: "nested", Type: bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeInt64}, {Name: "b", Type: bsup.TypeUint64}})},
})

var v16Names = func() []bsup.Value {
	names := make([]bsup.Value, 100)
	for i := range names {
		names[i] = bsup.NewString("user" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
	}
	return names
}()

// v16RowAt is row i of a generated table without nulls (CSUP v16 has no
// typed nulls): a sequential id (so per-object statistics separate
// objects), a name from 100 (dictionary columns), floats, arrays and a
// nested record. Rows are made on demand so a million need no memory.
func v16RowAt(i int) bsup.Value {
	tags := bsup.Value{Type: v16Row.Fields[3].Type, Elems: make([]bsup.Value, i%3)}
	for j := range tags.Elems {
		tags.Elems[j] = v16Names[(i+j)%7]
	}
	return bsup.NewRecordValue(v16Row,
		bsup.NewInt(bsup.TypeInt64, int64(i)),
		v16Names[(i*7)%len(v16Names)],
		bsup.NewFloat(bsup.TypeFloat64, float64(i%1000)/8),
		tags,
		bsup.NewRecordValue(v16Row.Fields[4].Type, bsup.NewInt(bsup.TypeInt64, int64(i%5000-2500)), bsup.NewUint(bsup.TypeUint64, uint64(i)*3)))
}

func writeV16Rows(t testing.TB, n int, opts ...csup.Option) []byte {
	var buf bytes.Buffer
	w, err := csup.NewWriter(&buf, append([]csup.Option{csup.WithLayout(csup.LayoutCSUP16)}, opts...)...)
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		require.NoError(t, w.Write(v16RowAt(i)))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// Many rows through the CSUP v16 writer: several objects, bit-packed
// integer blocks, dictionaries; the reader gives the rows back (reusing one
// Value), validates, and a range query reads only the object that can
// match.
func TestCSUPv16Million(t *testing.T) {
	b := writeV16Rows(t, bigRowsCount)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	n, err := f.Count()
	require.NoError(t, err)
	require.Equal(t, int64(bigRowsCount), n)
	r := f.NewReader()
	var v bsup.Value
	for i := 0; i < bigRowsCount; i++ {
		require.NoError(t, r.ReadInto(&v))
		if !bsup.Equal(v16RowAt(i), v) {
			t.Fatalf("row %d differs: %s", i, bsup.AppendJSON(nil, v, bsup.JSONSuper))
		}
	}
	require.ErrorIs(t, r.ReadInto(&v), io.EOF)
	require.NoError(t, f.Validate())
	objects := (bigRowsCount + csup.DefaultObjectRows - 1) / csup.DefaultObjectRows
	lo := bsup.NewInt(bsup.TypeInt64, int64(bigRowsCount/2))
	hi := bsup.NewInt(bsup.TypeInt64, int64(bigRowsCount/2+9))
	rows, err := f.Query(csup.Query{Columns: []string{"name"}, Where: []csup.Range{{Path: "id", Min: &lo, Max: &hi}}})
	require.NoError(t, err)
	k := 0
	for _, err := range rows.All() {
		require.NoError(t, err)
		k++
	}
	require.Equal(t, 10, k)
	require.Equal(t, csup.QueryStats{Objects: objects, ObjectsSkipped: objects - 1, Rows: 10}, rows.Stats())
}

// Deep nesting (90 levels of records and arrays) round-trips.
func TestCSUPv16Deep(t *testing.T) {
	v := bsup.NewInt(bsup.TypeInt64, 7)
	for i := 0; i < 90; i++ {
		if i%2 == 0 {
			rt := bsup.NewRecord([]bsup.Field{{Name: "x", Type: v.Type}, {Name: "s", Type: bsup.TypeString}})
			v = bsup.NewRecordValue(rt, v, bsup.NewString("d"))
		} else {
			v = bsup.Value{Type: bsup.NewArray(v.Type), Elems: []bsup.Value{v}}
		}
	}
	vals := []bsup.Value{v, v}
	_, got := readCSUP(t, writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16)))
	requireSame(t, vals, got)
}

// Typed nulls mixed with values are written as super's data model holds
// them (a null of type null, so {a:null} is its own top-level type) and
// read back that way; a column that is null in every row likewise.
func TestCSUPv16WriterMixedNulls(t *testing.T) {
	rt := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeInt64}})
	nt := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeNull}})
	vals := []bsup.Value{bsup.NewRecordValue(rt, bsup.NewInt(bsup.TypeInt64, 1)), bsup.NewRecordValue(rt, bsup.NewNull(bsup.TypeInt64))}
	want := []bsup.Value{vals[0], bsup.NewRecordValue(nt, bsup.NewNull(bsup.TypeNull))}
	f, got := readCSUP(t, writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16)))
	requireSame(t, want, got)
	var sb strings.Builder
	require.NoError(t, f.Describe(&sb))
	require.Contains(t, sb.String(), "super types: 2")
	vals = []bsup.Value{bsup.NewRecordValue(rt, bsup.NewNull(bsup.TypeInt64)), bsup.NewRecordValue(rt, bsup.NewNull(bsup.TypeInt64))}
	_, got = readCSUP(t, writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16)))
	requireSame(t, []bsup.Value{want[1], want[1]}, got)
}

// Large rows end an object at WithObjectSize bytes, before
// WithObjectRows: the writer's memory stays bounded, and the objects
// read back as one sequence of values.
func TestCSUPv16WriterObjectSize(t *testing.T) {
	rt := bsup.NewRecord([]bsup.Field{{Name: "i", Type: bsup.TypeInt64}, {Name: "s", Type: bsup.TypeString}})
	var vals []bsup.Value
	for i := 0; i < 40; i++ {
		vals = append(vals, bsup.NewRecordValue(rt, bsup.NewInt(bsup.TypeInt64, int64(i)), bsup.NewString(strings.Repeat(string(rune('a'+i%26)), 100_000))))
	}
	count := func(b []byte) int {
		f, got := readCSUP(t, b)
		requireSame(t, vals, got)
		var sb strings.Builder
		require.NoError(t, f.Describe(&sb))
		return strings.Count(sb.String(), "\nobject ")
	}
	require.Equal(t, 1, count(writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16))))
	// 1 MB: about 10 rows of 100 kB each per object.
	require.Equal(t, 4, count(writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectSize(1<<20))))
}
