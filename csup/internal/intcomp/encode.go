package intcomp

import (
	"encoding/binary"
	"math/bits"
)

// AppendUint32 appends the stream of vals in the 32-bit form: bit-packed
// blocks for the longest multiple of 128 values, a variable-byte block for
// the rest, then the trailing word. An empty vals appends nothing.
func AppendUint32(dst []byte, vals []uint32) []byte {
	if len(vals) == 0 {
		return dst
	}
	var words []uint32
	last := 0
	if full := len(vals) / BlockSize32 * BlockSize32; full > 0 {
		last = len(words)
		words = packed32(words, vals[:full])
		vals = vals[full:]
	}
	if len(vals) > 0 || len(words) == 0 {
		last = len(words)
		words = varBytes32(words, vals)
	}
	words = append(words, uint32(len(words)-last))
	for _, w := range words {
		dst = binary.LittleEndian.AppendUint32(dst, w)
	}
	return dst
}

func varBytes32(words []uint32, vals []uint32) []uint32 {
	var b []byte
	var prev uint32
	for _, v := range vals {
		d := v - prev
		prev = v
		for d >= 0x80 {
			b = append(b, byte(d)|0x80)
			d >>= 7
		}
		b = append(b, byte(d))
	}
	for len(b)%4 != 0 {
		b = append(b, 0x80)
	}
	words = append(words, uint32(len(vals)), uint32(2+len(b)/4))
	for i := 0; i < len(b); i += 4 {
		words = append(words, uint32(b[i])<<24|uint32(b[i+1])<<16|uint32(b[i+2])<<8|uint32(b[i+3]))
	}
	return words
}

func packed32(words []uint32, vals []uint32) []uint32 {
	head := len(words)
	words = append(words, uint32(len(vals)), 0, vals[0])
	prev := vals[0]
	for blk := 0; blk < len(vals); blk += BlockSize32 {
		hpos := len(words)
		words = append(words, 0)
		var h uint32
		for g := 0; g < 4; g++ {
			grp := vals[blk+32*g : blk+32*g+32]
			var d [32]uint32
			var or uint32
			zz := false
			p := prev
			for i, v := range grp {
				d[i] = v - p
				p = v
				if int32(d[i]) < 0 {
					zz = true
				}
			}
			for i := range d {
				if zz {
					x := int32(d[i])
					d[i] = uint32(x<<1 ^ x>>31)
				}
				or |= d[i]
			}
			width := bits.Len32(or)
			var gh uint32 = uint32(width)
			if zz {
				gh |= 0x80
			}
			if width == 32 {
				// Full width holds the values themselves; the zig-zag bit
				// stays set, as it must be for a delta to need 32 bits.
				words = append(words, grp...)
			} else {
				out := make([]uint32, width)
				for i := range d {
					bit := i * width
					wi, sh := bit/32, bit%32
					if width > 0 {
						out[wi] |= d[i] << sh
						if sh+width > 32 {
							out[wi+1] |= d[i] >> (32 - sh)
						}
					}
				}
				words = append(words, out...)
			}
			h |= gh << (24 - 8*g)
			prev = grp[31]
		}
		words[hpos] = h
	}
	words[head+1] = uint32(len(words) - head)
	return words
}

// AppendUint64 appends the stream of vals in the 64-bit form as
// CompressUint64 writes it: no trailing-zero shifts (its decoder ignores
// the trailing-zero bytes of a group header, so a stream meant for a Uint
// column must leave them 0).
func AppendUint64(dst []byte, vals []uint64) []byte { return append64(dst, vals, false) }

// AppendInt64 appends the stream of vals (int64 values as uint64) in the
// 64-bit form as CompressInt64 writes it: the trailing zeros common to a
// group's deltas are shifted out and recorded in the group header, except
// in zig-zag groups. There CompressInt64 shifts the zig-zag deltas by the
// trailing zeros of their OR shifted right once, which drops the sign bit
// of every negative delta (deltas −1 and 2 in one group of 64 decode as 0
// and 2): this encoder writes such a group unshifted, which every decoder
// reads back exactly, so its bytes differ from super's there only.
func AppendInt64(dst []byte, vals []uint64) []byte { return append64(dst, vals, true) }

func append64(dst []byte, vals []uint64, shift bool) []byte {
	if len(vals) == 0 {
		return dst
	}
	var words []uint64
	last := 0
	if full := len(vals) / BlockSize64 * BlockSize64; full > 0 {
		last = len(words)
		words = packed64(words, vals[:full], shift)
		vals = vals[full:]
	}
	if len(vals) > 0 || len(words) == 0 {
		last = len(words)
		words = varBytes64(words, vals)
	}
	words = append(words, uint64(len(words)-last))
	for _, w := range words {
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	return dst
}

func varBytes64(words []uint64, vals []uint64) []uint64 {
	var b []byte
	var prev uint64
	for _, v := range vals {
		d := v - prev
		prev = v
		for d >= 0x80 {
			b = append(b, byte(d)|0x80)
			d >>= 7
		}
		b = append(b, byte(d))
	}
	for len(b)%8 != 0 {
		b = append(b, 0x80)
	}
	words = append(words, uint64(len(vals))|uint64(1+len(b)/8)<<32)
	for i := 0; i < len(b); i += 8 {
		words = append(words, binary.BigEndian.Uint64(b[i:]))
	}
	return words
}

func packed64(words []uint64, vals []uint64, shift bool) []uint64 {
	head := len(words)
	words = append(words, 0, vals[0])
	prev := vals[0]
	for blk := 0; blk < len(vals); blk += BlockSize64 {
		hpos := len(words)
		words = append(words, 0)
		var h uint64
		for g := 0; g < 4; g++ {
			grp := vals[blk+64*g : blk+64*g+64]
			var d [64]uint64
			var or uint64
			zz := false
			p := prev
			for i, v := range grp {
				d[i] = v - p
				p = v
				if int64(d[i]) < 0 {
					zz = true
				}
			}
			for i := range d {
				if zz {
					x := int64(d[i])
					d[i] = uint64(x<<1 ^ x>>63)
				}
				or |= d[i]
			}
			ntz := 0
			if shift && !zz && or != 0 {
				ntz = bits.TrailingZeros64(or)
			}
			bitlen := bits.Len64(or)
			width := bitlen - ntz
			gh := uint64(bitlen)
			if zz {
				gh |= 0x80
			}
			if width == 64 {
				words = append(words, grp...)
			} else {
				out := make([]uint64, width)
				for i := range d {
					v := d[i] >> ntz
					bit := i * width
					wi, sh := bit/64, bit%64
					if width > 0 {
						out[wi] |= v << sh
						if sh+width > 64 {
							out[wi+1] |= v >> (64 - sh)
						}
					}
				}
				words = append(words, out...)
			}
			h |= gh<<(24-8*g) | uint64(ntz)<<(56-8*g)
			prev = grp[63]
		}
		words[hpos] = h
	}
	words[head] = uint64(len(vals)) | uint64(len(words)-head)<<32
	return words
}
