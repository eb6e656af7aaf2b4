package lance

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// The common non-null fixed-width page (Nullable{NoNull{Flat}}, possibly
// under FixedSizeList, uncompressed) is read straight into the output:
// only the requested rows' bytes, once, with no per-page array and no
// concatenation. Everything else takes the general decoder.

// fixedLayout reports the buffer and bytes per row of such a page.
func fixedLayout(enc *encpb.ArrayEncoding, dt arrow.DataType) (*encpb.Buffer, int64, bool) {
	per := int64(1)
	for depth := 0; depth < 16 && enc != nil; depth++ {
		switch e := enc.GetArrayEncoding().(type) {
		case *encpb.ArrayEncoding_Nullable:
			nn := e.Nullable.GetNoNulls()
			if nn == nil {
				return nil, 0, false
			}
			enc = nn.GetValues()
		case *encpb.ArrayEncoding_FixedSizeList:
			t, ok := dt.(*arrow.FixedSizeListType)
			if !ok || int64(e.FixedSizeList.Dimension) != int64(t.Len()) || t.Len() <= 0 {
				return nil, 0, false
			}
			per *= int64(t.Len())
			if per > 1<<24 {
				return nil, 0, false
			}
			dt = t.Elem()
			enc = e.FixedSizeList.GetItems()
		case *encpb.ArrayEncoding_Flat:
			fl := e.Flat
			want, ok := bitWidth(dt)
			if s := fl.GetCompression().GetScheme(); !ok || want%8 != 0 || want == 0 || fl.BitsPerValue != want ||
				(s != "" && s != "none") || fl.Buffer == nil || dt.ID() == arrow.DICTIONARY {
				return nil, 0, false
			}
			return fl.Buffer, per * int64(want/8), true
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
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

// leafDirect reads rows [a, b) of col if every page involved has the
// fixed layout; ok is false when the general path must be used.
func (r *reader) leafDirect(col *column, dt arrow.DataType, a, b int64) (arrow.Array, bool, error) {
	f := r.f
	var rowBytes int64
	first := pageAt(col, a)
	for pi := first; pi < len(col.pages) && col.pages[pi].rowStart < b; pi++ {
		p := col.pages[pi]
		if p.length == 0 {
			continue
		}
		buf, per, ok := fixedLayout(p.enc, dt)
		if !ok || (rowBytes != 0 && per != rowBytes) {
			return nil, false, nil
		}
		if _, ok := f.bufferRange(col, p, buf); !ok {
			return nil, false, nil
		}
		rowBytes = per
	}
	if rowBytes == 0 {
		return nil, false, nil
	}
	total, ok := mulRows(b-a, rowBytes)
	if !ok || total > f.cfg.maxBuffer {
		return nil, false, errs.TooLarge(ErrTooLarge, -1, col.path, "column values", uint64(total), f.cfg.maxBuffer)
	}
	if err := r.ctx.Err(); err != nil {
		return nil, false, err
	}
	out := make([]byte, total)
	pos := int64(0)
	for pi := first; pi < len(col.pages) && col.pages[pi].rowStart < b; pi++ {
		p := col.pages[pi]
		if p.length == 0 {
			continue
		}
		buf, _, _ := fixedLayout(p.enc, dt)
		br, _ := f.bufferRange(col, p, buf)
		path := fmt.Sprintf("%s page %d", col.path, pi)
		if need, ok := mulRows(p.length, rowBytes); !ok || need > br.size {
			return nil, false, errs.At(ErrBufferSize, br.off, path, "buffer of %d bytes holds fewer than %d rows of %d bytes", br.size, p.length, rowBytes)
		}
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		n := (hi - lo) * rowBytes
		if err := f.readAt(out[pos:pos+n], br.off+lo*rowBytes, path); err != nil {
			return nil, false, err
		}
		pos += n
	}
	return fixedArray(dt, int(b-a), out), true, nil
}

// fixedArray wraps values (no nulls) as dt, nesting FixedSizeList children.
func fixedArray(dt arrow.DataType, n int, values []byte) arrow.Array {
	d := fixedData(dt, n, values)
	defer d.Release()
	return array.MakeFromData(d)
}

func fixedData(dt arrow.DataType, n int, values []byte) arrow.ArrayData {
	if t, ok := dt.(*arrow.FixedSizeListType); ok {
		child := fixedData(t.Elem(), n*int(t.Len()), values)
		defer child.Release()
		return array.NewData(dt, n, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	}
	return array.NewData(dt, n, []*memory.Buffer{nil, memory.NewBufferBytes(values)}, nil, 0, 0)
}
