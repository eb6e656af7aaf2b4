package csup_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup/internal/testgen"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/stretchr/testify/require"
)

// Writing the values of each file super v0.3.0 wrote gives the same bytes.
func TestCSUPv16WriterMatchesSuper(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "csup-v16_super-v0.3.0", "*.csup"))
	require.NoError(t, err)
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".csup")
		t.Run(name, func(t *testing.T) {
			want := readV16(t, name)
			_, vals := readCSUP(t, want)
			got := writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16))
			if !bytes.Equal(want, got) {
				t.Logf("want:\n%s\ngot:\n%s", hex.Dump(want), hex.Dump(got))
			}
			require.Equal(t, want, got)
		})
	}
}

// Generated values of every type (records, arrays, sets, maps, unions,
// enums, errors, named types, every primitive) round-trip through the
// CSUP v16 writer and reader, across several objects.
func TestCSUPv16RoundTripGenerated(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		g := testgen.New(seed)
		g.NullRate = 0 // exact round trip; TestCSUPv16RoundTripGeneratedNulls has nulls
		types := []*bsup.Type{g.Type(5), g.Type(5), g.Type(3)}
		var vals []bsup.Value
		for i := 0; i < 700; i++ {
			vals = append(vals, noRecordTypeValues(g.Value(types[g.R.IntN(len(types))])))
		}
		for _, opts := range [][]csup.Option{nil, {csup.WithCompression(false)}, {csup.WithObjectRows(97)}} {
			opts = append(opts, csup.WithLayout(csup.LayoutCSUP16))
			b := writeCSUP(t, vals, opts...)
			f, got := readCSUP(t, b)
			require.Equal(t, csup.GenCSUPv16, f.Generation)
			requireSame(t, vals, got)
			require.NoError(t, f.Validate(), "seed %d", seed)
		}
	}
}

// noRecordTypeValues replaces type values that name record types (whose
// Super Binary version 2 form is not known) by <int64>.
func noRecordTypeValues(v bsup.Value) bsup.Value {
	if !v.Null && bsup.PayloadKind(v.Type) == bsup.KindType && bytes.Contains(v.Bytes, []byte{30}) {
		v.Bytes = bsup.AppendTypeValue(nil, bsup.TypeInt64)
	}
	for i := range v.Elems {
		v.Elems[i] = noRecordTypeValues(v.Elems[i])
	}
	return v
}

// FuzzDiffCSUPv16Writer: values generated from the fuzz seed (nulls
// everywhere), written as CSUP v16 and read back, equal what was written
// with typed nulls converted as the writer documents.
func FuzzDiffCSUPv16Writer(f *testing.F) {
	f.Add(uint64(1), uint16(50), uint8(3))
	f.Add(uint64(7), uint16(300), uint8(40))
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, objRows uint8) {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(4), g.Type(3)}
		vals := make([]bsup.Value, int(n)%600+1)
		want := make([]bsup.Value, len(vals))
		for i := range vals {
			vals[i] = noRecordTypeValues(g.Value(types[g.R.IntN(len(types))]))
			want[i] = csup.UntypeNulls(vals[i]) // typed nulls as super's model has them
		}
		var buf bytes.Buffer
		w, err := csup.NewWriter(&buf, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectRows(int(objRows)+1))
		require.NoError(t, err)
		for _, v := range vals {
			if err = w.Write(v); err != nil {
				break
			}
		}
		if err == nil {
			err = w.Close()
		}
		if errors.Is(err, csup.ErrUnsupported) {
			// What v16 cannot hold (e.g. nulls mixed with values in map
			// keys) is refused, as documented: nothing to compare.
			t.Skip(err)
		}
		require.NoError(t, err)
		f, got := readCSUP(t, buf.Bytes())
		requireSame(t, want, got)
		require.NoError(t, f.Validate())
	})
}

// Dictionaries take up to 256 distinct values (8-bit indexes 0..255, as
// super's encoder allows) when there are fewer distinct values than rows.
func TestCSUPv16WriterDictLimit(t *testing.T) {
	rt := bsup.NewRecord([]bsup.Field{{Name: "s", Type: bsup.TypeString}})
	for _, c := range []struct {
		distinct int
		dict     bool
	}{{2, true}, {255, true}, {256, true}, {257, false}} {
		var vals []bsup.Value
		for i := 0; i < 600; i++ {
			vals = append(vals, bsup.NewRecordValue(rt, bsup.NewString(itoa3(i%c.distinct))))
		}
		f, got := readCSUP(t, writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16)))
		requireSame(t, vals, got)
		var sb strings.Builder
		require.NoError(t, f.Describe(&sb))
		require.Equal(t, c.dict, strings.Contains(sb.String(), "dict"), "%d distinct:\n%s", c.distinct, sb.String())
	}
}

func itoa3(i int) string {
	return string([]byte{'v', byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)})
}

// A dictionary column's data is laid out as super's encoder emits it: the
// entries, then the counts, then the index (Describe lists the Dict's own
// segments index first, counts second, then the entries node's).
func TestCSUPv16WriterDictOrder(t *testing.T) {
	rt := bsup.NewRecord([]bsup.Field{{Name: "s", Type: bsup.TypeString}})
	var vals []bsup.Value
	for i := 0; i < 6; i++ {
		vals = append(vals, bsup.NewRecordValue(rt, bsup.NewString(strings.Repeat("x", i%2+1))))
	}
	f, got := readCSUP(t, writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16)))
	requireSame(t, vals, got)
	var sb strings.Builder
	require.NoError(t, f.Describe(&sb))
	m := regexp.MustCompile(`dict  string .*\[(\d+)\+6 raw 6\] \[(\d+)\+\d+ raw 16\]\n.*bytes  string .*\[(\d+)\+3 raw 3\] \[(\d+)\+`).FindStringSubmatch(sb.String())
	require.NotNil(t, m, sb.String())
	off := func(i int) int { n, _ := strconv.Atoi(m[i]); return n }
	index, counts, entries, offsets := off(1), off(2), off(3), off(4)
	require.Less(t, entries, offsets)
	require.Less(t, offsets, counts)
	require.Less(t, counts, index)
}

// Type values read back from Bytes nodes (where super's encoder puts them
// in some versions) as from Primitive nodes (where this writer puts them).
func TestCSUPv16TypeValuesInBytes(t *testing.T) {
	rt := bsup.NewRecord([]bsup.Field{{Name: "t", Type: bsup.TypeType}})
	var vals []bsup.Value
	for _, tt := range []*bsup.Type{bsup.TypeInt64, bsup.TypeString, bsup.NewArray(bsup.TypeIP), bsup.TypeInt64} {
		vals = append(vals, bsup.NewRecordValue(rt, bsup.Value{Type: bsup.TypeType, Bytes: bsup.AppendTypeValue(nil, tt)}))
	}
	for _, inBytes := range []bool{false, true} {
		if inBytes {
			defer csup.TypeValuesInBytes()()
		}
		f, got := readCSUP(t, writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectRows(2)))
		requireSame(t, vals, got)
		var sb strings.Builder
		require.NoError(t, f.Describe(&sb))
		require.Equal(t, inBytes, strings.Contains(sb.String(), "bytes  type"), sb.String())
	}
}
