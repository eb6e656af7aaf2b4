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
