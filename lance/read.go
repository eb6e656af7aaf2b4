package lance

import (
	"context"
	"fmt"
	"iter"
	"math"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
)

// ReadOptions selects what Read and Records return.
type ReadOptions struct {
	// Columns names the fields to read, in output order; nil reads all.
	// A name is a top-level field or the dotted path of a field nested in
	// structs ("info.city"). Only these fields' pages are read.
	Columns []string
	// Offset is the first row; Limit the number of rows (<= 0: to the end).
	Offset, Limit int64
	// BatchRows is the most rows per record from Records (default
	// DefaultBatchRows).
	BatchRows int64
	// BatchBytes is the decoded size Records aims each record at (default
	// DefaultBatchBytes): wide rows make batches of fewer rows. The
	// estimate comes from the fixed widths of the selected columns and the
	// stored bytes per row of the others; a batch is never below one row.
	BatchBytes int64
	// FieldIDs selects fields by their Lance field id (File.Fields), in
	// output order, instead of by name; a nested field (inside structs
	// only) comes out as a column named by its dotted path. This is how
	// a table maps its schema onto the data files of a fragment.
	FieldIDs []int32
}

// reader decodes one request; it caches the last decoded page of each
// column so batches and list segments that share a page decode it once.
type reader struct {
	ctx   context.Context
	f     *File
	cache map[int]cachedPage
	// strict makes the reader check what decoding alone would not: page
	// kinds of struct headers and row totals.
	strict bool
	// general runs the general decoders whatever the plan chose
	// (config.forceGeneral; tests and fuzzing compare both).
	general bool
	// scratch holds one page's u64 offsets or indices at a time.
	scratch []uint64
	// mem is the memory budget of the record being decoded.
	mem memBudget
}

type cachedPage struct {
	page int
	arr  arrow.Array
}

func (f *File) newReader() *reader {
	return &reader{ctx: context.Background(), f: f, cache: map[int]cachedPage{}, general: f.cfg.forceGeneral}
}

func (r *reader) release() {
	for _, c := range r.cache {
		c.arr.Release()
	}
	r.cache = nil
}

// selection resolves ReadOptions to fields and a row range.
func (f *File) selection(o ReadOptions) ([]*fieldNode, *arrow.Schema, int64, int64, error) {
	nodes := f.fields
	schema := f.schema
	if o.Columns != nil && o.FieldIDs != nil {
		return nil, nil, 0, 0, errs.Wrap(ErrInvalidArgument, "ReadOptions: Columns and FieldIDs both set")
	}
	if o.Columns != nil || o.FieldIDs != nil {
		nodes = nil
		var fs []arrow.Field
		add := func(n *fieldNode, name string) {
			nodes = append(nodes, n)
			af := n.arrowField()
			af.Name = name
			fs = append(fs, af)
		}
		for _, name := range o.Columns {
			if idx := f.schema.FieldIndices(name); len(idx) > 0 {
				add(f.fields[idx[0]], name)
				continue
			}
			n, err := f.fieldByPath(name)
			if err != nil {
				return nil, nil, 0, 0, err
			}
			add(n, name)
		}
		for _, id := range o.FieldIDs {
			n := f.byID[id]
			if n == nil {
				return nil, nil, 0, 0, errs.Wrap(ErrInvalidArgument, "no field with id %d", id)
			}
			if err := f.rowAligned(n); err != nil {
				return nil, nil, 0, 0, err
			}
			name := n.name
			if n.parent != nil {
				name = n.path
			}
			add(n, name)
		}
		md := f.schema.Metadata()
		schema = arrow.NewSchema(fs, &md)
	}
	if o.Offset < 0 || o.Offset > f.numRows {
		return nil, nil, 0, 0, errs.Wrap(ErrInvalidArgument, "row offset %d outside 0..%d", o.Offset, f.numRows)
	}
	end := f.numRows
	if o.Limit > 0 && o.Limit < end-o.Offset {
		end = o.Offset + o.Limit
	}
	return nodes, schema, o.Offset, end, nil
}

// fieldByPath finds a nested field by its dotted path ("info.city"). The
// path may cross structs only: a field under a list has no value per row.
func (f *File) fieldByPath(p string) (*fieldNode, error) {
	var walk func(ns []*fieldNode) *fieldNode
	walk = func(ns []*fieldNode) *fieldNode {
		for _, n := range ns {
			if n.path == p {
				return n
			}
			if strings.HasPrefix(p, n.path+".") {
				if x := walk(n.children); x != nil {
					return x
				}
			}
		}
		return nil
	}
	n := walk(f.fields)
	if n == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "no column %s", errs.Quote(p))
	}
	return n, f.rowAligned(n)
}

// rowAligned checks that a field has one value per row: no list or map
// above it.
func (f *File) rowAligned(n *fieldNode) error {
	for p := n.parent; p != nil; p = p.parent {
		if _, ok := p.dt.(*arrow.StructType); !ok || p.packed {
			return errs.Wrap(ErrInvalidArgument, "field %s is inside %s %s: select the enclosing field", errs.Quote(n.path), p.dt, errs.Quote(p.path))
		}
	}
	return nil
}

// Read returns the selected rows of the selected columns as one record.
func (f *File) Read(o ReadOptions) (arrow.RecordBatch, error) {
	return f.ReadContext(context.Background(), o)
}

// ReadContext is Read that stops between pages once ctx is done.
func (f *File) ReadContext(ctx context.Context, o ReadOptions) (arrow.RecordBatch, error) {
	nodes, schema, a, b, err := f.selection(o)
	if err != nil {
		return nil, err
	}
	r := f.newReader()
	r.ctx = ctx
	defer r.release()
	return r.record(nodes, schema, a, b)
}

// Records yields the selected rows in batches of at most BatchRows.
// The caller releases each record.
func (f *File) Records(o ReadOptions) iter.Seq2[arrow.RecordBatch, error] {
	return f.records(context.Background(), o, false)
}

// RecordsContext is Records that stops between pages once ctx is done.
func (f *File) RecordsContext(ctx context.Context, o ReadOptions) iter.Seq2[arrow.RecordBatch, error] {
	return f.records(ctx, o, false)
}

func (f *File) records(ctx context.Context, o ReadOptions, strict bool) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		nodes, schema, a, b, err := f.selection(o)
		if err != nil {
			yield(nil, err)
			return
		}
		step := o.BatchRows
		if step <= 0 {
			step = DefaultBatchRows
		}
		bb := o.BatchBytes
		if bb <= 0 {
			bb = DefaultBatchBytes
		}
		if per := f.rowBytes(nodes); per > 0 {
			step = max(1, min(step, bb/per))
		}
		if len(nodes) == 0 {
			step = max(b-a, 1) // nothing to decode: one batch, however many rows
		}
		r := f.newReader()
		r.ctx = ctx
		r.strict = strict
		defer r.release()
		for s := a; s < b || (s == a && a == b); s += step {
			e := min(b, s+step)
			rec, err := r.record(nodes, schema, s, e)
			if !yield(rec, err) || err != nil || e == b {
				return
			}
		}
	}
}

func (r *reader) record(nodes []*fieldNode, schema *arrow.Schema, a, b int64) (arrow.RecordBatch, error) {
	r.mem = memBudget{limit: r.f.cfg.memLimit}
	if r.f.structural() {
		return r.record21(nodes, schema, a, b)
	}
	cols := make([]arrow.Array, len(nodes))
	for i, n := range nodes {
		c, err := r.field(n, a, b, 0)
		if err != nil {
			for _, x := range cols[:i] {
				x.Release()
			}
			return nil, err
		}
		cols[i] = c
	}
	rec := array.NewRecordBatch(schema, cols, b-a)
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// field reads rows [a, b) of a field (items, for a list's child).
func (r *reader) field(n *fieldNode, a, b int64, depth int) (arrow.Array, error) {
	f := r.f
	if depth > f.cfg.maxDepth {
		return nil, errs.At(ErrTooLarge, -1, n.path, "nesting deeper than %d", f.cfg.maxDepth)
	}
	switch t := n.dt.(type) {
	case *arrow.StructType:
		col := f.columns[n.col]
		if col.rows < b {
			return nil, errs.At(ErrLength, col.metaOff, col.path, "struct header has %d rows, %d needed", col.rows, b)
		}
		if r.strict {
			for _, p := range col.pages {
				if p.enc.GetStruct() == nil {
					return nil, errs.At(ErrCorrupt, col.metaOff, col.path, "struct header page %d is not a struct encoding", p.index)
				}
			}
		}
		children := make([]arrow.ArrayData, len(n.children))
		for i, c := range n.children {
			arr, err := r.field(c, a, b, depth+1)
			if err != nil {
				return nil, err
			}
			children[i] = arr.Data()
			defer arr.Release()
		}
		d := array.NewData(t, int(b-a), []*memory.Buffer{nil}, children, 0, 0)
		defer d.Release()
		return array.MakeFromData(d), nil
	case *arrow.ListType, *arrow.LargeListType:
		return r.list(n, n.children[0], n.dt, a, b, depth)
	}
	if n.legacyList {
		return r.list(n, nil, n.dt, a, b, depth)
	}
	return r.leaf(f.columns[n.col], n.dt, a, b)
}

// pageAt returns the index of the page holding row.
func pageAt(col *column, row int64) int {
	return sort.Search(len(col.pages), func(i int) bool {
		p := col.pages[i]
		return p.rowStart+p.length > row
	})
}

// decodePage decodes a whole page of a leaf column, through the cache.
func (r *reader) decodePage(col *column, pi int, dt arrow.DataType) (arrow.Array, error) {
	if c, ok := r.cache[col.index]; ok && c.page == pi {
		return c.arr, nil
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	p := col.pages[pi]
	w := &where{col: col, pg: p, path: fmt.Sprintf("%s page %d", col.path, pi), budget: &r.mem}
	a, err := r.f.array(w, p.enc, p.length, dt, 0)
	if err != nil {
		return nil, err
	}
	if c, ok := r.cache[col.index]; ok {
		c.arr.Release()
	}
	r.cache[col.index] = cachedPage{pi, a}
	return a, nil
}

// leaf reads rows [a, b) of a one-column field from the pages that hold them.
func (r *reader) leaf(col *column, dt arrow.DataType, a, b int64) (arrow.Array, error) {
	if col.rows < b {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "column has %d rows, %d needed", col.rows, b)
	}
	if a == b {
		return array.MakeArrayOfNull(r.f.cfg.mem, dt, 0), nil
	}
	if pi := pageAt(col, a); !r.general && pi < len(col.pages) && col.pages[pi].decoder != decGeneral {
		// The common case: one run of one direct decoder holds the rows.
		if k := col.pages[pi].decoder; runEnd(col, pi, k, b) == b {
			return r.leafRun(col, k, dt, a, b)
		}
	}
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	budget := joinBudget{f: r.f, path: col.path}
	for pi := pageAt(col, a); pi < len(col.pages) && col.pages[pi].rowStart < b; {
		p := col.pages[pi]
		if p.length == 0 {
			pi++
			continue
		}
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		var arr arrow.Array
		if k := p.decoder; k != decGeneral && !r.general {
			// A run of pages planned for one direct decoder: one range.
			s, e := p.rowStart+lo, runEnd(col, pi, k, b)
			for pi++; pi < len(col.pages) && col.pages[pi].rowStart < e; pi++ { // skip the run
			}
			var err error
			if arr, err = r.leafRun(col, k, dt, s, e); err != nil {
				return nil, err
			}
		} else {
			whole, err := r.decodePage(col, pi, dt)
			if err != nil {
				return nil, err
			}
			arr = array.NewSlice(whole, lo, hi)
			pi++
		}
		parts = append(parts, arr)
		if err := budget.add(arr); err != nil {
			return nil, err
		}
	}
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	out, err := array.Concatenate(parts, r.f.cfg.mem)
	if err != nil {
		return nil, errs.At(ErrCorrupt, -1, col.path, "joining pages: %v", err)
	}
	return out, nil
}

// runEnd is the end (at most b) of the run of pages planned for decoder k
// that starts with page pi; empty pages do not break a run.
func runEnd(col *column, pi int, k decoderKind, b int64) int64 {
	p := col.pages[pi]
	e := min(b, p.rowStart+p.length)
	for pj := pi + 1; pj < len(col.pages) && e < b; pj++ {
		if q := col.pages[pj]; q.length > 0 {
			if q.decoder != k {
				break
			}
			e = min(b, q.rowStart+q.length)
		}
	}
	return e
}

// leafRun runs the direct 2.0 decoder k on rows [a, b) of a leaf column.
func (r *reader) leafRun(col *column, k decoderKind, dt arrow.DataType, a, b int64) (arrow.Array, error) {
	if k == decBinary20 {
		return r.leafBinaryDirect(col, dt, a, b)
	}
	return r.leafDirect(col, dt, a, b)
}

// list reads rows [a, b) of a list field (or a 0.13 string stored as a
// list of u8 when item is nil). Offsets are page-local; a page's items
// start after the num_items of the column's earlier offsets pages.
func (r *reader) list(n, item *fieldNode, dt arrow.DataType, a, b int64, depth int) (arrow.Array, error) {
	f := r.f
	col := f.columns[n.col]
	if col.rows < b {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "list column has %d rows, %d needed", col.rows, b)
	}
	if a == b {
		return array.MakeArrayOfNull(f.cfg.mem, dt, 0), nil
	}
	if !r.general && col.decoder == decList20 {
		return r.listDirect(n, item, dt, a, b, depth)
	}
	// One segment per offsets page that holds wanted rows.
	type segment struct {
		rel    []int64 // n+1 offsets relative to ia
		ia, ib int64   // global item range
		vb     []byte
		nulls  int
		w      *where
	}
	var segs []segment
	var base int64
	for pi, p := range col.pages {
		le := p.enc.GetList()
		if le == nil {
			return nil, errs.At(ErrCorrupt, col.metaOff, col.path, "page %d of a list column is not a List encoding", pi)
		}
		if le.NumItems > 1<<62 {
			return nil, errs.At(ErrOffsets, col.metaOff, col.path, "page %d: %d items", pi, le.NumItems)
		}
		pageBase := base
		base += int64(le.NumItems)
		if base > 1<<62 {
			return nil, errs.At(ErrOffsets, col.metaOff, col.path, "page %d: item count overflows", pi)
		}
		if p.rowStart >= b {
			break
		}
		if p.rowStart+p.length <= a || p.length == 0 {
			continue
		}
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		w := &where{col: col, pg: p, path: fmt.Sprintf("%s page %d", col.path, pi), budget: &r.mem}
		offs, err := f.uints(w, le.GetOffsets(), p.length, 0)
		if err != nil {
			return nil, err
		}
		adj := le.NullOffsetAdjustment
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		cnt := hi - lo
		sg := segment{rel: make([]int64, cnt+1), w: w}
		var prev, first uint64
		// Rows before lo are checked too: they give lo its start.
		for i := int64(0); i < hi; i++ {
			v := offs[i]
			valid := adj == 0 || v < adj
			end := v
			if !valid {
				end = v - adj
			}
			if end < prev || (adj != 0 && end >= adj) || end > le.NumItems {
				return nil, errs.At(ErrOffsets, -1, w.path, "list %d ends at item %d after %d (adjustment %d, %d items)", i, end, prev, adj, le.NumItems)
			}
			if i == lo {
				first = prev
			}
			if i >= lo {
				sg.rel[i-lo+1] = int64(end - first)
				if !valid {
					if sg.vb == nil {
						sg.vb = make([]byte, bitutil.BytesForBits(cnt))
						bitutil.SetBitsTo(sg.vb, 0, cnt, true)
					}
					bitutil.ClearBit(sg.vb, int(i-lo))
					sg.nulls++
				}
			}
			prev = end
		}
		sg.ia = pageBase + int64(first)
		sg.ib = sg.ia + sg.rel[cnt]
		segs = append(segs, sg)
	}
	if len(segs) == 0 {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "no list pages for rows %d..%d", a, b)
	}
	// Usually each page's items follow the previous page's: then read the
	// items once and join the offsets. Otherwise build and join segments.
	contiguous := true
	for k := 1; k < len(segs); k++ {
		contiguous = contiguous && segs[k].ia == segs[k-1].ib
	}
	if len(segs) > 1 && contiguous {
		rows := b - a
		rel := make([]int64, rows+1)
		var vb []byte
		nulls := 0
		at := int64(0)
		for _, sg := range segs {
			shift := sg.ia - segs[0].ia
			cnt := int64(len(sg.rel) - 1)
			for i := int64(1); i <= cnt; i++ {
				rel[at+i] = sg.rel[i] + shift
			}
			if sg.nulls > 0 {
				if vb == nil {
					vb = make([]byte, bitutil.BytesForBits(rows))
					bitutil.SetBitsTo(vb, 0, rows, true)
				}
				bitutil.CopyBitmap(sg.vb, 0, int(cnt), vb, int(at))
				nulls += sg.nulls
			}
			at += cnt
		}
		segs = []segment{{rel: rel, ia: segs[0].ia, ib: segs[len(segs)-1].ib, vb: vb, nulls: nulls, w: segs[0].w}}
	}
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	budget := joinBudget{f: f, path: col.path}
	for _, sg := range segs {
		var part arrow.Array
		if item == nil {
			u8, err := r.leaf(f.columns[n.col+1], arrow.PrimitiveTypes.Uint8, sg.ia, sg.ib)
			if err != nil {
				return nil, err
			}
			data := u8.(*array.Uint8).Uint8Values()
			u8.Release()
			part, err = f.varBinary(sg.w, dt, sg.rel, data, sg.vb, sg.nulls)
			if err != nil {
				return nil, err
			}
		} else {
			items, err := r.field(item, sg.ia, sg.ib, depth+1)
			if err != nil {
				return nil, err
			}
			part, err = listArray(sg.w, dt, sg.rel, items, sg.vb, sg.nulls)
			items.Release()
			if err != nil {
				return nil, err
			}
		}
		parts = append(parts, part)
		if len(segs) > 1 {
			if err := budget.add(part); err != nil {
				return nil, err
			}
		}
	}
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	out, err := array.Concatenate(parts, f.cfg.mem)
	if err != nil {
		return nil, errs.At(ErrCorrupt, -1, col.path, "joining pages: %v", err)
	}
	return out, nil
}

func listArray(w *where, dt arrow.DataType, rel []int64, items arrow.Array, vb []byte, nulls int) (arrow.Array, error) {
	if dt.ID() == arrow.LARGE_LIST {
		return listArrayOffsets(dt, nil, rel, items, vb, nulls)
	}
	if rel[len(rel)-1] > math.MaxInt32 {
		return nil, errs.At(ErrTooLarge, -1, w.path, "%d list items need a large_list", rel[len(rel)-1])
	}
	o32 := make([]int32, len(rel))
	for i, v := range rel {
		o32[i] = int32(v)
	}
	return listArrayOffsets(dt, o32, nil, items, vb, nulls)
}

// listArrayOffsets builds a list array from o32 (list) or o64
// (large_list) offsets that start at 0.
func listArrayOffsets(dt arrow.DataType, o32 []int32, o64 []int64, items arrow.Array, vb []byte, nulls int) (arrow.Array, error) {
	var ob []byte
	n := len(o32) - 1
	if o64 != nil {
		ob = arrow.Int64Traits.CastToBytes(o64)
		n = len(o64) - 1
	} else {
		ob = arrow.Int32Traits.CastToBytes(o32)
	}
	var vbuf *memory.Buffer
	if nulls > 0 {
		vbuf = memory.NewBufferBytes(vb)
	}
	d := array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(ob)}, []arrow.ArrayData{items.Data()}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
