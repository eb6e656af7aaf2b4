package lance

import (
	"context"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/internal/errs"
)

// Read returns the selected rows of the selected columns of the table as
// one record (see Records).
func (t *Table) Read(o ReadOptions) (arrow.RecordBatch, error) {
	return t.ReadContext(context.Background(), o)
}

// ReadContext is Read that stops between batches once ctx is done.
func (t *Table) ReadContext(ctx context.Context, o ReadOptions) (arrow.RecordBatch, error) {
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	var schema *arrow.Schema
	for rec, err := range t.RecordsContext(ctx, o) {
		if err != nil {
			return nil, err
		}
		schema = rec.Schema()
		recs = append(recs, rec)
	}
	if len(recs) == 1 {
		recs[0].Retain()
		return recs[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	for c := range cols {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, t.cfg.mem)
		if err != nil {
			for _, x := range cols[:c] {
				x.Release()
			}
			return nil, fmt.Errorf("lance: joining batches: %w", err)
		}
		cols[c] = a
	}
	rec := array.NewRecordBatch(schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// Records yields the rows of the table in LanceDB's scan order: fragments
// in manifest order, rows of a fragment in file order, deleted rows left
// out. ReadOptions select columns by name or dotted path into structs, or
// by table field id (FieldIDs; a nested field is named by its path), in
// output order,
// a row range of the scan (Offset, Limit, counted after deletions) and the
// most rows per record (BatchRows). Columns a fragment's data files lack
// read as nulls. The caller releases each record.
func (t *Table) Records(o ReadOptions) iter.Seq2[arrow.RecordBatch, error] {
	return t.RecordsContext(context.Background(), o)
}

// RecordsContext is Records that stops between batches once ctx is done.
func (t *Table) RecordsContext(ctx context.Context, o ReadOptions) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		sel, schema, err := t.selection(o.Columns, o.FieldIDs)
		if err != nil {
			yield(nil, err)
			return
		}
		total := t.NumRows()
		if o.Offset < 0 || o.Offset > total {
			yield(nil, fmt.Errorf("%w: row offset %d outside 0..%d", errTableArgument, o.Offset, total))
			return
		}
		left := total - o.Offset
		if o.Limit > 0 && o.Limit < left {
			left = o.Limit
		}
		skip := o.Offset
		step := o.BatchRows
		if step <= 0 {
			step = DefaultBatchRows
		}
		if left == 0 {
			yield(emptyRecord(schema, t.cfg), nil)
			return
		}
		for i := range t.frags {
			if left == 0 {
				return
			}
			fr := &t.frags[i]
			live := fr.PhysicalRows - fr.DeletedRows
			if skip >= live {
				skip -= live
				continue
			}
			ok := t.fragmentRecords(ctx, i, sel, schema, skip, &left, step, yield)
			skip = 0
			if !ok {
				return
			}
		}
	}
}

// selection resolves column names to table fields: a top-level name, or
// a dotted path into structs ("info.city"), which comes out as a column
// named by the path.
func (t *Table) selection(names []string, ids []int32) ([]*tableField, *arrow.Schema, error) {
	if names != nil && ids != nil {
		return nil, nil, fmt.Errorf("%w: ReadOptions: Columns and FieldIDs both set", errTableArgument)
	}
	if names == nil && ids == nil {
		return t.fields, t.schema, nil
	}
	var sel []*tableField
	var fs []arrow.Field
	for _, id := range ids {
		n := t.byID[id]
		if n == nil || !structPath(n) {
			return nil, nil, fmt.Errorf("%w: table has no field id %d outside lists and maps", errTableArgument, id)
		}
		af := n.arrowField()
		af.Name = n.path
		sel = append(sel, n)
		fs = append(fs, af)
	}
	for _, name := range names {
		n := t.fieldByPath(name)
		if n == nil {
			return nil, nil, fmt.Errorf("%w: table has no column %s", errTableArgument, errs.Quote(name))
		}
		af := n.arrowField()
		af.Name = name
		sel = append(sel, n)
		fs = append(fs, af)
	}
	md := t.schema.Metadata()
	return sel, arrow.NewSchema(fs, &md), nil
}

// structPath: n is top level or reached through structs only.
func structPath(n *tableField) bool {
	for p := n.parent; p != nil; p = p.parent {
		if p.pb.LogicalType != "struct" {
			return false
		}
	}
	return true
}

// fieldByPath finds a top-level field by name, else a field inside
// structs by its dotted path.
func (t *Table) fieldByPath(p string) *tableField {
	for _, n := range t.fields {
		if n.pb.Name == p {
			return n
		}
	}
	var walk func(ns []*tableField) *tableField
	walk = func(ns []*tableField) *tableField {
		for _, n := range ns {
			if n.path == p {
				return n
			}
			if n.pb.LogicalType == "struct" && strings.HasPrefix(p, n.path+".") {
				if m := walk(n.children); m != nil {
					return m
				}
			}
		}
		return nil
	}
	return walk(t.fields)
}

func emptyRecord(schema *arrow.Schema, cfg config) arrow.RecordBatch {
	cols := make([]arrow.Array, schema.NumFields())
	for i, f := range schema.Fields() {
		cols[i] = array.MakeArrayOfNull(cfg.mem, f.Type, 0)
	}
	rec := array.NewRecordBatch(schema, cols, 0)
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// fieldSource says where a selected field of a fragment comes from: a
// top-level field (by name) of one of its data files, or nowhere (nulls).
type fieldSource struct {
	file int // index into the fragment's files, -1: all null
	name string
}

// fragmentPlan maps each selected top-level field to the data file that
// holds it. A field id counts for the file that lists it with a column
// index >= -1 and an id >= 0; a later file's -2 entries tombstone earlier
// ones, so the last file listing an id wins.
func (t *Table) fragmentPlan(i int, sel []*tableField) ([]fieldSource, error) {
	fr := &t.frags[i]
	owner := map[int32]int{} // field id -> file
	for j, df := range fr.Files {
		for _, id := range df.FieldIDs {
			if id >= 0 {
				owner[id] = j
			}
		}
	}
	plan := make([]fieldSource, len(sel))
	for k, n := range sel {
		files := map[int]bool{}
		var walk func(*tableField)
		walk = func(f *tableField) {
			if j, ok := owner[f.pb.Id]; ok {
				files[j] = true
			}
			for _, c := range f.children {
				walk(c)
			}
		}
		walk(n)
		switch len(files) {
		case 0:
			plan[k] = fieldSource{file: -1}
		case 1:
			for j := range files {
				plan[k] = fieldSource{file: j, name: n.pb.Name}
			}
		default:
			return nil, errs.At(ErrUnsupported, -1, fmt.Sprintf("fragment %d field %s", fr.ID, errs.Quote(n.path)),
				"field split over %d data files", len(files))
		}
	}
	return plan, nil
}

// fileSource streams one data file's selected columns and hands out rows
// in the amounts the fragment reader asks for, whatever batch sizes the
// file yields.
type fileSource struct {
	next func() (arrow.RecordBatch, error, bool)
	stop func()
	cur  arrow.RecordBatch
	pos  int64
	c    io.Closer
}

func (s *fileSource) avail() (int64, error) {
	for s.cur == nil || s.pos == s.cur.NumRows() {
		if s.cur != nil {
			s.cur.Release()
			s.cur = nil
		}
		rec, err, ok := s.next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, nil
		}
		s.cur, s.pos = rec, 0
	}
	return s.cur.NumRows() - s.pos, nil
}

func (s *fileSource) close() {
	if s.cur != nil {
		s.cur.Release()
	}
	s.stop()
	s.c.Close()
}

// fragmentRecords streams fragment i from its skip-th live row, at most
// *left rows; it returns false when the caller stopped or an error was
// yielded.
func (t *Table) fragmentRecords(ctx context.Context, i int, sel []*tableField, schema *arrow.Schema, skip int64, left *int64, step int64, yield func(arrow.RecordBatch, error) bool) bool {
	fr := &t.frags[i]
	where := fmt.Sprintf("fragment %d", fr.ID)
	fail := func(err error) bool {
		yield(nil, err)
		return false
	}
	plan, err := t.fragmentPlan(i, sel)
	if err != nil {
		return fail(err)
	}
	var del *roaring.Bitmap
	if fr.DeletionFile != "" {
		if del, err = t.deletions(i); err != nil {
			return fail(err)
		}
	}
	// Physical start: the row after skip live rows.
	start := skip
	if del != nil && skip > 0 {
		start = physicalOfLive(del, skip)
	}
	srcs := map[int]*fileSource{}
	defer func() {
		for _, s := range srcs {
			s.close()
		}
	}()
	cols := make([]int, len(plan)) // column in the file's record
	for k, p := range plan {
		if p.file < 0 {
			continue
		}
		s := srcs[p.file]
		if s == nil {
			df := fr.Files[p.file]
			f, c, err := t.OpenDataFile(df)
			if err != nil {
				return fail(err)
			}
			if f.NumRows() != fr.PhysicalRows {
				c.Close()
				return fail(errs.At(ErrCorrupt, -1, df.Path, "data file has %d rows, the fragment %d", f.NumRows(), fr.PhysicalRows))
			}
			var ids []int32
			for k2, q := range plan {
				if q.file == p.file {
					ids = append(ids, sel[k2].pb.Id)
				}
			}
			next, stop := iter.Pull2(f.RecordsContext(ctx, ReadOptions{FieldIDs: ids, Offset: start, BatchRows: step}))
			s = &fileSource{next: next, stop: stop, c: c}
			srcs[p.file] = s
		}
		n := 0
		for _, q := range plan[:k] {
			if q.file == p.file {
				n++
			}
		}
		cols[k] = n
	}
	if len(srcs) == 0 {
		// Only columns the fragment lacks: its row count still comes from
		// a data file, not from the manifest alone.
		f, c, err := t.OpenDataFile(fr.Files[0])
		if err != nil {
			return fail(err)
		}
		c.Close()
		if f.NumRows() != fr.PhysicalRows {
			return fail(errs.At(ErrCorrupt, -1, fr.Files[0].Path, "data file has %d rows, the fragment %d", f.NumRows(), fr.PhysicalRows))
		}
	}
	for pos := start; pos < fr.PhysicalRows && *left > 0; {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		n := min(step, fr.PhysicalRows-pos)
		if del == nil {
			n = min(n, *left)
		}
		for _, s := range srcs {
			a, err := s.avail()
			if err != nil {
				return fail(errs.Locate(err, -1, where))
			}
			if a == 0 {
				return fail(errs.At(ErrLength, -1, where, "a data file ends at row %d of %d", pos, fr.PhysicalRows))
			}
			n = min(n, a)
		}
		arrs := make([]arrow.Array, len(plan))
		release := func() {
			for _, a := range arrs {
				if a != nil {
					a.Release()
				}
			}
		}
		for k, p := range plan {
			if p.file < 0 {
				arrs[k] = array.MakeArrayOfNull(t.cfg.mem, schema.Field(k).Type, int(n))
				continue
			}
			s := srcs[p.file]
			col := s.cur.Column(cols[k])
			want := schema.Field(k).Type
			if !arrow.TypeEqual(col.DataType(), want) {
				// Renamed nested fields or changed nullability: the same
				// layout under the table's names.
				d, ok := relabel(col.Data(), want)
				if !ok {
					release()
					return fail(errs.At(ErrCorrupt, -1, where, "column %s is %s in the data file but %s in the table schema",
						errs.Quote(schema.Field(k).Name), col.DataType(), want))
				}
				col = array.MakeFromData(d)
				d.Release()
				arrs[k] = array.NewSlice(col, s.pos, s.pos+n)
				col.Release()
				continue
			}
			arrs[k] = array.NewSlice(col, s.pos, s.pos+n)
		}
		for _, s := range srcs {
			s.pos += n
		}
		if del != nil {
			kept, err := dropDeleted(arrs, del, pos, n, *left, t.cfg)
			release()
			if err != nil {
				return fail(errs.Locate(err, -1, where))
			}
			arrs = kept
		}
		pos += n
		rows := int64(0)
		if len(arrs) > 0 {
			rows = int64(arrs[0].Len())
		} else {
			rows = n
			if del != nil {
				rows = n - deletedIn(del, pos-n, pos)
			}
			rows = min(rows, *left)
		}
		if rows == 0 {
			release()
			continue
		}
		*left -= rows
		rec := array.NewRecordBatch(schema, arrs, rows)
		release()
		if !yield(rec, nil) {
			return false
		}
	}
	return true
}

// physicalOfLive returns the physical row of live row k (0-based) of a
// fragment with deletions del.
func physicalOfLive(del *roaring.Bitmap, k int64) int64 {
	// The physical row p has p+1-rank(p) live rows up to it; search the
	// smallest p with live(p) = k+1 that is not deleted.
	lo, hi := k, k+int64(del.GetCardinality())
	for lo < hi {
		mid := lo + (hi-lo)/2
		if mid+1-int64(del.Rank(uint32(mid))) >= k+1 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// filterRuns is the number of kept runs in a batch above which deleted
// rows are dropped by copying the runs (keepRuns) instead of slices joined.
var filterRuns = 32

// dropDeleted returns the rows of arrs (physical rows pos..pos+n) that del
// does not delete, at most limit of them.
func dropDeleted(arrs []arrow.Array, del *roaring.Bitmap, pos, n, limit int64, cfg config) ([]arrow.Array, error) {
	var runs []keepRun
	var kept int64
	for r := int64(0); r < n && kept < limit; {
		if del.Contains(uint32(pos + r)) {
			r++
			continue
		}
		e := r + 1
		for e < n && kept+(e-r) < limit && !del.Contains(uint32(pos+e)) {
			e++
		}
		runs = append(runs, keepRun{r, e})
		kept += e - r
		r = e
	}
	out := make([]arrow.Array, len(arrs))
	for k, a := range arrs {
		if len(runs) > filterRuns && canKeepRuns(a.DataType()) {
			// Many short runs: one copying pass beats slicing and joining.
			f, err := keepRuns(a, runs, kept)
			if err != nil {
				for _, x := range out[:k] {
					x.Release()
				}
				return nil, err
			}
			out[k] = f
			continue
		}
		if len(runs) == 1 {
			out[k] = array.NewSlice(a, runs[0].a, runs[0].b)
			continue
		}
		parts := make([]arrow.Array, len(runs))
		for j, r := range runs {
			parts[j] = array.NewSlice(a, r.a, r.b)
		}
		var err error
		if len(parts) == 0 {
			out[k] = array.MakeArrayOfNull(cfg.mem, a.DataType(), 0)
		} else {
			out[k], err = array.Concatenate(parts, cfg.mem)
		}
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			for _, x := range out[:k] {
				x.Release()
			}
			return nil, fmt.Errorf("lance: dropping deleted rows: %w", err)
		}
	}
	return out, nil
}

// deletedIn counts the deleted rows in [a, b).
func deletedIn(del *roaring.Bitmap, a, b int64) int64 {
	n := int64(del.Rank(uint32(b - 1)))
	if a > 0 {
		n -= int64(del.Rank(uint32(a - 1)))
	}
	return n
}

// relabel returns d under type dt when the two differ only in field names
// and nullability (a table renames fields in its manifest, not in its data
// files): same type ids, widths, units and shapes all the way down.
func relabel(d arrow.ArrayData, dt arrow.DataType) (arrow.ArrayData, bool) {
	have := d.DataType()
	if arrow.TypeEqual(have, dt) {
		d.Retain()
		return d, true
	}
	if have.ID() != dt.ID() {
		return nil, false
	}
	var elems []arrow.DataType
	switch t := dt.(type) {
	case *arrow.StructType:
		if have.(*arrow.StructType).NumFields() != t.NumFields() {
			return nil, false
		}
		for _, f := range t.Fields() {
			elems = append(elems, f.Type)
		}
	case *arrow.MapType:
		elems = []arrow.DataType{t.Elem()}
	case *arrow.ListType:
		elems = []arrow.DataType{t.Elem()}
	case *arrow.LargeListType:
		elems = []arrow.DataType{t.Elem()}
	case *arrow.FixedSizeListType:
		if have.(*arrow.FixedSizeListType).Len() != t.Len() {
			return nil, false
		}
		elems = []arrow.DataType{t.Elem()}
	default:
		return nil, false
	}
	if len(d.Children()) != len(elems) {
		return nil, false
	}
	children := make([]arrow.ArrayData, len(elems))
	for i, c := range d.Children() {
		r, ok := relabel(c, elems[i])
		if !ok {
			for _, x := range children[:i] {
				x.Release()
			}
			return nil, false
		}
		children[i] = r
	}
	out := array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out, true
}
