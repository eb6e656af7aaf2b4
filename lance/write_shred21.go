package lance

// Shredding Arrow arrays into the 2.1/2.2 structural model (notes §5):
// per leaf column, one repetition and one definition level per entry and
// the visible values. Definition codes are first assigned as if every
// layer could hold both nulls and (lists) empties ("full" codes); when a
// page is cut, the layers are narrowed to what the page holds (a column
// without nulls in a page gets ALL_VALID_ITEM, as lance writes it) and the
// codes renumbered.

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/file2pb"
)

// valueKind is how a leaf's values are stored.
type valueKind uint8

const (
	vFixed valueKind = iota // width bytes per value
	vBool                   // one bit per value
	vVar                    // variable-width bytes
	vFSL                    // fixed_size_list of fixed-width items
)

// pageBuf is one column's buffered page: levels and visible values.
type pageBuf struct {
	rows    int64
	rep     []uint16 // nil without list layers
	def     []uint16 // full codes; nil until the first non-zero code
	entries int
	nVis    int // visible values (incl. null placeholders)
	nNull   int // visible values that are null

	fixed    []byte // vFixed, vFSL: width bytes per visible value
	bits     []byte // vBool
	offs     []uint32
	offs64   []uint64 // vVar: end offsets of visible values (64-bit once > 4 GiB)
	data     []byte   // vVar bytes
	maxLen   int      // vVar: longest value
	fslValid [][]byte // vFSL: per FSL level (outer first), item validity bits
	fslNull  []bool   // vFSL: the level has a null item in this page

	layerNull, layerEmpty []bool // per layer, innermost first
}

func (p *pageBuf) bytes() int64 {
	return int64(len(p.fixed)+len(p.bits)+4*len(p.offs)+8*len(p.offs64)+len(p.data)) + 2*int64(len(p.rep)+len(p.def))
}

// leaf21 writes one 2.1/2.2 leaf column.
type leaf21 struct {
	w                   *Writer
	topI                int
	path                string
	steps               []step // root first
	nl                  int    // layers = len(steps)
	maxRep              uint16
	listLevel           []uint16 // per step: list level of a list step (innermost = 1)
	nullCode, emptyCode []uint16 // per layer (innermost first), full codes
	maxVisDef           uint16   // full codes: entries with def <= maxVisDef are visible

	kind  valueKind
	width int   // bytes per value (vFixed, vFSL)
	dims  []int // vFSL: dims outer first
	itemW int   // vFSL: bytes per item

	pg       pageBuf
	bytesRow float64 // running estimate of buffered bytes per row
	rowStart int64
	zero     []byte
	cm       *file2pb.ColumnMetadata
	general  bool     // building the general-compressed form of a page
	rle      bool     // building the run-length-encoded form of a page
	bss      bool     // building the byte-stream-split form of a page
	float    bool     // float32/float64 values (byte-stream-split applies)
	utf8     bool     // string values (FSST applies)
	fsst     *fsstEnc // the page's strings are FSST-encoded with this table
}

func newLeaf21(w *Writer, top int, steps []step, path string) (colWriter, error) {
	c := &leaf21{w: w, topI: top, path: path, steps: steps, nl: len(steps)}
	leaf := steps[len(steps)-1].dt
	switch t := leaf.(type) {
	case *arrow.BooleanType:
		c.kind = vBool
	case *arrow.StringType, *arrow.LargeStringType:
		c.kind, c.utf8 = vVar, true
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		c.kind = vVar
	case *arrow.FixedSizeListType:
		c.kind = vFSL
		var it arrow.DataType = t
		c.itemW = 1
		n := 1
		for {
			f, ok := it.(*arrow.FixedSizeListType)
			if !ok {
				break
			}
			c.dims = append(c.dims, int(f.Len()))
			n *= int(f.Len())
			it = f.Elem()
		}
		fw, ok := it.(arrow.FixedWidthDataType)
		if !ok || fw.BitWidth()%8 != 0 || fw.BitWidth() == 0 {
			return nil, errs.Wrap(ErrUnsupported, "field %s: fixed_size_list of %s", errs.Quote(path), it)
		}
		c.itemW = fw.BitWidth() / 8
		c.width = n * c.itemW
		if n > 1<<24 || c.width > 1<<28 {
			return nil, errs.Wrap(ErrUnsupported, "field %s: fixed_size_list of %d items", errs.Quote(path), n)
		}
	case arrow.FixedWidthDataType:
		if t.BitWidth()%8 != 0 || t.BitWidth() == 0 {
			return nil, errs.Wrap(ErrUnsupported, "field %s: Arrow type %s", errs.Quote(path), leaf)
		}
		c.kind = vFixed
		c.width = t.BitWidth() / 8
		switch t.(type) {
		case *arrow.Float32Type, *arrow.Float64Type:
			c.float = true
		}
	default:
		return nil, errs.Wrap(ErrUnsupported, "field %s: Arrow type %s", errs.Quote(path), leaf)
	}
	// Full codes, innermost layer first.
	c.nullCode = make([]uint16, c.nl)
	c.emptyCode = make([]uint16, c.nl)
	c.listLevel = make([]uint16, c.nl)
	code := uint16(1)
	firstList := true
	c.maxVisDef = math.MaxUint16
	for j := 0; j < c.nl; j++ {
		s := steps[c.nl-1-j]
		if s.kind == stepList {
			if firstList {
				c.maxVisDef = code - 1
				firstList = false
			}
			c.nullCode[j], c.emptyCode[j] = code, code+1
			code += 2
			c.maxRep++
			c.listLevel[c.nl-1-j] = c.maxRep
		} else {
			c.nullCode[j] = code
			code++
		}
		if code > 1<<15 {
			return nil, errs.Wrap(ErrUnsupported, "field %s nested too deeply", errs.Quote(path))
		}
	}
	c.pg.layerNull = make([]bool, c.nl)
	c.pg.layerEmpty = make([]bool, c.nl)
	if c.kind == vFSL {
		c.pg.fslValid = make([][]byte, len(c.dims))
		c.pg.fslNull = make([]bool, len(c.dims))
	}
	c.zero = make([]byte, max(c.width, 8))
	return c, nil
}

func (c *leaf21) top() int { return c.topI }

// write shreds arr (the top-level array) in slices sized so that a page
// is cut close to the page size.
func (c *leaf21) write(arr arrow.Array) error {
	n := arr.Len()
	for lo := 0; lo < n; {
		room := c.w.cfg.write.pageBytes - c.pg.bytes()
		k := n - lo
		if c.bytesRow > 0 {
			k = min(k, max(1, int(float64(room)/c.bytesRow)))
		} else {
			k = min(k, 1024)
		}
		before := c.pg.bytes()
		if err := c.shred(arr, lo, lo+k); err != nil {
			return err
		}
		got := float64(c.pg.bytes()-before) / float64(k)
		if c.bytesRow == 0 {
			c.bytesRow = max(got, 0.125)
		} else {
			c.bytesRow = 0.5*c.bytesRow + 0.5*max(got, 0.125)
		}
		lo += k
		if c.pg.bytes() >= c.w.cfg.write.pageBytes {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *leaf21) finish() error {
	if c.pg.rows > 0 || c.rowStart == 0 {
		// An empty file still gets one (empty) page per column, from
		// which a reader learns the column's shape.
		return c.flush()
	}
	return nil
}

// shred appends rows [lo, hi) of the top-level array.
func (c *leaf21) shred(arr arrow.Array, lo, hi int) error {
	c.pg.rows += int64(hi - lo)
	if c.nl == 1 {
		return c.shredFlat(arr, lo, hi)
	}
	for i := lo; i < hi; i++ {
		if err := c.emit(0, arr, i, c.maxRep); err != nil {
			return err
		}
	}
	return nil
}

// shredFlat: a top-level leaf, one entry per row, every entry visible.
func (c *leaf21) shredFlat(arr arrow.Array, lo, hi int) error {
	n := hi - lo
	if arr.NullN() > 0 {
		c.ensureDef()
		for i := lo; i < hi; i++ {
			if arr.IsNull(i) {
				c.pg.def = append(c.pg.def, c.nullCode[0])
				c.pg.layerNull[0] = true
				c.pg.nNull++
			} else {
				c.pg.def = append(c.pg.def, 0)
			}
		}
	} else if c.pg.def != nil {
		c.pg.def = append(c.pg.def, make([]uint16, n)...)
	}
	c.pg.entries += n
	return c.values(arr, lo, hi)
}

func (c *leaf21) ensureDef() {
	if c.pg.def == nil {
		c.pg.def = make([]uint16, c.pg.entries, max(c.pg.entries*2, 1024))
	}
}

func (c *leaf21) push(rep, def uint16) {
	if c.maxRep > 0 {
		c.pg.rep = append(c.pg.rep, rep)
	}
	if def != 0 {
		c.ensureDef()
	}
	if c.pg.def != nil {
		c.pg.def = append(c.pg.def, def)
	}
	c.pg.entries++
}

// emit shreds value i of a, the array at step d, whose first entry gets
// repetition level rep.
func (c *leaf21) emit(d int, a arrow.Array, i int, rep uint16) error {
	j := c.nl - 1 - d
	if a.IsNull(i) {
		code := c.nullCode[j]
		c.push(rep, code)
		c.pg.layerNull[j] = true
		if code <= c.maxVisDef {
			c.pg.nNull++
			c.placeholder()
		}
		return nil
	}
	s := c.steps[d]
	switch s.kind {
	case stepStruct:
		sa, ok := a.(*array.Struct)
		if !ok {
			return errs.Wrap(ErrInvalidArgument, "field %s: %T is not a struct array", errs.Quote(c.path), a)
		}
		return c.emit(d+1, sa.Field(s.child), i, rep)
	case stepList:
		la, ok := a.(array.ListLike)
		if !ok {
			return errs.Wrap(ErrInvalidArgument, "field %s: %T is not a list array", errs.Quote(c.path), a)
		}
		start, end := la.ValueOffsets(i)
		if end <= start {
			c.push(rep, c.emptyCode[j])
			c.pg.layerEmpty[j] = true
			return nil
		}
		child := la.ListValues()
		inner := c.listLevel[d] - 1
		for k := start; k < end; k++ {
			r := inner
			if k == start {
				r = rep
			}
			if err := c.emit(d+1, child, int(k), r); err != nil {
				return err
			}
		}
		return nil
	}
	c.push(rep, 0)
	return c.values(a, i, i+1)
}

// placeholder appends the value of a visible null slot.
func (c *leaf21) placeholder() {
	p := &c.pg
	p.nVis++
	switch c.kind {
	case vFixed:
		p.fixed = append(p.fixed, c.zero[:c.width]...)
	case vBool:
		p.appendBit(false)
	case vVar:
		p.appendOff(0)
	case vFSL:
		p.fixed = append(p.fixed, make([]byte, c.width)...)
		n := p.nVis - 1
		m := 1
		for l, d := range c.dims {
			m *= d
			if p.fslNull[l] { // validity is tracked once a null item is seen
				p.fslValid[l] = setBits(p.fslValid[l], n*m, m, true)
			}
		}
	}
}

func (p *pageBuf) appendBit(v bool) {
	i := p.nVis - 1
	if i/8 >= len(p.bits) {
		p.bits = append(p.bits, 0)
	}
	if v {
		p.bits[i/8] |= 1 << (i % 8)
	}
}

// appendOff appends a value of l bytes (already in data) to the offsets.
func (p *pageBuf) appendOff(l int) {
	if l > p.maxLen {
		p.maxLen = l
	}
	end := uint64(len(p.data))
	if p.offs64 == nil && end <= math.MaxUint32 {
		p.offs = append(p.offs, uint32(end))
		return
	}
	if p.offs64 == nil {
		p.offs64 = make([]uint64, len(p.offs), 2*len(p.offs)+1)
		for i, o := range p.offs {
			p.offs64[i] = uint64(o)
		}
		p.offs = nil
	}
	p.offs64 = append(p.offs64, end)
}

// allSet reports whether bits [at, at+n) of b are all set.
func allSet(b []byte, at, n int) bool {
	for i := at; i < at+n; i++ {
		if i%8 == 0 && i+8 <= at+n {
			if b[i/8] != 0xff {
				return false
			}
			i += 7
			continue
		}
		if b[i/8]&(1<<(i%8)) == 0 {
			return false
		}
	}
	return true
}

// setBits sets or clears bits [at, at+n) of b, growing it.
func setBits(b []byte, at, n int, v bool) []byte {
	need := (at + n + 7) / 8
	for len(b) < need {
		b = append(b, 0)
	}
	fill := byte(0)
	if v {
		fill = 0xff
	}
	for i := at; i < at+n; i++ {
		if i%8 == 0 && i+8 <= at+n {
			b[i/8] = fill
			i += 7
			continue
		}
		if v {
			b[i/8] |= 1 << (i % 8)
		} else {
			b[i/8] &^= 1 << (i % 8)
		}
	}
	return b
}

// values appends the values of leaf array a at [lo, hi), nulls as
// placeholders (their def levels are already recorded).
func (c *leaf21) values(a arrow.Array, lo, hi int) error {
	p := &c.pg
	data := a.Data()
	off := data.Offset()
	switch c.kind {
	case vFixed:
		buf := data.Buffers()[1]
		if buf == nil {
			p.fixed = append(p.fixed, make([]byte, (hi-lo)*c.width)...)
		} else {
			b := buf.Bytes()
			p.fixed = append(p.fixed, b[(off+lo)*c.width:(off+hi)*c.width]...)
		}
		p.nVis += hi - lo
	case vBool:
		var b []byte
		if buf := data.Buffers()[1]; buf != nil {
			b = buf.Bytes()
		}
		for i := lo; i < hi; i++ {
			p.nVis++
			p.appendBit(b != nil && bitutil.BitIsSet(b, off+i) && a.IsValid(i))
		}
	case vVar:
		switch v := a.(type) {
		case *array.String:
			appendVarRange(p, v, lo, hi)
		case *array.LargeString:
			appendVarRange(p, v, lo, hi)
		case *array.Binary:
			appendVarRange(p, v, lo, hi)
		case *array.LargeBinary:
			appendVarRange(p, v, lo, hi)
		default:
			return errs.Wrap(ErrInvalidArgument, "field %s: %T is not a string or binary array", errs.Quote(c.path), a)
		}
	case vFSL:
		p.fixed = slices.Grow(p.fixed, (hi-lo)*c.width)
		for i := lo; i < hi; i++ {
			p.nVis++
			if err := c.fslValue(a, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// fslValue appends FSL row i of a (nulls included: placeholder items).
func (c *leaf21) fslValue(a arrow.Array, i int) error {
	p := &c.pg
	row := p.nVis - 1
	cur := a
	start, cnt := i, 1
	m := 1
	for l, d := range c.dims {
		fa, ok := cur.(*array.FixedSizeList)
		if !ok {
			return errs.Wrap(ErrInvalidArgument, "field %s: %T is not a fixed_size_list array", errs.Quote(c.path), cur)
		}
		m *= d
		child := fa.ListValues()
		// Items of rows [start, start+cnt) are child[start*d : (start+cnt)*d]
		// relative to the child array's own offset (FixedSizeList slices
		// carry their offset in their own data).
		cstart := (fa.Data().Offset() + start) * d
		ccnt := cnt * d
		// child values are addressed in the unsliced child: use its data.
		// Item validity is tracked from the first null item of the page
		// on (earlier rows are backfilled as valid).
		cd := child.Data()
		bm := cd.Buffers()[0]
		hasNull := child.NullN() > 0 && bm != nil && !allSet(bm.Bytes(), cd.Offset()+cstart, ccnt)
		if hasNull && !p.fslNull[l] {
			p.fslNull[l] = true
			p.fslValid[l] = setBits(p.fslValid[l][:0], 0, row*m, true)
		}
		if p.fslNull[l] {
			vb := setBits(p.fslValid[l], row*m, m, true)
			if hasNull {
				for k := 0; k < ccnt; k++ {
					if !bitutil.BitIsSet(bm.Bytes(), cd.Offset()+cstart+k) {
						vb[(row*m+k)/8] &^= 1 << ((row*m + k) % 8)
					}
				}
			}
			p.fslValid[l] = vb
		}
		cur, start, cnt = child, cstart, ccnt
	}
	d := cur.Data()
	buf := d.Buffers()[1]
	if buf == nil {
		p.fixed = append(p.fixed, make([]byte, c.width)...)
		return nil
	}
	b := buf.Bytes()
	at := (d.Offset() + start) * c.itemW
	p.fixed = append(p.fixed, b[at:at+cnt*c.itemW]...)
	return nil
}

// appendVarRange appends rows [lo, hi) of a string or binary array (any
// offset width) to the page: bytes and lengths, zero length for nulls.
func appendVarRange[T string | []byte](p *pageBuf, v interface {
	IsNull(int) bool
	Value(int) T
}, lo, hi int) {
	for i := lo; i < hi; i++ {
		p.nVis++
		if v.IsNull(i) {
			p.appendOff(0)
			continue
		}
		s := v.Value(i)
		p.data = append(p.data, s...)
		p.appendOff(len(s))
	}
}
