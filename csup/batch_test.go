package csup_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/testgen"
	"github.com/stretchr/testify/require"
)

// batchValues reads b with a BatchReader and materializes every batch.
func batchValues(b []byte, fields []string, opts ...csup.Option) ([]bsup.Value, error) {
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return nil, err
	}
	r, err := f.NewBatchReader(fields...)
	if err != nil {
		return nil, err
	}
	var out []bsup.Value
	var bt csup.Batch
	var row int64
	for {
		if err := r.Next(&bt); err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, err
		}
		if bt.Row != row || bt.Root.Len != bt.Rows || bt.Rows == 0 {
			return nil, errors.New("batch bookkeeping wrong")
		}
		row += int64(bt.Rows)
		if out, err = bt.AppendValues(out); err != nil {
			return out, err
		}
	}
}

// rowValues reads b with the row reader.
func rowValues(b []byte, fields []string, opts ...csup.Option) ([]bsup.Value, error) {
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return nil, err
	}
	r := f.NewReader(fields...)
	var out []bsup.Value
	for {
		v, err := r.Read()
		if err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

func requireBatchSame(t *testing.T, b []byte, fields []string, opts ...csup.Option) {
	t.Helper()
	want, err := rowValues(b, fields, opts...)
	require.NoError(t, err)
	got, err := batchValues(b, fields, opts...)
	require.NoError(t, err)
	requireSame(t, want, got)
}

// The batch reader gives the row reader's values for every file super
// v0.3.0 wrote, whole and projected, in batches of every size.
func TestBatchReaderRealFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "csup-v16_super-v0.3.0", "*.csup"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, p := range files {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, rows := range []int{1, 2, 3, csup.DefaultBatchRows} {
			requireBatchSame(t, b, nil, csup.WithBatchRows(rows))
			for _, fields := range [][]string{{"a"}, {"b"}, {"a", "nested.b"}, {"x.y"}} {
				requireBatchSame(t, b, fields, csup.WithBatchRows(rows))
			}
		}
	}
}

// Generated values of every type, nulls everywhere (as the v16 writer
// converts them), across objects, whole and projected.
func TestBatchReaderGenerated(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(5), g.Type(4), g.Type(3)}
		var vals []bsup.Value
		for i := 0; i < 400; i++ {
			vals = append(vals, noRecordTypeValues(g.Value(types[g.R.IntN(len(types))])))
		}
		var buf bytes.Buffer
		w, err := csup.NewWriter(&buf, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectRows(150))
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
			continue
		}
		require.NoError(t, err)
		var fields []string
		for _, tt := range types {
			if tt.Kind == bsup.KindRecord && len(tt.Fields) > 0 {
				fields = append(fields, tt.Fields[0].Name)
			}
		}
		for _, rows := range []int{1, 17, 1000} {
			requireBatchSame(t, buf.Bytes(), nil, csup.WithBatchRows(rows))
			requireBatchSame(t, buf.Bytes(), fields, csup.WithBatchRows(rows))
		}
	}
}

// The vectors of the benchmark's rows hold the typed columns: ids as
// int64s, names as strings with offsets, scores as float64s, tags as
// list offsets over a string vector, nested.b as uint64s.
func TestBatchReaderVectors(t *testing.T) {
	b := writeV16Rows(t, 3000, csup.WithObjectRows(1000))
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithBatchRows(256))
	require.NoError(t, err)
	r, err := f.NewBatchReader()
	require.NoError(t, err)
	var bt csup.Batch
	row := 0
	batches := 0
	for {
		err := r.Next(&bt)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		batches++
		require.Equal(t, int64(row), bt.Row)
		require.Equal(t, row/1000, bt.Object)
		root := bt.Root
		require.Equal(t, csup.VecRecord, root.Kind)
		id, name, score, tags, nested := root.Elems[0], root.Elems[1], root.Elems[2], root.Elems[3], root.Elems[4]
		require.Equal(t, csup.VecInt, id.Kind)
		require.Equal(t, csup.VecFloat, score.Kind)
		require.Equal(t, csup.VecArray, tags.Kind)
		require.Equal(t, csup.VecUint, nested.Elems[1].Kind)
		for i := 0; i < bt.Rows; i++ {
			want := v16RowAt(row + i)
			require.Equal(t, want.Elems[0].Int, id.Ints[i])
			require.Equal(t, want.Elems[2].Float, score.Floats[i])
			require.Equal(t, want.Elems[4].Elems[1].Uint, nested.Elems[1].Uints[i])
			require.Equal(t, len(want.Elems[3].Elems), int(tags.Offsets[i+1]-tags.Offsets[i]))
			if name.Kind == csup.VecBytes {
				require.Equal(t, string(want.Elems[1].Bytes), string(name.Bytes[name.Offsets[i]:name.Offsets[i+1]]))
			} else {
				require.Equal(t, csup.VecDict, name.Kind)
				e := name.Elems[0]
				k := name.Index[i]
				require.Equal(t, string(want.Elems[1].Bytes), string(e.Bytes[e.Offsets[k]:e.Offsets[k+1]]))
			}
		}
		row += bt.Rows
	}
	require.Equal(t, 3000, row)
	require.Equal(t, 3*4, batches) // 1000 rows an object: 256+256+256+232
	// After the end, Next keeps returning io.EOF.
	require.ErrorIs(t, r.Next(&bt), io.EOF)
}

// Other generations are refused; a bad batch size is an invalid option.
func TestBatchReaderRefusals(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "vng-v4_zed-v1.18.0", "hello.vng"))
	require.NoError(t, err)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	_, err = f.NewBatchReader()
	require.ErrorIs(t, err, csup.ErrUnsupported)
	_, err = csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithBatchRows(csup.MaxBatchRows+1))
	require.ErrorIs(t, err, csup.ErrInvalidOption)
}

// FuzzDiffBatchReader: on any input, the batch reader and the row reader
// agree: when the row reader reads every value, the batch reader gives the
// same values; an error of either is a package error, never a panic.
func FuzzDiffBatchReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "csup-v16_super-v0.3.0", "*.csup"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b, uint8(2), false)
	}
	g := testgen.New(11)
	t1, t2 := g.Type(3), g.Type(3)
	var vals []bsup.Value
	for i := 0; i < 60; i++ {
		vals = append(vals, noRecordTypeValues(g.Value(t1)), noRecordTypeValues(g.Value(t2)))
	}
	var buf bytes.Buffer
	if w, err := csup.NewWriter(&buf, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectRows(50)); err == nil {
		for _, v := range vals {
			_ = w.Write(v)
		}
		_ = w.Close()
		f.Add(buf.Bytes(), uint8(7), true)
	}
	f.Add(writeV16Rows(f, 300, csup.WithObjectRows(100)), uint8(33), true)
	f.Fuzz(func(t *testing.T, b []byte, rows uint8, project bool) {
		opts := append(append([]csup.Option(nil), fuzzLimits...), csup.WithBatchRows(int(rows)+1), csup.WithMemoryLimit(32<<20))
		file, err := csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
		if err != nil || file.Generation != csup.GenCSUPv16 {
			return
		}
		var fields []string
		if project {
			if ts := file.SuperTypes(); len(ts) > 0 && ts[0].Kind == bsup.KindRecord && len(ts[0].Fields) > 0 {
				fields = []string{ts[0].Fields[len(ts[0].Fields)-1].Name}
			}
		}
		want, werr := rowValues(b, fields, opts...)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		got, gerr := batchValues(b, fields, opts...)
		runtime.ReadMemStats(&m1)
		if d := m1.TotalAlloc - m0.TotalAlloc; d > 256<<20 {
			t.Fatalf("batch reader allocated %d bytes for a %d-byte file", d, len(b))
		}
		if werr != nil && !isOurs(werr) {
			t.Fatalf("row reader error without a sentinel: %v", werr)
		}
		if gerr != nil && !isOurs(gerr) {
			t.Fatalf("batch reader error without a sentinel: %v", gerr)
		}
		if werr != nil || (gerr != nil && errors.Is(gerr, csup.ErrTooLarge)) {
			// The row reader builds value trees and reads lazily, the batch
			// reader a batch at a time: on bad input they may stop at
			// different points, each with an error.
			return
		}
		if gerr != nil {
			t.Fatalf("batch reader fails where the row reader reads everything: %v", gerr)
		}
		requireSame(t, want, got)
		// The JSON written from the vectors is the values' JSON.
		var wantJSON, gotJSON []byte
		for _, v := range want {
			wantJSON = append(bsup.AppendJSON(wantJSON, v, bsup.JSONSuper), '\n')
		}
		file, _ = csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
		r, err := file.NewBatchReader(fields...)
		if err != nil {
			t.Fatal(err)
		}
		var bt csup.Batch
		var w bytes.Buffer
		for r.Next(&bt) == nil {
			if err := bt.WriteJSON(&w, bsup.JSONSuper); err != nil {
				t.Fatal(err)
			}
		}
		gotJSON = w.Bytes()
		if !bytes.Equal(wantJSON, gotJSON) {
			t.Fatalf("JSON differs:\n%s\n%s", wantJSON, gotJSON)
		}
	})
}

// The memory limit holds for the batch reader: segments and buffers past
// it are refused with ErrTooLarge, and a limit that fits reads through
// several objects (reusing their buffers).
func TestBatchReaderMemoryLimit(t *testing.T) {
	b := writeV16Rows(t, 5000, csup.WithObjectRows(1000))
	_, err := batchValues(b, nil, csup.WithMemoryLimit(4096))
	require.ErrorIs(t, err, csup.ErrTooLarge)
	got, err := batchValues(b, nil, csup.WithMemoryLimit(1<<20))
	require.NoError(t, err)
	require.Len(t, got, 5000)
	for i := range got {
		require.True(t, bsup.Equal(v16RowAt(i), got[i]), "row %d", i)
	}
}

// Batch.AppendJSON writes the bytes bsup.AppendJSON gives for the row
// reader's values, in every style, for the real files and generated
// values of every type (whole and projected).
func TestBatchAppendJSON(t *testing.T) {
	var inputs [][]byte
	files, err := filepath.Glob(filepath.Join("testdata", "csup-v16_super-v0.3.0", "*.csup"))
	require.NoError(t, err)
	for _, p := range files {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		inputs = append(inputs, b)
	}
	for seed := uint64(1); seed <= 8; seed++ {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(5), g.Type(4)}
		var buf bytes.Buffer
		w, err := csup.NewWriter(&buf, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectRows(70))
		require.NoError(t, err)
		for i := 0; i < 300 && err == nil; i++ {
			err = w.Write(noRecordTypeValues(g.Value(types[g.R.IntN(len(types))])))
		}
		if err == nil {
			err = w.Close()
		}
		if errors.Is(err, csup.ErrUnsupported) {
			continue
		}
		require.NoError(t, err)
		inputs = append(inputs, buf.Bytes())
	}
	inputs = append(inputs, writeV16Rows(t, 2000, csup.WithObjectRows(700)))
	for n, b := range inputs {
		for _, fields := range [][]string{nil, {"a"}, {"f0", "f2"}, {"name", "nested.b"}} {
			vals, err := rowValues(b, fields)
			require.NoError(t, err)
			for _, style := range []bsup.JSONStyle{bsup.JSONSuper, bsup.JSONZed, bsup.JSONSuper | bsup.JSONRawTime} {
				var want []byte
				for _, v := range vals {
					want = append(bsup.AppendJSON(want, v, style), '\n')
				}
				f, err := csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithBatchRows(100))
				require.NoError(t, err)
				r, err := f.NewBatchReader(fields...)
				require.NoError(t, err)
				var got []byte
				var bt csup.Batch
				for {
					if err := r.Next(&bt); err == io.EOF {
						break
					}
					require.NoError(t, err)
					got, err = bt.AppendJSON(got, style)
					require.NoError(t, err)
				}
				require.Equal(t, string(want), string(got), "input %d fields %v style %d", n, fields, style)
			}
		}
	}
}

// SkipObjects passes over the objects whose statistics rule a range out
// and returns every row of the others, numbered as in the file.
func TestBatchReaderSkipObjects(t *testing.T) {
	b := writeV16Rows(t, 3000, csup.WithObjectRows(1000))
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	r, err := f.NewBatchReader("id")
	require.NoError(t, err)
	lo := bsup.NewInt(bsup.TypeInt64, 1500)
	hi := bsup.NewInt(bsup.TypeInt64, 1600)
	require.NoError(t, r.SkipObjects(csup.Range{Path: "id", Min: &lo, Max: &hi}))
	var bt csup.Batch
	var ids []int64
	for {
		err := r.Next(&bt)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		require.Equal(t, 1, bt.Object)
		for i, id := range bt.Root.Elems[0].Ints {
			require.Equal(t, bt.Row+int64(i), id)
			ids = append(ids, id)
		}
	}
	require.Len(t, ids, 1000)
	require.Equal(t, 2, r.Skipped())
	require.ErrorIs(t, r.SkipObjects(csup.Range{}), csup.ErrInvalidArgument)
}

// A row of more elements than the memory limit allows is refused by
// AppendValues, AppendJSON and WriteJSON, as by the row reader, although
// reading the batch itself holds only a Const (a small file can describe
// many elements).
func TestBatchRowLimit(t *testing.T) {
	at := bsup.NewArray(bsup.TypeString)
	rt := bsup.NewRecord([]bsup.Field{{Name: "a", Type: at}})
	var vals []bsup.Value
	for i := 0; i < 50; i++ {
		n := 10
		if i == 30 {
			n = 2000
		}
		arr := bsup.Value{Type: at, Elems: make([]bsup.Value, n)}
		for j := range arr.Elems {
			arr.Elems[j] = bsup.NewString("x")
		}
		vals = append(vals, bsup.NewRecordValue(rt, arr))
	}
	b := writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16))
	opts := []csup.Option{csup.WithMemoryLimit(1000 * csup.ElementCost)}
	_, err := rowValues(b, nil, opts...)
	require.ErrorIs(t, err, csup.ErrTooLarge)
	_, err = batchValues(b, nil, opts...)
	require.ErrorIs(t, err, csup.ErrTooLarge)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
	require.NoError(t, err)
	r, err := f.NewBatchReader()
	require.NoError(t, err)
	var bt csup.Batch
	require.NoError(t, r.Next(&bt))
	require.Equal(t, csup.VecConst, bt.Root.Elems[0].Elems[0].Kind)
	_, err = bt.AppendJSON(nil, bsup.JSONSuper)
	require.ErrorIs(t, err, csup.ErrTooLarge)
	require.Contains(t, err.Error(), "row 30")
	require.ErrorIs(t, bt.WriteJSON(io.Discard, bsup.JSONSuper), csup.ErrTooLarge)
	// Under the default limit the batch renders.
	f, err = csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	r, err = f.NewBatchReader()
	require.NoError(t, err)
	require.NoError(t, r.Next(&bt))
	var w bytes.Buffer
	require.NoError(t, bt.WriteJSON(&w, bsup.JSONSuper))
	require.Equal(t, 50, bytes.Count(w.Bytes(), []byte("\n")))
}

// Bad data in real files fails the batch reader with a located csup
// error of the right kind, never a panic.
func TestBatchReaderBadFiles(t *testing.T) {
	le := binary.LittleEndian
	dataStart := func(b []byte) int { return len(b) - int(le.Uint64(b[24:])) }
	for name, c := range map[string]struct {
		base  string
		patch func(b []byte) []byte
		text  string
	}{
		"dynamic tag":       {"unions", func(b []byte) []byte { b[dataStart(b)+8] = 5; return b }, "Dynamic tag 5"},
		"intcomp length 0":  {"unions", func(b []byte) []byte { le.PutUint32(b[dataStart(b)+4:], 0); return b }, "block length"},
		"offsets past data": {"hello", func(b []byte) []byte { b[dataStart(b)+14+8] = 0x7f; return b }, "offset"},
	} {
		b := c.patch(append([]byte(nil), readV16(t, c.base)...))
		_, err := batchValues(b, nil)
		require.ErrorIs(t, err, csup.ErrCorrupt, name)
		require.Contains(t, err.Error(), c.text, name)
		var ce *csup.CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v has no location", name, err)
	}
}

// Readers limited to parts of a file's objects, run in parallel, give
// together the rows of the whole file, numbered as in the file.
func TestBatchReaderLimitObjects(t *testing.T) {
	b := writeV16Rows(t, 5000, csup.WithObjectRows(700))
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithBatchRows(300))
	require.NoError(t, err)
	n := f.Objects()
	require.Equal(t, 8, n)
	parts := [][2]int{{0, 3}, {3, 1}, {4, 4}, {8, 0}}
	got := make([][]bsup.Value, len(parts))
	errc := make(chan error, len(parts))
	for i, p := range parts {
		go func() {
			r, err := f.NewBatchReader()
			if err == nil {
				err = r.LimitObjects(p[0], p[1])
			}
			var bt csup.Batch
			for err == nil {
				if err = r.Next(&bt); err == nil {
					if bt.Object < p[0] || bt.Object >= p[0]+p[1] || bt.Root.Elems[0].Ints[0] != bt.Row {
						err = errors.New("batch outside its objects or misnumbered")
						break
					}
					got[i], err = bt.AppendValues(got[i])
				}
			}
			if err == io.EOF {
				err = nil
			}
			errc <- err
		}()
	}
	for range parts {
		require.NoError(t, <-errc)
	}
	var all []bsup.Value
	for _, g := range got {
		all = append(all, g...)
	}
	require.Len(t, all, 5000)
	for i, v := range all {
		require.True(t, bsup.Equal(v16RowAt(i), v), "row %d", i)
	}
	r, err := f.NewBatchReader()
	require.NoError(t, err)
	require.ErrorIs(t, r.LimitObjects(7, 2), csup.ErrInvalidArgument)
	require.ErrorIs(t, r.LimitObjects(-1, 1), csup.ErrInvalidArgument)
	var bt csup.Batch
	require.NoError(t, r.Next(&bt))
	require.ErrorIs(t, r.LimitObjects(0, 1), csup.ErrInvalidArgument)
	// Once a read ends, the same reader reads other objects, in any order.
	r, err = f.NewBatchReader("id")
	require.NoError(t, err)
	for _, obj := range []int{5, 2, 7, 0} {
		require.NoError(t, r.LimitObjects(obj, 1))
		rows := 0
		for {
			err := r.Next(&bt)
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			require.Equal(t, obj, bt.Object)
			for i, id := range bt.Root.Elems[0].Ints {
				require.Equal(t, bt.Row+int64(i), id)
			}
			rows += bt.Rows
		}
		want := 700
		if obj == 7 {
			want = 5000 - 7*700
		}
		require.Equal(t, want, rows, "object %d", obj)
	}
}

// 90 levels of records and arrays, and an empty file's worth of rows (no
// values), read back through the batch reader and its JSON.
func TestBatchReaderDeepAndEmpty(t *testing.T) {
	v := bsup.NewInt(bsup.TypeInt64, 7)
	for i := 0; i < 90; i++ {
		if i%2 == 0 {
			rt := bsup.NewRecord([]bsup.Field{{Name: "x", Type: v.Type}, {Name: "s", Type: bsup.TypeString}})
			v = bsup.NewRecordValue(rt, v, bsup.NewString("d"))
		} else {
			v = bsup.Value{Type: bsup.NewArray(v.Type), Elems: []bsup.Value{v}}
		}
	}
	b := writeCSUP(t, []bsup.Value{v, v, v}, csup.WithLayout(csup.LayoutCSUP16))
	requireBatchSame(t, b, nil, csup.WithBatchRows(2))
	got, err := batchValues(b, nil)
	require.NoError(t, err)
	require.Len(t, got, 3)

	// Records whose arrays are all empty: element columns with no rows.
	rt := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.NewArray(bsup.TypeString)}, {Name: "m", Type: bsup.NewMap(bsup.TypeString, bsup.TypeFloat64)}})
	var vals []bsup.Value
	for i := 0; i < 5; i++ {
		vals = append(vals, bsup.NewRecordValue(rt, bsup.Value{Type: rt.Fields[0].Type, Elems: []bsup.Value{}}, bsup.Value{Type: rt.Fields[1].Type, Elems: []bsup.Value{}}))
	}
	requireBatchSame(t, writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16)), nil, csup.WithBatchRows(2))
}

// The million-row file (several objects, bit-packed integer blocks,
// dictionaries) through the batch reader: every typed value is the
// written one.
func TestBatchReaderMillion(t *testing.T) {
	b := writeV16Rows(t, bigRowsCount)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	r, err := f.NewBatchReader()
	require.NoError(t, err)
	var bt csup.Batch
	row := 0
	for {
		err := r.Next(&bt)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		id, score, tags, nested := bt.Root.Elems[0], bt.Root.Elems[2], bt.Root.Elems[3], bt.Root.Elems[4]
		for i := 0; i < bt.Rows; i++ {
			want := v16RowAt(row + i)
			if id.Ints[i] != want.Elems[0].Int || score.Floats[i] != want.Elems[2].Float ||
				int(tags.Offsets[i+1]-tags.Offsets[i]) != len(want.Elems[3].Elems) ||
				nested.Elems[0].Ints[i] != want.Elems[4].Elems[0].Int || nested.Elems[1].Uints[i] != want.Elems[4].Elems[1].Uint {
				t.Fatalf("row %d differs", row+i)
			}
		}
		row += bt.Rows
	}
	require.Equal(t, bigRowsCount, row)
}
