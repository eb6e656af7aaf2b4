package lance

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// planField20 plans the columns of a 2.0 field. A leaf column is planned
// per page (planLeaf20): a read runs consecutive pages of one direct
// decoder as one range into one output buffer and joins runs of different
// decoders. A list's offsets column is planned as a whole (planList20):
// its direct decoder writes all pages' offsets into one buffer and reads
// the items once per run.
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
			f.planLeaf20(f.columns[n.col+1], arrow.PrimitiveTypes.Uint8)
		}
		return
	}
	f.planLeaf20(f.columns[n.col], n.dt)
}

func (f *File) setDecoder(c *column, k decoderKind) {
	c.decoder = k
	for _, p := range c.pages {
		p.decoder = k
	}
}

// planLeaf20 picks the decoder of each page of a one-column field read as
// dt: direct fixed-width when the page is uncompressed fixed-width values
// of dt's row width (possibly all null) with its buffers in range, direct
// Binary when it is plain Binary with its buffers in range and within
// WithMaxBufferSize, else general.
func (f *File) planLeaf20(col *column, dt arrow.DataType) {
	rowBytes, fixedType := fixedRowBytes(dt)
	binaryType := isVarBinary(dt)
	for _, p := range col.pages {
		p.decoder = decGeneral
		if fixedType {
			fp, ok := fixedLayout(p.enc, dt)
			ok = ok && fp.rowBytes == rowBytes
			for _, b := range []*encpb.Buffer{fp.values, fp.validity} {
				if ok && b != nil {
					_, ok = f.bufferRange(col, p, b)
				}
			}
			if ok {
				p.decoder = decFixed20
			}
		}
		if binaryType {
			if idx, data, _, ok := binaryLayout(p.enc); ok {
				ir, ok1 := f.bufferRange(col, p, idx.Buffer)
				dr, ok2 := f.bufferRange(col, p, data.Buffer)
				if ok1 && ok2 && ir.size <= f.cfg.maxBuffer && dr.size <= f.cfg.maxBuffer {
					p.decoder = decBinary20
				}
			}
		}
	}
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
