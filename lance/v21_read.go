package lance

// Running the plan of a 2.1/2.2 file: per selected field, each leaf column
// decodes the pages that hold the rows (v21_layouts.go), assembles them
// into path arrays (v21_repdef.go), and mergePaths joins the leaves of a
// field into its Arrow array. The common leaves (top level, in a top-level
// struct or list; mini-block pages of flat, bit-packed, dictionary or
// variable values) take the direct path first (v21_direct.go,
// v21_direct_list.go): only the chunks of the requested rows, decoded
// straight into the output buffers.

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
)

func (r *reader) record21(nodes []*fieldNode, schema *arrow.Schema, a, b int64) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(nodes))
	for i, n := range nodes {
		if err := r.ctx.Err(); err != nil {
			releaseAll(cols[:i])
			return nil, err
		}
		c, err := r.field21(n, a, b)
		if err != nil {
			releaseAll(cols[:i])
			return nil, err
		}
		cols[i] = c
	}
	rec := array.NewRecordBatch(schema, cols, b-a)
	releaseAll(cols)
	return rec, nil
}

func releaseAll(as []arrow.Array) {
	for _, x := range as {
		if x != nil {
			x.Release()
		}
	}
}

// leavesOf lists the leaf fields (those with a column) under n, in column
// order.
func leavesOf(n *fieldNode, out []*fieldNode) []*fieldNode {
	if n.col >= 0 {
		return append(out, n)
	}
	for _, c := range n.children {
		out = leavesOf(c, out)
	}
	return out
}

func pathOf(n *fieldNode) []*fieldNode {
	var p []*fieldNode
	for x := n; x != nil; x = x.parent {
		p = append(p, x)
	}
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// field21 reads rows [a, b) of a field (top level, or nested in structs).
func (r *reader) field21(n *fieldNode, a, b int64) (arrow.Array, error) {
	leaves := leavesOf(n, nil)
	if len(leaves) == 0 {
		return nil, errs.At(ErrUnsupported, -1, errs.Quote(n.path), "field without leaf columns")
	}
	depth := len(pathOf(n)) - 1
	datas := make([]arrow.ArrayData, len(leaves))
	release := func() {
		for _, d := range datas {
			if d != nil {
				d.Release()
			}
		}
	}
	for i, l := range leaves {
		d, err := r.leafRows21(l, a, b)
		if err != nil {
			release()
			return nil, err
		}
		// Descend from the top-level field to n through single-child
		// structs (rows stay aligned).
		for k := 0; k < depth; k++ {
			if len(d.Children()) != 1 || d.Offset() != 0 {
				d.Release()
				release()
				return nil, errs.At(ErrCorrupt, -1, errs.Quote(n.path), "bad path array")
			}
			c := d.Children()[0]
			c.Retain()
			d.Release()
			d = c
		}
		datas[i] = d
	}
	out, err := mergePaths(n, n.dt, datas)
	release()
	if err != nil {
		return nil, err
	}
	defer out.Release()
	return array.MakeFromData(out), nil
}

// mergePaths joins the path arrays of the leaves under n (one each, in
// column order) into n's array of type dt.
func mergePaths(n *fieldNode, dt arrow.DataType, datas []arrow.ArrayData) (arrow.ArrayData, error) {
	first := datas[0]
	for _, d := range datas[1:] {
		if d.Len() != first.Len() {
			return nil, errs.At(ErrCorrupt, -1, errs.Quote(n.path), "leaf columns disagree on the length: %d and %d", first.Len(), d.Len())
		}
	}
	if n.col >= 0 {
		first.Retain()
		return first, nil
	}
	group := func(c *fieldNode, at int) ([]arrow.ArrayData, int) {
		k := len(leavesOf(c, nil))
		sub := make([]arrow.ArrayData, k)
		for i := 0; i < k; i++ {
			sub[i] = datas[at+i].Children()[0]
		}
		return sub, at + k
	}
	switch t := dt.(type) {
	case *arrow.StructType:
		kids := make([]arrow.ArrayData, len(n.children))
		at := 0
		for i, c := range n.children {
			var sub []arrow.ArrayData
			sub, at = group(c, at)
			k, err := mergePaths(c, t.Field(i).Type, sub)
			if err != nil {
				for _, x := range kids[:i] {
					x.Release()
				}
				return nil, err
			}
			kids[i] = k
		}
		out := array.NewData(dt, first.Len(), []*memory.Buffer{first.Buffers()[0]}, kids, first.NullN(), first.Offset())
		for _, k := range kids {
			k.Release()
		}
		return out, nil
	case *arrow.ListType, *arrow.LargeListType, *arrow.MapType:
		var et arrow.DataType
		switch lt := t.(type) {
		case *arrow.ListType:
			et = lt.Elem()
		case *arrow.LargeListType:
			et = lt.Elem()
		case *arrow.MapType:
			et = lt.Elem()
		}
		sub, _ := group(n.children[0], 0)
		child, err := mergePaths(n.children[0], et, sub)
		if err != nil {
			return nil, err
		}
		out := array.NewData(dt, first.Len(), first.Buffers()[:2], []arrow.ArrayData{child}, first.NullN(), first.Offset())
		child.Release()
		return out, nil
	}
	return nil, errs.At(ErrCorrupt, -1, errs.Quote(n.path), "%s field without a column", dt)
}

// leafRows21 returns the path array of a leaf for rows [a, b), with
// offset 0 at every level.
func (r *reader) leafRows21(leaf *fieldNode, a, b int64) (arrow.ArrayData, error) {
	if d, ok := r.leafDirect21(leaf, a, b); ok {
		return d, nil
	}
	if d, ok := r.listDirect21(leaf, a, b); ok {
		return d, nil
	}
	col := r.f.columns[leaf.col]
	path := pathOf(leaf)
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	if a == b {
		// An empty batch: decode nothing, build an empty path array from
		// the first page's shape.
		if len(col.pages) == 0 {
			return nil, errs.At(ErrLength, col.metaOff, col.path, "column without pages")
		}
	}
	first := pageAt(col, a)
	if a == b && first == len(col.pages) {
		// An empty read at the end (or of an empty file, whose pages
		// hold no rows): any page gives the shape.
		first = len(col.pages) - 1
	}
	for pi := first; pi < len(col.pages) && (col.pages[pi].rowStart < b || a == b); pi++ {
		p := col.pages[pi]
		if p.length == 0 && a != b {
			continue
		}
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		if a == b {
			lo, hi = 0, 0
		}
		if p.layout.rowSliceable(p) {
			arr, err := r.windowPath21(col, pi, path, hi-lo)
			if err != nil {
				return nil, err
			}
			parts = append(parts, arr)
			if a == b {
				break
			}
			continue
		}
		arr, err := r.pagePath21(col, pi, path)
		if err != nil {
			return nil, err
		}
		parts = append(parts, array.NewSlice(arr, lo, hi))
		if a == b {
			break
		}
	}
	if len(parts) == 0 {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "no page holds rows %d..%d", a, b)
	}
	if len(parts) == 1 && parts[0].Data().Offset() == 0 && (int64(parts[0].Len()) == r.pageLen(col, a) || int64(parts[0].Len()) == b-a) {
		d := parts[0].Data()
		d.Retain()
		return d, nil
	}
	out, err := array.Concatenate(parts, r.f.cfg.mem)
	if err != nil {
		return nil, errs.At(ErrCorrupt, -1, col.path, "joining pages: %v", err)
	}
	d := out.Data()
	d.Retain()
	out.Release()
	return d, nil
}

// pageLen is the length of the page holding row a.
func (r *reader) pageLen(col *column, a int64) int64 {
	pi := pageAt(col, a)
	if pi < len(col.pages) {
		return col.pages[pi].length
	}
	return -1
}

// pagePath21 decodes and assembles one page, through the reader's cache.
func (r *reader) pagePath21(col *column, pi int, path []*fieldNode) (arrow.Array, error) {
	if c, ok := r.cache[col.index]; ok && c.page == pi {
		return c.arr, nil
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	pd, d, err := r.decodePage21(col, pi, -1)
	if err != nil {
		return nil, err
	}
	data, err := d.assemble(pd, path, col.pages[pi].layout.layers)
	if err != nil {
		return nil, err
	}
	arr := array.MakeFromData(data)
	data.Release()
	if c, ok := r.cache[col.index]; ok {
		c.arr.Release()
	}
	r.cache[col.index] = cachedPage{pi, arr}
	return arr, nil
}

// windowPath21 decodes rows of a row-sliceable page without caching it.
func (r *reader) windowPath21(col *column, pi int, path []*fieldNode, rows int64) (arrow.Array, error) {
	pd, d, err := r.decodePage21(col, pi, rows)
	if err != nil {
		return nil, err
	}
	data, err := d.assemble(pd, path, col.pages[pi].layout.layers)
	if err != nil {
		return nil, err
	}
	defer data.Release()
	return array.MakeFromData(data), nil
}
