package lance

// FastLanes bit-packing (notes §10.4): 1,024 values of t bits packed at w
// bits in the transposed lane order lance's bitpacking crate uses.

import "encoding/binary"

var fastlanesOrder = [8]int{0, 4, 2, 6, 1, 5, 3, 7}

func readWord(b []byte, i, t int) uint64 {
	switch t {
	case 8:
		return uint64(b[i])
	case 16:
		return uint64(binary.LittleEndian.Uint16(b[2*i:]))
	case 32:
		return uint64(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return binary.LittleEndian.Uint64(b[8*i:])
}

func putWord(b []byte, i, t int, v uint64) {
	switch t {
	case 8:
		b[i] = byte(v)
	case 16:
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	case 32:
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	default:
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
}

// packedChunkBytes is the size of one packed chunk of width w.
func packedChunkBytes(w int) int { return 128 * w }

// unpackChunk unpacks one FastLanes chunk (src holds packedChunkBytes(w)
// bytes) into 1,024 t-bit little-endian values in out (1024*t/8 bytes).
func unpackChunk(src []byte, t, w int, out []byte) {
	if w == 0 {
		clear(out[:1024*t/8])
		return
	}
	switch t {
	case 8:
		unpack8(src, w, out)
		return
	case 16:
		unpack16(src, w, out)
		return
	case 32:
		unpack32(src, w, out)
		return
	case 64:
		unpack64(src, w, out)
		return
	}
	lanes := 1024 / t
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
			v := readWord(src, lanes*k+l, t) >> sh
			if spill {
				v |= readWord(src, lanes*(k+1)+l, t) << (t - sh)
			}
			putWord(out, base+l, t, v&mask)
		}
	}
}

// unpack8 is unpackChunk for 8-bit values (0 < w <= 8): the lane
// loops without a width switch per value.
func unpack8(src []byte, w int, out []byte) {
	_ = src[1*128*w-1]
	_ = out[1024-1]
	mask := uint8(1)<<w - 1
	if w == 8 {
		mask = ^uint8(0)
	}
	for r := 0; r < 8; r++ {
		bit := r * w
		k, sh := bit/8, bit%8
		base := fastlanesOrder[r/8]*16 + (r%8)*128
		if sh+w > 8 {
			for l := 0; l < 128; l++ {
				v := src[128*k+l]>>sh | src[128*(k+1)+l]<<(8-sh)
				out[base+l] = v & mask
			}
			continue
		}
		for l := 0; l < 128; l++ {
			out[base+l] = src[128*k+l] >> sh & mask
		}
	}
}

// unpack16 is unpackChunk for 16-bit values (0 < w <= 16): the lane
// loops without a width switch per value.
func unpack16(src []byte, w int, out []byte) {
	_ = src[2*64*w-1]
	_ = out[2048-1]
	mask := uint16(1)<<w - 1
	if w == 16 {
		mask = ^uint16(0)
	}
	for r := 0; r < 16; r++ {
		bit := r * w
		k, sh := bit/16, bit%16
		base := fastlanesOrder[r/8]*16 + (r%8)*128
		if sh+w > 16 {
			for l := 0; l < 64; l++ {
				v := binary.LittleEndian.Uint16(src[2*(64*k+l):])>>sh | binary.LittleEndian.Uint16(src[2*(64*(k+1)+l):])<<(16-sh)
				binary.LittleEndian.PutUint16(out[2*(base+l):], v&mask)
			}
			continue
		}
		for l := 0; l < 64; l++ {
			binary.LittleEndian.PutUint16(out[2*(base+l):], binary.LittleEndian.Uint16(src[2*(64*k+l):])>>sh&mask)
		}
	}
}

// unpack32 is unpackChunk for 32-bit values (0 < w <= 32): the lane
// loops without a width switch per value.
func unpack32(src []byte, w int, out []byte) {
	_ = src[4*32*w-1]
	_ = out[4096-1]
	mask := uint32(1)<<w - 1
	if w == 32 {
		mask = ^uint32(0)
	}
	for r := 0; r < 32; r++ {
		bit := r * w
		k, sh := bit/32, bit%32
		base := fastlanesOrder[r/8]*16 + (r%8)*128
		if sh+w > 32 {
			for l := 0; l < 32; l++ {
				v := binary.LittleEndian.Uint32(src[4*(32*k+l):])>>sh | binary.LittleEndian.Uint32(src[4*(32*(k+1)+l):])<<(32-sh)
				binary.LittleEndian.PutUint32(out[4*(base+l):], v&mask)
			}
			continue
		}
		for l := 0; l < 32; l++ {
			binary.LittleEndian.PutUint32(out[4*(base+l):], binary.LittleEndian.Uint32(src[4*(32*k+l):])>>sh&mask)
		}
	}
}

// unpack64 is unpackChunk for 64-bit values (0 < w <= 64): the lane
// loops without a width switch per value.
func unpack64(src []byte, w int, out []byte) {
	_ = src[8*16*w-1]
	_ = out[8192-1]
	mask := uint64(1)<<w - 1
	if w == 64 {
		mask = ^uint64(0)
	}
	for r := 0; r < 64; r++ {
		bit := r * w
		k, sh := bit/64, bit%64
		base := fastlanesOrder[r/8]*16 + (r%8)*128
		if sh+w > 64 {
			for l := 0; l < 16; l++ {
				v := binary.LittleEndian.Uint64(src[8*(16*k+l):])>>sh | binary.LittleEndian.Uint64(src[8*(16*(k+1)+l):])<<(64-sh)
				binary.LittleEndian.PutUint64(out[8*(base+l):], v&mask)
			}
			continue
		}
		for l := 0; l < 16; l++ {
			binary.LittleEndian.PutUint64(out[8*(base+l):], binary.LittleEndian.Uint64(src[8*(16*k+l):])>>sh&mask)
		}
	}
}
