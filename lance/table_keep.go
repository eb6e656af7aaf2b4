package lance

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
)

// keepRun is a run [a, b) of rows a batch keeps after deletions.
type keepRun struct{ a, b int64 }

// canKeepRuns reports whether keepRuns copies arrays of type dt directly:
// fixed-width values, booleans, (large) strings and binaries, and structs
// of those. Other types are sliced and joined. It is decided from the type
// alone, before any data is touched.
//
// Why not arrow-go's compute.FilterArray: importing arrow/compute costs
// every program that links lance about 1 ms and 560 KB of kernel
// registration at start-up, and deletions only need run copies.
func canKeepRuns(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.BooleanType, *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType:
		return true
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if !canKeepRuns(f.Type) {
				return false
			}
		}
		return true
	case arrow.FixedWidthDataType:
		return dt.ID() != arrow.DICTIONARY && dt.ID() != arrow.EXTENSION && t.BitWidth() >= 8 && t.BitWidth()%8 == 0
	}
	return false
}

// keepRuns returns the rows of a inside runs (sorted, disjoint, within
// a's length), kept rows in all, as one new array. The type must satisfy
// canKeepRuns.
func keepRuns(a arrow.Array, runs []keepRun, kept int64) (arrow.Array, error) {
	d, err := keepData(a.Data(), runs, kept)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

func keepData(d arrow.ArrayData, runs []keepRun, kept int64) (arrow.ArrayData, error) {
	off := int64(d.Offset())
	bufs := d.Buffers()
	validity, nulls := keepBits(bufs[0], off, runs, kept)
	var out []*memory.Buffer
	var children []arrow.ArrayData
	switch t := d.DataType().(type) {
	case *arrow.BooleanType:
		values, _ := keepBits(bufs[1], off, runs, kept)
		if values == nil { // a boolean array always has a values buffer
			values = memory.NewBufferBytes(make([]byte, bitutil.BytesForBits(kept)))
		}
		out = []*memory.Buffer{validity, values}
	case *arrow.StringType, *arrow.BinaryType:
		no, nd := keepVarlen(arrow.Int32Traits.CastFromBytes(bufs[1].Bytes()), bufs[2], off, runs, kept)
		out = []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(no)), memory.NewBufferBytes(nd)}
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		no, nd := keepVarlen(arrow.Int64Traits.CastFromBytes(bufs[1].Bytes()), bufs[2], off, runs, kept)
		out = []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(no)), memory.NewBufferBytes(nd)}
	case *arrow.StructType:
		out = []*memory.Buffer{validity}
		for _, c := range d.Children() {
			// A child of a sliced struct starts at the struct's offset too.
			cs := array.NewSliceData(c, off, off+int64(d.Len()))
			kc, err := keepData(cs, runs, kept)
			cs.Release()
			if err != nil {
				for _, c := range children {
					c.Release()
				}
				return nil, err
			}
			children = append(children, kc)
		}
		defer func() {
			for _, c := range children {
				c.Release()
			}
		}()
	case arrow.FixedWidthDataType:
		w := int64(t.BitWidth() / 8)
		src := bufs[1].Bytes()
		nd := make([]byte, 0, kept*w)
		for _, r := range runs {
			nd = append(nd, src[(off+r.a)*w:(off+r.b)*w]...)
		}
		out = []*memory.Buffer{validity, memory.NewBufferBytes(nd)}
	default: // canKeepRuns excludes it
		return nil, errs.Wrap(ErrUnsupported, "dropping deleted rows of %s", d.DataType())
	}
	return array.NewData(d.DataType(), int(kept), out, children, nulls, 0), nil
}

// keepVarlen copies the offsets (rebased to start at 0) and the bytes of
// runs of a string or binary array whose offsets are offs, from row off.
func keepVarlen[T int32 | int64](offs []T, data *memory.Buffer, off int64, runs []keepRun, kept int64) ([]T, []byte) {
	var src []byte
	if data != nil {
		src = data.Bytes()
	}
	no := make([]T, 1, kept+1)
	nd := make([]byte, 0)
	for _, r := range runs {
		s, e := offs[off+r.a], offs[off+r.b]
		base := T(len(nd)) - s
		for _, o := range offs[off+r.a+1 : off+r.b+1] {
			no = append(no, o+base)
		}
		nd = append(nd, src[s:e]...)
	}
	return no, nd
}

// keepBits copies the bits of runs from a bitmap starting at bit off; a
// nil bitmap (no nulls) stays nil. It returns the new bitmap and the
// number of zero bits in it.
func keepBits(b *memory.Buffer, off int64, runs []keepRun, kept int64) (*memory.Buffer, int) {
	if b == nil || b.Len() == 0 {
		return nil, 0
	}
	src := b.Bytes()
	dst := make([]byte, bitutil.BytesForBits(kept))
	pos := int64(0)
	for _, r := range runs {
		bitutil.CopyBitmap(src, int(off+r.a), int(r.b-r.a), dst, int(pos))
		pos += r.b - r.a
	}
	return memory.NewBufferBytes(dst), int(kept) - bitutil.CountSetBits(dst, 0, int(kept))
}
