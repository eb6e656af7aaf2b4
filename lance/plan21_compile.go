package lance

// Compiling a lance.encodings21.CompressiveEncoding tree into a cnode
// tree: every width, count and symbol table is checked once at Open, so
// the decoders (compress21.go) only check what depends on the page bytes.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/enc21pb"
)

// codecContext is where an encoding is used: the same message means
// different bytes in each (notes §10).
type codecContext uint8

const (
	ctxMini          codecContext = iota + 1 // mini-block chunk buffers
	ctxBlock                                 // one buffer of n values (levels, dictionaries)
	ctxPerValueFixed                         // full-zip, fixed width
	ctxPerValueVar                           // full-zip, variable width
)

type ckind uint8

const (
	kFlat ckind = iota + 1
	kVariable
	kConstant
	kOutOfLineBitpack
	kInlineBitpack
	kFsst
	kRle
	kByteStreamSplit
	kGeneral
	kFixedSizeList
	kPackedStruct
	kVariablePackedStruct
)

// cnode is one compiled compressive encoding.
type cnode struct {
	kind   ckind
	bits   uint64 // flat: bits per value; bitpacking: uncompressed bits
	inner  *cnode // values / offsets (variable) / items
	runs   *cnode // rle run lengths
	scheme enc21pb.CompressionScheme
	fsst   *fsstTable
	dim    uint64 // fixed-size list items per value
	valid  bool   // fixed-size list has item validity
	widths []uint64
	fields []vpField
	value  []byte // constant
	hasVal bool
}

// vpField is one field of a variable packed struct: fixed bits, or a
// length of lenBits then bytes.
type vpField struct {
	enc           *cnode
	bits, lenBits uint64
}

func (n *cnode) String() string {
	if n == nil {
		return "<none>"
	}
	switch n.kind {
	case kFlat:
		return fmt.Sprintf("flat(%d)", n.bits)
	case kVariable:
		return fmt.Sprintf("variable(%s)", n.inner)
	case kConstant:
		return fmt.Sprintf("constant(%d bytes)", len(n.value))
	case kOutOfLineBitpack:
		return fmt.Sprintf("out_of_line_bitpacking(%d, %s)", n.bits, n.inner)
	case kInlineBitpack:
		return fmt.Sprintf("inline_bitpacking(%d)", n.bits)
	case kFsst:
		return fmt.Sprintf("fsst(%d symbols, %s)", n.fsst.n, n.inner)
	case kRle:
		return fmt.Sprintf("rle(%s, %s)", n.inner, n.runs)
	case kByteStreamSplit:
		return fmt.Sprintf("byte_stream_split(%s)", n.inner)
	case kGeneral:
		return fmt.Sprintf("general(%s, %s)", strings.TrimPrefix(n.scheme.String(), "COMPRESSION_ALGORITHM_"), n.inner)
	case kFixedSizeList:
		v := ""
		if n.valid {
			v = ", validity"
		}
		return fmt.Sprintf("fixed_size_list(%d%s, %s)", n.dim, v, n.inner)
	case kPackedStruct:
		return fmt.Sprintf("packed_struct(%v, %s)", n.widths, n.inner)
	case kVariablePackedStruct:
		parts := make([]string, len(n.fields))
		for i, f := range n.fields {
			if f.lenBits > 0 {
				parts[i] = fmt.Sprintf("len%d:%s", f.lenBits, f.enc)
			} else {
				parts[i] = fmt.Sprintf("%d:%s", f.bits, f.enc)
			}
		}
		return "variable_packed_struct(" + strings.Join(parts, ", ") + ")"
	}
	return "?"
}

type compiler struct {
	f    *File
	path string
	off  int64
	v22  bool
}

func errorsIsUnsupported(err error) bool { return errors.Is(err, ErrUnsupported) }

const maxFlatBits = 8 << 20 // a 1 MiB fixed-width value

func (c *compiler) unsupported(format string, args ...any) error {
	return errs.At(ErrUnsupported, c.off, c.path, format, args...)
}

func (c *compiler) corrupt(format string, args ...any) error {
	return errs.At(ErrCorrupt, c.off, c.path, format, args...)
}

func (c *compiler) compile(e *enc21pb.CompressiveEncoding, ctx codecContext, depth int) (*cnode, error) {
	if depth > c.f.cfg.maxDepth {
		return nil, errs.At(ErrTooLarge, c.off, c.path, "compressive encoding deeper than %d", c.f.cfg.maxDepth)
	}
	if e == nil {
		return nil, errs.At(ErrProto, c.off, c.path, "missing compressive encoding")
	}
	sub := func(x *enc21pb.CompressiveEncoding) (*cnode, error) { return c.compile(x, ctx, depth+1) }
	switch x := e.Compression.(type) {
	case *enc21pb.CompressiveEncoding_Flat:
		b := x.Flat.BitsPerValue
		// Widths other than 1 and whole bytes are packed widths under
		// out-of-line bit-packing; the decoders refuse them elsewhere.
		if b == 0 || b > maxFlatBits || (b%8 != 0 && b > 64) {
			return nil, c.corrupt("flat of %d bits per value", b)
		}
		if x.Flat.Data != nil {
			return nil, c.unsupported("Flat.data buffer compression (never written by lance)")
		}
		return &cnode{kind: kFlat, bits: b}, nil
	case *enc21pb.CompressiveEncoding_Variable:
		if x.Variable.Values != nil {
			return nil, c.unsupported("Variable.values buffer compression (never written by lance)")
		}
		off, err := sub(x.Variable.Offsets)
		if err != nil {
			return nil, err
		}
		if off.kind != kFlat || (off.bits != 32 && off.bits != 64) {
			return nil, c.unsupported("Variable with %s offsets (want flat 32 or 64)", off)
		}
		return &cnode{kind: kVariable, inner: off, bits: off.bits}, nil
	case *enc21pb.CompressiveEncoding_Constant:
		return &cnode{kind: kConstant, value: x.Constant.Value, hasVal: x.Constant.Value != nil}, nil
	case *enc21pb.CompressiveEncoding_OutOfLineBitpacking:
		t := x.OutOfLineBitpacking.UncompressedBitsPerValue
		if !validLaneWidth(t) {
			return nil, c.corrupt("out-of-line bit-packing of %d-bit values", t)
		}
		in, err := sub(x.OutOfLineBitpacking.Values)
		if err != nil {
			return nil, err
		}
		if in.kind != kFlat || in.bits > t {
			return nil, c.corrupt("out-of-line bit-packing of %d-bit values with %s packed values", t, in)
		}
		return &cnode{kind: kOutOfLineBitpack, bits: t, inner: in}, nil
	case *enc21pb.CompressiveEncoding_InlineBitpacking:
		t := x.InlineBitpacking.UncompressedBitsPerValue
		if !validLaneWidth(t) {
			return nil, c.corrupt("inline bit-packing of %d-bit values", t)
		}
		if x.InlineBitpacking.Values != nil {
			return nil, c.unsupported("InlineBitpacking.values buffer compression (never written by lance)")
		}
		return &cnode{kind: kInlineBitpack, bits: t}, nil
	case *enc21pb.CompressiveEncoding_Fsst:
		tab, err := parseFsstTable(x.Fsst.SymbolTable)
		if err != nil {
			return nil, errs.Locate(err, c.off, c.path)
		}
		in, err := sub(x.Fsst.Values)
		if err != nil {
			return nil, err
		}
		if in.kind != kVariable && !(ctx == ctxPerValueVar) {
			return nil, c.unsupported("FSST over %s (want variable)", in)
		}
		return &cnode{kind: kFsst, fsst: tab, inner: in}, nil
	case *enc21pb.CompressiveEncoding_Rle:
		v, err := sub(x.Rle.Values)
		if err != nil {
			return nil, err
		}
		r, err := sub(x.Rle.RunLengths)
		if err != nil {
			return nil, err
		}
		if v.kind != kFlat || v.bits%8 != 0 || r.kind != kFlat || r.bits != 8 {
			return nil, c.unsupported("Lance 2.1/2.2 RLE requires flat values and flat u8 run lengths, not %s and %s", v, r)
		}
		return &cnode{kind: kRle, inner: v, runs: r}, nil
	case *enc21pb.CompressiveEncoding_ByteStreamSplit:
		v, err := sub(x.ByteStreamSplit.Values)
		if err != nil {
			return nil, err
		}
		if v.kind != kFlat || (v.bits != 16 && v.bits != 32 && v.bits != 64) {
			return nil, c.unsupported("byte-stream-split over %s", v)
		}
		return &cnode{kind: kByteStreamSplit, inner: v}, nil
	case *enc21pb.CompressiveEncoding_General:
		cmp := x.General.Compression
		if cmp == nil || (cmp.Scheme != enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 && cmp.Scheme != enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD) {
			return nil, c.unsupported("General compression scheme %v", cmp.GetScheme())
		}
		v, err := sub(x.General.Values)
		if err != nil {
			return nil, err
		}
		return &cnode{kind: kGeneral, scheme: cmp.Scheme, inner: v}, nil
	case *enc21pb.CompressiveEncoding_FixedSizeList:
		d := x.FixedSizeList.ItemsPerValue
		if d == 0 || d > 1<<20 {
			return nil, c.corrupt("fixed-size list of %d items per value", d)
		}
		v, err := sub(x.FixedSizeList.Values)
		if err != nil {
			return nil, err
		}
		if v.kind != kFlat && v.kind != kFixedSizeList {
			return nil, c.unsupported("fixed-size list over %s", v)
		}
		return &cnode{kind: kFixedSizeList, dim: d, valid: x.FixedSizeList.HasValidity, inner: v}, nil
	case *enc21pb.CompressiveEncoding_PackedStruct:
		ws := x.PackedStruct.BitsPerValue
		if len(ws) == 0 || len(ws) > c.f.cfg.maxColumns {
			return nil, c.corrupt("packed struct of %d fields", len(ws))
		}
		var sum uint64
		for _, w := range ws {
			if w == 0 || w%8 != 0 || w > maxFlatBits {
				return nil, c.unsupported("packed struct field of %d bits", w)
			}
			sum += w
		}
		v, err := sub(x.PackedStruct.Values)
		if err != nil {
			return nil, err
		}
		if v.kind != kFlat || v.bits != sum {
			return nil, c.corrupt("packed struct of %v bits stored as %s", ws, v)
		}
		return &cnode{kind: kPackedStruct, widths: ws, inner: v}, nil
	case *enc21pb.CompressiveEncoding_VariablePackedStruct:
		if !c.v22 {
			return nil, c.unsupported("variable packed struct compression is not part of the Lance 2.1 grammar")
		}
		fs := x.VariablePackedStruct.Fields
		if len(fs) == 0 || len(fs) > c.f.cfg.maxColumns {
			return nil, c.corrupt("variable packed struct of %d fields", len(fs))
		}
		n := &cnode{kind: kVariablePackedStruct}
		for _, fe := range fs {
			v, err := c.compile(fe.Value, ctxBlock, depth+1)
			if err != nil {
				return nil, err
			}
			vf := vpField{enc: v}
			switch l := fe.Layout.(type) {
			case *enc21pb.VariablePackedStruct_FieldEncoding_BitsPerValue:
				if l.BitsPerValue == 0 || l.BitsPerValue%8 != 0 || l.BitsPerValue > maxFlatBits {
					return nil, c.corrupt("variable packed struct field of %d bits", l.BitsPerValue)
				}
				vf.bits = l.BitsPerValue
			case *enc21pb.VariablePackedStruct_FieldEncoding_BitsPerLength:
				if l.BitsPerLength != 8 && l.BitsPerLength != 16 && l.BitsPerLength != 32 && l.BitsPerLength != 64 {
					return nil, c.corrupt("variable packed struct length of %d bits", l.BitsPerLength)
				}
				vf.lenBits = l.BitsPerLength
			default:
				return nil, errs.At(ErrProto, c.off, c.path, "variable packed struct field without a layout")
			}
			n.fields = append(n.fields, vf)
		}
		return n, nil
	case *enc21pb.CompressiveEncoding_Dictionary:
		return nil, c.unsupported("CompressiveEncoding.dictionary (lance writes dictionaries in MiniBlockLayout)")
	case *enc21pb.CompressiveEncoding_Range:
		return nil, c.unsupported("Range encoding (Lance 2.3)")
	case *enc21pb.CompressiveEncoding_Delta:
		return nil, c.unsupported("Delta encoding (Lance 2.3)")
	}
	return nil, c.unsupported("unknown compressive encoding")
}

func validLaneWidth(t uint64) bool { return t == 8 || t == 16 || t == 32 || t == 64 }
