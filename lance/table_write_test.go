package lance

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// twSchema is a small mixed schema for the table writer tests.
var twSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "vec", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), Nullable: true},
	{Name: "info", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true}), Nullable: true},
}, nil)

// twBatch builds rows [from, from+n) of twSchema.
func twBatch(t testing.TB, from, n int) arrow.RecordBatch { return twBatchNulls(t, from, n, true) }

// twBatchNulls is twBatch, with null structs only if structNulls (format
// 2.0 cannot store them).
func twBatchNulls(t testing.TB, from, n int, structNulls bool) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, twSchema)
	defer b.Release()
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%5 == 3 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i))
		}
		lb := b.Field(2).(*array.ListBuilder)
		if i%7 == 2 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for k := 0; k < i%4; k++ {
				lb.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("t%d", k))
			}
		}
		fb := b.Field(3).(*array.FixedSizeListBuilder)
		fb.Append(true)
		fb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{float32(i), 0.5, -1}, nil)
		sb := b.Field(4).(*array.StructBuilder)
		if i%6 == 1 && structNulls {
			sb.AppendNull()
		} else {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Float64Builder).Append(float64(i) / 4)
		}
	}
	return b.NewRecordBatch()
}

// tableRows reads every row of a table as JSON lines, in scan order.
func tableRows(t testing.TB, tb *Table) []string {
	t.Helper()
	var buf bytes.Buffer
	for rec, err := range tb.Records(ReadOptions{}) {
		require.NoError(t, err)
		require.NoError(t, WriteJSONLines(&buf, rec, JSONOptions{}))
		rec.Release()
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func batchRows(t testing.TB, recs ...arrow.RecordBatch) []string {
	var buf bytes.Buffer
	for _, rec := range recs {
		require.NoError(t, WriteJSONLines(&buf, rec, JSONOptions{}))
	}
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

func listDir(t testing.TB, dir string) []string {
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

var dataName = regexp.MustCompile(`^[01]{24}[0-9a-f]{26}\.lance$`)

func TestCreateTableAndAppend(t *testing.T) {
	for _, fv := range []string{"2.2", "2.1", "2.0"} {
		t.Run(fv, func(t *testing.T) {
			db := t.TempDir()
			fsys := DirFS(db)
			b1, b2 := twBatchNulls(t, 0, 10, fv != "2.0"), twBatchNulls(t, 10, 7, fv != "2.0")
			defer b1.Release()
			defer b2.Release()
			empty := twBatch(t, 0, 0)
			defer empty.Release()
			tb, err := CreateTable(fsys, "t.lance", twSchema, Batches(b1, empty, b2), WithFormatVersion(fv), WithMaxRowsPerFile(8))
			require.NoError(t, err)
			require.EqualValues(t, 1, tb.Version().Number)
			require.EqualValues(t, 17, tb.NumRows())
			require.Equal(t, batchRows(t, b1, b2), tableRows(t, tb))
			// 17 rows at 8 per file: fragments 0, 1, 2 of 8, 8, 1 rows.
			frags := tb.Fragments()
			require.Len(t, frags, 3)
			for i, want := range []int64{8, 8, 1} {
				require.EqualValues(t, i, frags[i].ID)
				require.Equal(t, want, frags[i].PhysicalRows)
				require.Len(t, frags[i].Files, 1)
				require.Equal(t, fv, frags[i].Files[0].Version)
				st, err := os.Stat(filepath.Join(db, "t.lance", frags[i].Files[0].Path))
				require.NoError(t, err)
				require.Equal(t, st.Size(), frags[i].Files[0].Size)
				require.Regexp(t, dataName, filepath.Base(frags[i].Files[0].Path))
			}
			require.Equal(t, []string{"18446744073709551614.manifest", "latest_version_hint.json"}, listDir(t, filepath.Join(db, "t.lance", "_versions")))
			hint, err := os.ReadFile(filepath.Join(db, "t.lance", "_versions", "latest_version_hint.json"))
			require.NoError(t, err)
			require.Equal(t, `{"version":1}`, string(hint))
			txns := listDir(t, filepath.Join(db, "t.lance", "_transactions"))
			require.Len(t, txns, 1)
			require.Regexp(t, `^0-[0-9a-f-]{36}\.txn$`, txns[0])
			require.Equal(t, txns[0], tb.manifest.TransactionFile)
			require.Equal(t, "lance", tb.manifest.DataFormat.FileFormat)
			require.Equal(t, fv, tb.manifest.DataFormat.Version)
			require.EqualValues(t, 2, tb.manifest.GetMaxFragmentId())
			v1, err := os.ReadFile(filepath.Join(db, "t.lance", "_versions", "18446744073709551614.manifest"))
			require.NoError(t, err)

			// Append, with the columns in another order: version 2.
			b3 := twBatchNulls(t, 100, 5, fv != "2.0")
			defer b3.Release()
			cols := []int{4, 2, 0, 3, 1}
			var fields []arrow.Field
			var arrs []arrow.Array
			for _, c := range cols {
				fields = append(fields, twSchema.Field(c))
				arrs = append(arrs, b3.Column(c))
			}
			shuffled := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, 5)
			defer shuffled.Release()
			tb2, err := tb.Append(Batches(shuffled))
			require.NoError(t, err)
			require.EqualValues(t, 2, tb2.Version().Number)
			require.Equal(t, append(batchRows(t, b1, b2), batchRows(t, b3)...), tableRows(t, tb2))
			require.EqualValues(t, 3, tb2.Fragments()[3].ID)
			require.Equal(t, fv, tb2.Fragments()[3].Files[0].Version)
			require.Len(t, tb2.manifest.Fields, len(tb.manifest.Fields))
			for i, f := range tb.manifest.Fields {
				require.True(t, proto.Equal(f, tb2.manifest.Fields[i]), "field %d", i)
			}
			require.Equal(t, []string{"18446744073709551613.manifest", "18446744073709551614.manifest", "latest_version_hint.json"},
				listDir(t, filepath.Join(db, "t.lance", "_versions")))
			hint, err = os.ReadFile(filepath.Join(db, "t.lance", "_versions", "latest_version_hint.json"))
			require.NoError(t, err)
			require.Equal(t, `{"version":2}`, string(hint))
			require.Regexp(t, `^1-`, tb2.manifest.TransactionFile)
			again, err := os.ReadFile(filepath.Join(db, "t.lance", "_versions", "18446744073709551614.manifest"))
			require.NoError(t, err)
			require.Equal(t, v1, again, "version 1 rewritten")
			// Both versions read back through a fresh open.
			o, err := OpenTable(os.DirFS(db), "t.lance", WithVersion(1))
			require.NoError(t, err)
			require.EqualValues(t, 17, o.NumRows())
			o, err = OpenTable(os.DirFS(db), "t.lance")
			require.NoError(t, err)
			require.EqualValues(t, 22, o.NumRows())
			require.NoError(t, o.Validate())

			// Nothing to append: no new version.
			tb3, err := tb2.Append(Batches(empty))
			require.NoError(t, err)
			require.Same(t, tb2, tb3)
		})
	}
}

func TestCreateTableEmptyAndExisting(t *testing.T) {
	db := t.TempDir()
	tb, err := CreateTable(DirFS(db), "e.lance", twSchema, nil)
	require.NoError(t, err)
	require.EqualValues(t, 0, tb.NumRows())
	require.Empty(t, tb.Fragments())
	require.Nil(t, tb.manifest.MaxFragmentId)
	require.True(t, tb.Schema().Equal(twSchema), tb.Schema().String())
	b := twBatch(t, 0, 3)
	defer b.Release()
	tb2, err := tb.Append(Batches(b))
	require.NoError(t, err)
	require.EqualValues(t, 3, tb2.NumRows())
	require.EqualValues(t, 0, tb2.Fragments()[0].ID)

	_, err = CreateTable(DirFS(db), "e.lance", twSchema, Batches(b))
	require.ErrorIs(t, err, fs.ErrExist)
	require.Len(t, listDir(t, filepath.Join(db, "e.lance", "data")), 1)
}

func TestAppendMismatch(t *testing.T) {
	db := t.TempDir()
	b := twBatch(t, 0, 4)
	defer b.Release()
	tb, err := CreateTable(DirFS(db), "m.lance", twSchema, Batches(b))
	require.NoError(t, err)
	before := listDir(t, filepath.Join(db, "m.lance", "data"))

	mk := func(fields []arrow.Field, cols []arrow.Array) arrow.RecordBatch {
		return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 4)
	}
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	ib.AppendValues([]int32{1, 2, 3, 4}, nil)
	i32 := ib.NewArray()
	defer i32.Release()
	nb := array.NewInt64Builder(memory.DefaultAllocator)
	nb.AppendValues([]int64{1, 2, 3, 4}, []bool{true, false, true, true})
	withNull := nb.NewArray()
	defer withNull.Release()

	fs0 := twSchema.Fields()
	cases := []struct {
		rec  arrow.RecordBatch
		want string
	}{
		{mk(append([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, fs0[1:]...), append([]arrow.Array{i32}, b.Columns()[1:]...)), `column id is int32 in the batch, int64 in the table`},
		{mk(fs0[1:], b.Columns()[1:]), `lacks column id`},
		{mk(append(fs0[:5:5], arrow.Field{Name: "extra", Type: arrow.PrimitiveTypes.Int32}), append(b.Columns()[:5:5], i32)), `column extra is not in the table`},
		{mk(append([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, fs0[1:]...), append([]arrow.Array{withNull}, b.Columns()[1:]...)), `column id is not nullable`},
	}
	for _, c := range cases {
		// A good batch first, so a data file is written before the bad one.
		_, err := tb.Append(Batches(b, c.rec))
		c.rec.Release()
		require.ErrorIs(t, err, ErrInvalidArgument)
		require.Contains(t, err.Error(), c.want)
	}
	// A struct member of another name, a vector of another length.
	st := arrow.NewSchema([]arrow.Field{fs0[0], fs0[1], fs0[2], fs0[3],
		{Name: "info", Type: arrow.StructOf(arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true}), Nullable: true}}, nil)
	err = sameShape(st.Field(4).Type, fs0[4].Type, "info")
	require.ErrorContains(t, err, `member y where the table has x`)
	err = sameShape(arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), fs0[3].Type, "vec")
	require.ErrorContains(t, err, `column vec`)

	require.Equal(t, before, listDir(t, filepath.Join(db, "m.lance", "data")), "a failed append leaves data files")
	require.Len(t, listDir(t, filepath.Join(db, "m.lance", "_versions")), 2)
	o, err := OpenTable(os.DirFS(db), "m.lance")
	require.NoError(t, err)
	require.EqualValues(t, 1, o.Version().Number)
}

func TestAppendConflict(t *testing.T) {
	db := t.TempDir()
	b := twBatch(t, 0, 4)
	defer b.Release()
	_, err := CreateTable(DirFS(db), "c.lance", twSchema, Batches(b))
	require.NoError(t, err)
	a1, err := OpenTable(DirFS(db), "c.lance")
	require.NoError(t, err)
	a2, err := OpenTable(DirFS(db), "c.lance")
	require.NoError(t, err)
	_, err = a1.Append(Batches(b))
	require.NoError(t, err)
	_, err = a2.Append(Batches(b))
	require.ErrorIs(t, err, ErrConflict)
	require.NotErrorIs(t, err, ErrInvalidArgument)
	require.Len(t, listDir(t, filepath.Join(db, "c.lance", "data")), 2)

	// Writers racing for version 3: exactly one wins, the losers leave
	// nothing (no data, transaction or temporary manifest files).
	const n = 6
	var wg sync.WaitGroup
	errs := make([]error, n)
	// Every writer opens version 2 before any starts (one opened after
	// another's commit would append version 4 and rightly win too).
	tables := make([]*Table, n)
	for i := range tables {
		tables[i], err = OpenTable(DirFS(db), "c.lance")
		require.NoError(t, err)
	}
	for i, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The early check passes for all: the race is at the rename.
			_, errs[i] = tb.Append(Batches(b))
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else {
			require.ErrorIs(t, err, ErrConflict)
		}
	}
	require.Equal(t, 1, won)
	require.Len(t, listDir(t, filepath.Join(db, "c.lance", "data")), 3)
	require.Len(t, listDir(t, filepath.Join(db, "c.lance", "_transactions")), 3)
	require.Equal(t, []string{"18446744073709551612.manifest", "18446744073709551613.manifest", "18446744073709551614.manifest", "latest_version_hint.json"},
		listDir(t, filepath.Join(db, "c.lance", "_versions")))
	o, err := OpenTable(os.DirFS(db), "c.lance")
	require.NoError(t, err)
	require.EqualValues(t, 12, o.NumRows())

	// Two creators of one directory.
	for i := range errs {
		errs[i] = nil
	}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = CreateTable(DirFS(db), "new.lance", twSchema, Batches(b))
		}()
	}
	wg.Wait()
	won = 0
	for _, err := range errs {
		if err == nil {
			won++
		} else if !errors.Is(err, ErrConflict) {
			require.ErrorIs(t, err, fs.ErrExist) // lost before writing
		}
	}
	require.Equal(t, 1, won)
	require.Len(t, listDir(t, filepath.Join(db, "new.lance", "data")), 1)
}

func TestAppendV1Naming(t *testing.T) {
	db := t.TempDir()
	b := twBatch(t, 0, 4)
	defer b.Release()
	_, err := CreateTable(DirFS(db), "v1.lance", twSchema, Batches(b))
	require.NoError(t, err)
	vd := filepath.Join(db, "v1.lance", "_versions")
	require.NoError(t, os.Rename(filepath.Join(vd, "18446744073709551614.manifest"), filepath.Join(vd, "1.manifest")))
	tb, err := OpenTable(DirFS(db), "v1.lance")
	require.NoError(t, err)
	tb2, err := tb.Append(Batches(b))
	require.NoError(t, err)
	require.EqualValues(t, 2, tb2.Version().Number)
	require.Equal(t, []string{"1.manifest", "2.manifest", "latest_version_hint.json"}, listDir(t, vd))
}

func TestAppendNeedsWriteFS(t *testing.T) {
	db := t.TempDir()
	b := twBatch(t, 0, 2)
	defer b.Release()
	_, err := CreateTable(DirFS(db), "r.lance", twSchema, Batches(b))
	require.NoError(t, err)
	tb, err := OpenTable(os.DirFS(db), "r.lance")
	require.NoError(t, err)
	_, err = tb.Append(Batches(b))
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, "WriteFS")

	_, err = CreateTable(nil, "x", twSchema, nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = CreateTable(DirFS(db), "../x", twSchema, nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = CreateTable(DirFS(db), "x", nil, nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = CreateTable(DirFS(db), "x", twSchema, nil, WithMaxRowsPerFile(0))
	require.ErrorIs(t, err, ErrInvalidOption)
}

// rewriteManifest replaces the latest manifest of a table with f(m),
// framed with an optional index section.
func rewriteManifest(t testing.TB, file string, index []byte, f func(m *tablepb.Manifest)) {
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	m, err := decodeManifest(b, file, 1<<20)
	require.NoError(t, err)
	f(m)
	out, err := manifestBytes(m, index)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, out, 0o666))
}

func TestAppendKeepsIndexSectionAndFlags(t *testing.T) {
	db := t.TempDir()
	b := twBatch(t, 0, 3)
	defer b.Release()
	_, err := CreateTable(DirFS(db), "i.lance", twSchema, Batches(b))
	require.NoError(t, err)
	man := filepath.Join(db, "i.lance", "_versions", "18446744073709551614.manifest")
	index := append([]byte{5, 0, 0, 0}, "INDEX"...)
	rewriteManifest(t, man, index, func(m *tablepb.Manifest) {
		m.Config = map[string]string{"k": "v"}
		m.WriterFeatureFlags = flagTableConfig
	})
	tb, err := OpenTable(DirFS(db), "i.lance")
	require.NoError(t, err)
	tb2, err := tb.Append(Batches(b))
	require.NoError(t, err)
	require.Equal(t, map[string]string{"k": "v"}, tb2.manifest.Config)
	got, err := tb2.indexSection("v2")
	require.NoError(t, err)
	require.Equal(t, index, got)

	// Base paths: refused.
	rewriteManifest(t, man, nil, func(m *tablepb.Manifest) {
		m.WriterFeatureFlags = flagBasePaths
	})
	tb, err = OpenTable(DirFS(db), "i.lance", WithVersion(1))
	require.NoError(t, err)
	_, err = tb.Append(Batches(b))
	require.ErrorIs(t, err, ErrUnsupported)
	require.ErrorContains(t, err, "base paths")
}

// TestRowIDSequences: the bytes lance 12 writes for a stable-row-id
// table's fragments (LanceDB 0.39: 10 rows, then 2 appended at version 2).
func TestRowIDSequences(t *testing.T) {
	require.Equal(t, "0a040a02100a", fmt.Sprintf("%x", rowIDRange(0, 10)))
	require.Equal(t, "0a060a04080a100c", fmt.Sprintf("%x", rowIDRange(10, 12)))
	require.Equal(t, "0a080a040a02100a1001", fmt.Sprintf("%x", versionRun(10, 1)))
	require.Equal(t, "0a080a040a0210021002", fmt.Sprintf("%x", versionRun(2, 2)))
}

// TestAppendToLanceDB20Table appends to the 2.0 table LanceDB wrote around
// the shared 5-row file (its manifest kept as LanceDB wrote it).
func TestAppendToLanceDB20Table(t *testing.T) {
	db := t.TempDir()
	dir := filepath.Join(db, "a.lance")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "_versions"), 0o777))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "data"), 0o777))
	man, err := os.ReadFile(shareddata.Path(t, "lance", "v2_0_alltypes_5rows.manifest"))
	require.NoError(t, err)
	m, err := decodeManifest(man, "m", 1<<20)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "_versions", "18446744073709551614.manifest"), man, 0o666))
	data, err := os.ReadFile(shareddata.Path(t, "lance", "v2_0_alltypes_5rows.lance"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "data", m.Fragments[0].Files[0].Path), data, 0o666))
	tb, err := OpenTable(DirFS(db), "a.lance")
	require.NoError(t, err)
	require.Equal(t, "2.0", tb.FormatVersion())
	before := tableRows(t, tb)
	rec, err := tb.Read(ReadOptions{})
	require.NoError(t, err)
	defer rec.Release()
	tb2, err := tb.Append(Batches(rec))
	require.NoError(t, err)
	require.Equal(t, append(before, before...), tableRows(t, tb2))
	require.Equal(t, "2.0", tb2.Fragments()[1].Files[0].Version)
	require.NoError(t, tb2.Validate())
}

// TestAppendToLanceDBTables appends each shared LanceDB table's own rows
// to a copy of it: the new fragments reuse its field ids and file
// version, and every row reads back twice.
func TestAppendToLanceDBTables(t *testing.T) {
	for _, fv := range []string{"2.1", "2.2"} {
		src := shareddata.Path(t, "lance21", fv)
		for _, name := range []string{"primitives", "strings", "nested", "versions"} {
			t.Run(fv+"/"+name, func(t *testing.T) {
				db := t.TempDir()
				require.NoError(t, os.CopyFS(filepath.Join(db, name+".lance"), os.DirFS(filepath.Join(src, name+".lance"))))
				tb, err := OpenTable(DirFS(db), name+".lance")
				require.NoError(t, err)
				before := tableRows(t, tb)
				var recs []arrow.RecordBatch
				for rec, err := range tb.Records(ReadOptions{}) {
					require.NoError(t, err)
					recs = append(recs, rec)
				}
				tb2, err := tb.Append(Batches(recs...))
				for _, r := range recs {
					r.Release()
				}
				if errors.Is(err, ErrUnsupported) {
					t.Skipf("append refused: %v", err)
				}
				require.NoError(t, err)
				require.Equal(t, tb.Version().Number+1, tb2.Version().Number)
				require.Equal(t, append(before, before...), tableRows(t, tb2))
				last := tb2.Fragments()[len(tb2.Fragments())-1]
				require.Equal(t, fv, last.Files[0].Version)
				require.NoError(t, tb2.Validate())
			})
		}
	}
}

// TestCreateTableStableRowIDs: WithStableRowIDs writes the flags, row id
// and version sequences lance 12 writes for a table created with stable
// row ids (compare TestRowIDSequences), and Append continues them.
func TestCreateTableStableRowIDs(t *testing.T) {
	db := t.TempDir()
	b := twBatch(t, 0, 10)
	defer b.Release()
	tb, err := CreateTable(DirFS(db), "s.lance", twSchema, Batches(b), WithStableRowIDs(true), WithMaxRowsPerFile(6))
	require.NoError(t, err)
	m := tb.manifest
	require.EqualValues(t, flagStableRowIDs, m.ReaderFeatureFlags)
	require.EqualValues(t, flagStableRowIDs, m.WriterFeatureFlags)
	require.EqualValues(t, 10, m.NextRowId)
	require.Len(t, m.Fragments, 2)
	require.Equal(t, rowIDRange(0, 6), m.Fragments[0].GetInlineRowIds())
	require.Equal(t, rowIDRange(6, 10), m.Fragments[1].GetInlineRowIds())
	require.Equal(t, versionRun(4, 1), m.Fragments[1].GetInlineCreatedAtVersions())
	require.Equal(t, versionRun(4, 1), m.Fragments[1].GetInlineLastUpdatedAtVersions())
	tb2, err := tb.Append(Batches(b))
	require.NoError(t, err)
	require.EqualValues(t, 20, tb2.manifest.NextRowId)
	require.Equal(t, rowIDRange(16, 20), tb2.manifest.Fragments[3].GetInlineRowIds())
	require.Equal(t, versionRun(4, 2), tb2.manifest.Fragments[3].GetInlineCreatedAtVersions())
	require.Equal(t, append(batchRows(t, b), batchRows(t, b)...), tableRows(t, tb2))

	// Off (the default, and WithStableRowIDs(false)): no flags, no ids.
	tb3, err := CreateTable(DirFS(db), "p.lance", twSchema, Batches(b), WithStableRowIDs(false))
	require.NoError(t, err)
	require.Zero(t, tb3.manifest.ReaderFeatureFlags|tb3.manifest.WriterFeatureFlags)
	require.Zero(t, tb3.manifest.NextRowId)
	require.Nil(t, tb3.manifest.Fragments[0].RowIdSequence)
}
