package onpair

import (
	"encoding/binary"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// Magic opens every serialized Column; FormatVersion is the framing
// version this package writes and reads.
const (
	Magic         = "OPCOL"
	FormatVersion = 1
)

// MarshalBinary serializes the column in this library's framing (see the
// package documentation): a header, then the spec's buffers verbatim
// (dict_offsets as u32 LE, dict_bytes with the minimum decoder padding,
// codes packed at Bits), then the row code counts.
func (c *Column) MarshalBinary() ([]byte, error) {
	return c.AppendBinary(nil)
}

// AppendBinary appends the MarshalBinary form to dst.
func (c *Column) AppendBinary(dst []byte) ([]byte, error) {
	p := c.parts
	n := p.NumTokens()
	dst = append(dst, Magic...)
	dst = append(dst, FormatVersion, byte(p.Bits), 0)
	dst = varint.Append(dst, uint64(n))
	for _, o := range p.DictOffsets {
		dst = binary.LittleEndian.AppendUint32(dst, o)
	}
	// Write the minimum padding (notes §3.2) whatever the in-memory form.
	dictLen := 0
	if n > 0 {
		dictLen = int(p.DictOffsets[n-1]) + MaxTokenSize
	}
	dst = varint.Append(dst, uint64(dictLen))
	dst = append(dst, p.DictBytes[:dictLen]...)
	dst = varint.Append(dst, uint64(len(p.Codes)))
	dst = append(dst, PackCodes(p.Codes, p.Bits)...)
	dst = varint.Append(dst, uint64(c.Len()))
	for r := 0; r < c.Len(); r++ {
		dst = varint.Append(dst, uint64(c.rows[r+1]-c.rows[r]))
	}
	return dst, nil
}

// UnmarshalBinary replaces c with the column serialized in b, with the
// default limits; see ParseColumn. b is not retained.
func (c *Column) UnmarshalBinary(b []byte) error {
	col, err := ParseColumn(b)
	if err != nil {
		return err
	}
	*c = *col
	return nil
}

// ParseColumn decodes a serialized column. Every size read from b is
// checked against the bytes that remain and the limits (WithMaxRows,
// WithMaxCodes, WithMaxDecodedSize) before anything is allocated, and the
// result is fully validated. Errors are *CorruptError values with the byte
// offset. b is not retained.
func ParseColumn(b []byte, opts ...Option) (*Column, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	r := reader{b: b}
	if len(b) < len(Magic) || string(b[:len(Magic)]) != Magic {
		return nil, errs.At(ErrBadMagic, 0, "header", "")
	}
	if len(b) < len(Magic)+3 {
		return nil, errs.At(ErrTruncated, int64(len(b)), "header", "%d-byte header", len(b))
	}
	r.off = len(Magic)
	if v := b[r.off]; v != FormatVersion {
		return nil, errs.At(ErrUnsupported, int64(r.off), "header", "framing version %d (this reader knows %d)", v, FormatVersion)
	}
	bits, flags := uint32(b[r.off+1]), b[r.off+2]
	if bits < 8 || bits > 16 {
		return nil, errs.At(ErrBadBits, int64(r.off+1), "header", "bits = %d", bits)
	}
	if flags != 0 {
		return nil, errs.At(ErrUnsupported, int64(r.off+2), "header", "flags 0x%02x", flags)
	}
	r.off += 3

	// Dictionary offsets: N+1 u32.
	n, err := r.size("token count", MaxTokens, ErrTooManyTokens, 4)
	if err != nil {
		return nil, err
	}
	offs := make([]uint32, n+1)
	for i := range offs {
		offs[i] = binary.LittleEndian.Uint32(b[r.off:])
		r.off += 4
	}
	dictLen, err := r.size("dict_bytes", -1, ErrTooLarge, 1)
	if err != nil {
		return nil, err
	}
	dict := append([]byte(nil), b[r.off:r.off+dictLen]...)
	r.off += dictLen

	// Codes.
	codesOff := r.off
	m, err := r.count("code count", cfg.maxCodes)
	if err != nil {
		return nil, err
	}
	packedLen := PackedLen(m, bits)
	if packedLen < 0 || packedLen > len(b)-r.off {
		return nil, errs.At(ErrTruncated, int64(r.off), "codes", "%d codes at %d bits need %d bytes, %d remain", m, bits, packedLen, len(b)-r.off)
	}
	codes, err := UnpackCodes(b[r.off:r.off+packedLen], bits, m)
	if err != nil {
		return nil, errs.Locate(err, int64(r.off), "codes")
	}
	r.off += packedLen

	// Rows: R code counts, at least one byte each.
	rowsOff := r.off
	nr, err := r.count("row count", cfg.maxRows)
	if err != nil {
		return nil, err
	}
	if nr > len(b)-r.off {
		return nil, errs.At(ErrTruncated, int64(r.off), "code_offsets", "%d rows need at least %d bytes, %d remain", nr, nr, len(b)-r.off)
	}
	rows := make([]uint32, nr+1)
	sum := uint64(0)
	for i := 0; i < nr; i++ {
		at := r.off
		v, k := varint.Consume(b[r.off:])
		if k < 0 {
			return nil, errs.At(ErrTruncated, int64(at), "code_offsets", "row %d code count", i)
		}
		r.off += k
		sum += v
		if v > uint64(m) || sum > uint64(m) {
			return nil, errs.At(ErrBadRowOffsets, int64(at), "code_offsets", "rows 0..%d hold %d codes, the column has %d", i, sum, m)
		}
		rows[i+1] = uint32(sum)
	}
	if r.off != len(b) {
		return nil, errs.At(ErrTrailingBytes, int64(r.off), "", "%d bytes", len(b)-r.off)
	}
	p := Parts{DictBytes: dict, DictOffsets: offs, Codes: codes, Bits: bits}
	col, err := newColumn(p, rows, &cfg)
	if err != nil {
		// Point at the section the problem is in.
		off := int64(len(Magic) + 3)
		if sum != uint64(m) {
			off = int64(rowsOff)
		} else if p.ValidateDictionary() == nil {
			off = int64(codesOff)
		}
		return nil, relocate(err, off)
	}
	return col, nil
}

// relocate sets the byte offset of a Parts validation error (which carries
// only a path) to the start of the section it concerns.
func relocate(err error, off int64) error {
	if ce, ok := err.(*CorruptError); ok && ce.Offset < 0 {
		c := *ce
		c.Offset = off
		return &c
	}
	return err
}

type reader struct {
	b   []byte
	off int
}

// count reads a uvarint count bounded by limit (ErrTooLarge beyond it).
func (r *reader) count(what string, limit int64) (int, error) {
	at := r.off
	v, k := varint.Consume(r.b[r.off:])
	if k < 0 {
		return 0, errs.At(ErrTruncated, int64(at), "header", "%s", what)
	}
	r.off += k
	if v > uint64(limit) {
		return 0, errs.At(ErrTooLarge, int64(at), "header", "%s %d exceeds the limit of %d", what, v, limit)
	}
	return int(v), nil
}

// size reads a uvarint count of items of width bytes (the dictionary
// offsets read count+1) and checks it against limit (tooLarge beyond it,
// no limit if < 0) and the bytes that remain.
func (r *reader) size(what string, limit int64, tooLarge error, width int) (int, error) {
	at := r.off
	v, k := varint.Consume(r.b[r.off:])
	if k < 0 {
		return 0, errs.At(ErrTruncated, int64(at), "header", "%s", what)
	}
	r.off += k
	if limit >= 0 && v > uint64(limit) {
		return 0, errs.At(tooLarge, int64(at), "header", "%s %d exceeds %d", what, v, limit)
	}
	items := v
	if width == 4 {
		items = v + 1
	}
	avail := uint64(len(r.b) - r.off)
	if items > avail/uint64(width) {
		return 0, errs.At(ErrTruncated, int64(at), "header", "%s %d needs %d bytes, %d remain", what, v, items*uint64(width), avail)
	}
	return int(v), nil
}
