package lance

import (
	"fmt"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// The common non-null fixed-width page (Nullable{NoNull{Flat}}, possibly
// under FixedSizeList, uncompressed) is read straight into the output:
// only the requested rows' bytes, once, with no per-page array and no
// concatenation. Everything else takes the general decoder.

// fixedPage is a page the direct path can read: values is nil for an
// all-null page, validity nil when the page has no nulls.
type fixedPage struct {
	values, validity *encpb.Buffer
	rowBytes         int64
}

// fixedLayout recognises Nullable{NoNull|SomeNull|AllNull} (or no
// wrapper) over non-null uncompressed Flat values, possibly under
// FixedSizeList.
func fixedLayout(enc *encpb.ArrayEncoding, dt arrow.DataType) (fixedPage, bool) {
	var fp fixedPage
	if nl := enc.GetNullable(); nl != nil {
		switch {
		case nl.GetAllNulls() != nil:
			per, ok := fixedRowBytes(dt)
			fp.rowBytes = per
			return fp, ok
		case nl.GetSomeNulls() != nil:
			v := plainFlat(nl.GetSomeNulls().GetValidity(), 1)
			if v == nil {
				return fp, false
			}
			fp.validity = v.Buffer
			enc = nl.GetSomeNulls().GetValues()
		}
	}
	per := int64(1)
	for depth := 0; depth < 16 && enc != nil; depth++ {
		switch e := enc.GetArrayEncoding().(type) {
		case *encpb.ArrayEncoding_Nullable:
			nn := e.Nullable.GetNoNulls()
			if nn == nil {
				return fp, false
			}
			enc = nn.GetValues()
		case *encpb.ArrayEncoding_FixedSizeList:
			t, ok := dt.(*arrow.FixedSizeListType)
			if !ok || int64(e.FixedSizeList.Dimension) != int64(t.Len()) || t.Len() <= 0 {
				return fp, false
			}
			per *= int64(t.Len())
			if per > 1<<24 {
				return fp, false
			}
			dt = t.Elem()
			enc = e.FixedSizeList.GetItems()
		case *encpb.ArrayEncoding_Flat:
			fl := e.Flat
			want, ok := bitWidth(dt)
			if s := fl.GetCompression().GetScheme(); !ok || want%8 != 0 || want == 0 || fl.BitsPerValue != want ||
				(s != "" && s != "none") || fl.Buffer == nil || dt.ID() == arrow.DICTIONARY {
				return fp, false
			}
			fp.values, fp.rowBytes = fl.Buffer, per*int64(want/8)
			return fp, true
		default:
			return fp, false
		}
	}
	return fp, false
}

// fixedRowBytes is the bytes per row of a byte-aligned fixed-width type,
// or of fixed-size lists of one.
func fixedRowBytes(dt arrow.DataType) (int64, bool) {
	per := int64(1)
	for depth := 0; depth < 16; depth++ {
		if t, ok := dt.(*arrow.FixedSizeListType); ok {
			if t.Len() <= 0 || per*int64(t.Len()) > 1<<24 {
				return 0, false
			}
			per *= int64(t.Len())
			dt = t.Elem()
			continue
		}
		w, ok := bitWidth(dt)
		if !ok || w%8 != 0 || w == 0 || dt.ID() == arrow.DICTIONARY {
			return 0, false
		}
		return per * int64(w/8), true
	}
	return 0, false
}

// bufferRange resolves a Buffer reference without reading it.
func (f *File) bufferRange(col *column, p *page, b *encpb.Buffer) (bufRange, bool) {
	var list []bufRange
	switch b.BufferType {
	case encpb.Buffer_page:
		list = p.buffers
	case encpb.Buffer_column:
		list = col.buffers
	case encpb.Buffer_file:
		list = f.globals
	}
	if int(b.BufferIndex) >= len(list) {
		return bufRange{}, false
	}
	return list[b.BufferIndex], true
}

// leafDirect reads rows [a, b) of col, whose pages the plan found all of
// the fixed layout with one row width (planLeaf20).
func (r *reader) leafDirect(col *column, dt arrow.DataType, a, b int64) (arrow.Array, error) {
	f := r.f
	var rowBytes int64
	anyNulls, allNull := false, true
	first := pageAt(col, a)
	for pi := first; pi < len(col.pages) && col.pages[pi].rowStart < b; pi++ {
		p := col.pages[pi]
		if p.length == 0 {
			continue
		}
		fp, ok := fixedLayout(p.enc, dt)
		if !ok {
			return nil, errs.At(ErrCorrupt, col.metaOff, col.path, "page %d is not of the planned fixed layout", pi)
		}
		anyNulls = anyNulls || fp.values == nil || fp.validity != nil
		allNull = allNull && fp.values == nil
		rowBytes = fp.rowBytes
	}
	if rowBytes == 0 {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "no page holds rows %d..%d", a, b)
	}
	n := b - a
	total, ok := mulRows(n, rowBytes)
	if !ok || total > f.cfg.maxBuffer {
		if !ok {
			total = math.MaxInt64
		}
		return nil, errs.TooLarge(ErrTooLarge, -1, col.path, "joined pages", uint64(total), f.cfg.maxBuffer)
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	if err := r.mem.charge(total+(n+7)/8, col.path, "fixed-width values"); err != nil {
		return nil, err
	}
	var out, vb []byte
	if z := zeroSlab(); allNull && total <= int64(len(z)) {
		// Nothing is written into an all-null read: its values and
		// validity share one read-only run of zeros, so a small file of
		// huge all-null pages costs no allocation per batch.
		out, vb = z[:total:total], z[:bitutil.BytesForBits(n):bitutil.BytesForBits(n)]
	} else {
		out = make([]byte, total)
		if anyNulls {
			vb = make([]byte, bitutil.BytesForBits(n))
		}
	}
	pos := int64(0) // rows written
	for pi := first; pi < len(col.pages) && col.pages[pi].rowStart < b; pi++ {
		p := col.pages[pi]
		if p.length == 0 {
			continue
		}
		fp, _ := fixedLayout(p.enc, dt)
		path := fmt.Sprintf("%s page %d", col.path, pi)
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		if fp.values == nil { // all null: zero values, clear validity bits
			if err := f.checkAlloc(p.length, nullBits(dt), &where{path: path}, "all-null array"); err != nil {
				return nil, err
			}
			pos += hi - lo
			continue
		}
		br, _ := f.bufferRange(col, p, fp.values)
		if need, ok := mulRows(p.length, rowBytes); !ok || need > br.size {
			return nil, errs.At(ErrBufferSize, br.off, path, "buffer of %d bytes holds fewer than %d rows of %d bytes", br.size, p.length, rowBytes)
		}
		if err := f.readAt(out[pos*rowBytes:(pos+hi-lo)*rowBytes], br.off+lo*rowBytes, path); err != nil {
			return nil, err
		}
		switch {
		case fp.validity != nil:
			vr, _ := f.bufferRange(col, p, fp.validity)
			if need := (p.length + 7) / 8; need > vr.size {
				return nil, errs.At(ErrBufferSize, vr.off, path, "Flat buffer of %d bytes holds fewer than %d values of 1 bits", vr.size, p.length)
			}
			_, sb := r.u64Scratch(((hi+7)/8 - lo/8 + 7) / 8)
			src := sb[:(hi+7)/8-lo/8]
			if err := f.readAt(src, vr.off+lo/8, path); err != nil {
				return nil, err
			}
			bitutil.CopyBitmap(src, int(lo%8), int(hi-lo), vb, int(pos))
		case vb != nil:
			bitutil.SetBitsTo(vb, pos, hi-lo, true)
		}
		pos += hi - lo
	}
	nulls := 0
	if vb != nil {
		nulls = int(n) - bitutil.CountSetBits(vb, 0, int(n))
	}
	d := fixedData(dt, int(n), out)
	if nulls > 0 {
		nd := array.NewData(dt, int(n), append([]*memory.Buffer{memory.NewBufferBytes(vb)}, d.Buffers()[1:]...), d.Children(), nulls, 0)
		d.Release()
		d = nd
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// zeroSlab is the run of zeros all-null reads share (see leafDirect). It
// is never written: Arrow arrays are immutable, and the readers that copy
// rows (keepRuns) write into new buffers.
var zeroSlab = sync.OnceValue(func() []byte { return make([]byte, DefaultBatchBytes) })

func fixedData(dt arrow.DataType, n int, values []byte) arrow.ArrayData {
	if t, ok := dt.(*arrow.FixedSizeListType); ok {
		child := fixedData(t.Elem(), n*int(t.Len()), values)
		defer child.Release()
		return array.NewData(dt, n, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	}
	return array.NewData(dt, n, []*memory.Buffer{nil, memory.NewBufferBytes(values)}, nil, 0, 0)
}

// plainFlat returns the uncompressed Flat of width bits under optional
// Nullable{NoNull} wrappers.
func plainFlat(enc *encpb.ArrayEncoding, bits uint64) *encpb.Flat {
	for depth := 0; depth < 4 && enc != nil; depth++ {
		if nn := enc.GetNullable().GetNoNulls(); nn != nil {
			enc = nn.GetValues()
			continue
		}
		fl := enc.GetFlat()
		if fl == nil || fl.BitsPerValue != bits || fl.Buffer == nil {
			return nil
		}
		if s := fl.GetCompression().GetScheme(); s != "" && s != "none" {
			return nil
		}
		return fl
	}
	return nil
}

// binaryLayout recognises the Binary page lance writes: u64 indices and
// u8 bytes, both uncompressed.
func binaryLayout(enc *encpb.ArrayEncoding) (idx, data *encpb.Flat, adj uint64, ok bool) {
	b := enc.GetBinary()
	if b == nil {
		return nil, nil, 0, false
	}
	idx, data = plainFlat(b.GetIndices(), 64), plainFlat(b.GetBytes(), 8)
	return idx, data, b.NullAdjustment, idx != nil && data != nil
}

type binaryPart struct {
	pi        int
	lo, hi    int64 // rows of the page wanted
	s, e      uint64
	dataRange bufRange
}

// leafBinaryDirect reads rows [a, b) of a string/binary column whose pages
// are all plain Binary. Each page's indices go into reused scratch and are
// checked as the general decoder checks them, while the wanted rows'
// offsets and validity are written straight into the output; then only
// the bytes of the wanted rows are read, into one output buffer.
//
// The plan (planLeaf20) checked that every page is plain Binary with its
// buffers in range and within WithMaxBufferSize.
func (r *reader) leafBinaryDirect(col *column, dt arrow.DataType, a, b int64) (arrow.Array, error) {
	f := r.f
	first := pageAt(col, a)
	n := b - a
	ow := int64(4)
	if isLarge(dt) {
		ow = 8
	}
	if need, ok := mulRows(n+1, ow); !ok || need > f.cfg.maxBuffer {
		what := "offsets"
		if p := col.pages[first]; p.rowStart+p.length < b {
			what = "joined pages"
		}
		return nil, errs.TooLarge(ErrTooLarge, -1, col.path, what, uint64(min(need, math.MaxInt64)), f.cfg.maxBuffer)
	}
	if err := r.mem.charge(8*(n+1)+(n+7)/8, col.path, "offsets"); err != nil {
		return nil, err
	}
	large := isLarge(dt)
	var o32 []int32
	var o64 []int64
	if large {
		o64 = make([]int64, n+1)
	} else {
		o32 = make([]int32, n+1)
	}
	words := make([]uint64, (n+63)/64)
	var parts []binaryPart
	var total int64 // output bytes so far
	row := int64(0)
	for pi := first; pi < len(col.pages) && col.pages[pi].rowStart < b; pi++ {
		p := col.pages[pi]
		if p.length == 0 {
			continue
		}
		w := &where{col: col, pg: p, path: fmt.Sprintf("%s page %d", col.path, pi), budget: &r.mem}
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		idx, data, adj, ok := binaryLayout(p.enc)
		if !ok {
			return nil, errs.At(ErrCorrupt, col.metaOff, w.path, "page is not of the planned Binary layout")
		}
		if err := f.checkAlloc(p.length, 64, w, "offsets"); err != nil {
			return nil, err
		}
		ir, _ := f.bufferRange(col, p, idx.Buffer)
		dr, _ := f.bufferRange(col, p, data.Buffer)
		if ir.size < p.length*8 {
			return nil, errs.At(ErrBufferSize, ir.off, w.path, "Flat buffer of %d bytes holds fewer than %d values of %d bits", ir.size, p.length, 64)
		}
		ends, raw := r.u64Scratch(p.length)
		if err := f.readAt(raw, ir.off, w.path); err != nil {
			return nil, err
		}
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		lim := endLimit(adj, uint64(f.cfg.maxBuffer))
		// Rows outside [lo, hi) are checked too, as the general decoder does.
		prev, bad := checkEnds(ends[:lo], adj, 0, lim)
		if bad < 0 {
			s := prev
			base := total - int64(s)
			if large {
				prev, bad = rebaseEnds(ends[lo:hi], adj, prev, lim, base, o64[row+1:], words, row)
			} else {
				prev, bad = rebaseEnds(ends[lo:hi], adj, prev, lim, base, o32[row+1:], words, row)
			}
			if bad >= 0 {
				bad += int(lo)
			} else {
				parts = append(parts, binaryPart{pi: pi, lo: lo, hi: hi, s: s, e: prev, dataRange: dr})
				prev, bad = checkEnds(ends[hi:], adj, prev, lim)
				if bad >= 0 {
					bad += int(hi)
				}
			}
		}
		if bad >= 0 {
			pv := uint64(0)
			if bad > 0 {
				pv = storedEnd(ends[bad-1], adj)
			}
			return nil, errs.At(ErrOffsets, -1, w.path, "binary row %d ends at %d after %d (null adjustment %d)", bad, storedEnd(ends[bad], adj), pv, adj)
		}
		if uint64(dr.size) < prev {
			return nil, errs.At(ErrBufferSize, dr.off, w.path, "Flat buffer of %d bytes holds fewer than %d values of 8 bits", dr.size, prev)
		}
		pt := &parts[len(parts)-1]
		total += int64(pt.e - pt.s)
		if total > f.cfg.maxBuffer {
			return nil, errs.TooLarge(ErrTooLarge, -1, col.path, "joined pages", uint64(total), f.cfg.maxBuffer)
		}
		row += hi - lo
	}
	if len(parts) == 0 {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "no page holds rows %d..%d", a, b)
	}
	if !large && total > math.MaxInt32 {
		return nil, errs.At(ErrTooLarge, -1, col.path, "%d bytes of %s need a large type", total, dt)
	}
	if err := r.mem.charge(total, col.path, "binary data"); err != nil {
		return nil, err
	}
	data := make([]byte, total)
	pos := int64(0)
	for _, pt := range parts {
		path := fmt.Sprintf("%s page %d", col.path, pt.pi)
		if err := f.readAt(data[pos:pos+int64(pt.e-pt.s)], pt.dataRange.off+int64(pt.s), path); err != nil {
			return nil, err
		}
		pos += int64(pt.e - pt.s)
	}
	nulls := int(n) - popcount(words)
	var vb []byte
	if nulls > 0 {
		vb = arrow.Uint64Traits.CastToBytes(words)[:bitutil.BytesForBits(n)]
	}
	return f.varBinaryOffsets(&where{col: col, path: col.path}, dt, o32, o64, data, vb, nulls)
}
