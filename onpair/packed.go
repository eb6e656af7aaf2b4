package onpair

import (
	"github.com/colfmt/colfmt/internal/bitpack"
	"github.com/colfmt/colfmt/internal/errs"
)

// PackCodes packs codes at bits bits each, LSB-first in little-endian u64
// words (spec §3), into exactly ceil(len(codes)*bits/8) bytes with no
// padding word. Bits of a code above bits are dropped: the caller keeps
// every code < 2^bits (Validate proves it). It panics if bits is not in
// 1..16, a programming error.
func PackCodes(codes []uint16, bits uint32) []byte {
	if bits < 1 || bits > 16 {
		panic("onpair: PackCodes with bits outside 1..16")
	}
	return bitpack.Append(make([]byte, 0, bitpack.PackedLen(len(codes), uint(bits))), codes, uint(bits))
}

// PackedLen returns ceil(m*bits/8), the packed size of m codes.
func PackedLen(m int, bits uint32) int { return bitpack.PackedLen(m, uint(bits)) }

// UnpackCodes unpacks m codes packed at bits (8..16) bits each. packed must
// hold at least ceil(m*bits/8) bytes; any bytes beyond (such as the zero
// u64 onpair_cpp appends) are ignored.
func UnpackCodes(packed []byte, bits uint32, m int) ([]uint16, error) {
	if err := checkPacked(packed, bits, m); err != nil {
		return nil, err
	}
	return bitpack.Unpack(make([]uint16, 0, m), packed, uint(bits), m)
}

func checkPacked(packed []byte, bits uint32, m int) error {
	if bits < 8 || bits > 16 {
		return errs.At(ErrBadBits, -1, "bits", "bits = %d", bits)
	}
	if m < 0 {
		return invalidArg("negative code count %d", m)
	}
	if need := PackedLen(m, bits); need < 0 || len(packed) < need {
		return errs.At(ErrTruncated, int64(len(packed)), "codes",
			"%d codes at %d bits need %d bytes, have %d", m, bits, need, len(packed))
	}
	return nil
}

// DecompressPacked decodes m codes packed at p.Bits bits straight from
// packed: the decode loop reads each code from the packed bytes, so no
// []uint16 is built. p.Codes is ignored. It checks p's dictionary, p.Bits
// (8..16), N <= 2^Bits and every code. Each call lays out the dictionary's
// table (pooled); NewDecoder does that once for many calls.
func DecompressPacked(p Parts, packed []byte, m int) ([]byte, error) {
	return AppendDecompressPacked(nil, p, packed, m)
}

// AppendDecompressPacked is DecompressPacked appending to dst; it may use
// dst's spare capacity beyond the returned length as scratch.
func AppendDecompressPacked(dst []byte, p Parts, packed []byte, m int) ([]byte, error) {
	if p.Bits < 8 || p.Bits > 16 {
		return dst, errs.At(ErrBadBits, -1, "bits", "bits = %d", p.Bits)
	}
	t, err := acquireTable(p, 1<<p.Bits)
	if err != nil {
		return dst, err
	}
	defer tablePool.Put(t)
	if err := t.checkPackedWidth(packed, p.Bits, m); err != nil {
		return dst, err
	}
	return t.appendPacked(dst, packed, uint(p.Bits), m)
}
