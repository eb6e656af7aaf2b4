package lance

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// planField20 plans the columns of a 2.0 field. The 2.0 direct decoders
// span pages (one output buffer for all the pages of a read), so the
// choice is per column: a column is direct when every non-empty page has
// the direct layout (and, for fixed width, the same row width); else
// every page of it runs the general decoder.
func (f *File) planField20(n *fieldNode, depth int) {
	if depth > f.cfg.maxDepth || n.col < 0 || n.col >= len(f.columns) {
		return
	}
	switch n.dt.(type) {
	case *arrow.StructType:
		for _, c := range n.children {
			f.planField20(c, depth+1)
		}
		return
	case *arrow.ListType, *arrow.LargeListType:
		f.setDecoder(f.columns[n.col], f.planList20(f.columns[n.col]))
		if len(n.children) == 1 {
			f.planField20(n.children[0], depth+1)
		}
		return
	}
	if n.legacyList {
		f.setDecoder(f.columns[n.col], f.planList20(f.columns[n.col]))
		if n.col+1 < len(f.columns) {
			c := f.columns[n.col+1]
			f.setDecoder(c, f.planLeaf20(c, arrow.PrimitiveTypes.Uint8))
		}
		return
	}
	c := f.columns[n.col]
	f.setDecoder(c, f.planLeaf20(c, n.dt))
}

func (f *File) setDecoder(c *column, k decoderKind) {
	c.decoder = k
	for _, p := range c.pages {
		p.decoder = k
	}
}

// planLeaf20 picks the decoder of a one-column field read as dt.
func (f *File) planLeaf20(col *column, dt arrow.DataType) decoderKind {
	fixed, binary := true, isVarBinary(dt)
	var rowBytes int64
	for _, p := range col.pages {
		if p.length == 0 {
			continue
		}
		if fixed {
			fp, ok := fixedLayout(p.enc, dt)
			ok = ok && (rowBytes == 0 || fp.rowBytes == rowBytes)
			for _, b := range []*encpb.Buffer{fp.values, fp.validity} {
				if ok && b != nil {
					_, ok = f.bufferRange(col, p, b)
				}
			}
			fixed, rowBytes = ok, fp.rowBytes
		}
		if binary {
			idx, data, _, ok := binaryLayout(p.enc)
			if ok {
				ir, ok1 := f.bufferRange(col, p, idx.Buffer)
				dr, ok2 := f.bufferRange(col, p, data.Buffer)
				ok = ok1 && ok2 && ir.size <= f.cfg.maxBuffer && dr.size <= f.cfg.maxBuffer
			}
			binary = ok
		}
	}
	switch {
	case fixed && rowBytes > 0:
		return decFixed20
	case binary && col.rows > 0:
		return decBinary20
	}
	return decGeneral
}

// planList20 picks the decoder of a list's offsets column: direct when
// every page is a List whose (non-empty) offsets are a plain u64 Flat in
// range, and the item counts add up without overflow.
func (f *File) planList20(col *column) decoderKind {
	var base int64
	any := false
	for _, p := range col.pages {
		le := p.enc.GetList()
		if le == nil || le.NumItems > 1<<62 {
			return decGeneral
		}
		base += int64(le.NumItems)
		if base > 1<<62 {
			return decGeneral
		}
		if p.length == 0 {
			continue
		}
		fl := plainFlat(le.GetOffsets(), 64)
		if fl == nil {
			return decGeneral
		}
		br, ok := f.bufferRange(col, p, fl.Buffer)
		if !ok || br.size > f.cfg.maxBuffer {
			return decGeneral
		}
		any = true
	}
	if !any {
		return decGeneral
	}
	return decList20
}
