package lance

// The structural page layouts of Lance 2.1/2.2 (notes §6-8): mini-block,
// full-zip and constant. Each turns a page's buffers into level streams
// and the page's visible values.

import (
	"encoding/binary"
	"fmt"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/enc21pb"
)

// pageData is one decoded page: per entry rep and def levels (nil when the
// page has none) and the visible values.
type pageData struct {
	rows     int
	entries  int
	rep, def []uint16
	v        *vals
}

// readPageBuffers reads the page's buffers, charging them to the budget.
func (r *reader) readPageBuffers(d *dec, col *column, p *page) ([][]byte, error) {
	out := make([][]byte, len(p.buffers))
	for i, b := range p.buffers {
		if b.size > r.f.cfg.maxBuffer {
			return nil, errs.TooLarge(ErrTooLarge, b.off, d.path, "page buffer", uint64(b.size), r.f.cfg.maxBuffer)
		}
		if err := d.mem.charge(b.size, d.path, "page buffer"); err != nil {
			return nil, err
		}
		buf := make([]byte, b.size)
		if err := r.f.readAt(buf, b.off, d.path); err != nil {
			return nil, err
		}
		out[i] = buf
	}
	return out, nil
}

// rowSliceable reports a constant page without levels: every row is one
// entry with the same value, so any row range decodes on its own and a
// huge all-null page never needs to be materialised whole.
func (pl *pagePlan) rowSliceable(p *page) bool {
	return pl.err == nil && pl.kind == constantPage && (len(p.buffers) == 0 || len(p.buffers) == 1)
}

// decodePage21 decodes one page of a 2.1/2.2 leaf column; rows, when
// non-negative, replaces the page length (a window of a row-sliceable
// page).
func (r *reader) decodePage21(col *column, pi int, rows int64) (*pageData, *dec, error) {
	p := col.pages[pi]
	pl := p.layout
	length := p.length
	if rows >= 0 {
		length = rows
	}
	d := &dec{f: r.f, mem: &r.mem, path: fmt.Sprintf("%s page %d", col.path, pi), off: col.metaOff}
	if pl.err != nil {
		return nil, d, pl.err
	}
	if length > int64(r.f.cfg.maxBuffer) {
		return nil, d, errs.TooLarge(ErrTooLarge, col.metaOff, d.path, "page rows", uint64(length), r.f.cfg.maxBuffer)
	}
	bufs, err := r.readPageBuffers(d, col, p)
	if err != nil {
		return nil, d, err
	}
	if len(p.buffers) > 0 {
		d.off = p.buffers[0].off
	}
	var pd *pageData
	switch pl.kind {
	case miniBlock:
		pd, err = d.miniBlockPage(pl, bufs, int(length))
	case fullZip:
		pd, err = d.fullZipPage(pl, bufs, int(length))
	case constantPage:
		pd, err = d.constantPage(pl, bufs, int(length))
	default:
		err = d.corrupt("page without layout")
	}
	if err != nil {
		return nil, d, err
	}
	pd.rows = int(length)
	return pd, d, nil
}

// ---- mini-block ----

func (d *dec) miniBlockPage(pl *pagePlan, bufs [][]byte, rows int) (*pageData, error) {
	meta, chunks := bufs[0], bufs[1]
	ws := 2
	if pl.large {
		ws = 4
	}
	if len(meta)%ws != 0 {
		return nil, d.corrupt("mini-block chunk metadata of %d bytes", len(meta))
	}
	nchunks := len(meta) / ws
	if pl.numItems > uint64(d.f.cfg.maxBuffer) {
		return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, "mini-block items", pl.numItems, d.f.cfg.maxBuffer)
	}
	if nchunks == 0 && pl.numItems > 0 {
		return nil, d.corrupt("mini-block of %d items without chunks", pl.numItems)
	}
	var dict *vals
	if pl.dict != nil {
		if pl.numDict > uint64(len(bufs[2]))*8+1 && pl.numDict > 1<<20 {
			return nil, d.corrupt("dictionary of %d items in %d bytes", pl.numDict, len(bufs[2]))
		}
		if pl.numDict > uint64(d.f.cfg.maxBuffer) {
			return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, "dictionary items", pl.numDict, d.f.cfg.maxBuffer)
		}
		var err error
		if dict, err = d.block(pl.dict, bufs[2], int(pl.numDict)); err != nil {
			return nil, err
		}
	}
	pd := &pageData{}
	var parts []*vals
	pos := 0
	remaining := pl.numItems
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
				return nil, d.corrupt("mini-block chunk %d of %d values, %d remain", i, cnt, remaining)
			}
		} else {
			cnt = remaining
		}
		remaining -= cnt
		if uint64(pos)+size > uint64(len(chunks)) {
			return nil, errs.At(ErrBufferSize, d.off, d.path, "mini-block chunk %d of %d bytes at %d ends past %d", i, size, pos, len(chunks))
		}
		ch := chunks[pos : pos+int(size)]
		pos += int(size)
		v, err := d.miniChunk(pl, ch, int(cnt), pd, i)
		if err != nil {
			return nil, err
		}
		if dict != nil {
			if v, err = d.lookupDict(dict, v); err != nil {
				return nil, err
			}
		}
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		parts = append(parts, &vals{n: 0, null: true})
	}
	v, err := d.concatVals(parts)
	if err != nil {
		return nil, err
	}
	pd.v = v
	if pd.rep == nil && pd.def == nil {
		pd.entries = rows
	}
	return pd, nil
}

func (d *dec) miniChunk(pl *pagePlan, ch []byte, cnt int, pd *pageData, i int) (*vals, error) {
	hdr := 2
	if pl.rep != nil {
		hdr += 2
	}
	if pl.def != nil {
		hdr += 2
	}
	sw := 2
	if pl.large {
		sw = 4
	}
	hdr += sw * pl.numBuffers
	if hdr > len(ch) {
		return nil, errs.At(ErrBufferSize, d.off, d.path, "mini-block chunk %d of %d bytes has no room for its %d-byte header", i, len(ch), hdr)
	}
	nlev := int(binary.LittleEndian.Uint16(ch))
	at := 2
	var repSize, defSize int
	if pl.rep != nil {
		repSize = int(binary.LittleEndian.Uint16(ch[at:]))
		at += 2
	}
	if pl.def != nil {
		defSize = int(binary.LittleEndian.Uint16(ch[at:]))
		at += 2
	}
	sizes := make([]int, pl.numBuffers)
	for k := range sizes {
		if pl.large {
			sizes[k] = int(binary.LittleEndian.Uint32(ch[at:]))
		} else {
			sizes[k] = int(binary.LittleEndian.Uint16(ch[at:]))
		}
		at += sw
	}
	at = pad8(at)
	take := func(n int, what string) ([]byte, error) {
		if n < 0 || at > len(ch) || n > len(ch)-at {
			return nil, errs.At(ErrBufferSize, d.off, d.path, "mini-block chunk %d: %s of %d bytes at %d ends past %d", i, what, n, at, len(ch))
		}
		b := ch[at : at+n]
		at = pad8(at + n)
		return b, nil
	}
	if pl.rep != nil {
		b, err := take(repSize, "repetition levels")
		if err != nil {
			return nil, err
		}
		lv, err := d.levels(pl.rep, b, nlev)
		if err != nil {
			return nil, err
		}
		pd.rep = append(pd.rep, lv...)
	}
	if pl.def != nil {
		b, err := take(defSize, "definition levels")
		if err != nil {
			return nil, err
		}
		lv, err := d.levels(pl.def, b, nlev)
		if err != nil {
			return nil, err
		}
		pd.def = append(pd.def, lv...)
	}
	if pl.rep != nil || pl.def != nil {
		pd.entries += nlev
	}
	bufs := make([][]byte, pl.numBuffers)
	for k := range bufs {
		b, err := take(sizes[k], fmt.Sprintf("value buffer %d", k))
		if err != nil {
			return nil, err
		}
		bufs[k] = b
	}
	return d.mini(pl.value, bufs, cnt)
}

func pad8(n int) int { return (n + 7) &^ 7 }

// lookupDict replaces dictionary indices by the items.
func (d *dec) lookupDict(dict, idx *vals) (*vals, error) {
	if idx.variable() || idx.dims != nil || idx.kids != nil || idx.bits < 8 || idx.bits > 64 {
		return nil, d.corrupt("dictionary indices decoded as %d-bit values", idx.bits)
	}
	get := func(i int) (int, error) {
		x := readWord(idx.data, i, idx.bits)
		if x >= uint64(dict.n) {
			return 0, errs.At(ErrDictIndex, d.off, d.path, "index %d = %d, dictionary of %d items", i, x, dict.n)
		}
		return int(x), nil
	}
	if dict.variable() {
		var total int64
		for i := 0; i < idx.n; i++ {
			x, err := get(i)
			if err != nil {
				return nil, err
			}
			total += dict.offs[x+1] - dict.offs[x]
		}
		data, err := d.alloc(total, "dictionary values")
		if err != nil {
			return nil, err
		}
		offs, err := d.allocOffs(int64(idx.n)+1, "offsets")
		if err != nil {
			return nil, err
		}
		pos := int64(0)
		for i := 0; i < idx.n; i++ {
			x, _ := get(i)
			pos += int64(copy(data[pos:], dict.data[dict.offs[x]:dict.offs[x+1]]))
			offs[i+1] = pos
		}
		return &vals{n: idx.n, data: data, offs: offs}, nil
	}
	if dict.null || dict.kids != nil || dict.dims != nil || dict.bits%8 != 0 {
		return nil, d.corrupt("dictionary of %d-bit items", dict.bits)
	}
	w := dict.bits / 8
	out, err := d.alloc(int64(idx.n)*int64(w), "dictionary values")
	if err != nil {
		return nil, err
	}
	for i := 0; i < idx.n; i++ {
		x, err := get(i)
		if err != nil {
			return nil, err
		}
		copy(out[i*w:i*w+w], dict.data[x*w:])
	}
	return &vals{n: idx.n, bits: dict.bits, data: out}, nil
}

// ---- full-zip ----

func (d *dec) fullZipPage(pl *pagePlan, bufs [][]byte, rows int) (*pageData, error) {
	data := bufs[0]
	n := pl.numEntries
	if n > uint64(len(data))+uint64(rows) && n > uint64(rows) {
		// every entry takes at least its control word or its value
		if pl.bitsRep+pl.bitsDef > 0 || n > uint64(len(data)) {
			return nil, d.corrupt("full-zip page of %d entries in %d bytes", n, len(data))
		}
	}
	cw := 0
	switch b := pl.bitsRep + pl.bitsDef; {
	case b == 0:
	case b <= 8:
		cw = 1
	case b <= 16:
		cw = 2
	default:
		cw = 4
	}
	pd := &pageData{entries: int(n)}
	if pl.bitsRep > 0 {
		if err := d.mem.charge(2*int64(n), d.path, "levels"); err != nil {
			return nil, err
		}
		pd.rep = make([]uint16, n)
	}
	if pl.bitsDef > 0 {
		if err := d.mem.charge(2*int64(n), d.path, "levels"); err != nil {
			return nil, err
		}
		pd.def = make([]uint16, n)
	}
	maxVis := maxVisibleDef(pl.layers)
	slices := make([][]byte, 0, min(pl.numVisible, uint64(len(data))+1))
	valueNull := make([]bool, 0, cap(slices))
	pos := 0
	fixed := int(pl.fixedBits / 8)
	ob := int(pl.offsetBits / 8)
	for k := 0; k < int(n); k++ {
		var word uint32
		if cw > 0 {
			if pos+cw > len(data) {
				return nil, errs.At(ErrBufferSize, d.off, d.path, "full-zip entry %d: control word past the end", k)
			}
			switch cw {
			case 1:
				word = uint32(data[pos])
			case 2:
				word = uint32(binary.LittleEndian.Uint16(data[pos:]))
			default:
				word = binary.LittleEndian.Uint32(data[pos:])
			}
			pos += cw
		}
		def := uint16(word & (1<<pl.bitsDef - 1))
		rep := uint16(word >> pl.bitsDef)
		if pd.rep != nil {
			pd.rep[k] = rep
		}
		if pd.def != nil {
			pd.def[k] = def
		}
		if def > maxVis {
			continue // invisible: control word only
		}
		if fixed > 0 {
			if pos+fixed > len(data) {
				return nil, errs.At(ErrBufferSize, d.off, d.path, "full-zip entry %d: value past the end", k)
			}
			slices = append(slices, data[pos:pos+fixed])
			valueNull = append(valueNull, false)
			pos += fixed
			continue
		}
		if def != 0 {
			slices = append(slices, nil)
			valueNull = append(valueNull, true)
			continue
		}
		if pos+ob > len(data) {
			return nil, errs.At(ErrBufferSize, d.off, d.path, "full-zip entry %d: length past the end", k)
		}
		var l uint64
		if ob == 4 {
			l = uint64(binary.LittleEndian.Uint32(data[pos:]))
		} else {
			l = binary.LittleEndian.Uint64(data[pos:])
		}
		pos += ob
		if l > uint64(len(data)-pos) {
			return nil, errs.At(ErrBufferSize, d.off, d.path, "full-zip entry %d: value of %d bytes past the end", k, l)
		}
		slices = append(slices, data[pos:pos+int(l)])
		valueNull = append(valueNull, false)
		pos += int(l)
	}
	if uint64(len(slices)) != pl.numVisible {
		return nil, d.corrupt("full-zip page has %d visible entries, its layout says %d", len(slices), pl.numVisible)
	}
	if pl.bitsRep == 0 && pl.bitsDef == 0 && int(n) != rows {
		return nil, d.corrupt("full-zip page of %d entries without levels for %d rows", n, rows)
	}
	var err error
	if fixed > 0 {
		pd.v, err = d.perValueFixed(pl.value, slices, fixed)
	} else {
		pd.v, err = d.perValueVar(pl.value, slices, valueNull)
	}
	if err != nil {
		return nil, err
	}
	if pd.rep == nil && pd.def == nil {
		pd.entries = rows
	}
	return pd, nil
}

// perValueFixed decodes full-zip fixed-width values.
func (d *dec) perValueFixed(c *cnode, slices [][]byte, w int) (*vals, error) {
	n := len(slices)
	switch c.kind {
	case kFlat:
		if int(c.bits) != 8*w {
			return nil, d.corrupt("full-zip values of %d bytes encoded as %s", w, c)
		}
		out, err := d.alloc(int64(n)*int64(w), "full-zip values")
		if err != nil {
			return nil, err
		}
		for i, s := range slices {
			copy(out[i*w:], s)
		}
		return &vals{n: n, bits: int(c.bits), data: out}, nil
	case kFixedSizeList:
		dims, valid, item := fslShape(c)
		v := &vals{n: n, dims: dims, valid: make([][]byte, len(dims)), bits: int(item.bits)}
		items := v.items()
		ib, ok := fixedBytes(items, v.bits)
		if !ok {
			return nil, d.corrupt("fixed-size list too large")
		}
		vb := 0
		cum := 1
		for k := range dims {
			cum *= dims[k]
			if valid[k] {
				vb += (cum + 7) / 8
			}
		}
		if int64(w) != int64(vb)+ib {
			return nil, d.corrupt("full-zip values of %d bytes, %s needs %d", w, c, int64(vb)+ib)
		}
		data, err := d.alloc(int64(n)*ib, "full-zip values")
		if err != nil {
			return nil, err
		}
		v.data = data
		cum = 1
		for k := range dims {
			cum *= dims[k]
			if valid[k] {
				if v.valid[k], err = d.alloc(int64((n*cum+7)/8), "fixed-size list validity"); err != nil {
					return nil, err
				}
			}
		}
		for i, s := range slices {
			at := 0
			cum = 1
			for k := range dims {
				cum *= dims[k]
				if valid[k] {
					copyBits(v.valid[k], i*cum, s[at:], cum)
					at += (cum + 7) / 8
				}
			}
			if v.bits == 1 {
				copyBits(data, i*items, s[at:], items)
			} else {
				copy(data[int64(i)*ib:], s[at:])
			}
		}
		return v, nil
	case kConstant:
		return d.constant(c, n)
	}
	return nil, errs.At(ErrUnsupported, d.off, d.path, "%s as a full-zip fixed-width value", c)
}

// copyBits copies n bits from bit 0 of src to bit at of dst.
func copyBits(dst []byte, at int, src []byte, n int) {
	for j := 0; j < n; j++ {
		if src[j/8]>>(j%8)&1 == 1 {
			dst[(at+j)/8] |= 1 << ((at + j) % 8)
		}
	}
}

// perValueVar decodes full-zip variable-width values, each on its own.
func (d *dec) perValueVar(c *cnode, slices [][]byte, null []bool) (*vals, error) {
	n := len(slices)
	if c.kind == kVariablePackedStruct {
		return d.variablePackedStruct(c, slices)
	}
	var bound int64
	for _, s := range slices {
		bound += int64(len(s))
	}
	switch c.kind {
	case kVariable:
	case kFsst:
		bound = 0
		for i, s := range slices {
			if null[i] {
				continue
			}
			l, err := c.fsst.decodedLen(s)
			if err != nil {
				return nil, errs.Locate(err, d.off, d.path)
			}
			if bound += int64(l); bound > d.f.cfg.maxBuffer {
				return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, "FSST output", uint64(bound), d.f.cfg.maxBuffer)
			}
		}
	case kGeneral:
		bound = 0
		for i, s := range slices {
			if null[i] || len(s) == 0 {
				continue
			}
			var want uint64
			if c.scheme == enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 && len(s) >= 4 {
				want = uint64(binary.LittleEndian.Uint32(s))
			} else if len(s) >= 8 {
				want = binary.LittleEndian.Uint64(s)
			} else {
				want = 4 * uint64(len(s))
			}
			if want > uint64(d.f.cfg.maxBuffer) || bound+int64(want) > d.f.cfg.maxBuffer {
				return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, "decompressed values", want, d.f.cfg.maxBuffer)
			}
			bound += int64(want)
		}
		if c.inner.kind != kVariable {
			return nil, errs.At(ErrUnsupported, d.off, d.path, "%s as a full-zip value", c)
		}
	default:
		return nil, errs.At(ErrUnsupported, d.off, d.path, "%s as a full-zip variable-width value", c)
	}
	slack := int64(0)
	if c.kind == kFsst {
		slack = 8 // decodeInto's 8-byte stores
	}
	data, err := d.allocSlack(bound, slack, "full-zip values")
	if err != nil {
		return nil, err
	}
	data = data[:0]
	offs, err := d.allocOffs(int64(n)+1, "offsets")
	if err != nil {
		return nil, err
	}
	for i, s := range slices {
		if !null[i] {
			switch c.kind {
			case kVariable:
				data = append(data, s...)
			case kFsst:
				data = data[:c.fsst.decodeInto(data[:cap(data)], len(data), s)]
			case kGeneral:
				name := "zstd"
				if c.scheme == enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 {
					name = "lz4"
				}
				out, err := d.f.decompress(name, s, d.off, d.path)
				if err != nil {
					return nil, err
				}
				if len(data)+len(out) > cap(data) {
					return nil, d.corrupt("decompressed value %d is longer than its size prefix", i)
				}
				data = append(data, out...)
			}
		}
		offs[i+1] = int64(len(data))
	}
	return &vals{n: n, data: data, offs: offs}, nil
}

// variablePackedStruct splits each row into its fields; a zero-length row
// is a null struct whose children get empty or zero values.
func (d *dec) variablePackedStruct(c *cnode, slices [][]byte) (*vals, error) {
	n := len(slices)
	kids := make([][][]byte, len(c.fields))
	for k := range kids {
		kids[k] = make([][]byte, n)
	}
	for i, s := range slices {
		if len(s) == 0 {
			continue
		}
		at := 0
		for k, f := range c.fields {
			var l int
			if f.lenBits > 0 {
				lb := int(f.lenBits / 8)
				if at+lb > len(s) {
					return nil, d.corrupt("packed struct row %d: field %d length past the end", i, k)
				}
				var x uint64
				switch lb {
				case 1:
					x = uint64(s[at])
				case 2:
					x = uint64(binary.LittleEndian.Uint16(s[at:]))
				case 4:
					x = uint64(binary.LittleEndian.Uint32(s[at:]))
				default:
					x = binary.LittleEndian.Uint64(s[at:])
				}
				at += lb
				if x > uint64(len(s)-at) {
					return nil, d.corrupt("packed struct row %d: field %d of %d bytes past the end", i, k, x)
				}
				l = int(x)
			} else {
				l = int(f.bits / 8)
				if l > len(s)-at {
					return nil, d.corrupt("packed struct row %d: field %d past the end", i, k)
				}
			}
			kids[k][i] = s[at : at+l]
			at += l
		}
	}
	v := &vals{n: n, kids: make([]*vals, len(c.fields))}
	for k, f := range c.fields {
		if f.lenBits > 0 {
			if f.enc.kind != kVariable {
				return nil, errs.At(ErrUnsupported, d.off, d.path, "packed struct variable field encoded as %s", f.enc)
			}
			kv, err := d.perValueVar(f.enc, kids[k], make([]bool, n))
			if err != nil {
				return nil, err
			}
			v.kids[k] = kv
			continue
		}
		w := int(f.bits / 8)
		for i := range kids[k] {
			if kids[k][i] == nil {
				kids[k][i] = make([]byte, w)
			}
		}
		if f.enc.kind != kFlat || int(f.enc.bits) != int(f.bits) {
			return nil, errs.At(ErrUnsupported, d.off, d.path, "packed struct fixed field encoded as %s", f.enc)
		}
		kv, err := d.perValueFixed(f.enc, kids[k], w)
		if err != nil {
			return nil, err
		}
		v.kids[k] = kv
	}
	return v, nil
}

// ---- constant ----

func (d *dec) constantPage(pl *pagePlan, bufs [][]byte, rows int) (*pageData, error) {
	pd := &pageData{}
	var scalar []byte
	var scalarVar bool
	hasScalar := pl.hasInline
	var repBuf, defBuf []byte
	hasLevels := false
	switch {
	case pl.hasInline:
		scalar = pl.inline
		if len(bufs) == 2 {
			repBuf, defBuf, hasLevels = bufs[0], bufs[1], true
		}
	case len(bufs) == 0:
	case len(bufs) == 2:
		repBuf, defBuf, hasLevels = bufs[0], bufs[1], true
	case len(bufs) == 1 || len(bufs) == 3:
		var err error
		if scalar, scalarVar, err = d.scalarBuffer(bufs[0]); err != nil {
			return nil, err
		}
		hasScalar = true
		if len(bufs) == 3 {
			repBuf, defBuf, hasLevels = bufs[1], bufs[2], true
		}
	}
	if hasLevels {
		if len(repBuf) > 0 {
			n := len(repBuf) / 2
			if pl.rep != nil {
				n = int(min(pl.numRep, uint64(d.f.cfg.maxBuffer)))
			}
			lv, err := d.levels(pl.rep, repBuf, n)
			if err != nil {
				return nil, err
			}
			pd.rep = lv
		}
		if len(defBuf) > 0 {
			n := len(defBuf) / 2
			if pl.def != nil {
				n = int(min(pl.numDef, uint64(d.f.cfg.maxBuffer)))
			}
			lv, err := d.levels(pl.def, defBuf, n)
			if err != nil {
				return nil, err
			}
			pd.def = lv
		}
		if pd.rep != nil && pd.def != nil && len(pd.rep) != len(pd.def) {
			return nil, d.corrupt("constant page with %d rep and %d def levels", len(pd.rep), len(pd.def))
		}
	}
	switch {
	case pd.def != nil:
		pd.entries = len(pd.def)
	case pd.rep != nil:
		pd.entries = len(pd.rep)
	default:
		pd.entries = rows
	}
	visible := pd.entries
	if pd.def != nil {
		maxVis := maxVisibleDef(pl.layers)
		visible = 0
		for _, x := range pd.def {
			if x <= maxVis {
				visible++
			}
		}
	}
	if !hasScalar {
		pd.v = &vals{n: visible, null: true}
		return pd, nil
	}
	if scalarVar {
		if err := d.mem.charge(int64(visible)*(int64(len(scalar))+8), d.path, "constant values"); err != nil {
			return nil, err
		}
		if int64(visible)*int64(len(scalar)) > d.f.cfg.maxBuffer {
			return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, "constant values", uint64(visible)*uint64(len(scalar)), d.f.cfg.maxBuffer)
		}
		data := make([]byte, visible*len(scalar))
		offs := make([]int64, visible+1)
		for i := 0; i < visible; i++ {
			copy(data[i*len(scalar):], scalar)
			offs[i+1] = int64((i + 1) * len(scalar))
		}
		pd.v = &vals{n: visible, data: data, offs: offs}
		return pd, nil
	}
	// A bool scalar is one byte; the leaf builder turns 8-bit values into
	// a bitmap for a bool column.
	v, err := d.constant(&cnode{kind: kConstant, value: scalar, hasVal: true}, visible)
	if err != nil {
		return nil, err
	}
	pd.v = v
	return pd, nil
}

// scalarBuffer reads a scalar value buffer: u32 count, u32 sizes, then
// the Arrow buffers of a one-value array (no validity).
func (d *dec) scalarBuffer(b []byte) ([]byte, bool, error) {
	if len(b) < 4 {
		return nil, false, d.corrupt("scalar buffer of %d bytes", len(b))
	}
	nb := binary.LittleEndian.Uint32(b)
	if nb == 0 || nb > 3 || len(b) < 4+4*int(nb) {
		return nil, false, d.corrupt("scalar buffer with %d buffers in %d bytes", nb, len(b))
	}
	at := 4 + 4*int(nb)
	parts := make([][]byte, nb)
	for i := range parts {
		l := int(binary.LittleEndian.Uint32(b[4+4*i:]))
		if l > len(b)-at {
			return nil, false, d.corrupt("scalar buffer part %d of %d bytes past the end", i, l)
		}
		parts[i] = b[at : at+l]
		at += l
	}
	switch nb {
	case 1:
		return parts[0], false, nil
	case 2:
		o := parts[0]
		var s, e uint64
		switch len(o) {
		case 8:
			s, e = uint64(binary.LittleEndian.Uint32(o)), uint64(binary.LittleEndian.Uint32(o[4:]))
		case 16:
			s, e = binary.LittleEndian.Uint64(o), binary.LittleEndian.Uint64(o[8:])
		default:
			return nil, false, d.corrupt("scalar offsets of %d bytes", len(o))
		}
		if s > e || e > uint64(len(parts[1])) {
			return nil, false, errs.At(ErrOffsets, d.off, d.path, "scalar offsets %d..%d of %d bytes", s, e, len(parts[1]))
		}
		return parts[1][s:e], true, nil
	}
	return nil, false, errs.At(ErrUnsupported, d.off, d.path, "scalar buffer with %d buffers", nb)
}

// maxVisibleDef is the largest def code of an entry that has a leaf value
// slot: the codes of the layers below the first list layer.
func maxVisibleDef(ls []layer) uint16 {
	var s uint16
	for _, l := range ls {
		if l.isList() {
			break
		}
		s += l.codes()
	}
	return s
}
