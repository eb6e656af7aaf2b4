package lance

import (
	"encoding/binary"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/colfmt/colfmt/internal/errs"
)

// checkIPCFooter walks the flatbuffers of an Arrow IPC file's footer
// (Footer, Schema, Field tables, Block vectors) and checks that every
// vector it holds fits in the footer's bytes, before arrow-go's reader
// sizes slices from those counts (it does not check them: a 40-byte file
// can ask for gigabytes). Out-of-range offsets inside the flatbuffer are
// caught by the caller's recover. The layout is Arrow's File.fbs and
// Schema.fbs; this is a bounds check, not a decoder.
func checkIPCFooter(b []byte, where string, maxDepth int, limit int64) error {
	const magicLen = 6
	if len(b) < 2*magicLen+4 || string(b[:magicLen]) != "ARROW1" || string(b[len(b)-magicLen:]) != "ARROW1" {
		return errs.At(ErrCorrupt, 0, where, "not an Arrow IPC file")
	}
	n := int64(int32(binary.LittleEndian.Uint32(b[len(b)-magicLen-4:])))
	end := int64(len(b)) - magicLen - 4
	if n < 4 || n > end-magicLen {
		return errs.At(ErrCorrupt, end, where, "Arrow IPC footer length %d", n)
	}
	fb := b[end-n : end]
	v := fbVerifier{buf: fb, where: where, maxDepth: maxDepth}
	root := v.table(0)
	if root.Pos == 0 && v.err != nil {
		return v.err
	}
	if o := v.field(root, 1); o != 0 { // schema
		v.schema(v.indirect(root.Pos + o))
	}
	v.vector(root, 2, 24) // dictionaries: Block structs
	// recordBatches: Block{offset i64, metaDataLength i32, pad, bodyLength
	// i64}; what a batch needs in memory is bounded by limit.
	start, nb := v.vector(root, 3, 24)
	for i := 0; i < nb && v.err == nil; i++ {
		blk := v.buf[int(start)+24*i:]
		meta := int64(int32(binary.LittleEndian.Uint32(blk[8:])))
		body := int64(binary.LittleEndian.Uint64(blk[16:]))
		if meta < 0 || body < 0 || meta > limit || body > limit-meta {
			return errs.TooLarge(ErrTooLarge, end-n+int64(start)+int64(24*i), where, "Arrow IPC record batch", uint64(max(meta, 0))+uint64(max(body, 0)), limit)
		}
	}
	v.tables(root, 4, func(flatbuffers.Table) {})
	return v.err
}

type fbVerifier struct {
	buf      []byte
	where    string
	maxDepth int
	depth    int
	err      error
}

func (v *fbVerifier) fail(off int, what string) {
	if v.err == nil {
		v.err = errs.At(ErrCorrupt, int64(off), v.where, "Arrow IPC footer: %s out of range", what)
	}
}

// table returns the table whose uoffset is stored at pos.
func (v *fbVerifier) table(pos flatbuffers.UOffsetT) flatbuffers.Table {
	if int(pos)+4 > len(v.buf) {
		v.fail(int(pos), "table offset")
		return flatbuffers.Table{}
	}
	t := flatbuffers.Table{Bytes: v.buf, Pos: pos + flatbuffers.GetUOffsetT(v.buf[pos:])}
	if int(t.Pos)+4 > len(v.buf) {
		v.fail(int(pos), "table")
		return flatbuffers.Table{}
	}
	vt := int(t.Pos) - int(flatbuffers.GetSOffsetT(v.buf[t.Pos:]))
	if vt < 0 || vt+4 > len(v.buf) {
		v.fail(int(t.Pos), "vtable")
		return flatbuffers.Table{}
	}
	if vl := int(flatbuffers.GetVOffsetT(v.buf[vt:])); vt+vl > len(v.buf) {
		v.fail(vt, "vtable")
		return flatbuffers.Table{}
	}
	return t
}

func (v *fbVerifier) indirect(pos flatbuffers.UOffsetT) flatbuffers.Table {
	return v.table(pos)
}

// field returns the offset of field k of t (0 when absent).
func (v *fbVerifier) field(t flatbuffers.Table, k int) flatbuffers.UOffsetT {
	if v.err != nil || t.Bytes == nil {
		return 0
	}
	o := flatbuffers.UOffsetT(t.Offset(flatbuffers.VOffsetT(4 + 2*k)))
	if o != 0 && int(t.Pos+o)+4 > len(v.buf) {
		v.fail(int(t.Pos), "field")
		return 0
	}
	return o
}

// vector checks field k of t, a vector of elem-byte elements, and returns
// its start and length.
func (v *fbVerifier) vector(t flatbuffers.Table, k, elem int) (flatbuffers.UOffsetT, int) {
	o := v.field(t, k)
	if o == 0 {
		return 0, 0
	}
	at := t.Pos + o
	start := int64(at) + int64(flatbuffers.GetUOffsetT(v.buf[at:]))
	if start+4 > int64(len(v.buf)) {
		v.fail(int(at), "vector")
		return 0, 0
	}
	n := int64(flatbuffers.GetUOffsetT(v.buf[start:]))
	if n*int64(elem) > int64(len(v.buf))-start-4 {
		v.fail(int(start), "vector length")
		return 0, 0
	}
	return flatbuffers.UOffsetT(start + 4), int(n)
}

// tables checks field k of t, a vector of tables, calling each on them.
func (v *fbVerifier) tables(t flatbuffers.Table, k int, each func(flatbuffers.Table)) {
	start, n := v.vector(t, k, 4)
	for i := 0; i < n && v.err == nil; i++ {
		if e := v.table(start + flatbuffers.UOffsetT(4*i)); v.err == nil {
			each(e)
		}
	}
}

// schema: endianness 0, fields 1, custom_metadata 2, features 3.
func (v *fbVerifier) schema(t flatbuffers.Table) {
	if v.err != nil {
		return
	}
	v.tables(t, 1, v.fieldTable)
	v.tables(t, 2, v.keyValue)
	v.vector(t, 3, 8)
}

// fieldTable: name 0, nullable 1, type_type 2, type 3, dictionary 4,
// children 5, custom_metadata 6.
func (v *fbVerifier) fieldTable(t flatbuffers.Table) {
	if v.depth >= v.maxDepth {
		v.fail(int(t.Pos), "field nesting")
		return
	}
	v.depth++
	defer func() { v.depth-- }()
	v.vector(t, 0, 1)
	// Of the type tables only Union (type_type 14) holds a vector
	// (typeIds, field 1); the others' field 1 is a scalar.
	if o := v.field(t, 2); o != 0 && v.buf[t.Pos+o] == 14 {
		if o := v.field(t, 3); o != 0 {
			v.vector(v.table(t.Pos+o), 1, 4)
		}
	}
	v.tables(t, 5, v.fieldTable)
	v.tables(t, 6, v.keyValue)
}

// keyValue: key 0, value 1 (strings).
func (v *fbVerifier) keyValue(t flatbuffers.Table) {
	v.vector(t, 0, 1)
	v.vector(t, 1, 1)
}
