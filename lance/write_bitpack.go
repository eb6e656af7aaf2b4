package lance

// FastLanes bit-packing for the writer: the inverse of unpackChunk
// (v21_bitpack.go), and the out-of-line level blocks built from it.

import (
	"encoding/binary"
	"math/bits"
)

// packChunk appends one FastLanes chunk: the first n (<= 1024) t-bit LE
// values of vals packed at w bits (zeros after n), 128*w bytes.
func packChunk(dst []byte, vals []byte, n, t, w int) []byte {
	if w == 0 {
		return dst
	}
	lanes := 1024 / t
	var words [1024]uint64 // lanes*w <= 1024 words
	mask := uint64(1)<<w - 1
	if w == 64 {
		mask = ^uint64(0)
	}
	for r := 0; r < t; r++ {
		bit := r * w
		k, sh := bit/t, bit%t
		base := fastlanesOrder[r/8]*16 + (r%8)*128
		spill := sh+w > t
		for l := 0; l < lanes; l++ {
			i := base + l
			if i >= n {
				continue
			}
			v := readWord(vals, i, t) & mask
			words[lanes*k+l] |= v << sh
			if spill {
				words[lanes*(k+1)+l] |= v >> (t - sh)
			}
		}
	}
	nw := lanes * w
	at := len(dst)
	dst = append(dst, make([]byte, nw*t/8)...)
	for i := 0; i < nw; i++ {
		putWord(dst[at:], i, t, words[i])
	}
	return dst
}

// orWidth is the bit width of the OR of n t-bit values.
func orWidth(vals []byte, n, t int) int {
	var or uint64
	switch t {
	case 8:
		for _, b := range vals[:n] {
			or |= uint64(b)
		}
	case 16:
		for i := 0; i < n; i++ {
			or |= uint64(binary.LittleEndian.Uint16(vals[2*i:]))
		}
	case 32:
		for i := 0; i < n; i++ {
			or |= uint64(binary.LittleEndian.Uint32(vals[4*i:]))
		}
	default:
		for i := 0; i < n; i++ {
			or |= binary.LittleEndian.Uint64(vals[8*i:])
		}
	}
	return bits.Len64(or)
}

// inlinePack is the inline bit-packing of a mini-block chunk of n <= 1024
// values: a t-bit word holding the width, then the packed chunk.
func inlinePack(vals []byte, n, t int) []byte {
	w := orWidth(vals, n, t)
	out := make([]byte, t/8, t/8+128*w)
	putWord(out, 0, t, uint64(w))
	return packChunk(out, vals, n, t, w)
}

// levelBlock encodes levels as out_of_line_bitpacking{16, flat{w}}: whole
// FastLanes chunks, then the tail either raw u16 (when no larger than a
// packed chunk; this also keeps the two forms apart for the reader) or as
// a padded packed chunk.
func levelBlock(levels []uint16, w int) []byte {
	n := len(levels)
	raw := make([]byte, 2*n)
	for i, v := range levels {
		binary.LittleEndian.PutUint16(raw[2*i:], v)
	}
	whole := n / 1024
	tail := n % 1024
	out := make([]byte, 0, (whole+1)*128*w)
	for c := 0; c < whole; c++ {
		out = packChunk(out, raw[2048*c:], 1024, 16, w)
	}
	if tail == 0 {
		return out
	}
	if tail <= 64*w {
		return append(out, raw[2048*whole:]...)
	}
	return packChunk(out, raw[2048*whole:], tail, 16, w)
}
