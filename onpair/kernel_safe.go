//go:build purego || !(386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package onpair

import "encoding/binary"

// kernelUnsafe reports whether the unchecked kernels are built; it equals
// le.Unsafe on every build (the build lines are internal/le's list; see
// kernel_unsafe.go).
const kernelUnsafe = false

// The bounds-checked twins of kernel_unsafe.go, used under -tags purego and
// on every architecture outside internal/le's list of little-endian ones with
// cheap unaligned loads. Same contracts, same results; Go's bounds checks stay in.

func (t *fatTable) gatherFat(out []byte, w int, codes []uint16, i int) (int, int, uint8) {
	lim := len(out) - 8*MaxTokenSize
	rows, lens, mask := t.rows, t.lens, t.mask
	var bad uint8
	for i+8 <= len(codes) && w <= lim {
		for _, c := range codes[i : i+8] {
			l := lens[c]
			bad |= l - 1
			s := int(c&mask) << 4
			copy(out[w:w+MaxTokenSize], rows[s:s+MaxTokenSize])
			w += int(l)
		}
		i += 8
	}
	return w, i, bad
}

// packedRoom is the room the packed kernel keeps at the end of out.
const packedRoom = 8*MaxTokenSize + 1

func (t *fatTable) gatherFatPacked(out []byte, w int, packed []byte, width uint, m int, i int) (int, int, uint8) {
	lim := len(out) - 8*MaxTokenSize
	if i%8 != 0 || width < 8 || width > 16 || int(t.mask) < 1<<width-1 {
		return w, i, 0
	}
	h := 4 * width >> 3
	hs := (4 * width) & 7
	maxBase := len(packed) - 8 - int(h)
	rows, lens, mask := t.rows, t.lens, t.mask
	wm := uint64(1)<<width - 1
	base := i / 8 * int(width)
	var bad uint8
	for i+8 <= m && w <= lim && base <= maxBase {
		v0 := binary.LittleEndian.Uint64(packed[base:])
		v1 := binary.LittleEndian.Uint64(packed[base+int(h):]) >> hs
		for k := uint(0); k < 8; k++ {
			v := v0
			if k >= 4 {
				v = v1
			}
			c := uint16(v >> (k % 4 * width) & wm)
			l := lens[c]
			bad |= l - 1
			s := int(c&mask) << 4
			copy(out[w:w+MaxTokenSize], rows[s:s+MaxTokenSize])
			w += int(l)
		}
		i += 8
		base += int(width)
	}
	return w, i, bad
}

func gatherSpec(out []byte, w int, dict []byte, offs []uint32, codes []uint16, i int) (int, int) {
	lim := len(out) - 8*MaxTokenSize
	n := len(offs) - 1
	for i+8 <= len(codes) && w <= lim {
		blk := codes[i : i+8]
		if int(max(blk[0], blk[1], blk[2], blk[3], blk[4], blk[5], blk[6], blk[7])) >= n {
			break
		}
		for _, c := range blk {
			a, b := offs[c], offs[int(c)+1] // int: c+1 overflows uint16
			copy(out[w:w+MaxTokenSize], dict[a:a+MaxTokenSize])
			w += int(b - a)
		}
		i += 8
	}
	return w, i
}

func (t *fatTable) gatherRoomy(out []byte, codes []uint16) int {
	rows, lens := t.rows, t.lens
	w := 0
	for _, c := range codes {
		s := int(c) << 4
		copy(out[w:w+MaxTokenSize], rows[s:s+MaxTokenSize])
		w += int(lens[c])
	}
	return w
}

// gatherValid is gatherFat for validated codes.
func (t *fatTable) gatherValid(out []byte, w int, codes []uint16, i int) (int, int) {
	w, i, _ = t.gatherFat(out, w, codes, i)
	return w, i
}

// gatherPos decodes validated codes and records token starts (see
// kernel_unsafe.go).
func (t *fatTable) gatherPos(out []byte, w int, codes []uint16, pos []uint32) int {
	return t.posTail(out, w, w, codes, 0, pos)
}
