package lance

// The direct decoder of 2.1/2.2 for the common leaf: a top-level
// fixed-width or string/binary column (or a leaf of a top-level struct)
// whose pages are mini-block pages without repetition (no lists), with
// flat, inline bit-packed, dictionary or variable values. It decodes only
// the chunks that hold the requested rows, straight into the output Arrow
// buffers, which are sized from the row window before the first page is
// read: no per-page array, no Concatenate, and the only page-sized memory
// is the slice of the chunk buffer that covers the rows.
//
// The plan (planPage21) picks it per page from the page's layout, the
// leaf's type and place and the page's buffer sizes; what the data says
// (chunk words, headers, levels, offsets, indices) is checked while
// decoding and a violation is a located ErrCorrupt.

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
)

// directKind classifies a leaf type for the direct path: kind 0 = not
// handled, else the byte width of a fixed-width value (of a whole
// fixed-size list of dim fixed-width items when dim > 0), -1 for a bool
// (a bitmap), or -4/-8 for 32/64-bit offsets of a string or binary.
func directKind(dt arrow.DataType) (kind, dim int) {
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY:
		return -4, 0
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return -8, 0
	case arrow.FIXED_SIZE_LIST:
		t := dt.(*arrow.FixedSizeListType)
		w, inner := directKind(t.Elem())
		if w <= 0 || inner != 0 || t.Len() <= 0 || t.Len() > 1<<20 {
			return 0, 0
		}
		return w * int(t.Len()), int(t.Len())
	case arrow.BOOL:
		return -1, 0
	case arrow.DICTIONARY, arrow.STRUCT, arrow.NULL, arrow.EXTENSION:
		return 0, 0
	}
	t, ok := dt.(arrow.FixedWidthDataType)
	if !ok || t.BitWidth()%8 != 0 || t.BitWidth() == 0 || t.BitWidth() > 1<<16 {
		return 0, 0
	}
	return t.BitWidth() / 8, 0
}

// directPage reports whether the direct path decodes page p of a leaf of
// the given kind.
func directPage(p *page, kind, dim, layers int) bool {
	pl := p.layout
	if pl == nil || pl.err != nil || pl.kind != miniBlock || pl.rep != nil || pl.repIndex ||
		pl.numBuffers != 1 || len(pl.layers) != layers || pl.value == nil {
		return false
	}
	nullable := false
	for _, l := range pl.layers {
		switch l {
		case allValidItem:
		case nullableItem:
			nullable = true
		default:
			return false
		}
	}
	if !nullable && pl.def != nil {
		return false
	}
	if pl.numItems != uint64(p.length) {
		return false
	}
	v := pl.value
	if kind == -1 {
		// Bools: flat 1-bit values, a bitmap.
		return pl.dict == nil && len(p.buffers) == 2 && v.kind == kFlat && v.bits == 1
	}
	if pl.dict != nil {
		// Dictionary indices, flat or bit-packed, of 8 to 64 bits.
		return len(p.buffers) == 3 && dim == 0 && (v.kind == kFlat || v.kind == kInlineBitpack) &&
			(v.bits == 8 || v.bits == 16 || v.bits == 32 || v.bits == 64)
	}
	if len(p.buffers) != 2 {
		return false
	}
	if decodedChunks(v, kind, dim) {
		return true
	}
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

// decodedChunks reports a chunk value encoding the direct leaf decoder
// runs through the general chunk decoder (dec.mini) and then copies the
// wanted items from: byte-stream-split of the leaf's width, FSST over
// variable values, and general LZ4/zstd over those or over flat or
// bit-packed values, for leaves without fixed-size lists.
func decodedChunks(v *cnode, kind, dim int) bool {
	if v == nil || dim != 0 || kind == 0 || kind == -1 {
		return false
	}
	inner := v
	if v.kind == kGeneral {
		inner = v.inner
		if inner == nil {
			return false
		}
	}
	variable := func(c *cnode) bool { return c != nil && c.kind == kVariable && (c.bits == 32 || c.bits == 64) }
	if kind < 0 {
		return inner.kind == kFsst && variable(inner.inner) || v.kind == kGeneral && variable(inner)
	}
	switch inner.kind {
	case kByteStreamSplit:
		return inner.inner != nil && int(inner.inner.bits) == 8*kind
	case kFlat, kInlineBitpack:
		return v.kind == kGeneral && int(inner.bits) == 8*kind && (inner.kind == kFlat || kind <= 8)
	}
	return false
}

// decoded decodes a chunk's cnt values through the general chunk decoder
// and copies items [a, b) to the output at o.at.
func (o *directOut) decoded(d *dec, v *cnode, vb []byte, cnt, a, b int) error {
	if o.kind < 0 && v.kind == kFsst && v.fsst != nil && v.inner != nil && v.inner.kind == kVariable {
		return o.fsstValues(d, v, vb, cnt, a, b)
	}
	vv, err := d.mini(v, [][]byte{vb}, cnt)
	if err != nil {
		return err
	}
	row := o.at
	if o.kind > 0 {
		w := o.kind
		if vv.variable() || vv.bits != 8*w || vv.kids != nil || vv.dims != nil || int64(len(vv.data)) < int64(cnt)*int64(w) {
			return d.corrupt("chunk decodes to %d-bit values, want %d of %d bits", vv.bits, cnt, 8*w)
		}
		copy(o.data[row*w:], vv.data[a*w:b*w])
		return nil
	}
	if !vv.variable() || len(vv.offs) != cnt+1 {
		return d.corrupt("chunk decodes to %d values, want %d variable ones", vv.n, cnt)
	}
	s, e := vv.offs[a], vv.offs[b]
	if s < 0 || e < s || e > int64(len(vv.data)) {
		return d.corrupt("items %d..%d span bytes %d..%d of %d", a, b, s, e, len(vv.data))
	}
	base := int64(len(o.data))
	if err := o.reserve(d, e-s, b-a); err != nil {
		return err
	}
	o.data = append(o.data, vv.data[s:e]...)
	prev := s
	for i := a + 1; i <= b; i++ {
		x := vv.offs[i]
		if x < prev || x > e {
			return d.corrupt("offset %d of item %d is below %d or above %d", x, i, prev, e)
		}
		prev = x
		if o.kind == -4 {
			o.o32[row+i-a] = int32(base + x - s)
		} else {
			o.o64[row+i-a] = base + x - s
		}
	}
	return nil
}

// fsstValues decodes items [a, b) of a chunk of cnt FSST strings
// straight into the output at o.at: the chunk's offsets and every code
// are checked as the general decoder (fsstDecode) checks them, then only
// the wanted items are decoded, one 8-byte store per symbol into the
// output's slack.
func (o *directOut) fsstValues(d *dec, v *cnode, vb []byte, cnt, a, b int) error {
	in, err := d.miniVariable(vb, int(v.inner.bits), cnt)
	if err != nil {
		return err
	}
	t := v.fsst
	var total, want int64
	for i := 0; i < cnt; i++ {
		l, err := t.decodedLen(in.data[in.offs[i]:in.offs[i+1]])
		if err != nil {
			return errs.Locate(err, d.off, d.path)
		}
		total += int64(l)
		if i >= a && i < b {
			want += int64(l)
		}
	}
	if total > d.f.cfg.maxBuffer {
		return errs.TooLarge(ErrTooLarge, d.off, d.path, "FSST output", uint64(total), d.f.cfg.maxBuffer)
	}
	if err := o.reserve(d, want, b-a); err != nil {
		return err
	}
	if int64(cap(o.data)-len(o.data)) < want+8 {
		if err := o.reserve(d, want+8, b-a); err != nil {
			return err
		}
	}
	buf := o.data[:cap(o.data)]
	at := len(o.data)
	row := o.at
	for i := a; i < b; i++ {
		at = t.decodeInto(buf, at, in.data[in.offs[i]:in.offs[i+1]])
		if o.kind == -4 {
			o.o32[row+i-a+1] = int32(at)
		} else {
			o.o64[row+i-a+1] = int64(at)
		}
	}
	o.data = buf[:at]
	return nil
}

// directOut is the output of one direct read.
type directOut struct {
	kind  int
	n     int
	data  []byte  // fixed: n*kind bytes; variable: the bytes
	o32   []int32 // variable with 32-bit offsets
	o64   []int64
	valid []byte // nil until a null is seen
	nulls int
	at    int // rows written
	// scratch
	chunk  []byte // chunk bytes read from the file
	lvb    []byte // def levels of a chunk, u16 words
	lvc    []byte // one unpacked block of levels
	unp    []byte // one unpacked FastLanes block
	sv     []byte // struct validity (leaf of a struct), nil until a null
	ivalid []byte // fixed-size list item validity (full-zip pages), nil if none
	inulls int
	snulls int
	dict   *vals  // the page's dictionary
	idx    []byte // dictionary indices of a chunk
}

// leafDirect21 reads rows [a, b) (a < b) of a top-level leaf, or a leaf of
// a top-level struct, from pages the plan gave the direct leaf decoder:
// pages first..last.
func (r *reader) leafDirect21(leaf *fieldNode, a, b int64) (arrow.ArrayData, error) {
	kind, dim := directKind(leaf.dt)
	col := r.f.columns[leaf.col]
	out, err := r.directRows(col, leaf.dt, kind, dim, pageAt(col, a), a, b)
	if err != nil {
		return nil, err
	}
	if leafShape(leaf) == shapeStructLeaf {
		// The path array: a struct over the leaf, its validity from the
		// struct layer's def codes.
		var vbuf *memory.Buffer
		if out.snulls > 0 {
			vbuf = memory.NewBufferBytes(out.sv)
		}
		// The child's nullability comes from the struct's type, as in the
		// general decoder, so pages read either way concatenate.
		dt := arrow.StructOf(arrow.Field{Name: leaf.name, Type: leaf.dt, Nullable: childNullable(leaf.parent.dt, leaf.name)})
		st := array.NewData(dt, int(b-a), []*memory.Buffer{vbuf}, []arrow.ArrayData{out.data}, out.snulls, 0)
		out.data.Release()
		return st, nil
	}
	return out.data, nil
}

// directResult is a direct read: the leaf array and, for a leaf of a
// struct, the struct's validity.
type directResult struct {
	data   arrow.ArrayData
	sv     []byte
	snulls int
}

func (r *reader) directRows(col *column, dt arrow.DataType, kind, dim int, first int, a, b int64) (directResult, error) {
	n := b - a
	d := &dec{f: r.f, mem: &r.mem, path: col.path, off: col.metaOff}
	o := &directOut{kind: kind, n: int(n)}
	if kind == -1 {
		data, err := d.alloc((n+7)/8, "bool values")
		if err != nil {
			return directResult{}, err
		}
		o.data = data
	} else if kind > 0 {
		if n > d.f.cfg.maxBuffer/int64(kind) {
			return directResult{}, d.tooLarge("values", n, int64(kind))
		}
		data, err := d.alloc(n*int64(kind), "values")
		if err != nil {
			return directResult{}, err
		}
		o.data = data
	} else {
		if kind == -4 {
			if n+1 > d.f.cfg.maxBuffer/4 {
				return directResult{}, d.tooLarge("offsets", n+1, 4)
			}
			if err := d.mem.charge(4*(n+1), d.path, "offsets"); err != nil {
				return directResult{}, err
			}
			o.o32 = make([]int32, n+1)
		} else {
			if _, err := d.allocOffs(n+1, "offsets"); err != nil {
				return directResult{}, err
			}
			o.o64 = make([]int64, n+1)
		}
	}
	for pi := first; pi < len(col.pages) && col.pages[pi].rowStart < b; pi++ {
		p := col.pages[pi]
		if p.length == 0 {
			continue
		}
		if p.decoder != decLeaf21 {
			return directResult{}, errs.At(ErrCorrupt, col.metaOff, col.path, "page %d is not planned for the direct leaf decoder", pi)
		}
		if err := r.ctx.Err(); err != nil {
			return directResult{}, err
		}
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		at0 := o.at
		if p.layout.kind == fullZip {
			d.path, d.off = p.path, p.buffers[0].off
			if err := r.directFullZip(d, o, p, int(lo), int(hi)); err != nil {
				return directResult{}, err
			}
		} else {
			d.path, d.off = p.path, p.buffers[1].off
			if err := r.directPage(d, o, p, int(lo), int(hi)); err != nil {
				return directResult{}, err
			}
		}
		if o.ivalid != nil && !itemValidity(p) {
			// A page without item validity after one with: its items are valid.
			bitutil.SetBitsTo(o.ivalid, int64(at0)*int64(dim), int64(o.at-at0)*int64(dim), true)
		}
	}
	if o.at != o.n {
		return directResult{}, errs.At(ErrLength, col.metaOff, col.path, "pages hold %d of rows %d..%d", o.at, a, b)
	}
	return directResult{o.itemData(dt, dim), o.sv, o.snulls}, nil
}

// itemValidity reports a full-zip page whose fixed-size list values carry
// item validity bits (directFullZip fills o.ivalid from them).
func itemValidity(p *page) bool {
	v := p.layout.value
	return p.layout.kind == fullZip && v != nil && v.kind == kFixedSizeList && v.valid
}

// pagePath names page pi of col in errors.
func pagePath(col *column, pi int) string {
	return col.path + " page " + strconv.Itoa(pi)
}

// tooLarge is the ErrTooLarge of n items of w bytes over WithMaxBufferSize.
func (d *dec) tooLarge(what string, n, w int64) error {
	sz, ok := errs.MulSize(n, w)
	if !ok {
		sz = math.MaxInt64
	}
	return errs.TooLarge(ErrTooLarge, d.off, d.path, what, uint64(sz), d.f.cfg.maxBuffer)
}

// directPage decodes rows [lo, hi) of a page into o.
func (r *reader) directPage(d *dec, o *directOut, p *page, lo, hi int) error {
	pl := p.layout
	// The plan checked the buffer sizes (directBuffers21).
	metaRange, chunkRange := p.buffers[0], p.buffers[1]
	ws := int64(2)
	if pl.large {
		ws = 4
	}
	if err := d.mem.charge(metaRange.size, d.path, "page buffer"); err != nil {
		return err
	}
	meta := make([]byte, metaRange.size)
	if err := r.f.readAt(meta, metaRange.off, d.path); err != nil {
		return err
	}
	o.dict = nil
	if pl.dict != nil {
		if err := r.directDict(d, o, p); err != nil {
			return err
		}
	}
	nchunks := int(metaRange.size / ws)
	// Find the chunks that hold rows lo..hi and their bytes.
	type span struct{ row, cnt, pos, size int }
	var spans [64]span
	sp := spans[:0]
	remaining := pl.numItems
	row, pos := 0, int64(0)
	for i := 0; i < nchunks; i++ {
		var word uint64
		if pl.large {
			word = uint64(binary.LittleEndian.Uint32(meta[4*i:]))
		} else {
			word = uint64(binary.LittleEndian.Uint16(meta[2*i:]))
		}
		size := int64((word>>4)+1) * 8
		var cnt uint64
		if i < nchunks-1 {
			cnt = 1 << (word & 0xf)
			if cnt > remaining {
				return errs.At(ErrCorrupt, metaRange.off+int64(i)*ws, d.path, "chunk %d of %d items: only %d of the page's %d items are left", i, cnt, remaining, pl.numItems)
			}
		} else {
			cnt = remaining
		}
		remaining -= cnt
		if pos+size > chunkRange.size {
			return errs.At(ErrCorrupt, metaRange.off+int64(i)*ws, d.path, "chunk %d ends at byte %d of a %d-byte chunk buffer", i, pos+size, chunkRange.size)
		}
		if row < hi && row+int(cnt) > lo {
			sp = append(sp, span{row, int(cnt), int(pos), int(size)})
		}
		row += int(cnt)
		pos += size
	}
	if remaining != 0 || row != int(p.length) || len(sp) == 0 {
		return d.corrupt("%d chunks hold %d items for a page of %d rows", nchunks, row, p.length)
	}
	start, end := sp[0].pos, sp[len(sp)-1].pos+sp[len(sp)-1].size
	if int64(end-start) > int64(cap(o.chunk)) {
		if err := d.mem.charge(int64(end-start), d.path, "page buffer"); err != nil {
			return err
		}
		o.chunk = make([]byte, end-start)
	}
	buf := o.chunk[:end-start]
	if err := r.f.readAt(buf, chunkRange.off+int64(start), d.path); err != nil {
		return err
	}
	for _, s := range sp {
		ch := buf[s.pos-start : s.pos-start+s.size]
		a, b := max(lo, s.row)-s.row, min(hi, s.row+s.cnt)-s.row
		d.off = chunkRange.off + int64(s.pos)
		if err := r.directChunk(d, o, pl, ch, s.cnt, a, b); err != nil {
			return err
		}
	}
	return nil
}

// directChunk decodes items [a, b) of one chunk of cnt items into o.
func (r *reader) directChunk(d *dec, o *directOut, pl *pagePlan, ch []byte, cnt, a, b int) error {
	hdr := 2
	if pl.def != nil {
		hdr += 2
	}
	sw := 2
	if pl.large {
		sw = 4
	}
	hdr += sw
	if hdr > len(ch) {
		return d.corrupt("chunk of %d bytes is shorter than its %d-byte header", len(ch), hdr)
	}
	nlev := int(binary.LittleEndian.Uint16(ch))
	at := 2
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
	take := func(n int) ([]byte, bool) {
		if n < 0 || at > len(ch) || n > len(ch)-at {
			return nil, false
		}
		b := ch[at : at+n]
		at = pad8(at + n)
		return b, true
	}
	row := o.at
	if pl.def != nil {
		if nlev != cnt {
			return d.corrupt("chunk has %d levels for %d items", nlev, cnt)
		}
		db, ok := take(defSize)
		if !ok {
			return d.corrupt("definition levels of %d bytes overrun the %d-byte chunk", defSize, len(ch))
		}
		if err := r.directDefs(d, o, pl, db, cnt, a, b); err != nil {
			return err
		}
	} else {
		if o.valid != nil {
			bitutil.SetBitsTo(o.valid, int64(row), int64(b-a), true)
		}
		if o.sv != nil {
			bitutil.SetBitsTo(o.sv, int64(row), int64(b-a), true)
		}
	}
	vb, ok := take(size)
	if !ok {
		return d.corrupt("values of %d bytes overrun the %d-byte chunk", size, len(ch))
	}
	return o.values(d, pl.value, vb, cnt, a, b)
}

// values copies items [a, b) of a chunk's cnt values (buffer vb) to the
// output at o.at and advances it.
func (o *directOut) values(d *dec, v *cnode, vb []byte, cnt, a, b int) error {
	if o.dict != nil {
		return o.dictValues(d, v, vb, cnt, a, b)
	}
	row := o.at
	switch {
	case v.kind == kGeneral || v.kind == kFsst || v.kind == kByteStreamSplit:
		if err := o.decoded(d, v, vb, cnt, a, b); err != nil {
			return err
		}
	case o.kind == -1:
		if int64(cnt) > 8*int64(len(vb)) {
			return d.corrupt("%d bytes hold fewer than %d 1-bit values", len(vb), cnt)
		}
		bitutil.CopyBitmap(vb, a, b-a, o.data, row)
	case o.kind > 0 && (v.kind == kFlat || v.kind == kFixedSizeList):
		w := o.kind
		if cnt > len(vb)/w {
			return d.corrupt("%d bytes hold fewer than %d values of %d bytes", len(vb), cnt, w)
		}
		copy(o.data[row*w:], vb[a*w:b*w])
	case o.kind > 0:
		if !o.unpack(vb, 8*o.kind, cnt, a, b, o.data[row*o.kind:]) {
			return d.corrupt("bit-packed %d-bit values: a block is truncated or wider than %d bits", 8*o.kind, 8*o.kind)
		}
	default:
		if err := o.variable(vb, int(v.bits), cnt, a, b, d); err != nil {
			return err
		}
	}
	o.at += b - a
	return nil
}

// levels returns cnt levels as u16 little-endian words: the chunk's own
// bytes when flat, else unpacked into *dst (no allocation per chunk once
// the scratch is big enough).
func (o *directOut) levels(d *dec, c *cnode, buf []byte, cnt int, dst *[]byte) ([]byte, error) {
	if c.kind == kFlat && c.bits == 16 {
		if len(buf) < 2*cnt {
			return nil, d.corrupt("%d bytes hold fewer than %d 16-bit levels", len(buf), cnt)
		}
		return buf[:2*cnt], nil
	}
	if int64(cap(*dst)) < 2*int64(cnt) {
		if err := d.mem.charge(2*int64(cnt), d.path, "levels"); err != nil {
			return nil, err
		}
		*dst = make([]byte, 2*cnt)
	}
	raw := (*dst)[:2*cnt]
	switch {
	case (c.kind == kInlineBitpack || c.kind == kOutOfLineBitpack) && c.bits == 16:
		if o.lvc == nil {
			o.lvc = make([]byte, 2048)
		}
		var err error
		if c.kind == kInlineBitpack {
			err = d.inlineBitpackedInto(raw, o.lvc, buf, 16, cnt)
		} else {
			err = d.outOfLineInto(raw, o.lvc, buf, 16, int(c.inner.bits), cnt)
		}
		if err != nil {
			return nil, err
		}
	default:
		all, err := d.levels(c, buf, cnt)
		if err != nil {
			return nil, err
		}
		for i, x := range all {
			binary.LittleEndian.PutUint16(raw[2*i:], x)
		}
	}
	return raw, nil
}

// markNull clears the validity bit of item i (o.at <= i < o.n),
// allocating the bitmap (every earlier item valid) on the first null.
func (o *directOut) markNull(d *dec, i int) error {
	if o.valid == nil {
		vb, err := d.alloc(int64(o.capItems()+7)/8, "validity")
		if err != nil {
			return err
		}
		o.valid = vb
		bitutil.SetBitsTo(o.valid, 0, int64(i), true)
	}
	o.nulls++
	return nil
}

func (o *directOut) markValid(i int) {
	if o.valid != nil {
		o.valid[i>>3] |= 1 << (i & 7)
	}
}

// capItems is how many items the output has room for.
func (o *directOut) capItems() int { return o.n }

// directDefs turns the def levels of items [a, b) into validity bits:
// 0 = valid, up to the item layer's codes = a null item, above that (a
// leaf of a struct) = a null struct.
func (r *reader) directDefs(d *dec, o *directOut, pl *pagePlan, buf []byte, cnt, a, b int) error {
	raw, err := o.levels(d, pl.def, buf, cnt, &o.lvb)
	if err != nil {
		return err
	}
	c0 := pl.layers[0].codes()
	maxDef := c0
	if len(pl.layers) == 2 {
		maxDef += pl.layers[1].codes()
	}
	row := o.at
	for i := 0; i < b-a; i++ {
		x := binary.LittleEndian.Uint16(raw[2*(a+i):])
		if err := o.applyDef(d, x, row+i, c0, maxDef, a+i); err != nil {
			return err
		}
	}
	return nil
}

// applyDef records the definition level x of output row row (item item
// of its chunk or page, for errors): valid, a null leaf (codes up to c0)
// or a null struct (up to maxDef).
func (o *directOut) applyDef(d *dec, x uint16, row int, c0, maxDef uint16, item int) error {
	switch {
	case x == 0:
		o.markValid(row)
		if o.sv != nil {
			o.sv[row>>3] |= 1 << (row & 7)
		}
		return nil
	case x > maxDef:
		return d.corrupt("definition level %d of item %d is above %d", x, item, maxDef)
	}
	if err := o.markNull(d, row); err != nil {
		return err
	}
	if x <= c0 {
		if o.sv != nil {
			o.sv[row>>3] |= 1 << (row & 7)
		}
		return nil
	}
	if o.sv == nil {
		sv, err := d.alloc(int64(o.n+7)/8, "validity")
		if err != nil {
			return err
		}
		o.sv = sv
		bitutil.SetBitsTo(o.sv, 0, int64(row), true)
	}
	o.snulls++
	return nil
}

// unpack decodes items [a, b) of cnt inline bit-packed t-bit values (a
// width word before each block of 1,024) into out.
func (o *directOut) unpack(buf []byte, t, cnt, a, b int, out []byte) bool {
	w := t / 8
	for blk := 0; blk*1024 < cnt; blk++ {
		if len(buf) < w {
			return false
		}
		bw := readWord(buf, 0, t)
		if bw > uint64(t) {
			return false
		}
		buf = buf[w:]
		pb := packedChunkBytes(int(bw))
		if len(buf) < pb {
			return false
		}
		s, e := blk*1024, min(cnt, blk*1024+1024)
		if e > a && s < b {
			if s >= a && e <= b && e-s == 1024 {
				unpackChunk(buf[:pb], t, int(bw), out[(s-a)*w:])
			} else {
				if o.unp == nil {
					o.unp = make([]byte, 1024*8)
				}
				unpackChunk(buf[:pb], t, int(bw), o.unp)
				from, to := max(s, a), min(e, b)
				copy(out[(from-a)*w:], o.unp[(from-s)*w:(to-s)*w])
			}
		}
		buf = buf[pb:]
	}
	return true
}

// variable copies items [a, b) of cnt variable values (cnt+1 offsets from
// the buffer start, then the bytes) into o.
func (o *directOut) variable(buf []byte, ob, cnt, a, b int, d *dec) error {
	if int64(len(buf)) < int64(cnt+1)*int64(ob/8) {
		return d.corrupt("%d bytes hold fewer than %d offsets of %d bits", len(buf), cnt+1, ob)
	}
	off := func(i int) int64 {
		if ob == 32 {
			return int64(binary.LittleEndian.Uint32(buf[4*i:]))
		}
		x := binary.LittleEndian.Uint64(buf[8*i:])
		if x > math.MaxInt64 {
			return -1
		}
		return int64(x)
	}
	s, e := off(a), off(b)
	if s < 0 || e < s || e > int64(len(buf)) {
		return d.corrupt("items %d..%d span bytes %d..%d of a %d-byte buffer", a, b, s, e, len(buf))
	}
	base := int64(len(o.data))
	if err := o.reserve(d, e-s, b-a); err != nil {
		return err
	}
	o.data = append(o.data, buf[s:e]...)
	row := o.at
	if ob == 32 && o.kind == -4 {
		// The common case in one tight loop: 32-bit offsets in, 32-bit
		// offsets out (base+e fits: reserve checked it).
		src := buf[4*(a+1) : 4*(b+1)]
		dst := o.o32[row+1 : row+1+b-a]
		prev, shift := uint32(s), int32(base-s)
		for i := range dst {
			x := binary.LittleEndian.Uint32(src[4*i:])
			if x < prev || int64(x) > e {
				return d.corrupt("offset %d of item %d is below %d or above %d", x, a+1+i, prev, e)
			}
			prev = x
			dst[i] = int32(x) + shift
		}
		return nil
	}
	prev := s
	for i := a + 1; i <= b; i++ {
		x := off(i)
		if x < prev || x > e {
			return d.corrupt("offset %d of item %d is below %d or above %d", x, i, prev, e)
		}
		prev = x
		if o.kind == -4 {
			o.o32[row+i-a] = int32(base + x - s)
		} else {
			o.o64[row+i-a] = base + x - s
		}
	}
	return nil
}

// grow makes room for k more items after o.at (hint: how many items the
// rest of the batch likely needs) (the items of a list, whose
// count is known a page at a time), doubling so a batch reallocates a few
// times at most.
func (o *directOut) grow(d *dec, k, hint int) error {
	need := o.at + k
	if need <= o.n {
		return nil
	}
	nn := max(need, o.n+o.n/4, o.at+hint, 1024)
	if int64(nn) > d.f.cfg.maxBuffer/8 {
		nn = need
	}
	if int64(nn) > d.f.cfg.maxBuffer/8 {
		return d.tooLarge("items", int64(nn), 8)
	}
	switch {
	case o.kind > 0:
		if int64(nn) > d.f.cfg.maxBuffer/int64(o.kind) {
			return d.tooLarge("values", int64(nn), int64(o.kind))
		}
		nd, err := d.alloc(int64(nn)*int64(o.kind), "values")
		if err != nil {
			return err
		}
		copy(nd, o.data[:o.at*o.kind])
		o.data = nd
	case o.kind == -4:
		if err := d.mem.charge(4*int64(nn+1), d.path, "offsets"); err != nil {
			return err
		}
		no := make([]int32, nn+1)
		if o.o32 != nil {
			copy(no, o.o32[:o.at+1])
		}
		o.o32 = no
	default:
		no, err := d.allocOffs(int64(nn)+1, "offsets")
		if err != nil {
			return err
		}
		if o.o64 != nil {
			copy(no, o.o64[:o.at+1])
		}
		o.o64 = no
	}
	if o.valid != nil {
		nv, err := d.alloc(int64(nn+7)/8, "validity")
		if err != nil {
			return err
		}
		copy(nv, o.valid)
		o.valid = nv
	}
	o.n = nn
	return nil
}

// itemData builds the array of the o.at items written.
func (o *directOut) itemData(dt arrow.DataType, dim int) arrow.ArrayData {
	var vbuf *memory.Buffer
	if o.nulls > 0 {
		vbuf = memory.NewBufferBytes(o.valid)
	}
	n := o.at
	if dim > 0 {
		var ivbuf *memory.Buffer
		if o.inulls > 0 {
			ivbuf = memory.NewBufferBytes(o.ivalid)
		}
		child := array.NewData(dt.(*arrow.FixedSizeListType).Elem(), n*dim, []*memory.Buffer{ivbuf, memory.NewBufferBytes(o.data[:n*o.kind])}, nil, o.inulls, 0)
		defer child.Release()
		return array.NewData(dt, n, []*memory.Buffer{vbuf}, []arrow.ArrayData{child}, o.nulls, 0)
	}
	if o.kind > 0 {
		return array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(o.data[:n*o.kind])}, nil, o.nulls, 0)
	}
	if o.kind == -1 {
		return array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(o.data)}, nil, o.nulls, 0)
	}
	if o.o32 == nil && o.o64 == nil {
		o.o32, o.o64 = make([]int32, 1), make([]int64, 1) // no items
	}
	var ob []byte
	if o.kind == -4 {
		ob = arrow.Int32Traits.CastToBytes(o.o32[:n+1])
	} else {
		ob = arrow.Int64Traits.CastToBytes(o.o64[:n+1])
	}
	return array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(ob), memory.NewBufferBytes(o.data)}, nil, o.nulls, 0)
}

// reserve makes room for k more bytes of variable data for the next rows
// items, sizing for the rest of the output at the bytes per item seen so
// far, so a batch grows its data buffer about once.
func (o *directOut) reserve(d *dec, k int64, rows int) error {
	need := int64(len(o.data)) + k
	if o.kind == -4 && need > math.MaxInt32 {
		return d.corrupt("%d bytes of values need 64-bit offsets (a large type)", need)
	}
	if need <= int64(cap(o.data)) {
		return nil
	}
	grow := need
	if done := int64(o.at + rows); done > 0 {
		// The rest at the bytes per item seen so far, plus an eighth: a
		// short sample (one small chunk) must not force a second
		// allocation and copy near the end.
		rest := (need / done) * int64(o.n-o.at-rows)
		grow = max(need, need+rest+rest/8+need/done*16)
	}
	grow = max(grow, int64(cap(o.data))+int64(cap(o.data))/4)
	if grow > d.f.cfg.maxBuffer {
		grow = need
	}
	if grow > d.f.cfg.maxBuffer {
		return d.tooLarge("values", grow, 1)
	}
	if err := d.mem.charge(grow-int64(cap(o.data)), d.path, "values"); err != nil {
		return err
	}
	nd := make([]byte, len(o.data), grow)
	copy(nd, o.data)
	o.data = nd
	return nil
}

// directDict reads and decodes a page's dictionary into o.dict (the plan
// checked its buffer size and entry count).
func (r *reader) directDict(d *dec, o *directOut, p *page) error {
	pl, br := p.layout, p.buffers[2]
	if err := d.mem.charge(br.size, d.path, "page buffer"); err != nil {
		return err
	}
	buf := make([]byte, br.size)
	if err := r.f.readAt(buf, br.off, d.path); err != nil {
		return err
	}
	off := d.off
	d.off = br.off
	dict, err := d.block(pl.dict, buf, int(pl.numDict))
	if err != nil {
		return err
	}
	if dict.null || dict.kids != nil || dict.dims != nil || (o.kind < 0) != dict.variable() || (o.kind > 0 && dict.bits != 8*o.kind) {
		return d.corrupt("dictionary of %d entries does not hold %s values", pl.numDict, dictWant(o.kind))
	}
	d.off = off
	o.dict = dict
	return nil
}

func dictWant(kind int) string {
	if kind < 0 {
		return "variable-width"
	}
	return strconv.Itoa(8*kind) + "-bit"
}

// dictValues looks up items [a, b) of a chunk's cnt dictionary indices
// (buffer vb) and writes the items at o.at.
func (o *directOut) dictValues(d *dec, v *cnode, vb []byte, cnt, a, b int) error {
	t := int(v.bits)
	w := t / 8
	var idx []byte
	if v.kind == kFlat {
		if cnt > len(vb)/w {
			return d.corrupt("%d bytes hold fewer than %d dictionary indices of %d bits", len(vb), cnt, t)
		}
		idx = vb[a*w : b*w]
	} else {
		if cap(o.idx) < (b-a)*w {
			if err := d.mem.charge(int64((b-a)*w), d.path, "dictionary indices"); err != nil {
				return err
			}
			o.idx = make([]byte, (b-a)*w)
		}
		idx = o.idx[:(b-a)*w]
		if !o.unpack(vb, t, cnt, a, b, idx) {
			return d.corrupt("bit-packed %d-bit dictionary indices: a block is truncated or wider than %d bits", t, t)
		}
	}
	dict, n := o.dict, uint64(o.dict.n)
	row := o.at
	if o.kind > 0 {
		k := o.kind
		for i := 0; i < b-a; i++ {
			x := readWord(idx, i, t)
			if x >= n {
				return errs.At(ErrDictIndex, d.off, d.path, "index %d of item %d is outside the %d dictionary entries", x, a+i, n)
			}
			copy(o.data[(row+i)*k:(row+i+1)*k], dict.data[int(x)*k:])
		}
		o.at += b - a
		return nil
	}
	var total int64
	for i := 0; i < b-a; i++ {
		x := readWord(idx, i, t)
		if x >= n {
			return errs.At(ErrDictIndex, d.off, d.path, "index %d of item %d is outside the %d dictionary entries", x, a+i, n)
		}
		total += dict.offs[x+1] - dict.offs[x]
	}
	if err := o.reserve(d, total, b-a); err != nil {
		return err
	}
	for i := 0; i < b-a; i++ {
		x := readWord(idx, i, t)
		o.data = append(o.data, dict.data[dict.offs[x]:dict.offs[x+1]]...)
		if o.kind == -4 {
			o.o32[row+i+1] = int32(len(o.data))
		} else {
			o.o64[row+i+1] = int64(len(o.data))
		}
	}
	o.at += b - a
	return nil
}
