package lance

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// sharedFiles returns the files matching glob under the shared lance21
// data, or none outside the repository's workspace.
func sharedFiles(f *testing.F, glob string) [][]byte {
	var out [][]byte
	for _, v := range []string{"2.1", "2.2"} {
		dir := shareddata.Dir("lance21", v)
		if dir == "" {
			continue
		}
		ms, _ := filepath.Glob(filepath.Join(dir, glob))
		for _, m := range ms {
			b, err := os.ReadFile(m)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

func isSentinel(err error) bool {
	return errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrUnsupported)
}

// FuzzManifest feeds arbitrary bytes through the manifest reader: frame,
// protobuf, field checks and schema building. It must never panic, and
// every failure wraps a package sentinel.
func FuzzManifest(f *testing.F) {
	for _, b := range sharedFiles(f, "*.lance/_versions/*.manifest") {
		f.Add(b)
	}
	f.Add(manifestFile(&tablepb.Manifest{Version: 1, Fields: []*filepb.Field{
		{Name: "s", Id: 0, ParentId: -1, LogicalType: "struct"},
		{Name: "a", Id: 1, ParentId: 0, LogicalType: "list"},
		{Name: "item", Id: 2, ParentId: 1, LogicalType: "int32"},
		{Name: "m", Id: 3, ParentId: -1, LogicalType: "map"},
		{Name: "entries", Id: 4, ParentId: 3, LogicalType: "struct"},
		{Name: "key", Id: 5, ParentId: 4, LogicalType: "string"},
		{Name: "value", Id: 6, ParentId: 4, LogicalType: "int64"},
	}, Fragments: []*tablepb.DataFragment{{Id: 0, PhysicalRows: 3, Files: []*tablepb.DataFile{{
		Path: "a.lance", Fields: []int32{2, 5, 6}, ColumnIndices: []int32{0, 1, 2}, FileMajorVersion: 2, FileMinorVersion: 2,
	}}, DeletionFile: &tablepb.DeletionFile{NumDeletedRows: 1}}}}))
	f.Add(manifestGarbage())
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeManifest(b, "m", 1<<20)
		if err == nil {
			err = checkManifest(m, "m", 0, 1<<10)
		}
		if err == nil {
			tb := &Table{cfg: defaultConfig(), manifest: m}
			tb.cfg.maxColumns = 1 << 10
			err = tb.buildSchema("m")
		}
		if err != nil && !isSentinel(err) {
			t.Fatalf("error wraps no sentinel: %v", err)
		}
	})
}

// FuzzDeletion feeds arbitrary bytes to both deletion file decoders: they
// must never panic, allocate past the limit, or return a row outside the
// fragment.
func FuzzDeletion(f *testing.F) {
	for _, b := range sharedFiles(f, "*.lance/_deletions/*") {
		f.Add(b, uint32(20000))
	}
	f.Add(deletionArrow(f, 1, 5, 3), uint32(6))
	f.Add(deletionBitmap(f, 0, 70000, 70001), uint32(80000))
	f.Add([]byte("ARROW1\x00\x00"), uint32(5))
	f.Fuzz(func(t *testing.T, b []byte, rows uint32) {
		for _, bitmap := range []bool{false, true} {
			var err error
			var max uint32
			var n uint64
			if bitmap {
				bm, e := decodeDeletionBitmap(b, int64(rows), "d")
				if err = e; err == nil {
					n = bm.GetCardinality()
					if n > 0 {
						max = bm.Maximum()
					}
				}
			} else {
				bm, e := decodeDeletionArrow(b, int64(rows), "d", 1<<20)
				if err = e; err == nil {
					n = bm.GetCardinality()
					if n > 0 {
						max = bm.Maximum()
					}
				}
			}
			if err != nil {
				if !isSentinel(err) {
					t.Fatalf("error wraps no sentinel: %v", err)
				}
				continue
			}
			if n > 0 && max >= rows {
				t.Fatalf("row %d of %d accepted", max, rows)
			}
		}
	})
}

// FuzzTable opens a table whose manifest is the fuzz input, around the
// shared 5-row data file, the addColumns file and two deletion files, and
// scans it: field-id mapping, missing columns, deletions and row windows
// must fail with a sentinel or read, never panic.
func FuzzTable(f *testing.F) {
	s := newSynth(f, true)
	s.buildVersions(f)
	for name, mf := range s.fsys {
		if filepath.Ext(name) == ".manifest" {
			f.Add(mf.Data, uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, off uint8) {
		fsys := fstest.MapFS{}
		for k, v := range s.fsys {
			if filepath.Ext(k) != ".manifest" {
				fsys[k] = v
			}
		}
		fsys["t.lance/_versions/18446744073709551614.manifest"] = &fstest.MapFile{Data: b}
		tb, err := OpenTable(fsys, "t.lance", WithMaxColumns(256))
		if err != nil {
			if !isSentinel(err) && !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("open: error wraps no sentinel: %v", err)
			}
			return
		}
		var n int64
		for rec, err := range tb.Records(ReadOptions{Offset: min(int64(off%8), tb.NumRows()), BatchRows: 3}) {
			if err != nil {
				if !isSentinel(err) && !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("read: error wraps no sentinel: %v", err)
				}
				return
			}
			n += rec.NumRows()
			rec.Release()
		}
		if want := tb.NumRows() - min(int64(off%8), tb.NumRows()); n != want && tb.NumRows() > 0 {
			t.Fatalf("%d rows, want %d", n, want)
		}
	})
}
