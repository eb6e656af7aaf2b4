//go:build purego || !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package onpair

import "encoding/binary"

// The bounds-checked twins of kernel_unsafe.go, used under -tags purego and
// on every architecture not known to be little-endian with cheap unaligned
// loads. Same contracts, same results; Go's bounds checks stay in.

const kernelUnsafe = false

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

func (t *fatTable) gatherFatPacked(out []byte, w int, packed []byte, width uint, m int, i int) (int, int, uint8) {
	lim := len(out) - 8*MaxTokenSize
	maxBP := 8*(len(packed)-8) - 7*int(width)
	rows, lens, mask := t.rows, t.lens, t.mask
	wm := uint64(1)<<width - 1
	bp := uint(i) * width
	var bad uint8
	for i+8 <= m && w <= lim && int(bp) <= maxBP {
		for k := 0; k < 8; k++ {
			c := uint16(binary.LittleEndian.Uint64(packed[bp>>3:]) >> (bp & 7) & wm)
			bp += width
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
