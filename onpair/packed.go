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

// packedBlock is how many codes the packed decoder unpacks at a time:
// a multiple of 8, so every block starts on a byte boundary at any width.
const packedBlock = 512

// DecompressPacked decodes m codes packed at p.Bits bits straight from
// packed, without materialising them all as []uint16 (it unpacks blocks of
// 512 into a stack buffer). p.Codes is ignored. It checks p's dictionary,
// p.Bits (8..16), N <= 2^Bits and every code.
func DecompressPacked(p Parts, packed []byte, m int) ([]byte, error) {
	return AppendDecompressPacked(nil, p, packed, m)
}

// AppendDecompressPacked is DecompressPacked appending to dst; it may use
// dst's spare capacity beyond the returned length as scratch.
func AppendDecompressPacked(dst []byte, p Parts, packed []byte, m int) ([]byte, error) {
	d, err := acquireDecoder(p, true)
	if err != nil {
		return dst, err
	}
	defer decoderPool.Put(d)
	if err := checkPacked(packed, p.Bits, m); err != nil {
		return dst, err
	}
	if d.n > 1<<p.Bits {
		return dst, errs.At(ErrTooManyTokens, -1, "dict_offsets", "%d tokens do not fit %d-bit codes", d.n, p.Bits)
	}
	return d.appendPacked(dst, packed, uint(p.Bits), m)
}

// appendPacked decodes m packed codes; width and length are checked.
func (d *decoder) appendPacked(dst []byte, packed []byte, width uint, m int) ([]byte, error) {
	var buf [packedBlock]uint16
	blockBytes := packedBlock * int(width) / 8
	for j := 0; j < m; j += packedBlock {
		k := min(packedBlock, m-j)
		codes, err := bitpack.Unpack(buf[:0], packed[(j/packedBlock)*blockBytes:], width, k)
		if err != nil { // unreachable: checkPacked proved the length
			return dst, errs.At(ErrTruncated, -1, "codes", "%v", err)
		}
		n, err := d.decodedLen(codes, j)
		if err != nil {
			return dst, err
		}
		dst = d.appendDecode(dst, codes, n)
	}
	return dst, nil
}
