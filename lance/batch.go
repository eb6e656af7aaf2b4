package lance

import "github.com/apache/arrow-go/v18/arrow"

// rowBytes estimates the decoded bytes of one row of the given fields, so
// Records can cut batches by size: fixed-width parts count their width
// (plus a validity bit rounded up to a byte), variable parts count the
// bytes their columns store per row.
func (f *File) rowBytes(nodes []*fieldNode) int64 {
	var per int64
	for _, n := range nodes {
		per += f.nodeRowBytes(n, 0)
	}
	return per
}

func (f *File) nodeRowBytes(n *fieldNode, depth int) int64 {
	if depth > f.cfg.maxDepth {
		return 0
	}
	if w, ok := valueRowBytes(n.dt); ok {
		return w + 1
	}
	if st, ok := n.dt.(*arrow.StructType); ok && len(n.children) == st.NumFields() {
		var s int64 = 1
		for _, c := range n.children {
			s += f.nodeRowBytes(c, depth+1)
		}
		return s
	}
	return f.storedRowBytes(n) + 1
}

// valueRowBytes is the value width of a fixed-width type, fixed-size lists
// of fixed-width items included.
func valueRowBytes(dt arrow.DataType) (int64, bool) {
	switch t := dt.(type) {
	case *arrow.FixedSizeListType:
		w, ok := valueRowBytes(t.Elem())
		if !ok {
			return 0, false
		}
		return int64(t.Len()) * (w + 1), true
	case *arrow.BooleanType:
		return 1, true
	case arrow.FixedWidthDataType:
		if dt.ID() == arrow.NULL || dt.ID() == arrow.DICTIONARY {
			return 0, false
		}
		return int64(t.BitWidth()+7) / 8, true
	}
	return 0, false
}

// storedRowBytes is the bytes the columns of n store, per file row.
func (f *File) storedRowBytes(n *fieldNode) int64 {
	if f.numRows <= 0 {
		return 0
	}
	var total int64
	for _, c := range f.nodeColumns(n) {
		for _, p := range c.pages {
			for _, b := range p.buffers {
				total += b.size
			}
		}
	}
	return total / f.numRows
}

// nodeColumns returns the physical columns of a field and its descendants.
func (f *File) nodeColumns(n *fieldNode) []*column {
	if f.structural() {
		var cs []*column
		for _, l := range leavesOf(n, nil) {
			cs = append(cs, f.columns[l.col])
		}
		return cs
	}
	k := colCount(n)
	if n.col < 0 || n.col+k > len(f.columns) {
		return nil
	}
	return f.columns[n.col : n.col+k]
}

// colCount is how many columns a 2.0 writer gives a field: one per struct
// header, list offsets and leaf; two for a 0.13 List+u8 string.
func colCount(n *fieldNode) int {
	if n.legacyList {
		return 2
	}
	k := 1
	for _, c := range n.children {
		k += colCount(c)
	}
	return k
}
