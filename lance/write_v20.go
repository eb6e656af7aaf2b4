package lance

// The 2.0 writer (notes lance.md §4, §5, §11): one column per field in a
// depth-first walk — a struct gets a header column, a list an offsets
// column, then their children's columns; leaves are Nullable{Flat},
// Nullable{FixedSizeList} or Binary pages. Every column cuts its own pages.

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
	"github.com/colfmt/colfmt/lance/internal/pb/file2pb"
)

const arrayEncodingURL = "/lance.encodings.ArrayEncoding"

// node20 is a 2.0 column writer that also feeds its children.
type node20 interface {
	colWriter
	add(a arrow.Array) error // append every value of a
}

// root20 feeds a top-level field's array to its column tree.
type root20 struct {
	node20
	topI int
}

func (r *root20) top() int                    { return r.topI }
func (r *root20) write(arr arrow.Array) error { return r.add(arr) }

func (w *Writer) plan20(f arrow.Field, top int, next *int) error {
	n, err := w.node20(f, f.Name, next)
	if err != nil {
		return err
	}
	w.roots = append(w.roots, &root20{node20: n, topI: top})
	return nil
}

// node20 makes the writers of field f and its children, appending them to
// w.cols in column order.
func (w *Writer) node20(f arrow.Field, path string, next *int) (node20, error) {
	id := w.fields[w.nextFld].Id
	w.nextFld++
	w.fieldIDs = append(w.fieldIDs, id)
	w.colIdx = append(w.colIdx, int32(*next))
	*next++
	base := col20{w: w, path: path}
	switch t := f.Type.(type) {
	case *arrow.StructType:
		s := &struct20{col20: base}
		w.cols = append(w.cols, s)
		for _, c := range t.Fields() {
			cn, err := w.node20(c, path+"."+c.Name, next)
			if err != nil {
				return nil, err
			}
			s.children = append(s.children, cn)
		}
		return s, nil
	case *arrow.ListType, *arrow.LargeListType:
		l := &list20{col20: base}
		w.cols = append(w.cols, l)
		var ef arrow.Field
		if lt, ok := t.(*arrow.ListType); ok {
			ef = lt.ElemField()
		} else {
			ef = t.(*arrow.LargeListType).ElemField()
		}
		cn, err := w.node20(ef, path+"."+ef.Name, next)
		if err != nil {
			return nil, err
		}
		l.child = cn
		return l, nil
	case *arrow.MapType:
		return nil, errs.Wrap(ErrUnsupported, "field %s: maps need file format 2.2", errs.Quote(path))
	}
	lf, err := newLeaf20(base, f.Type)
	if err != nil {
		return nil, err
	}
	w.cols = append(w.cols, lf)
	return lf, nil
}

type col20 struct {
	w    *Writer
	path string
	cm   *file2pb.ColumnMetadata
}

func (c *col20) top() int                    { return -1 }
func (c *col20) write(arr arrow.Array) error { return nil }

func (c *col20) meta() *file2pb.ColumnMetadata {
	if c.cm == nil {
		c.cm = &file2pb.ColumnMetadata{}
	}
	if c.cm.Encoding == nil {
		c.cm.Encoding, _ = directEncoding("/lance.encodings.ColumnEncoding", columnEncodingValues())
	}
	return c.cm
}

func (c *col20) putPage(bufs [][]byte, rows uint64, e *encpb.ArrayEncoding) error {
	enc, err := directEncoding(arrayEncodingURL, e)
	if err != nil {
		return err
	}
	pg, err := c.w.putPage(bufs, rows, enc)
	if err != nil {
		return err
	}
	c.meta().Pages = append(c.meta().Pages, pg)
	return nil
}

// Encoding constructors (2.0).

func e20Flat(bits uint64, buf uint32) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Flat{Flat: &encpb.Flat{BitsPerValue: bits, Buffer: &encpb.Buffer{BufferIndex: buf}}}}
}

func e20NoNull(v *encpb.ArrayEncoding) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Nullable{Nullable: &encpb.Nullable{
		Nullability: &encpb.Nullable_NoNulls{NoNulls: &encpb.Nullable_NoNull{Values: v}}}}}
}

func e20SomeNull(validity, v *encpb.ArrayEncoding) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Nullable{Nullable: &encpb.Nullable{
		Nullability: &encpb.Nullable_SomeNulls{SomeNulls: &encpb.Nullable_SomeNull{Validity: validity, Values: v}}}}}
}

func e20AllNull() *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Nullable{Nullable: &encpb.Nullable{
		Nullability: &encpb.Nullable_AllNulls{AllNulls: &encpb.Nullable_AllNull{}}}}}
}

// struct20 is a struct header column: one page of no buffers per flush.
type struct20 struct {
	col20
	children []node20
	rows     uint64
}

func (s *struct20) add(a arrow.Array) error {
	sa, ok := a.(*array.Struct)
	if !ok {
		return errs.Wrap(ErrInvalidArgument, "field %s: %T is not a struct array", errs.Quote(s.path), a)
	}
	if sa.NullN() > 0 {
		return errs.Wrap(ErrUnsupported, "field %s: file format 2.0 cannot store null structs (use 2.1 or 2.2)", errs.Quote(s.path))
	}
	s.rows += uint64(sa.Len())
	for i, c := range s.children {
		if err := c.add(sa.Field(i)); err != nil {
			return err
		}
	}
	return nil
}

func (s *struct20) finish() error {
	for _, c := range s.children {
		if err := c.finish(); err != nil {
			return err
		}
	}
	if s.rows == 0 {
		return nil
	}
	return s.putPage(nil, s.rows, &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Struct{Struct: &encpb.SimpleStruct{}}})
}

// list20 is a list offsets column: u64 page-local ends, null lists marked
// by adding the page's adjustment (items + 1).
type list20 struct {
	col20
	child node20
	ends  []uint64
	null  []bool
	items uint64
}

func (l *list20) add(a arrow.Array) error {
	la, ok := a.(array.ListLike)
	if !ok {
		return errs.Wrap(ErrInvalidArgument, "field %s: %T is not a list array", errs.Quote(l.path), a)
	}
	n := la.Len()
	if n == 0 {
		return nil
	}
	lo, _ := la.ValueOffsets(0)
	_, hi := la.ValueOffsets(n - 1)
	for i := 0; i < n; i++ {
		s, e := la.ValueOffsets(i)
		l.items += uint64(e - s)
		l.ends = append(l.ends, l.items)
		l.null = append(l.null, la.IsNull(i))
		if 8*len(l.ends) >= int(l.w.cfg.write.pageBytes) {
			if err := l.flush(); err != nil {
				return err
			}
		}
	}
	// Items are contiguous for a well-formed list array: [lo, hi).
	items := array.NewSlice(la.ListValues(), lo, hi)
	defer items.Release()
	return l.child.add(items)
}

func (l *list20) flush() error {
	if len(l.ends) == 0 {
		return nil
	}
	adj := l.items + 1
	buf := make([]byte, 8*len(l.ends))
	for i, e := range l.ends {
		if l.null[i] {
			e += adj
		}
		binary.LittleEndian.PutUint64(buf[8*i:], e)
	}
	e := &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_List{List: &encpb.List{
		Offsets: e20NoNull(e20Flat(64, 0)), NullOffsetAdjustment: adj, NumItems: l.items}}}
	if err := l.putPage([][]byte{buf}, uint64(len(l.ends)), e); err != nil {
		return err
	}
	l.ends, l.null, l.items = l.ends[:0], l.null[:0], 0
	return nil
}

func (l *list20) finish() error {
	if err := l.flush(); err != nil {
		return err
	}
	return l.child.finish()
}

// leaf20 is a leaf column: fixed-width, boolean, fixed-size list or
// string/binary values.
type leaf20 struct {
	col20
	kind   valueKind
	width  int // bytes per value (per item for vFSL)
	dim    int // vFSL
	n      int
	valid  []byte // row validity
	nulls  int
	ivalid []byte // vFSL item validity
	inulls int
	fixed  []byte
	bits   []byte
	ends   []uint64
	data   []byte
	zero   []byte
}

func newLeaf20(base col20, dt arrow.DataType) (*leaf20, error) {
	l := &leaf20{col20: base}
	switch t := dt.(type) {
	case *arrow.BooleanType:
		l.kind = vBool
	case *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType:
		l.kind = vVar
	case *arrow.FixedSizeListType:
		fw, ok := t.Elem().(arrow.FixedWidthDataType)
		if _, nested := t.Elem().(*arrow.FixedSizeListType); nested || !ok || fw.BitWidth()%8 != 0 {
			return nil, errs.Wrap(ErrUnsupported, "field %s: file format 2.0 stores fixed_size_list of byte-wide values only", errs.Quote(base.path))
		}
		l.kind, l.width, l.dim = vFSL, fw.BitWidth()/8, int(t.Len())
	case arrow.FixedWidthDataType:
		if t.BitWidth()%8 != 0 || t.BitWidth() == 0 {
			return nil, errs.Wrap(ErrUnsupported, "field %s: Arrow type %s", errs.Quote(base.path), dt)
		}
		l.kind, l.width = vFixed, t.BitWidth()/8
	default:
		return nil, errs.Wrap(ErrUnsupported, "field %s: Arrow type %s", errs.Quote(base.path), dt)
	}
	l.zero = make([]byte, max(l.width*max(l.dim, 1), 8))
	return l, nil
}

func (l *leaf20) bytes() int {
	return len(l.fixed) + len(l.bits) + 8*len(l.ends) + len(l.data) + len(l.valid) + len(l.ivalid)
}

func (l *leaf20) appendValid(v bool) {
	if l.n%8 == 0 {
		l.valid = append(l.valid, 0)
	}
	if v {
		l.valid[l.n/8] |= 1 << (l.n % 8)
	} else {
		l.nulls++
	}
}

func (l *leaf20) add(a arrow.Array) error {
	d := a.Data()
	off := d.Offset()
	for i := 0; i < a.Len(); i++ {
		valid := a.IsValid(i)
		l.appendValid(valid)
		switch l.kind {
		case vFixed:
			if buf := d.Buffers()[1]; buf != nil && valid {
				b := buf.Bytes()
				l.fixed = append(l.fixed, b[(off+i)*l.width:(off+i+1)*l.width]...)
			} else {
				l.fixed = append(l.fixed, l.zero[:l.width]...)
			}
		case vBool:
			if l.n%8 == 0 {
				l.bits = append(l.bits, 0)
			}
			if buf := d.Buffers()[1]; buf != nil && valid && bitutil.BitIsSet(buf.Bytes(), off+i) {
				l.bits[l.n/8] |= 1 << (l.n % 8)
			}
		case vVar:
			if valid {
				l.data = append(l.data, varValue(a, i)...)
			}
			l.ends = append(l.ends, uint64(len(l.data)))
			if len(l.data) > math.MaxInt32 {
				return errs.Wrap(ErrUnsupported, "field %s: a page of more than 2 GiB of bytes", errs.Quote(l.path))
			}
		case vFSL:
			fa, ok := a.(*array.FixedSizeList)
			if !ok {
				return errs.Wrap(ErrInvalidArgument, "field %s: %T is not a fixed_size_list array", errs.Quote(l.path), a)
			}
			child := fa.ListValues()
			cd := child.Data()
			start := (off + i) * l.dim
			for k := 0; k < l.dim; k++ {
				it := l.n*l.dim + k
				if it%8 == 0 {
					l.ivalid = append(l.ivalid, 0)
				}
				if child.IsValid(start + k) {
					l.ivalid[it/8] |= 1 << (it % 8)
				} else {
					l.inulls++
				}
			}
			if buf := cd.Buffers()[1]; buf != nil {
				at := (cd.Offset() + start) * l.width
				l.fixed = append(l.fixed, buf.Bytes()[at:at+l.dim*l.width]...)
			} else {
				l.fixed = append(l.fixed, make([]byte, l.dim*l.width)...)
			}
		}
		l.n++
		if l.bytes() >= int(l.w.cfg.write.pageBytes) {
			if err := l.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// varValue is the bytes of string or binary value i.
func varValue(a arrow.Array, i int) []byte {
	switch v := a.(type) {
	case *array.String:
		return []byte(v.Value(i))
	case *array.LargeString:
		return []byte(v.Value(i))
	case *array.Binary:
		return v.Value(i)
	case *array.LargeBinary:
		return v.Value(i)
	}
	return nil
}

// nullable wraps values in the page's Nullable form; validity, when some
// rows are null, is buffer idx and values follow.
func (l *leaf20) nullable(nulls, n int, values func(next uint32) *encpb.ArrayEncoding, idx uint32) (*encpb.ArrayEncoding, bool) {
	switch {
	case nulls == 0:
		return e20NoNull(values(idx)), false
	case nulls == n:
		return e20AllNull(), false
	}
	return e20SomeNull(e20Flat(1, idx), values(idx+1)), true
}

func (l *leaf20) flush() error {
	if l.n == 0 {
		return nil
	}
	var bufs [][]byte
	var e *encpb.ArrayEncoding
	switch l.kind {
	case vVar:
		adj := uint64(len(l.data)) + 1
		ends := make([]byte, 8*l.n)
		for i, v := range l.ends {
			if l.valid[i/8]&(1<<(i%8)) == 0 {
				v += adj
			}
			binary.LittleEndian.PutUint64(ends[8*i:], v)
		}
		bytesEnc := e20Flat(8, 1)
		data := l.data
		if sc := l.w.cfg.write.compression; sc != "" && len(data) > 0 {
			// As lance's lance-encoding:compression: the bytes buffer only.
			data = l.w.compressor().raw20(data)
			bytesEnc.GetFlat().Compression = &encpb.Compression{Scheme: sc}
		}
		bufs = [][]byte{ends, data}
		e = &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Binary{Binary: &encpb.Binary{
			Indices: e20NoNull(e20Flat(64, 0)), Bytes: bytesEnc, NullAdjustment: adj}}}
	case vFixed, vBool:
		bitsPer := uint64(8 * l.width)
		vals := l.fixed
		if l.kind == vBool {
			bitsPer, vals = 1, l.bits
		}
		var some bool
		e, some = l.nullable(l.nulls, l.n, func(i uint32) *encpb.ArrayEncoding { return e20Flat(bitsPer, i) }, 0)
		switch {
		case some:
			bufs = [][]byte{l.valid, vals}
		case l.nulls == 0:
			bufs = [][]byte{vals}
		}
	case vFSL:
		if l.nulls == l.n {
			e = e20AllNull()
			break
		}
		idx := uint32(0)
		if l.nulls > 0 {
			bufs = append(bufs, l.valid)
			idx = 1
		}
		items := e20NoNull(e20Flat(uint64(8*l.width), idx))
		if l.inulls > 0 {
			bufs = append(bufs, l.ivalid)
			items = e20SomeNull(e20Flat(1, idx), e20Flat(uint64(8*l.width), idx+1))
		}
		bufs = append(bufs, l.fixed)
		fsl := &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_FixedSizeList{FixedSizeList: &encpb.FixedSizeList{Dimension: uint32(l.dim), Items: items}}}
		e = e20NoNull(fsl)
		if l.nulls > 0 {
			e = e20SomeNull(e20Flat(1, 0), fsl)
		}
	}
	if err := l.putPage(bufs, uint64(l.n), e); err != nil {
		return err
	}
	l.n, l.nulls, l.inulls = 0, 0, 0
	l.valid, l.ivalid, l.fixed, l.bits, l.ends, l.data = l.valid[:0], l.ivalid[:0], l.fixed[:0], l.bits[:0], l.ends[:0], l.data[:0]
	return nil
}

func (l *leaf20) finish() error { return l.flush() }
