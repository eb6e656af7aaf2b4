package lance

import (
	"encoding/binary"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
	"github.com/colfmt/colfmt/lance/internal/pb/file2pb"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

// A minimal test-only Lance 2.0 writer: it lays out page buffers, column
// buffers, the schema and extra global buffers, the column metadata, the
// CMO/GBO tables and the footer in the order FileWriter::finish does
// (notes §2, §11). Golden files, bad files, fuzz seeds and the benchmark
// file are built with it.

type tPage struct {
	bufs   [][]byte
	enc    *encpb.ArrayEncoding
	length uint64
	sizes  []uint64      // recorded buffer sizes, when they must lie (bad files)
	rawEnc []byte        // serialized ArrayEncoding replacing enc (fuzzing)
	layout proto.Message // a 2.1/2.2 PageLayout replacing enc
}

type tCol struct {
	pages   []tPage
	colBufs [][]byte
	zone    *encpb.ZoneIndex // wraps {values} when set
}

type tFile struct {
	fields  []*filepb.Field
	rows    uint64
	cols    []tCol
	globals [][]byte // global buffers after the schema (index 1..)
	pad     bool     // 0x48 padding to 64 after each buffer (lance >= 0.19.2)
	major   uint16
	minor   uint16
	// rawColMeta replaces a column's metadata bytes (bad files).
	rawColMeta map[int][]byte
}

func mustMarshal(m proto.Message) []byte {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func direct(typeURL string, m proto.Message) *file2pb.Encoding {
	a := &anypb.Any{TypeUrl: typeURL, Value: mustMarshal(m)}
	return &file2pb.Encoding{Location: &file2pb.Encoding_Direct{Direct: &file2pb.DirectEncoding{Encoding: mustMarshal(a)}}}
}

func (tf *tFile) bytes() []byte {
	var out []byte
	put := func(b []byte) (uint64, uint64) {
		off := uint64(len(out))
		out = append(out, b...)
		if tf.pad {
			for len(out)%64 != 0 {
				out = append(out, 0x48)
			}
		}
		return off, uint64(len(b))
	}
	metas := make([]*file2pb.ColumnMetadata, len(tf.cols))
	for i, c := range tf.cols {
		cm := &file2pb.ColumnMetadata{}
		for _, p := range c.pages {
			pg := &file2pb.ColumnMetadata_Page{Length: p.length, Encoding: direct("/lance.encodings.ArrayEncoding", p.enc)}
			if p.layout != nil {
				pg.Encoding = direct("/lance.encodings21.PageLayout", p.layout)
			}
			if p.rawEnc != nil {
				a := &anypb.Any{TypeUrl: "/lance.encodings.ArrayEncoding", Value: p.rawEnc}
				pg.Encoding = &file2pb.Encoding{Location: &file2pb.Encoding_Direct{Direct: &file2pb.DirectEncoding{Encoding: mustMarshal(a)}}}
			}
			for k, b := range p.bufs {
				o, s := put(b)
				if p.sizes != nil {
					s = p.sizes[k]
				}
				pg.BufferOffsets = append(pg.BufferOffsets, o)
				pg.BufferSizes = append(pg.BufferSizes, s)
			}
			cm.Pages = append(cm.Pages, pg)
		}
		metas[i] = cm
	}
	for i, c := range tf.cols {
		for _, b := range c.colBufs {
			o, s := put(b)
			metas[i].BufferOffsets = append(metas[i].BufferOffsets, o)
			metas[i].BufferSizes = append(metas[i].BufferSizes, s)
		}
		ce := &encpb.ColumnEncoding{ColumnEncoding: &encpb.ColumnEncoding_Values{Values: &emptypb.Empty{}}}
		if c.zone != nil {
			z := proto.Clone(c.zone).(*encpb.ZoneIndex)
			z.Inner = ce
			ce = &encpb.ColumnEncoding{ColumnEncoding: &encpb.ColumnEncoding_ZoneIndex{ZoneIndex: z}}
		}
		metas[i].Encoding = direct("/lance.encodings.ColumnEncoding", ce)
	}
	var gbo [][2]uint64
	if tf.fields != nil {
		o, s := put(mustMarshal(&filepb.FileDescriptor{Schema: &filepb.Schema{Fields: tf.fields}, Length: tf.rows}))
		gbo = append(gbo, [2]uint64{o, s})
	}
	for _, g := range tf.globals {
		o, s := put(g)
		gbo = append(gbo, [2]uint64{o, s})
	}
	colStart := uint64(len(out))
	var cmo [][2]uint64
	for i, m := range metas {
		b := mustMarshal(m)
		if raw, ok := tf.rawColMeta[i]; ok {
			b = raw
		}
		cmo = append(cmo, [2]uint64{uint64(len(out)), uint64(len(b))})
		out = append(out, b...)
	}
	cmoStart := uint64(len(out))
	for _, e := range cmo {
		out = binary.LittleEndian.AppendUint64(out, e[0])
		out = binary.LittleEndian.AppendUint64(out, e[1])
	}
	gboStart := uint64(len(out))
	for _, e := range gbo {
		out = binary.LittleEndian.AppendUint64(out, e[0])
		out = binary.LittleEndian.AppendUint64(out, e[1])
	}
	out = binary.LittleEndian.AppendUint64(out, colStart)
	out = binary.LittleEndian.AppendUint64(out, cmoStart)
	out = binary.LittleEndian.AppendUint64(out, gboStart)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(gbo)))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(metas)))
	major, minor := tf.major, tf.minor
	if major == 0 && minor == 0 {
		minor = 3
	}
	out = binary.LittleEndian.AppendUint16(out, major)
	out = binary.LittleEndian.AppendUint16(out, minor)
	return append(out, "LANC"...)
}

// Schema and encoding helpers.

func fld(id, parent int32, name, lt string, nullable bool) *filepb.Field {
	return &filepb.Field{Id: id, ParentId: parent, Name: name, LogicalType: lt, Nullable: nullable}
}

func pbuf(i uint32) *encpb.Buffer { return &encpb.Buffer{BufferIndex: i} }

func flatE(bits uint64, b *encpb.Buffer) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Flat{Flat: &encpb.Flat{BitsPerValue: bits, Buffer: b}}}
}

func flatC(bits uint64, b *encpb.Buffer, scheme string) *encpb.ArrayEncoding {
	e := flatE(bits, b)
	e.GetFlat().Compression = &encpb.Compression{Scheme: scheme}
	return e
}

func noNull(v *encpb.ArrayEncoding) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Nullable{Nullable: &encpb.Nullable{
		Nullability: &encpb.Nullable_NoNulls{NoNulls: &encpb.Nullable_NoNull{Values: v}}}}}
}

func someNull(validity, v *encpb.ArrayEncoding) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Nullable{Nullable: &encpb.Nullable{
		Nullability: &encpb.Nullable_SomeNulls{SomeNulls: &encpb.Nullable_SomeNull{Validity: validity, Values: v}}}}}
}

func allNull() *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Nullable{Nullable: &encpb.Nullable{
		Nullability: &encpb.Nullable_AllNulls{AllNulls: &encpb.Nullable_AllNull{}}}}}
}

func binaryE(indices, bytes *encpb.ArrayEncoding, adj uint64) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Binary{Binary: &encpb.Binary{Indices: indices, Bytes: bytes, NullAdjustment: adj}}}
}

func listE(offsets *encpb.ArrayEncoding, adj, items uint64) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_List{List: &encpb.List{Offsets: offsets, NullOffsetAdjustment: adj, NumItems: items}}}
}

func fslE(dim uint32, items *encpb.ArrayEncoding) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_FixedSizeList{FixedSizeList: &encpb.FixedSizeList{Dimension: dim, Items: items}}}
}

func dictE(indices, items *encpb.ArrayEncoding, n uint32) *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Dictionary{Dictionary: &encpb.Dictionary{Indices: indices, Items: items, NumDictionaryItems: n}}}
}

func structE() *encpb.ArrayEncoding {
	return &encpb.ArrayEncoding{ArrayEncoding: &encpb.ArrayEncoding_Struct{Struct: &encpb.SimpleStruct{}}}
}

// Writer-style page builders (notes §5).

func u64s(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

func u32s(vs ...uint32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

// stringPage builds a Binary page (indices NoNull Flat64, bare Flat8
// bytes, adj = bytes + 1) for values, nil meaning null.
func stringPage(vals []*string) tPage {
	var data []byte
	ends := make([]uint64, len(vals))
	for i, v := range vals {
		if v != nil {
			data = append(data, *v...)
		}
		ends[i] = uint64(len(data))
	}
	adj := uint64(len(data)) + 1
	for i, v := range vals {
		if v == nil {
			ends[i] += adj
		}
	}
	return tPage{bufs: [][]byte{u64s(ends...), data}, length: uint64(len(vals)),
		enc: binaryE(noNull(flatE(64, pbuf(0))), flatE(8, pbuf(1)), adj)}
}

func sp(s string) *string { return &s }

// listPage builds a List offsets page from list lengths, -1 meaning null.
func listPage(lens []int) tPage {
	var ends []uint64
	var end uint64
	for _, l := range lens {
		if l > 0 {
			end += uint64(l)
		}
		ends = append(ends, end)
	}
	adj := end + 1
	for i, l := range lens {
		if l < 0 {
			ends[i] += adj
		}
	}
	return tPage{bufs: [][]byte{u64s(ends...)}, length: uint64(len(lens)), enc: listE(noNull(flatE(64, pbuf(0))), adj, end)}
}
