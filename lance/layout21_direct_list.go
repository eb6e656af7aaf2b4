package lance

// The direct read path for a top-level list of fixed-width or string items
// (one list layer over the item layer): a page's rep/def levels are
// unpacked into scratch once, one scan turns the rows of the window into
// list offsets and validity and item validity, and only the items of those
// rows are copied from their chunks into the growing item buffers. The plan
// picks it per page (planPage21); as in layout21_direct.go, what the data gets
// wrong is a located error.

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
)

// directListPage reports whether the list path decodes page p.
func directListPage(p *page, kind, dim int) bool {
	pl := p.layout
	if kind == -1 {
		return false // bool items go the general way
	}
	if pl == nil || pl.err != nil || pl.kind != miniBlock || pl.rep == nil || pl.dict != nil ||
		pl.numBuffers != 1 || len(pl.layers) != 2 || len(p.buffers) < 2 || pl.value == nil {
		return false
	}
	if l := pl.layers[0]; l != allValidItem && l != nullableItem || !pl.layers[1].isList() {
		return false
	}
	if pl.def == nil && (pl.layers[0] != allValidItem || pl.layers[1] != allValidList) {
		return false
	}
	v := pl.value
	switch {
	case dim > 0:
		return v.kind == kFixedSizeList && !v.valid && int(v.dim) == dim && v.inner != nil &&
			v.inner.kind == kFlat && int(v.inner.bits)*dim == 8*kind
	case kind > 0:
		return (v.kind == kFlat && int(v.bits) == 8*kind) ||
			(v.kind == kInlineBitpack && int(v.bits) == 8*kind && kind <= 8)
	}
	return v.kind == kVariable && (v.bits == 32 || v.bits == 64)
}

// listOut is the list level of a direct list read.
type listOut struct {
	n     int
	o32   []int32
	o64   []int64
	valid []byte
	nulls int
	at    int
	rep   []uint16 // a page's levels
	def   []uint16
	rb    []byte // level scratch
	page  []byte // page buffer scratch
	db    []byte
}

// listDirect21 reads rows [a, b) (a < b) of a top-level list whose only
// child is the leaf, from pages the plan gave the direct list decoder.
func (r *reader) listDirect21(leaf *fieldNode, a, b int64) (arrow.ArrayData, error) {
	ln := leaf.parent
	_, large := ln.dt.(*arrow.LargeListType)
	kind, dim := directKind(leaf.dt)
	col := r.f.columns[leaf.col]
	return r.listRows(col, ln.dt, leaf.dt, large, kind, dim, pageAt(col, a), a, b)
}

func (r *reader) listRows(col *column, dt, itemType arrow.DataType, large bool, kind, dim, first int, a, b int64) (arrow.ArrayData, error) {
	n := b - a
	d := &dec{f: r.f, mem: &r.mem, path: col.path, off: col.metaOff}
	if n+1 > d.f.cfg.maxBuffer/8 {
		return nil, d.tooLarge("list offsets", n+1, 8)
	}
	lo := &listOut{n: int(n)}
	if large {
		if _, err := d.allocOffs(n+1, "list offsets"); err != nil {
			return nil, err
		}
		lo.o64 = make([]int64, n+1)
	} else {
		if err := d.mem.charge(4*(n+1), d.path, "list offsets"); err != nil {
			return nil, err
		}
		lo.o32 = make([]int32, n+1)
	}
	o := &directOut{kind: kind}
	for pi := first; pi < len(col.pages) && col.pages[pi].rowStart < b; pi++ {
		p := col.pages[pi]
		if p.length == 0 {
			continue
		}
		if p.decoder != decList21 {
			return nil, errs.At(ErrCorrupt, col.metaOff, col.path, "page %d is not planned for the direct list decoder", pi)
		}
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		plo := max(a, p.rowStart) - p.rowStart
		phi := min(b, p.rowStart+p.length) - p.rowStart
		d.path, d.off = p.path, p.buffers[1].off
		if err := r.listPage(d, lo, o, p, int(plo), int(phi), large); err != nil {
			return nil, err
		}
	}
	if lo.at != lo.n {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "pages hold %d of rows %d..%d", lo.at, a, b)
	}
	if !large && int64(o.at) > 1<<31-1 {
		return nil, errs.At(ErrTooLarge, -1, col.path, "%d list items need a large_list", o.at)
	}
	if large {
		lo.o64[lo.n] = int64(o.at)
	} else {
		lo.o32[lo.n] = int32(o.at)
	}
	child := o.itemData(itemType, dim)
	defer child.Release()
	var vbuf *memory.Buffer
	if lo.nulls > 0 {
		vbuf = memory.NewBufferBytes(lo.valid)
	}
	var ob []byte
	if large {
		ob = arrow.Int64Traits.CastToBytes(lo.o64)
	} else {
		ob = arrow.Int32Traits.CastToBytes(lo.o32)
	}
	return array.NewData(dt, lo.n, []*memory.Buffer{vbuf, memory.NewBufferBytes(ob)}, []arrow.ArrayData{child}, lo.nulls, 0), nil
}

type listChunk struct {
	vals []byte
	cnt  int
}

// listPage decodes rows [rlo, rhi) of a list page into lo and o.
func (r *reader) listPage(d *dec, lo *listOut, o *directOut, p *page, rlo, rhi int, large bool) error {
	pl := p.layout
	// Read the chunk metadata and the chunks into scratch kept across
	// pages (charged when it grows). The plan checked the sizes
	// (directBuffers21).
	mr, cr := p.buffers[0], p.buffers[1]
	total := int(mr.size + cr.size)
	if total > cap(lo.page) {
		if err := d.mem.charge(int64(total), d.path, "page buffer"); err != nil {
			return err
		}
		lo.page = make([]byte, total)
	}
	meta, chunks := lo.page[:mr.size], lo.page[mr.size:total]
	if err := r.f.readAt(meta, mr.off, d.path); err != nil {
		return err
	}
	if err := r.f.readAt(chunks, cr.off, d.path); err != nil {
		return err
	}
	ws := 2
	if pl.large {
		ws = 4
	}
	nchunks := len(meta) / ws
	lo.rep, lo.def = lo.rep[:0], lo.def[:0]
	var cks []listChunk
	remaining := pl.numItems
	pos := 0
	for i := 0; i < nchunks; i++ {
		var word uint64
		if pl.large {
			word = uint64(binary.LittleEndian.Uint32(meta[4*i:]))
		} else {
			word = uint64(binary.LittleEndian.Uint16(meta[2*i:]))
		}
		size := ((word >> 4) + 1) * 8
		var cnt uint64
		if i < nchunks-1 {
			cnt = 1 << (word & 0xf)
			if cnt > remaining {
				return errs.At(ErrCorrupt, mr.off+int64(i*ws), d.path, "chunk %d of %d items: only %d of the page's %d items are left", i, cnt, remaining, pl.numItems)
			}
		} else {
			cnt = remaining
		}
		remaining -= cnt
		if uint64(pos)+size > uint64(len(chunks)) {
			return errs.At(ErrCorrupt, mr.off+int64(i*ws), d.path, "chunk %d ends at byte %d of a %d-byte chunk buffer", i, uint64(pos)+size, len(chunks))
		}
		ch := chunks[pos : pos+int(size)]
		d.off = cr.off + int64(pos)
		pos += int(size)
		vb, err := r.listChunkLevels(d, lo, o, pl, ch)
		if err != nil {
			return err
		}
		cks = append(cks, listChunk{vb, int(cnt)})
	}
	// Scan the levels: rows, list validity and offsets, item validity.
	c0 := pl.layers[0].codes()
	nullCode, emptyCode := uint16(0), uint16(0)
	switch pl.layers[1] {
	case nullableList:
		nullCode = c0 + 1
	case emptyableList:
		emptyCode = c0 + 1
	case nullAndEmptyList:
		nullCode, emptyCode = c0+1, c0+2
	}
	maxDef := c0 + pl.layers[1].codes()
	rep, def := lo.rep, lo.def
	hasDef := pl.def != nil
	d.off = cr.off
	if len(rep) == 0 || hasDef && len(def) != len(rep) {
		return d.corrupt("%d repetition and %d definition levels", len(rep), len(def))
	}
	row, item := -1, 0
	itemLo, itemHi := -1, -1
	base := o.at // items already written
	for k, rp := range rep {
		var df uint16
		if hasDef {
			df = def[k]
		}
		if rp > 1 || df > maxDef {
			return d.corrupt("level %d: repetition %d, definition %d (at most 1 and %d)", k, rp, df, maxDef)
		}
		if rp == 1 {
			row++
			if row >= rlo && row < rhi {
				out := lo.at + row - rlo
				start := base
				if itemLo >= 0 {
					start += item - itemLo
				}
				if large {
					lo.o64[out] = int64(start)
				} else {
					lo.o32[out] = int32(start)
				}
				if df > c0 {
					if df == nullCode {
						if lo.valid == nil {
							vb, err := d.alloc(int64(lo.n+7)/8, "validity")
							if err != nil {
								return err
							}
							lo.valid = vb
							bitutil.SetBitsTo(lo.valid, 0, int64(out), true)
						}
						lo.nulls++
					} else if lo.valid != nil {
						lo.valid[out>>3] |= 1 << (out & 7)
					}
				} else if lo.valid != nil {
					lo.valid[out>>3] |= 1 << (out & 7)
				}
			}
		} else if row < 0 || df > c0 {
			return d.corrupt("level %d: an item before the first row, or a list code inside a list", k)
		}
		if df > c0 {
			if rp == 0 || (df != nullCode && df != emptyCode) {
				return d.corrupt("level %d: definition %d is not a null or empty list code", k, df)
			}
			continue
		}
		if row >= rlo && row < rhi {
			if itemLo < 0 {
				itemLo = item
			}
			itemHi = item + 1
		}
		item++
	}
	if row+1 != int(p.length) || uint64(item) != pl.numItems {
		return d.corrupt("levels give %d rows and %d items for a page of %d rows and %d items", row+1, item, p.length, pl.numItems)
	}
	if itemLo < 0 {
		itemLo, itemHi = 0, 0
	}
	// Expect the rest of the batch to hold as many items per row as
	// this page's window.
	hint := itemHi - itemLo
	if rows := rhi - rlo; rows > 0 {
		hint += int(int64(hint) * int64(lo.n-lo.at-rows) / int64(rows))
		hint += hint / 8
	}
	if err := o.grow(d, itemHi-itemLo, hint); err != nil {
		return err
	}
	// Item validity from the def levels of the window's items.
	if c0 > 0 && hasDef {
		it := 0
		for _, df := range def {
			if df > c0 {
				continue
			}
			if it >= itemLo && it < itemHi {
				at := o.at + it - itemLo
				if df == 0 {
					o.markValid(at)
				} else if err := o.markNull(d, at); err != nil {
					return err
				}
			}
			it++
		}
	} else if o.valid != nil {
		bitutil.SetBitsTo(o.valid, int64(o.at), int64(itemHi-itemLo), true)
	}
	// Copy the window's items chunk by chunk.
	at := 0
	for _, c := range cks {
		s, e := max(itemLo, at), min(itemHi, at+c.cnt)
		if s < e {
			if err := o.values(d, pl.value, c.vals, c.cnt, s-at, e-at); err != nil {
				return err
			}
		}
		at += c.cnt
	}
	lo.at += rhi - rlo
	return nil
}

// listChunkLevels appends a chunk's rep and def levels to lo and returns
// its value buffer.
func (r *reader) listChunkLevels(d *dec, lo *listOut, o *directOut, pl *pagePlan, ch []byte) ([]byte, error) {
	hdr := 4
	if pl.def != nil {
		hdr += 2
	}
	sw := 2
	if pl.large {
		sw = 4
	}
	hdr += sw
	if hdr > len(ch) {
		return nil, d.corrupt("chunk of %d bytes is shorter than its %d-byte header", len(ch), hdr)
	}
	nlev := int(binary.LittleEndian.Uint16(ch))
	at := 2
	repSize := int(binary.LittleEndian.Uint16(ch[at:]))
	at += 2
	defSize := 0
	if pl.def != nil {
		defSize = int(binary.LittleEndian.Uint16(ch[at:]))
		at += 2
	}
	var size int
	if pl.large {
		size = int(binary.LittleEndian.Uint32(ch[at:]))
	} else {
		size = int(binary.LittleEndian.Uint16(ch[at:]))
	}
	at = pad8(at + sw)
	take := func(n int, what string) ([]byte, error) {
		if n < 0 || at > len(ch) || n > len(ch)-at {
			return nil, d.corrupt("%s of %d bytes overrun the %d-byte chunk", what, n, len(ch))
		}
		b := ch[at : at+n]
		at = pad8(at + n)
		return b, nil
	}
	rb, err := take(repSize, "repetition levels")
	if err != nil {
		return nil, err
	}
	raw, err := o.levels(d, pl.rep, rb, nlev, &lo.rb)
	if err != nil {
		return nil, err
	}
	if len(lo.rep)+nlev > cap(lo.rep) {
		if err := d.mem.charge(4*int64(len(lo.rep)+nlev), d.path, "levels"); err != nil {
			return nil, err
		}
	}
	for i := 0; i < nlev; i++ {
		lo.rep = append(lo.rep, binary.LittleEndian.Uint16(raw[2*i:]))
	}
	if pl.def != nil {
		db, err := take(defSize, "definition levels")
		if err != nil {
			return nil, err
		}
		raw, err := o.levels(d, pl.def, db, nlev, &lo.db)
		if err != nil {
			return nil, err
		}
		for i := 0; i < nlev; i++ {
			lo.def = append(lo.def, binary.LittleEndian.Uint16(raw[2*i:]))
		}
	}
	return take(size, "values")
}
