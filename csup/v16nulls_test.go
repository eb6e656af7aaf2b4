package csup_test

import (
	"bytes"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/testgen"
	"github.com/stretchr/testify/require"
)

// zedValues reads the values of a file zed wrote from the ZSON inputs
// (inputs/zson-zed-v1), which have typed nulls.
func zedValues(t *testing.T, name string) []bsup.Value {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "vng-v3_zed-v1.6.0", name+".vng"))
	require.NoError(t, err)
	_, vals := readCSUP(t, b)
	return vals
}

// The ZSON inputs hold typed nulls (null(int64), null({...}),
// null((int64,string))) where super's SUP inputs hold untyped ones: writing
// the zed-era values as CSUP v16 gives, byte for byte, the file super
// v0.3.0 wrote from its own input, for every case both folders have
// (nulls, nested and unions among them).
func TestCSUPv16TypedNullsMatchSuper(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "csup-v16_super-v0.3.0", "*.csup"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".csup")
		t.Run(name, func(t *testing.T) {
			vals := zedValues(t, name)
			got := writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16))
			want := readV16(t, name)
			if !bytes.Equal(want, got) {
				t.Logf("want:\n%s\ngot:\n%s", hex.Dump(want), hex.Dump(got))
			}
			require.Equal(t, want, got)
		})
	}
}

// Every input case (as zed's files hold it, typed nulls included) round
// trips through the v16 writer and reader to the values super's model
// gives it; allnull, which super has no sample of, is checked by hand.
func TestCSUPv16RoundTripInputs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "vng-v3_zed-v1.6.0", "*.vng"))
	require.NoError(t, err)
	require.Len(t, files, 11)
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".vng")
		t.Run(name, func(t *testing.T) {
			vals := zedValues(t, name)
			want := make([]bsup.Value, len(vals))
			for i, v := range vals {
				want[i] = csup.UntypeNulls(v)
			}
			for _, opts := range [][]csup.Option{nil, {csup.WithObjectRows(1)}, {csup.WithCompression(false)}} {
				b := writeCSUP(t, vals, append(opts, csup.WithLayout(csup.LayoutCSUP16))...)
				f, got := readCSUP(t, b)
				require.Equal(t, csup.GenCSUPv16, f.Generation)
				requireSame(t, want, got)
			}
		})
	}
	b := writeCSUP(t, zedValues(t, "allnull"), csup.WithLayout(csup.LayoutCSUP16))
	_, got := readCSUP(t, b)
	var lines []string
	for _, v := range got {
		lines = append(lines, v.Type.String()+" "+string(bsup.AppendJSON(nil, v, bsup.JSONSuper)))
	}
	require.Equal(t, []string{`{a:int64,b:null} {"a":1,"b":null}`, `{a:int64,b:null} {"a":2,"b":null}`}, lines)
}

// The conversion of typed nulls, case by case.
func TestUntypeNulls(t *testing.T) {
	i64 := bsup.TypeInt64
	rec := bsup.NewRecord([]bsup.Field{{Name: "a", Type: i64}})
	u := bsup.NewUnion([]*bsup.Type{i64, bsup.TypeString})
	un := bsup.NewUnion([]*bsup.Type{bsup.TypeNull, i64})
	arr := bsup.NewArray(i64)
	m := bsup.NewMap(bsup.TypeString, i64)
	named := bsup.NewNamed("p", rec)
	s := func(v bsup.Value) string {
		return v.Type.Key() + " " + string(bsup.AppendJSON(nil, v, bsup.JSONSuper))
	}
	for _, c := range []struct {
		in   bsup.Value
		want string
	}{
		{bsup.NewInt(i64, 1), `int64 1`},
		{bsup.NewNull(i64), `null null`},
		{bsup.NewNull(bsup.TypeNull), `null null`},
		{bsup.NewRecordValue(rec, bsup.NewNull(i64)), `{a:null} {"a":null}`},
		{bsup.NewRecordValue(rec, bsup.NewInt(i64, 3)), `{a:int64} {"a":3}`},
		{bsup.NewNull(rec), `null null`},
		{bsup.NewNull(u), `(int64,string,null) null`},
		{bsup.NewNull(un), `(null,int64) null`},
		{bsup.Value{Type: arr, Elems: []bsup.Value{bsup.NewInt(i64, 1), bsup.NewNull(i64)}}, `[(int64,null)] [1,null]`},
		{bsup.Value{Type: arr, Elems: []bsup.Value{bsup.NewNull(i64)}}, `[null] [null]`},
		{bsup.Value{Type: m, Elems: []bsup.Value{bsup.NewString("k"), bsup.NewNull(i64)}}, `|{string:null}| {"k":null}`},
		{bsup.Value{Type: named, Elems: []bsup.Value{bsup.NewNull(i64)}}, `p={a:null} {"a":null}`},
		{bsup.NewUnionValue(bsup.NewUnion([]*bsup.Type{rec, bsup.TypeString}), 0, bsup.NewRecordValue(rec, bsup.NewNull(i64))), `({a:null},string) {"a":null}`},
	} {
		got := csup.UntypeNulls(c.in)
		require.Equal(t, c.want, s(got), s(c.in))
	}
	// A null under a member of a union is the union's null member (issue
	// 10: the tag used to stay on the string member).
	u3 := bsup.NewUnion([]*bsup.Type{i64, bsup.TypeString, bsup.TypeNull})
	recN := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeNull}})
	inner := bsup.NewUnion([]*bsup.Type{bsup.TypeString, bsup.TypeNull})
	outer := bsup.NewUnion([]*bsup.Type{i64, inner})
	for _, c := range []struct {
		in   bsup.Value
		want string
		tag  uint64
	}{
		{bsup.NewUnionValue(u3, 1, bsup.NewNull(bsup.TypeString)), `(int64,string,null) null`, 2},
		{bsup.NewUnionValue(u3, 1, bsup.NewNull(bsup.TypeNull)), `(int64,string,null) null`, 2},
		{bsup.NewUnionValue(u, 1, bsup.NewNull(bsup.TypeString)), `(int64,string,null) null`, 2},
		{bsup.NewUnionValue(bsup.NewNamed("nu", u3), 0, bsup.NewNull(i64)), `nu=(int64,string,null) null`, 2},
		// a null of a union member is that member's null member
		{bsup.NewUnionValue(outer, 1, bsup.NewNull(inner)), `(int64,(string,null)) null`, 1},
		// a member value whose type became another member's is of that member
		{bsup.NewUnionValue(bsup.NewUnion([]*bsup.Type{rec, recN}), 0, bsup.NewRecordValue(rec, bsup.NewNull(i64))), `({a:int64},{a:null}) {"a":null}`, 1},
	} {
		got := csup.UntypeNulls(c.in)
		require.Equal(t, c.want, s(got), s(c.in))
		require.Equal(t, c.tag, got.Uint, s(c.in))
		require.False(t, csup.HasTypedNull(got), s(got))
	}
	got := csup.UntypeNulls(bsup.NewUnionValue(outer, 1, bsup.NewNull(inner)))
	require.Equal(t, uint64(1), got.Elems[0].Uint, "inner union's null member")
	// Elements of a converted array are members of the new union.
	got = csup.UntypeNulls(bsup.Value{Type: arr, Elems: []bsup.Value{bsup.NewInt(i64, 1), bsup.NewNull(i64)}})
	require.Equal(t, bsup.KindUnion, got.Elems[0].Type.Kind)
	require.Equal(t, uint64(0), got.Elems[0].Uint)
	require.Equal(t, uint64(1), got.Elems[1].Uint)
}

// Generated values with nulls everywhere round-trip through the v16 writer
// and reader to their converted form.
func TestCSUPv16RoundTripGeneratedNulls(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(5), g.Type(4), g.Type(3)}
		var vals, want []bsup.Value
		for i := 0; i < 500; i++ {
			v := noRecordTypeValues(g.Value(types[g.R.IntN(len(types))]))
			vals = append(vals, v)
			want = append(want, csup.UntypeNulls(v))
		}
		for _, opts := range [][]csup.Option{nil, {csup.WithObjectRows(61)}} {
			b := writeCSUP(t, vals, append(opts, csup.WithLayout(csup.LayoutCSUP16))...)
			f, got := readCSUP(t, b)
			requireSame(t, want, got)
			require.NoError(t, f.Validate(), "seed %d", seed)
		}
	}
}

// Issue 10: a null under a member of a union (alone, in a union with a
// union member, in an array) reads back as what was written, the union's
// null member; super holds no typed nulls, so a union member column never
// holds one.
func TestCSUPv16NullInUnion(t *testing.T) {
	i64 := bsup.TypeInt64
	u3 := bsup.NewUnion([]*bsup.Type{i64, bsup.TypeString, bsup.TypeNull})
	nested := bsup.NewUnion([]*bsup.Type{i64, bsup.TypeString, u3})
	rt := bsup.NewRecord([]bsup.Field{{Name: "f0", Type: nested}, {Name: "f1", Type: bsup.NewArray(u3)}})
	var vals, want []bsup.Value
	for i := 0; i < 40; i++ {
		var f0 bsup.Value
		switch i % 4 {
		case 0:
			f0 = bsup.NewUnionValue(nested, 2, bsup.NewUnionValue(u3, 1, bsup.NewNull(bsup.TypeString)))
		case 1:
			f0 = bsup.NewUnionValue(nested, 1, bsup.NewNull(bsup.TypeString))
		case 2:
			f0 = bsup.NewUnionValue(nested, 2, bsup.NewUnionValue(u3, 0, bsup.NewInt(i64, int64(i))))
		default:
			f0 = bsup.NewNull(nested)
		}
		f1 := bsup.Value{Type: rt.Fields[1].Type, Elems: []bsup.Value{
			bsup.NewUnionValue(u3, 1, bsup.NewNull(bsup.TypeString)),
			bsup.NewUnionValue(u3, 1, bsup.NewString("s")),
		}}
		v := bsup.NewRecordValue(rt, f0, f1)
		vals = append(vals, v)
		want = append(want, csup.UntypeNulls(v))
	}
	for _, opts := range [][]csup.Option{nil, {csup.WithObjectRows(3)}} {
		b := writeCSUP(t, vals, append(opts, csup.WithLayout(csup.LayoutCSUP16))...)
		f, got := readCSUP(t, b)
		requireSame(t, want, got)
		require.NoError(t, f.Validate())
	}
	// A null whose type disagrees with its column is refused, not written
	// as a typed null.
	bad := bsup.NewRecordValue(bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}}), bsup.NewNull(bsup.TypeNull))
	w, err := csup.NewWriter(io.Discard, csup.WithLayout(csup.LayoutCSUP16))
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(bad), csup.ErrInvalidArgument)
}
