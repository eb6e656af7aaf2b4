package lance

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// manifestFile frames a Manifest as lance writes it without transaction
// or index sections: u32 length, protobuf, i64 position 0, 0, 2, LANC.
// decodeManifest is decodeManifestAt without the offset.
func decodeManifest(b []byte, where string, maxSize int64) (*tablepb.Manifest, error) {
	m, _, err := decodeManifestAt(b, where, maxSize)
	return m, err
}

func manifestFile(m *tablepb.Manifest) []byte {
	pb, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		panic(err)
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(pb)))
	b = append(b, pb...)
	b = binary.LittleEndian.AppendUint64(b, 0)
	b = append(b, 0, 0, 2, 0)
	return append(b, magic...)
}

// deletionArrow writes an ARROW_ARRAY deletion file as lance does: one
// batch of one non-nullable UInt32 "row_id" column, zstd bodies.
func deletionArrow(t testing.TB, rows ...uint32) []byte {
	sc := arrow.NewSchema([]arrow.Field{{Name: "row_id", Type: arrow.PrimitiveTypes.Uint32}}, nil)
	b := array.NewUint32Builder(memory.DefaultAllocator)
	b.AppendValues(rows, nil)
	col := b.NewArray()
	rec := array.NewRecordBatch(sc, []arrow.Array{col}, int64(len(rows)))
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(sc), ipc.WithZstd())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func deletionBitmap(t testing.TB, rows ...uint32) []byte {
	var buf bytes.Buffer
	_, err := roaring.BitmapOf(rows...).WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

// synth is a test table built in memory around the shared 5-row 2.0 file
// and its LanceDB manifest.
type synth struct {
	fsys  fstest.MapFS
	base  *tablepb.Manifest
	rows  []map[string]json.RawMessage // the 5 rows LanceDB returns
	order []string
	v2    bool
}

func newSynth(t testing.TB, v2 bool) *synth {
	dir := shareddata.Path(t, "lance")
	mb, err := os.ReadFile(filepath.Join(dir, "v2_0_alltypes_5rows.manifest"))
	require.NoError(t, err)
	m, err := decodeManifest(mb, "sample", DefaultMaxMetadataSize)
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, "v2_0_alltypes_5rows.lance"))
	require.NoError(t, err)
	js, err := os.ReadFile(filepath.Join(dir, "v2_0_alltypes_5rows.json"))
	require.NoError(t, err)
	s := &synth{fsys: fstest.MapFS{}, base: m, v2: v2}
	require.NoError(t, json.Unmarshal(js, &s.rows))
	// That file was dumped with JSON.stringify, which prints -0 as 0; the
	// data file holds -0.0 at vec[2] of row 0, which LanceDB's rendering
	// (lance21 README) writes as "-0".
	s.rows[0]["vec"] = json.RawMessage(`[0,0.5,"-0",1]`)
	for _, f := range m.Fields {
		if f.ParentId == -1 {
			s.order = append(s.order, f.Name)
		}
	}
	s.fsys["t.lance/data/"+m.Fragments[0].Files[0].Path] = &fstest.MapFile{Data: data}
	// The second data file of an addColumns: field 15 "extra" int64.
	extra := (&tFile{pad: true, rows: 5, fields: top(fld(15, -1, "extra", "int64", false)),
		cols: []tCol{oneCol(flatPage(5, 64, u64s(100, 101, 102, 103, 104)))}}).bytes()
	s.fsys["t.lance/data/extra.lance"] = &fstest.MapFile{Data: extra}
	return s
}

func (s *synth) commit(m *tablepb.Manifest) {
	s.fsys["t.lance/_versions/"+manifestFileName(m.Version, s.v2)] = &fstest.MapFile{Data: manifestFile(m)}
}

// row renders base row i with the given top-level columns, extra (field
// 15) set to x (nil: null, absent when not in cols).
func (s *synth) row(i int, cols []string, x *int) string {
	var b strings.Builder
	b.WriteByte('{')
	for k, c := range cols {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:", c)
		if c == "extra" {
			if x == nil {
				b.WriteString("null")
			} else {
				fmt.Fprintf(&b, `"%d"`, *x)
			}
			continue
		}
		var v bytes.Buffer
		if err := json.Compact(&v, s.rows[i][c]); err != nil {
			panic(err)
		}
		b.Write(v.Bytes())
	}
	b.WriteByte('}')
	return b.String()
}

func tableLines(t testing.TB, tb *Table, o ReadOptions) []string {
	t.Helper()
	var buf bytes.Buffer
	for rec, err := range tb.Records(o) {
		require.NoError(t, err)
		require.NoError(t, WriteJSONLines(&buf, rec, JSONOptions{LanceDB: true}))
		rec.Release()
	}
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

// buildVersions commits three versions:
// v1 one fragment; v2 a second fragment of the same file and deletions
// {1,3} (Arrow) in fragment 0; v3 deletions {0,4} (bitmap) in fragment 1,
// field 15 "extra" added to fragment 1 only, field 5 "cat" dropped.
func (s *synth) buildVersions(t testing.TB) [][]string {
	frag0 := proto.Clone(s.base.Fragments[0]).(*tablepb.DataFragment)
	v1 := proto.Clone(s.base).(*tablepb.Manifest)
	v1.Version = 1
	s.commit(v1)

	v2 := proto.Clone(v1).(*tablepb.Manifest)
	v2.Version = 2
	v2.ReaderFeatureFlags = flagDeletionFiles
	f0 := proto.Clone(frag0).(*tablepb.DataFragment)
	f0.DeletionFile = &tablepb.DeletionFile{FileType: tablepb.DeletionFile_ARROW_ARRAY, ReadVersion: 1, Id: 7, NumDeletedRows: 2}
	s.fsys["t.lance/_deletions/0-1-7.arrow"] = &fstest.MapFile{Data: deletionArrow(t, 3, 1)}
	f1 := proto.Clone(frag0).(*tablepb.DataFragment)
	f1.Id = 1
	v2.Fragments = []*tablepb.DataFragment{f0, f1}
	s.commit(v2)

	v3 := proto.Clone(v2).(*tablepb.Manifest)
	v3.Version = 3
	var fields []*filepb.Field
	for _, f := range v3.Fields {
		if f.Id != 5 {
			fields = append(fields, f)
		}
	}
	v3.Fields = append(fields, &filepb.Field{Name: "extra", Id: 15, ParentId: -1, LogicalType: "int64"})
	f1 = v3.Fragments[1]
	f1.DeletionFile = &tablepb.DeletionFile{FileType: tablepb.DeletionFile_BITMAP, ReadVersion: 2, Id: 9} // count left out
	s.fsys["t.lance/_deletions/1-2-9.bin"] = &fstest.MapFile{Data: deletionBitmap(t, 0, 4)}
	f1.Files = append(f1.Files, &tablepb.DataFile{Path: "extra.lance", Fields: []int32{15}, ColumnIndices: []int32{0}, FileMajorVersion: 2})
	s.commit(v3)

	all := s.order
	var v1rows, v2rows, v3rows []string
	for i := range 5 {
		v1rows = append(v1rows, s.row(i, all, nil))
	}
	for _, i := range []int{0, 2, 4, 0, 1, 2, 3, 4} {
		v2rows = append(v2rows, s.row(i, all, nil))
	}
	var cols3 []string
	for _, c := range all {
		if c != "cat" {
			cols3 = append(cols3, c)
		}
	}
	cols3 = append(cols3, "extra")
	for _, i := range []int{0, 2, 4} {
		v3rows = append(v3rows, s.row(i, cols3, nil))
	}
	for _, i := range []int{1, 2, 3} {
		x := 100 + i
		v3rows = append(v3rows, s.row(i, cols3, &x))
	}
	return [][]string{v1rows, v2rows, v3rows}
}

func TestTableSynthetic(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		t.Run(fmt.Sprintf("v2names=%v", v2), func(t *testing.T) {
			s := newSynth(t, v2)
			want := s.buildVersions(t)
			latest, err := OpenTable(s.fsys, "t.lance")
			require.NoError(t, err)
			require.Equal(t, uint64(3), latest.Version().Number)
			require.Equal(t, want[2], tableLines(t, latest, ReadOptions{}))
			vs, err := latest.Versions()
			require.NoError(t, err)
			require.Len(t, vs, 3)
			for i, v := range vs {
				require.Equal(t, uint64(i+1), v.Number)
				require.Equal(t, int64(len(want[i])), v.Rows, "version %d", i+1)
			}
			for n := 1; n <= 3; n++ {
				tb, err := OpenTable(s.fsys, "t.lance", WithVersion(uint64(n)))
				require.NoError(t, err)
				require.Equal(t, int64(len(want[n-1])), tb.NumRows())
				require.Equal(t, want[n-1], tableLines(t, tb, ReadOptions{}), "version %d", n)
				// Every row window and batch size gives the same rows.
				rows := want[n-1]
				for off := 0; off <= len(rows); off++ {
					for lim := 0; lim <= len(rows)-off; lim++ {
						for _, step := range []int64{1, 2, 3, 100} {
							o := ReadOptions{Offset: int64(off), Limit: int64(lim), BatchRows: step}
							end := len(rows)
							if lim > 0 {
								end = off + lim
							}
							got := tableLines(t, tb, o)
							if off == end {
								require.Equal(t, []string{""}, got)
								continue
							}
							require.Equal(t, rows[off:end], got, "v%d offset %d limit %d batch %d", n, off, lim, step)
						}
					}
				}
			}
			_, err = OpenTable(s.fsys, "t.lance", WithVersion(4))
			require.ErrorIs(t, err, fs.ErrNotExist)

			// Fragments and deletions for callers planning their own reads.
			fr := latest.Fragments()
			require.Len(t, fr, 2)
			require.Equal(t, int64(5), fr[0].PhysicalRows)
			require.Equal(t, int64(2), fr[0].DeletedRows)
			require.Equal(t, "_deletions/0-1-7.arrow", fr[0].DeletionFile)
			require.Equal(t, int64(2), fr[1].DeletedRows)
			require.Len(t, fr[1].Files, 2)
			require.Equal(t, "data/extra.lance", fr[1].Files[1].Path)
			require.Equal(t, []int32{15}, fr[1].Files[1].FieldIDs)
			d0, err := latest.DeletedRows(0)
			require.NoError(t, err)
			require.Equal(t, []uint32{1, 3}, d0)
			d1, err := latest.DeletedRows(1)
			require.NoError(t, err)
			require.Equal(t, []uint32{0, 4}, d1)

			// Projection: order follows the request; a missing column is null.
			got := tableLines(t, latest, ReadOptions{Columns: []string{"extra", "id"}})
			require.Equal(t, []string{`{"extra":null,"id":0}`, `{"extra":null,"id":2}`, `{"extra":null,"id":4}`,
				`{"extra":"101","id":1}`, `{"extra":"102","id":2}`, `{"extra":"103","id":3}`}, got)
			_, err = latest.Read(ReadOptions{Columns: []string{"cat"}})
			require.ErrorIs(t, err, ErrInvalidArgument)
			rec, err := latest.Read(ReadOptions{})
			require.NoError(t, err)
			require.Equal(t, int64(6), rec.NumRows())
			rec.Release()
		})
	}
}

func TestTableBad(t *testing.T) {
	s := newSynth(t, true)
	s.buildVersions(t)
	open := func(mut func(m *tablepb.Manifest), extra fstest.MapFS) error {
		fsys := fstest.MapFS{}
		for k, v := range s.fsys {
			if !strings.Contains(k, "_versions/") {
				fsys[k] = v
			}
		}
		for k, v := range extra {
			fsys[k] = v
		}
		m := proto.Clone(s.base).(*tablepb.Manifest)
		m.Version = 1
		if mut != nil {
			mut(m)
		}
		fsys["t.lance/_versions/"+manifestFileName(1, true)] = &fstest.MapFile{Data: manifestFile(m)}
		tb, err := OpenTable(fsys, "t.lance")
		if err != nil {
			return err
		}
		for _, err := range tb.Records(ReadOptions{}) {
			if err != nil {
				return err
			}
		}
		return nil
	}
	require.NoError(t, open(nil, nil))
	cases := []struct {
		name string
		mut  func(m *tablepb.Manifest)
		fs   fstest.MapFS
		want error
		msg  string
	}{
		{"overlay flag", func(m *tablepb.Manifest) { m.ReaderFeatureFlags = flagDataOverlays }, nil, ErrUnsupported, "data overlay files"},
		{"base path flag", func(m *tablepb.Manifest) { m.ReaderFeatureFlags = flagBasePaths }, nil, ErrUnsupported, "base paths"},
		{"unknown flag", func(m *tablepb.Manifest) { m.ReaderFeatureFlags = 1 << 20 }, nil, ErrUnsupported, "unknown feature 20"},
		{"base path", func(m *tablepb.Manifest) { m.BasePaths = []*tablepb.BasePath{{Path: "/x"}} }, nil, ErrUnsupported, "base path"},
		{"overlay", func(m *tablepb.Manifest) { m.Fragments[0].Overlays = [][]byte{{}} }, nil, ErrUnsupported, "overlay"},
		{"escaping path", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].Path = "../../etc/passwd" }, nil, ErrCorrupt, "escapes"},
		{"absolute path", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].Path = "/etc/passwd" }, nil, ErrCorrupt, "escapes"},
		{"field/column count", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].ColumnIndices = nil }, nil, ErrCorrupt, "column indices"},
		{"duplicate column", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].ColumnIndices[1] = 0 }, nil, ErrCorrupt, "listed twice"},
		{"bad field id", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].Fields[1] = -3 }, nil, ErrCorrupt, "field id -3"},
		{"file version", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].FileMinorVersion = 9 }, nil, ErrUnsupported, "2.9"},
		{"legacy file", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].FileMajorVersion = 0 }, nil, ErrUnsupported, "legacy"},
		{"mixed versions", func(m *tablepb.Manifest) { m.DataFormat.Version = "2.1" }, nil, ErrCorrupt, "version 2.0"},
		{"footer version", func(m *tablepb.Manifest) {
			m.DataFormat.Version = "2.2"
			m.Fragments[0].Files[0].FileMinorVersion = 2
		}, nil, ErrCorrupt, "footer version 0.3, the manifest says 2.2"},
		{"file size", func(m *tablepb.Manifest) { m.Fragments[0].Files[0].FileSizeBytes++ }, nil, ErrCorrupt, "the manifest says"},
		{"row count", func(m *tablepb.Manifest) { m.Fragments[0].PhysicalRows = 6 }, nil, ErrCorrupt, "6"},
		{"row count of a missing column", func(m *tablepb.Manifest) {
			m.Fragments[0].PhysicalRows = 1 << 31
			m.Fields = append(m.Fields, &filepb.Field{Name: "extra", Id: 15, ParentId: -1, LogicalType: "int64"})
		}, nil, ErrCorrupt, "2147483648"},
		{"huge fragment", func(m *tablepb.Manifest) { m.Fragments[0].PhysicalRows = 1 << 33 }, nil, ErrCorrupt, "exceeds 2^32"},
		{"no files", func(m *tablepb.Manifest) { m.Fragments[0].Files = nil }, nil, ErrCorrupt, "no data files"},
		{"duplicate fragment", func(m *tablepb.Manifest) { m.Fragments = append(m.Fragments, m.Fragments[0]) }, nil, ErrCorrupt, "duplicate fragment"},
		{"duplicate field", func(m *tablepb.Manifest) { m.Fields[1].Id = 0 }, nil, ErrCorrupt, "duplicate field id"},
		{"orphan field", func(m *tablepb.Manifest) { m.Fields[1].ParentId = 99 }, nil, ErrCorrupt, "parent id 99"},
		{"logical type", func(m *tablepb.Manifest) { m.Fields[0].LogicalType = "int33" }, nil, ErrUnsupported, "int33"},
		{"version mismatch", func(m *tablepb.Manifest) { m.Version = 2 }, nil, ErrCorrupt, "says version 2"},
		{"too many deleted", func(m *tablepb.Manifest) {
			m.Fragments[0].DeletionFile = &tablepb.DeletionFile{Id: 1, NumDeletedRows: 6}
		}, nil, ErrCorrupt, "6 deleted rows of 5"},
		{"deletion count", func(m *tablepb.Manifest) {
			m.Fragments[0].DeletionFile = &tablepb.DeletionFile{Id: 1, NumDeletedRows: 3}
		}, fstest.MapFS{"t.lance/_deletions/0-0-1.arrow": {Data: deletionArrow(t, 1)}}, ErrCorrupt, "manifest says 3"},
		{"deleted row range", func(m *tablepb.Manifest) {
			m.Fragments[0].DeletionFile = &tablepb.DeletionFile{Id: 1, NumDeletedRows: 1}
		}, fstest.MapFS{"t.lance/_deletions/0-0-1.arrow": {Data: deletionArrow(t, 5)}}, ErrCorrupt, "deleted row 5"},
		{"deleted bitmap range", func(m *tablepb.Manifest) {
			m.Fragments[0].DeletionFile = &tablepb.DeletionFile{FileType: tablepb.DeletionFile_BITMAP, Id: 1}
		}, fstest.MapFS{"t.lance/_deletions/0-0-1.bin": {Data: deletionBitmap(t, 1, 70000)}}, ErrCorrupt, "deleted row 70000"},
		{"garbage bitmap", func(m *tablepb.Manifest) {
			m.Fragments[0].DeletionFile = &tablepb.DeletionFile{FileType: tablepb.DeletionFile_BITMAP, Id: 1}
		}, fstest.MapFS{"t.lance/_deletions/0-0-1.bin": {Data: []byte("not a bitmap")}}, ErrCorrupt, "roaring"},
		{"garbage arrow", func(m *tablepb.Manifest) {
			m.Fragments[0].DeletionFile = &tablepb.DeletionFile{Id: 1}
		}, fstest.MapFS{"t.lance/_deletions/0-0-1.arrow": {Data: []byte("ARROW1 not really")}}, ErrCorrupt, "Arrow IPC"},
		{"deletion type", func(m *tablepb.Manifest) {
			m.Fragments[0].DeletionFile = &tablepb.DeletionFile{FileType: 5, Id: 1}
		}, nil, ErrUnsupported, "deletion file type 5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := open(c.mut, c.fs)
			require.ErrorIs(t, err, c.want)
			require.Contains(t, err.Error(), c.msg)
			var ce *CorruptError
			require.ErrorAs(t, err, &ce, "located")
			require.NotEmpty(t, ce.Path)
			if strings.HasPrefix(ce.Path, "_versions/") {
				require.Equal(t, int64(4), ce.Offset, "manifest field errors sit at the protobuf")
			}
		})
	}
	// A projection of only a column the fragment lacks still checks the
	// fragment's row count against a data file.
	{
		m := proto.Clone(s.base).(*tablepb.Manifest)
		m.Version = 9
		m.Fragments[0].PhysicalRows = 1 << 31
		m.Fields = append(m.Fields, &filepb.Field{Name: "extra", Id: 15, ParentId: -1, LogicalType: "int64"})
		fsys := fstest.MapFS{}
		for k, v := range s.fsys {
			fsys[k] = v
		}
		fsys["t.lance/_versions/"+manifestFileName(9, true)] = &fstest.MapFile{Data: manifestFile(m)}
		tb, err := OpenTable(fsys, "t.lance")
		require.NoError(t, err)
		_, err = tb.Read(ReadOptions{Columns: []string{"extra"}})
		require.ErrorIs(t, err, ErrCorrupt)
		require.Contains(t, err.Error(), "2147483648")
	}
	// Missing deletion file.
	err := open(func(m *tablepb.Manifest) {
		m.Fragments[0].DeletionFile = &tablepb.DeletionFile{Id: 1, NumDeletedRows: 1}
	}, nil)
	require.ErrorIs(t, err, fs.ErrNotExist)

	// Frames of the manifest file itself.
	good := manifestFile(s.base)
	frames := map[string][]byte{
		"short":        good[:10],
		"magic":        append(bytes.Clone(good[:len(good)-4]), "LANX"...),
		"position":     binary.LittleEndian.AppendUint64(bytes.Clone(good[:len(good)-16]), uint64(len(good))),
		"length":       append(binary.LittleEndian.AppendUint32(nil, 7), good[4:]...),
		"protobuf":     manifestGarbage(),
		"empty prefix": append([]byte{0, 0, 0, 0}, good[len(good)-16:]...),
	}
	for name, b := range frames {
		t.Run("frame "+name, func(t *testing.T) {
			m, err := decodeManifest(b, "m", DefaultMaxMetadataSize)
			if err == nil {
				err = checkManifest(m, "m", 0, DefaultMaxColumns)
			}
			require.ErrorIs(t, err, ErrCorrupt)
			var ce *CorruptError
			require.ErrorAs(t, err, &ce)
			require.Contains(t, ce.Path, "m")
		})
	}
	_, err = decodeManifest(good, "m", 10)
	require.ErrorIs(t, err, ErrTooLarge)

	// Directory-level problems.
	mixed := fstest.MapFS{
		"t/_versions/1.manifest":                    {Data: good},
		"t/_versions/18446744073709551613.manifest": {Data: good},
	}
	_, err = OpenTable(mixed, "t")
	require.ErrorIs(t, err, ErrCorrupt)
	require.Contains(t, err.Error(), "naming schemes")
	// V1 names with leading zeros are found as listed.
	m1 := proto.Clone(s.base).(*tablepb.Manifest)
	m1.Version = 1
	padded := fstest.MapFS{"t/_versions/0001.manifest": {Data: manifestFile(m1)}}
	for k, v := range s.fsys {
		if strings.HasPrefix(k, "t.lance/data/") {
			padded["t/"+strings.TrimPrefix(k, "t.lance/")] = v
		}
	}
	tb, err := OpenTable(padded, "t")
	require.NoError(t, err)
	require.Equal(t, int64(5), tb.NumRows())
	_, err = OpenTable(fstest.MapFS{"t/_versions/x.txt": {}}, "t")
	require.ErrorIs(t, err, fs.ErrNotExist)
	_, err = OpenTable(fstest.MapFS{}, "t")
	require.ErrorIs(t, err, fs.ErrNotExist)
	_, err = OpenTable(nil, "t")
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = OpenTable(mixed, "../t")
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = OpenTable(mixed, "t", WithVersion(0))
	require.ErrorIs(t, err, ErrInvalidOption)
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.Contains(t, err.Error(), "WithVersion(0)")
	_, err = OpenTable(mixed, "t", nil, WithVersion(1<<63))
	require.ErrorIs(t, err, ErrInvalidOption)
}

// manifestGarbage frames bytes that are not a Manifest protobuf.
func manifestGarbage() []byte {
	pb := []byte{0x0a, 0xff, 0xff, 0x01}
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(pb)))
	b = append(b, pb...)
	b = binary.LittleEndian.AppendUint64(b, 0)
	return append(b, 0, 0, 2, 0, 'L', 'A', 'N', 'C')
}

func TestManifestNames(t *testing.T) {
	for _, c := range []struct {
		name string
		n    uint64
		v2   bool
		ok   bool
	}{
		{"1.manifest", 1, false, true},
		{"42.manifest", 42, false, true},
		{"18446744073709551614.manifest", 1, true, true},
		{"18446744073709551608.manifest", 7, true, true},
		{"d5.manifest", 0, false, false},
		{"latest_version_hint.json", 0, false, false},
		{"_latest.manifest", 0, false, false},
		{".tmp_7.manifest_abc", 0, false, false},
		{"0.manifest", 0, false, false},
		{"18446744073709551615.manifest", 0, false, false}, // version 0
		{"x.manifest", 0, false, false},
	} {
		n, v2, ok := manifestName(c.name)
		require.Equal(t, c.ok, ok, c.name)
		if ok {
			require.Equal(t, c.n, n, c.name)
			require.Equal(t, c.v2, v2, c.name)
			require.Equal(t, c.name, manifestFileName(n, v2))
		}
	}
}

func TestJSNumber(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), `"-0"`}, {1, "1"}, {-1.5, "-1.5"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"}, {0.000001, "0.000001"}, {1e-7, "1e-7"},
		{5.960464477539063e-08, "5.960464477539063e-8"}, {-1e300, "-1e+300"}, {0.1, "0.1"},
		{float64(float32(0.1)), "0.10000000149011612"}, {math.NaN(), `"NaN"`}, {math.Inf(1), `"Infinity"`},
		{math.Inf(-1), `"-Infinity"`}, {1.7976931348623157e308, "1.7976931348623157e+308"}, {5e-324, "5e-324"},
		{123.456, "123.456"}, {1.5e-5, "0.000015"},
	} {
		require.Equal(t, c.want, string(appendJSNumber(nil, c.v)), "%v", c.v)
	}
}

// TestFloat16Exhaustive checks the half-precision rendering of all 65536
// values against a reference built from the IEEE 754 binary16 definition.
func TestFloat16Exhaustive(t *testing.T) {
	b := array.NewFloat16Builder(memory.DefaultAllocator)
	for i := range 1 << 16 {
		b.Append(float16Num(uint16(i)))
	}
	a := b.NewArray()
	defer a.Release()
	for i := range 1 << 16 {
		sign, exp, frac := i>>15, (i>>10)&0x1f, i&0x3ff
		var v float64
		switch {
		case exp == 0x1f && frac != 0:
			v = math.NaN()
		case exp == 0x1f:
			v = math.Inf(1)
		case exp == 0:
			v = math.Ldexp(float64(frac), -24)
		default:
			v = math.Ldexp(float64(frac|0x400), exp-25)
		}
		if sign == 1 {
			v = -v
		}
		require.Equal(t, string(appendJSNumber(nil, v)), string(AppendJSONValue(nil, a, i, JSONOptions{LanceDB: true})), "bits %#04x", i)
		require.Equal(t, string(appendFloat(nil, v, 32)), string(AppendJSONValue(nil, a, i, JSONOptions{})), "bits %#04x", i)
	}
	require.Equal(t, "5.960464477539063e-8", string(AppendJSONValue(nil, a, 1, JSONOptions{LanceDB: true})))
}

func TestJSONLanceDBTypes(t *testing.T) {
	mem := memory.DefaultAllocator
	i64 := array.NewInt64Builder(mem)
	i64.AppendValues([]int64{-5, 1 << 62}, nil)
	u64 := array.NewUint64Builder(mem)
	u64.AppendValues([]uint64{math.MaxUint64, 0}, nil)
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
	ts.AppendValues([]arrow.Timestamp{-300000000000001, 1700000000567891}, nil)
	dec := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 18, Scale: 2})
	dec.Append(decimal128FromInt(-3000000000))
	dec.Append(decimal128FromInt(5))
	mb := array.NewMapBuilder(mem, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, false)
	mb.Append(true)
	mb.KeyBuilder().(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
	mb.ItemBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2}, []bool{true, false})
	mb.AppendNull()
	cols := []arrow.Array{i64.NewArray(), u64.NewArray(), ts.NewArray(), dec.NewArray(), mb.NewArray()}
	var got []string
	for _, c := range cols {
		for i := range 2 {
			got = append(got, string(AppendJSONValue(nil, c, i, JSONOptions{LanceDB: true})))
		}
		c.Release()
	}
	require.Equal(t, []string{`"-5"`, `"4611686018427387904"`, `"18446744073709551615"`, `"0"`,
		`"1960-06-29T18:39:59.999999Z"`, `"2023-11-14T22:13:20.567891Z"`, `"-30000000.00"`, `"0.05"`,
		`[["a",1],["b",null]]`, `null`}, got)
}

func float16Num(bits uint16) float16.Num { return float16.FromBits(bits) }

func decimal128FromInt(v int64) decimal128.Num { return decimal128.FromI64(v) }

// TestDeletionArrowHugeVector: a deletion file whose schema claims 2^28
// children for its field. arrow-go would size a slice from that count
// (gigabytes); the footer check refuses it first.
func TestDeletionArrowHugeVector(t *testing.T) {
	b := deletionArrow(t, 1, 2)
	end := len(b) - 10
	n := int(binary.LittleEndian.Uint32(b[end:]))
	fb := b[end-n : end]
	v := fbVerifier{buf: fb, maxDepth: 4}
	root := v.table(0)
	sc := v.table(root.Pos + v.field(root, 1))
	start, cnt := v.vector(sc, 1, 4)
	require.Equal(t, 1, cnt)
	fld := v.table(start)
	o := v.field(fld, 5) // children
	require.NotZero(t, o, "arrow-go writes an empty children vector")
	at := fld.Pos + o
	vec := uint32(at) + binary.LittleEndian.Uint32(fb[at:])
	binary.LittleEndian.PutUint32(fb[vec:], 1<<28)
	_, err := decodeDeletionArrow(b, 10, "d", 1<<20)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Contains(t, err.Error(), "vector length")
}

// noListFS serves files but cannot list directories nor read at offsets,
// as a minimal object-store adapter might.
type noListFS struct {
	fsys  fs.FS
	opens map[string]int // counts Opens (fs.Stat opens too) when not nil
}

type plainFile struct{ f fs.File }

func (p plainFile) Stat() (fs.FileInfo, error) { return p.f.Stat() }
func (p plainFile) Read(b []byte) (int, error) { return p.f.Read(b) }
func (p plainFile) Close() error               { return p.f.Close() }

func (n noListFS) Open(name string) (fs.File, error) {
	if n.opens != nil {
		n.opens[name]++
	}
	f, err := n.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return plainFile{f}, nil
}

func TestTableWithoutListing(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		s := newSynth(t, v2)
		want := s.buildVersions(t)
		fsys := noListFS{fsys: s.fsys, opens: map[string]int{}}
		_, err := OpenTable(fsys, "t.lance")
		require.ErrorContains(t, err, "readdir") // no hint yet: the listing error
		s.fsys["t.lance/_versions/latest_version_hint.json"] = &fstest.MapFile{Data: []byte(`{"version":3}`)}
		clear(fsys.opens)
		tb, err := OpenTable(fsys, "t.lance")
		require.NoError(t, err)
		// Opening touches only the latest manifest: no probe of older
		// versions (each would be a request on an object store).
		for name := range fsys.opens {
			if strings.Contains(name, ".manifest") { // either scheme is tried
				require.Contains(t, []string{manifestFileName(3, true), manifestFileName(3, false)}, path.Base(name))
			}
		}
		require.Equal(t, want[2], tableLines(t, tb, ReadOptions{}))
		vs, err := tb.Versions()
		require.NoError(t, err)
		require.Len(t, vs, 3)
		require.Equal(t, []uint64{1, 2, 3}, []uint64{vs[0].Number, vs[1].Number, vs[2].Number})
		tb, err = OpenTable(fsys, "t.lance", WithVersion(2))
		require.NoError(t, err)
		require.Equal(t, want[1], tableLines(t, tb, ReadOptions{}))
		vs, err = tb.Versions()
		require.NoError(t, err)
		require.Len(t, vs, 3)
		_, err = OpenTable(fsys, "t.lance", WithVersion(4))
		require.ErrorIs(t, err, fs.ErrNotExist)
		delete(s.fsys, "t.lance/_versions/"+manifestFileName(1, v2))
		_, err = OpenTable(fsys, "t.lance", WithVersion(1))
		require.ErrorIs(t, err, fs.ErrNotExist)
	}
}

// Stable row ids (reader flag 2) change nothing for a scan; blob columns
// are refused by name.
func TestTableStableRowIDsAndBlob(t *testing.T) {
	s := newSynth(t, true)
	want := s.buildVersions(t)
	m := proto.Clone(s.base).(*tablepb.Manifest)
	m.Version = 4
	m.ReaderFeatureFlags = flagStableRowIDs
	m.WriterFeatureFlags = flagStableRowIDs
	m.NextRowId = 5
	m.Fragments[0].RowIdSequence = &tablepb.DataFragment_InlineRowIds{InlineRowIds: []byte{0x0a, 0x04, 0x0a, 0x02, 0x00, 0x05}}
	s.commit(m)
	tb, err := OpenTable(s.fsys, "t.lance")
	require.NoError(t, err)
	require.Equal(t, want[0], tableLines(t, tb, ReadOptions{}))

	m = proto.Clone(m).(*tablepb.Manifest)
	m.Version = 5
	m.Fields[4].Metadata = map[string][]byte{"lance-encoding:blob": []byte("true")}
	s.commit(m)
	_, err = OpenTable(s.fsys, "t.lance")
	require.ErrorIs(t, err, ErrUnsupported)
	require.Contains(t, err.Error(), "blob")
}

// ipcFile writes one IPC file of the given columns, one batch per slice
// of arrays.
func ipcFile(t testing.TB, sc *arrow.Schema, batches ...[]arrow.Array) []byte {
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(sc))
	require.NoError(t, err)
	for _, cols := range batches {
		rec := array.NewRecordBatch(sc, cols, int64(cols[0].Len()))
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestDeletionArrowShapes(t *testing.T) {
	mem := memory.DefaultAllocator
	i32 := func(vs []int32, valid []bool) arrow.Array {
		b := array.NewInt32Builder(mem)
		b.AppendValues(vs, valid)
		return b.NewArray()
	}
	u32 := func(vs ...uint32) arrow.Array {
		b := array.NewUint32Builder(mem)
		b.AppendValues(vs, nil)
		return b.NewArray()
	}
	one := func(dt arrow.DataType) *arrow.Schema {
		return arrow.NewSchema([]arrow.Field{{Name: "row_id", Type: dt, Nullable: true}}, nil)
	}
	// Int32 (what the proto names) and several batches read too.
	bm, err := decodeDeletionArrow(ipcFile(t, one(arrow.PrimitiveTypes.Int32), []arrow.Array{i32([]int32{4, 0}, nil)}, []arrow.Array{i32([]int32{2}, nil)}), 5, "d", 1<<20)
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 2, 4}, bm.ToArray())
	for name, c := range map[string]struct {
		b   []byte
		msg string
	}{
		"negative":    {ipcFile(t, one(arrow.PrimitiveTypes.Int32), []arrow.Array{i32([]int32{-1}, nil)}), "deleted row -1"},
		"null":        {ipcFile(t, one(arrow.PrimitiveTypes.Int32), []arrow.Array{i32([]int32{1, 2}, []bool{true, false})}), "null row offsets"},
		"type":        {ipcFile(t, one(arrow.PrimitiveTypes.Int64), []arrow.Array{func() arrow.Array { b := array.NewInt64Builder(mem); b.Append(1); return b.NewArray() }()}), "want uint32"},
		"two columns": {ipcFile(t, arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Uint32}, {Name: "b", Type: arrow.PrimitiveTypes.Uint32}}, nil), []arrow.Array{u32(1), u32(2)}), "2 columns"},
		"truncated":   {deletionArrow(t, 1, 2)[:40], "Arrow IPC"},
	} {
		_, err := decodeDeletionArrow(c.b, 5, "d", 1<<20)
		require.ErrorIs(t, err, ErrCorrupt, name)
		require.Contains(t, err.Error(), c.msg, name)
	}
	// The allocation cap holds for a legitimate but large file.
	big := make([]uint32, 100000)
	for i := range big {
		big[i] = uint32(i)
	}
	_, err = decodeDeletionArrow(deletionArrow(t, big...), 200000, "d", 1000)
	require.ErrorIs(t, err, ErrTooLarge)
}

// A table renames fields in its manifest only: the data file keeps the
// old names, rows come out under the new ones.
func TestTableRenamedFields(t *testing.T) {
	s := newSynth(t, true)
	m := proto.Clone(s.base).(*tablepb.Manifest)
	m.Version = 1
	for _, f := range m.Fields {
		switch f.Name {
		case "st":
			f.Name = "rec"
		case "a":
			f.Name = "alpha"
		}
	}
	s.commit(m)
	tb, err := OpenTable(s.fsys, "t.lance")
	require.NoError(t, err)
	got := tableLines(t, tb, ReadOptions{Columns: []string{"rec", "rec.alpha", "id"}})
	require.Equal(t, `{"rec":{"alpha":0,"b":"n0"},"rec.alpha":0,"id":0}`, got[0])
	require.Equal(t, `{"rec":{"alpha":null,"b":"n1"},"rec.alpha":null,"id":1}`, got[1])

	// A changed type is still refused.
	m = proto.Clone(m).(*tablepb.Manifest)
	m.Version = 2
	for _, f := range m.Fields {
		if f.Name == "alpha" {
			f.LogicalType = "int64"
		}
	}
	s.commit(m)
	tb, err = OpenTable(s.fsys, "t.lance")
	require.NoError(t, err)
	_, err = tb.Read(ReadOptions{Columns: []string{"rec"}})
	require.ErrorIs(t, err, ErrCorrupt)
}
