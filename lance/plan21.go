package lance

import "github.com/apache/arrow-go/v18/arrow"

// leafShape21 is where a leaf sits, as the direct decoders see it.
type leafShape21 uint8

const (
	shapeOther      leafShape21 = iota
	shapeTop                    // a top-level leaf (one item layer)
	shapeStructLeaf             // a leaf of a top-level struct (two item layers)
	shapeListLeaf               // the item of a top-level list (item + list layer)
)

func leafShape(leaf *fieldNode) leafShape21 {
	if leaf == nil || leaf.packed {
		return shapeOther
	}
	pn := leaf.parent
	if pn == nil {
		return shapeTop
	}
	if pn.parent != nil || pn.packed {
		return shapeOther
	}
	switch pn.dt.(type) {
	case *arrow.StructType:
		return shapeStructLeaf
	case *arrow.ListType, *arrow.LargeListType:
		if len(pn.children) == 1 {
			return shapeListLeaf
		}
	}
	return shapeOther
}

// planColumn21 picks each page's decoder. Unlike 2.0, the 2.1/2.2 choice
// is per page: a read runs consecutive pages of one decoder together and
// joins the runs when a column mixes them.
func (f *File) planColumn21(col *column) {
	for _, p := range col.pages {
		p.decoder = f.planPage21(col.field, p)
	}
}

// planPage21 is the decoder of page p of leaf: a direct one when the
// page's layout, the leaf's type and place, and the page's buffer sizes
// are all what it handles, else the general page decoder.
func (f *File) planPage21(leaf *fieldNode, p *page) decoderKind {
	if leaf == nil || p.layout == nil || p.layout.err != nil {
		return decGeneral
	}
	kind, dim := directKind(leaf.dt)
	if kind == 0 {
		return decGeneral
	}
	switch leafShape(leaf) {
	case shapeTop:
		if directPage(p, kind, dim, 1) && f.directBuffers21(p, false) || directFullZipPage(p, kind, dim, 1) {
			return decLeaf21
		}
	case shapeStructLeaf:
		if directPage(p, kind, dim, 2) && f.directBuffers21(p, false) || directFullZipPage(p, kind, dim, 2) {
			return decLeaf21
		}
	case shapeListLeaf:
		if directListPage(p, kind, dim) && f.directBuffers21(p, true) {
			return decList21
		}
	}
	return decGeneral
}

// directBuffers21 checks the sizes of a mini-block page's buffers from the
// metadata: chunk metadata a whole number of non-zero chunk words, every
// buffer (and, for the list decoder, which reads metadata and chunks into
// one scratch, both together) within WithMaxBufferSize, and a dictionary
// no larger than its buffer can hold.
func (f *File) directBuffers21(p *page, list bool) bool {
	pl := p.layout
	if len(p.buffers) < 2 {
		return false
	}
	meta, chunks := p.buffers[0], p.buffers[1]
	max := f.cfg.maxBuffer
	ws := int64(2)
	if pl.large {
		ws = 4
	}
	if meta.size == 0 || meta.size%ws != 0 || meta.size > max || chunks.size > max || meta.size > 1<<40 {
		return false
	}
	if list && meta.size+chunks.size > max {
		return false
	}
	if pl.dict != nil {
		if len(p.buffers) < 3 {
			return false
		}
		br := p.buffers[2]
		if br.size > max || pl.numDict > uint64(max) || pl.numDict > uint64(br.size)*8+1 && pl.numDict > 1<<20 {
			return false
		}
	}
	return true
}
