package lance

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// bitWidth is the Flat width a fixed-width Arrow type is stored with.
func bitWidth(dt arrow.DataType) (uint64, bool) {
	if dt.ID() == arrow.BOOL {
		return 1, true
	}
	if fw, ok := dt.(arrow.FixedWidthDataType); ok && dt.ID() != arrow.NULL {
		switch dt.(type) {
		case *arrow.DictionaryType:
			return 0, false
		}
		return uint64(fw.BitWidth()), true
	}
	return 0, false
}

// checkAlloc refuses to allocate n values of width bits beyond the
// per-buffer limit, and charges them to the read's memory budget when w
// carries one.
func (f *File) checkAlloc(n int64, width uint64, w *where, what string) error {
	hi, lo := bits.Mul64(uint64(n), width)
	need := lo / 8
	if lo%8 != 0 {
		need++
	}
	if hi != 0 || need > uint64(f.cfg.maxBuffer) {
		if hi != 0 {
			need = math.MaxUint64
		}
		return errs.TooLarge(ErrTooLarge, -1, w.path, what, need, f.cfg.maxBuffer)
	}
	return w.budget.charge(int64(need), w.path, what)
}

// array decodes n rows of encoding enc as Arrow type dt.
func (f *File) array(w *where, enc *encpb.ArrayEncoding, n int64, dt arrow.DataType, depth int) (arrow.Array, error) {
	if depth > f.cfg.maxDepth {
		return nil, errs.At(ErrTooLarge, -1, w.path, "encoding tree deeper than %d", f.cfg.maxDepth)
	}
	if dt.ID() == arrow.NULL {
		return array.NewNull(int(n)), nil
	}
	switch e := enc.GetArrayEncoding().(type) {
	case *encpb.ArrayEncoding_Flat:
		return f.flat(w, e.Flat, n, dt)
	case *encpb.ArrayEncoding_Nullable:
		return f.nullable(w, e.Nullable, n, dt, depth)
	case *encpb.ArrayEncoding_Binary:
		return f.binary(w, e.Binary, n, dt, depth)
	case *encpb.ArrayEncoding_FixedSizeList:
		return f.fixedSizeList(w, e.FixedSizeList, n, dt, depth)
	case *encpb.ArrayEncoding_Dictionary:
		return f.dictionary(w, e.Dictionary, n, dt, depth)
	case *encpb.ArrayEncoding_List, *encpb.ArrayEncoding_Struct:
		return nil, errs.At(ErrCorrupt, -1, w.path, "%T page in a %s column", e, dt)
	case nil:
		return nil, errs.At(ErrUnsupported, -1, w.path, "%s", unknownEncoding(enc))
	}
	return nil, errs.At(ErrUnsupported, -1, w.path, "array encoding %T", enc.GetArrayEncoding())
}

// flatBuffer reads and decompresses a Flat's buffer and checks it holds n
// values of its width.
func (f *File) flatBuffer(w *where, fl *encpb.Flat, n int64) ([]byte, error) {
	bpv := fl.BitsPerValue
	if bpv != 1 && (bpv == 0 || bpv%8 != 0 || bpv > 8*(1<<20)) {
		return nil, errs.At(ErrUnsupported, -1, w.path, "Flat of %d bits per value (only 1 and multiples of 8 exist)", bpv)
	}
	if err := f.checkAlloc(n, bpv, w, "flat values"); err != nil {
		return nil, err
	}
	buf, off, err := f.buffer(w, fl.Buffer)
	if err != nil {
		return nil, err
	}
	if bpv != 1 { // bitmaps are never compressed (lance ignores the field)
		buf, err = f.decompress(fl.GetCompression().GetScheme(), buf, off, w.path)
		if err != nil {
			return nil, err
		}
	}
	need := (uint64(n)*bpv + 7) / 8
	if uint64(len(buf)) < need {
		return nil, errs.At(ErrBufferSize, off, w.path, "Flat buffer of %d bytes holds fewer than %d values of %d bits", len(buf), n, bpv)
	}
	return buf[:need], nil
}

func (f *File) flat(w *where, fl *encpb.Flat, n int64, dt arrow.DataType) (arrow.Array, error) {
	if bpv := fl.BitsPerValue; bpv != 1 && bpv%8 != 0 {
		return nil, errs.At(ErrUnsupported, -1, w.path, "Flat of %d bits per value (only 1 and multiples of 8 exist)", bpv)
	}
	want, ok := bitWidth(dt)
	if !ok {
		return nil, errs.At(ErrCorrupt, -1, w.path, "Flat encoding for %s values", dt)
	}
	if fl.BitsPerValue != want {
		return nil, errs.At(ErrCorrupt, -1, w.path, "Flat of %d bits for %s (%d bits)", fl.BitsPerValue, dt, want)
	}
	buf, err := f.flatBuffer(w, fl, n)
	if err != nil {
		return nil, err
	}
	data := array.NewData(dt, int(n), []*memory.Buffer{nil, memory.NewBufferBytes(buf)}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// bitmap decodes a validity encoding (Flat{1}) into n bits.
func (f *File) bitmap(w *where, enc *encpb.ArrayEncoding, n int64, depth int) ([]byte, error) {
	a, err := f.array(w, enc, n, arrow.FixedWidthTypes.Boolean, depth+1)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.NullN() != 0 || a.Data().Offset() != 0 {
		return nil, errs.At(ErrCorrupt, -1, w.path, "validity bitmap with nulls of its own")
	}
	if n == 0 {
		return nil, nil
	}
	return a.Data().Buffers()[1].Bytes(), nil
}

// withValidity returns a with validity bitmap vb (n bits, 1 = valid).
func withValidity(a arrow.Array, vb []byte) arrow.Array {
	d := a.Data()
	n := d.Len()
	if a.NullN() > 0 && d.Buffers()[0] != nil {
		// The values carry nulls of their own (a Binary under Nullable):
		// a row is valid only if both say so.
		own := d.Buffers()[0].Bytes()
		merged := make([]byte, len(vb))
		bitutil.BitmapAnd(vb, own, 0, int64(d.Offset()), merged, 0, int64(n))
		vb = merged
	}
	nulls := n - bitutil.CountSetBits(vb, 0, n)
	bufs := append([]*memory.Buffer{memory.NewBufferBytes(vb)}, d.Buffers()[1:]...)
	var nd *array.Data
	// Dictionary() is a typed nil for other types: test the type instead.
	if d.DataType().ID() == arrow.DICTIONARY {
		nd = array.NewDataWithDictionary(d.DataType(), n, bufs, nulls, d.Offset(), d.Dictionary().(*array.Data))
	} else {
		nd = array.NewData(d.DataType(), n, bufs, d.Children(), nulls, d.Offset())
	}
	defer nd.Release()
	a.Release()
	return array.MakeFromData(nd)
}

func (f *File) nullable(w *where, nl *encpb.Nullable, n int64, dt arrow.DataType, depth int) (arrow.Array, error) {
	switch x := nl.GetNullability().(type) {
	case *encpb.Nullable_NoNulls:
		return f.array(w, x.NoNulls.GetValues(), n, dt, depth+1)
	case *encpb.Nullable_AllNulls:
		if err := f.checkAlloc(n, nullBits(dt), w, "all-null array"); err != nil {
			return nil, err
		}
		return array.MakeArrayOfNull(f.cfg.mem, dt, int(n)), nil
	case *encpb.Nullable_SomeNulls:
		vb, err := f.bitmap(w, x.SomeNulls.GetValidity(), n, depth)
		if err != nil {
			return nil, err
		}
		a, err := f.array(w, x.SomeNulls.GetValues(), n, dt, depth+1)
		if err != nil {
			return nil, err
		}
		return withValidity(a, vb), nil
	}
	return nil, errs.At(ErrProto, -1, w.path, "Nullable without a nullability")
}

// nullBits estimates the bits per row an all-null array of dt allocates.
func nullBits(dt arrow.DataType) uint64 {
	switch t := dt.(type) {
	case *arrow.FixedSizeListType:
		return 1 + uint64(t.Len())*nullBits(t.Elem())
	case *arrow.StructType:
		s := uint64(1)
		for _, c := range t.Fields() {
			s += nullBits(c.Type)
		}
		return s
	}
	if w, ok := bitWidth(dt); ok {
		return w + 1
	}
	return 65
}

// uints decodes n unsigned integers of any Flat width 8..64 (Binary
// indices, List offsets, dictionary indices).
func (f *File) uints(w *where, enc *encpb.ArrayEncoding, n int64, depth int) ([]uint64, error) {
	fl := innerFlat(enc)
	if fl == nil {
		return nil, errs.At(ErrUnsupported, -1, w.path, "offsets or indices not in a Flat encoding")
	}
	var dt arrow.DataType
	switch fl.BitsPerValue {
	case 8:
		dt = arrow.PrimitiveTypes.Uint8
	case 16:
		dt = arrow.PrimitiveTypes.Uint16
	case 32:
		dt = arrow.PrimitiveTypes.Uint32
	case 64:
		dt = arrow.PrimitiveTypes.Uint64
	default:
		return nil, errs.At(ErrUnsupported, -1, w.path, "offsets or indices of %d bits", fl.BitsPerValue)
	}
	if err := f.checkAlloc(n, 64, w, "offsets"); err != nil {
		return nil, err
	}
	a, err := f.array(w, enc, n, dt, depth+1)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.NullN() != 0 {
		return nil, errs.At(ErrOffsets, -1, w.path, "offsets or indices contain nulls")
	}
	if u, ok := a.(*array.Uint64); ok {
		return u.Uint64Values(), nil
	}
	out := make([]uint64, n)
	switch u := a.(type) {
	case *array.Uint8:
		for i, v := range u.Uint8Values() {
			out[i] = uint64(v)
		}
	case *array.Uint16:
		for i, v := range u.Uint16Values() {
			out[i] = uint64(v)
		}
	case *array.Uint32:
		for i, v := range u.Uint32Values() {
			out[i] = uint64(v)
		}
	}
	return out, nil
}

// innerFlat finds the Flat under Nullable wrappers.
func innerFlat(enc *encpb.ArrayEncoding) *encpb.Flat {
	for i := 0; i < 8 && enc != nil; i++ {
		if fl := enc.GetFlat(); fl != nil {
			return fl
		}
		nl := enc.GetNullable()
		switch {
		case nl.GetNoNulls() != nil:
			enc = nl.GetNoNulls().GetValues()
		case nl.GetSomeNulls() != nil:
			enc = nl.GetSomeNulls().GetValues()
		default:
			return nil
		}
	}
	return nil
}

func isLarge(dt arrow.DataType) bool {
	return dt.ID() == arrow.LARGE_STRING || dt.ID() == arrow.LARGE_BINARY
}

func isVarBinary(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return true
	}
	return false
}

// varBinary builds a string/binary array from n+1 offsets, data and an
// optional validity bitmap.
func (f *File) varBinary(w *where, dt arrow.DataType, offs []int64, data []byte, vb []byte, nulls int) (arrow.Array, error) {
	if isLarge(dt) {
		return f.varBinaryOffsets(w, dt, nil, offs, data, vb, nulls)
	}
	if len(data) > math.MaxInt32 {
		return nil, errs.At(ErrTooLarge, -1, w.path, "%d bytes of %s need a large type", len(data), dt)
	}
	o32 := make([]int32, len(offs))
	for i, v := range offs {
		o32[i] = int32(v)
	}
	return f.varBinaryOffsets(w, dt, o32, nil, data, vb, nulls)
}

// varBinaryOffsets builds a string/binary array from o32 (or, for the
// large types, o64) offsets, data and an optional validity bitmap.
func (f *File) varBinaryOffsets(w *where, dt arrow.DataType, o32 []int32, o64 []int64, data []byte, vb []byte, nulls int) (arrow.Array, error) {
	var ob []byte
	n := len(o32) - 1
	if isLarge(dt) {
		ob = arrow.Int64Traits.CastToBytes(o64)
		n = len(o64) - 1
	} else {
		if len(data) > math.MaxInt32 {
			return nil, errs.At(ErrTooLarge, -1, w.path, "%d bytes of %s need a large type", len(data), dt)
		}
		ob = arrow.Int32Traits.CastToBytes(o32)
	}
	var vbuf *memory.Buffer
	if nulls > 0 {
		vbuf = memory.NewBufferBytes(vb)
	}
	d := array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(ob), memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// binary decodes Binary: page-local u64 end offsets without a leading 0,
// nulls stored as end + null_adjustment (notes §5).
func (f *File) binary(w *where, b *encpb.Binary, n int64, dt arrow.DataType, depth int) (arrow.Array, error) {
	if !isVarBinary(dt) {
		return nil, errs.At(ErrCorrupt, -1, w.path, "Binary encoding for %s values", dt)
	}
	idx, err := f.uints(w, b.GetIndices(), n, depth)
	if err != nil {
		return nil, err
	}
	adj := b.NullAdjustment
	large := isLarge(dt)
	var o32 []int32
	var o64 []int64
	words := make([]uint64, (n+63)/64)
	lim := endLimit(adj, uint64(f.cfg.maxBuffer))
	var prev uint64
	bad := -1
	if large {
		o64 = make([]int64, n+1)
		prev, bad = rebaseEnds(idx, adj, 0, lim, 0, o64[1:], words, 0)
	} else {
		o32 = make([]int32, n+1)
		prev, bad = rebaseEnds(idx, adj, 0, lim, 0, o32[1:], words, 0)
	}
	if bad >= 0 {
		pv := uint64(0)
		if bad > 0 {
			pv = storedEnd(idx[bad-1], adj)
		}
		return nil, errs.At(ErrOffsets, -1, w.path, "binary row %d ends at %d after %d (null adjustment %d)", bad, storedEnd(idx[bad], adj), pv, adj)
	}
	data, err := f.bytes(w, b.GetBytes(), int64(prev), depth)
	if err != nil {
		return nil, err
	}
	nulls := int(n) - popcount(words)
	var vb []byte
	if nulls > 0 {
		vb = arrow.Uint64Traits.CastToBytes(words)[:bitutil.BytesForBits(n)]
	}
	return f.varBinaryOffsets(w, dt, o32, o64, data, vb, nulls)
}

// bytes decodes an n-byte u8 array (Binary.bytes, plain or in Nullable).
func (f *File) bytes(w *where, enc *encpb.ArrayEncoding, n int64, depth int) ([]byte, error) {
	a, err := f.array(w, enc, n, arrow.PrimitiveTypes.Uint8, depth+1)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.NullN() != 0 {
		return nil, errs.At(ErrCorrupt, -1, w.path, "string bytes contain nulls")
	}
	return a.(*array.Uint8).Uint8Values(), nil
}

func (f *File) fixedSizeList(w *where, fsl *encpb.FixedSizeList, n int64, dt arrow.DataType, depth int) (arrow.Array, error) {
	t, ok := dt.(*arrow.FixedSizeListType)
	if !ok {
		return nil, errs.At(ErrCorrupt, -1, w.path, "FixedSizeList encoding for %s values", dt)
	}
	if int64(fsl.Dimension) != int64(t.Len()) {
		return nil, errs.At(ErrCorrupt, -1, w.path, "FixedSizeList dimension %d, schema says %d", fsl.Dimension, t.Len())
	}
	items, ok := mulRows(n, int64(t.Len()))
	if !ok {
		return nil, errs.At(ErrTooLarge, -1, w.path, "%d lists of %d items", n, t.Len())
	}
	child, err := f.array(w, fsl.GetItems(), items, t.Elem(), depth+1)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	d := array.NewData(dt, int(n), []*memory.Buffer{nil}, []arrow.ArrayData{child.Data()}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

func mulRows(a, b int64) (int64, bool) {
	p, ok := errs.MulSize(a, b)
	return p, ok && p < 1<<62
}

// dictionary decodes both meanings of Dictionary (notes §5): for an Arrow
// dictionary field, raw keys plus the value array; for an automatic
// (string) dictionary, u8-ish indices where 0 is null and k is items[k-1],
// materialised back into a plain string array.
func (f *File) dictionary(w *where, de *encpb.Dictionary, n int64, dt arrow.DataType, depth int) (arrow.Array, error) {
	nd := int64(de.NumDictionaryItems)
	if t, ok := dt.(*arrow.DictionaryType); ok {
		keys, err := f.array(w, de.GetIndices(), n, t.IndexType, depth+1)
		if err != nil {
			return nil, err
		}
		defer keys.Release()
		vals, err := f.array(w, de.GetItems(), nd, t.ValueType, depth+1)
		if err != nil {
			return nil, err
		}
		defer vals.Release()
		if err := checkKeys(keys, nd); err != nil {
			return nil, errs.Locate(err, -1, w.path)
		}
		return array.NewDictionaryArray(dt, keys, vals), nil
	}
	if !isVarBinary(dt) {
		return nil, errs.At(ErrCorrupt, -1, w.path, "automatic Dictionary encoding for %s values", dt)
	}
	idx, err := f.uints(w, de.GetIndices(), n, depth)
	if err != nil {
		return nil, err
	}
	items, err := f.array(w, de.GetItems(), nd, dt, depth+1)
	if err != nil {
		return nil, err
	}
	defer items.Release()
	ofs, data := binaryParts(items)
	total := int64(0)
	nulls := 0
	for i, k := range idx {
		if k == 0 {
			nulls++
			continue
		}
		if k > uint64(nd) {
			return nil, errs.At(ErrDictIndex, -1, w.path, "row %d index %d, dictionary has %d items", i, k, nd)
		}
		if items.IsNull(int(k - 1)) {
			nulls++
			continue
		}
		total += ofs[k] - ofs[k-1]
		if total > f.cfg.maxBuffer {
			return nil, errs.TooLarge(ErrTooLarge, -1, w.path, "materialised dictionary", uint64(total), f.cfg.maxBuffer)
		}
	}
	offs := make([]int64, n+1)
	out := make([]byte, 0, total)
	var vb []byte
	if nulls > 0 {
		vb = make([]byte, bitutil.BytesForBits(n))
	}
	for i, k := range idx {
		if k != 0 && !items.IsNull(int(k-1)) {
			out = append(out, data[ofs[k-1]:ofs[k]]...)
			if vb != nil {
				bitutil.SetBit(vb, i)
			}
		}
		offs[i+1] = int64(len(out))
	}
	return f.varBinary(w, dt, offs, out, vb, nulls)
}

// binaryParts returns the offsets (as int64, rebased to 0 at the array's
// first row) and data of a string/binary array.
func binaryParts(a arrow.Array) ([]int64, []byte) {
	n := a.Len()
	offs := make([]int64, n+1)
	var data []byte
	switch x := a.(type) {
	case *array.String:
		o := x.ValueOffsets()
		for i := range offs {
			offs[i] = int64(o[i] - o[0])
		}
		data = x.ValueBytes()
	case *array.Binary:
		o := x.ValueOffsets()
		for i := range offs {
			offs[i] = int64(o[i] - o[0])
		}
		data = x.ValueBytes()
	case *array.LargeString:
		o := x.ValueOffsets()
		for i := range offs {
			offs[i] = o[i] - o[0]
		}
		data = x.ValueBytes()
	case *array.LargeBinary:
		o := x.ValueOffsets()
		for i := range offs {
			offs[i] = o[i] - o[0]
		}
		data = x.ValueBytes()
	}
	return offs, data
}

// checkKeys verifies that every non-null dictionary key is in [0, n).
func checkKeys(keys arrow.Array, n int64) error {
	for i := 0; i < keys.Len(); i++ {
		if keys.IsNull(i) {
			continue
		}
		var k int64
		var big bool
		switch x := keys.(type) {
		case *array.Int8:
			k = int64(x.Value(i))
		case *array.Int16:
			k = int64(x.Value(i))
		case *array.Int32:
			k = int64(x.Value(i))
		case *array.Int64:
			k = x.Value(i)
		case *array.Uint8:
			k = int64(x.Value(i))
		case *array.Uint16:
			k = int64(x.Value(i))
		case *array.Uint32:
			k = int64(x.Value(i))
		case *array.Uint64:
			big = x.Value(i) > math.MaxInt64
			k = int64(x.Value(i))
		}
		if big || k < 0 || k >= n {
			return errs.Wrap(ErrDictIndex, "row %d key %d, dictionary has %d items", i, k, n)
		}
	}
	return nil
}

// laterEncoding names ArrayEncoding fields added after the seed proto
// (notes §1), which 2.0 readers must refuse.
// (A switch, not a map: nothing is built at package initialisation.)
func laterEncoding(num protowire.Number) (string, bool) {
	switch num {
	case 8:
		return "fsst", true
	case 9:
		return "packed_struct", true
	case 10:
		return "bitpacked", true
	case 11:
		return "fixed_size_binary", true
	case 12:
		return "bitpacked_for_non_neg", true
	}
	return "", false
}

// unknownEncoding describes an ArrayEncoding with no field this package
// knows: a later lance release's encoding, or nothing at all.
func unknownEncoding(enc *encpb.ArrayEncoding) string {
	u := enc.ProtoReflect().GetUnknown()
	if len(u) == 0 {
		return "empty array encoding"
	}
	num, _, n := protowire.ConsumeTag(u)
	if n < 0 {
		return "unreadable array encoding"
	}
	if name, ok := laterEncoding(num); ok {
		return fmt.Sprintf("array encoding %s (field %d) comes from a later lance release than 2.0's seed encodings", name, num)
	}
	return fmt.Sprintf("unknown array encoding field %d (a later lance release?)", num)
}
