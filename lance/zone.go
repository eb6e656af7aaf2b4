package lance

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

// ZoneMap is the pushdown index of a column wrapped in ZoneIndex: one row
// per RowsPerZone rows of the column with its min, max and null_count.
type ZoneMap struct {
	RowsPerZone uint32
	// Record has the columns min, max (the column's type) and null_count
	// (uint32). The caller releases it.
	Record arrow.RecordBatch
}

// HasZoneMap reports whether physical column i is wrapped in a ZoneIndex.
func (f *File) HasZoneMap(i int) bool {
	return i >= 0 && i < len(f.columns) && f.columns[i].zone != nil
}

// ZoneMap decodes the zone map of physical column i. The zone map buffer is
// a mini Lance file (column buffer, no schema buffer) whose columns are
// min, max and null_count (notes §5).
func (f *File) ZoneMap(i int) (*ZoneMap, error) {
	if i < 0 || i >= len(f.columns) {
		return nil, fmt.Errorf("lance: no column %d", i)
	}
	col := f.columns[i]
	z := col.zone
	if z == nil {
		return nil, fmt.Errorf("lance: column %d has no zone index", i)
	}
	lt := f.logicalTypeOf(i)
	if lt == "" {
		return nil, errs.At(ErrUnsupported, col.metaOff, col.path, "zone index on a column without a leaf type")
	}
	w := &where{col: col, pg: &page{}, path: col.path + " zone map"}
	if z.ZoneMapBuffer == nil {
		return nil, errs.At(ErrProto, col.metaOff, w.path, "zone index without a buffer")
	}
	buf, off, err := f.buffer(w, z.ZoneMapBuffer)
	if err != nil {
		return nil, err
	}
	// Zone counts are not stored; bound them by the column's rows.
	zones := uint64(0)
	if z.RowsPerZone > 0 {
		zones = (uint64(col.rows) + uint64(z.RowsPerZone) - 1) / uint64(z.RowsPerZone)
	}
	desc := &filepb.FileDescriptor{Length: zones, Schema: &filepb.Schema{Fields: []*filepb.Field{
		{Name: "min", Id: 0, ParentId: -1, LogicalType: lt, Nullable: true},
		{Name: "max", Id: 1, ParentId: -1, LogicalType: lt, Nullable: true},
		{Name: "null_count", Id: 2, ParentId: -1, LogicalType: "uint32"},
	}}}
	zf, err := open(bytes.NewReader(buf), int64(len(buf)), f.cfg, desc)
	if err != nil {
		return nil, errs.Locate(err, off, w.path)
	}
	if len(zf.columns) > 0 {
		desc.Length = uint64(zf.columns[0].rows)
		zf.numRows = zf.columns[0].rows
	}
	rec, err := zf.Read(ReadOptions{})
	if err != nil {
		return nil, errs.Locate(err, off, w.path)
	}
	return &ZoneMap{RowsPerZone: z.RowsPerZone, Record: rec}, nil
}

// logicalTypeOf returns the logical type of the leaf field stored in
// physical column i, or "".
func (f *File) logicalTypeOf(i int) string {
	var find func(ns []*fieldNode) string
	find = func(ns []*fieldNode) string {
		for _, n := range ns {
			if n.col == i && len(n.children) == 0 && !n.legacyList {
				return n.pb.LogicalType
			}
			if s := find(n.children); s != "" {
				return s
			}
		}
		return ""
	}
	return find(f.fields)
}
