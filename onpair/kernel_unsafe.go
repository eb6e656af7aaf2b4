//go:build !purego && (386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package onpair

import "unsafe"

// The architecture list of the build line is internal/le's (le_unsafe.go),
// the one source of truth for where unchecked wide loads are built: the
// little-endian architectures on which cmd/compile itself treats unaligned
// loads as cheap. arm, mipsle, mips64le and riscv64 are little-endian but
// trap on, or emulate, unaligned wide loads, so they get kernel_safe.go.
// TestKernelArchListIsLes checks that the two lists agree.

// kernelUnsafe reports whether the unchecked kernels are built; it equals
// le.Unsafe on every build.
const kernelUnsafe = true

// The decode kernels with unchecked 16-byte loads and stores, for
// little-endian hosts (kernel_safe.go is the bounds-checked twin used under
// -tags purego and on every other architecture). Each kernel decodes whole
// blocks of 8 codes while the block provably stays in bounds: 128 bytes of
// out remain (8 stores of 16 bytes, each starting at most 16 bytes after
// the last), and for packed codes the block's last 8-byte load ends within
// packed. The callers finish the remaining codes with the exact, checked
// tail (tail.go), which keeps the exact-size guarantee.

// gatherFat decodes codes[i:] from the fat table t into out[w:], in blocks
// of 8, while a whole block fits. Any uint16 code is safe: lens is indexed
// by the code itself (65536 entries, 0 for codes >= n) and rows by
// code&mask (rows holds mask+1 slots of 16 bytes), so an out-of-range code
// writes in-bounds garbage of length 0 and sets bad's top bit (0-1 = 255).
func (t *fatTable) gatherFat(out []byte, w int, codes []uint16, i int) (int, int, uint8) {
	lim := len(out) - 8*MaxTokenSize
	if len(t.rows) < (int(t.mask)+1)*MaxTokenSize || w < 0 || i < 0 { // proof for the reader; never taken
		return w, i, 0
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	rows := unsafe.Pointer(unsafe.SliceData(t.rows))
	lens, mask := t.lens, t.mask
	var bad uint8
	for i+8 <= len(codes) && w <= lim {
		c := (*[8]uint16)(codes[i : i+8])
		c0 := c[0]
		n0 := lens[c0]
		bad |= n0 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c0&mask)<<4))
		w += int(n0)
		c1 := c[1]
		n1 := lens[c1]
		bad |= n1 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c1&mask)<<4))
		w += int(n1)
		c2 := c[2]
		n2 := lens[c2]
		bad |= n2 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c2&mask)<<4))
		w += int(n2)
		c3 := c[3]
		n3 := lens[c3]
		bad |= n3 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c3&mask)<<4))
		w += int(n3)
		c4 := c[4]
		n4 := lens[c4]
		bad |= n4 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c4&mask)<<4))
		w += int(n4)
		c5 := c[5]
		n5 := lens[c5]
		bad |= n5 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c5&mask)<<4))
		w += int(n5)
		c6 := c[6]
		n6 := lens[c6]
		bad |= n6 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c6&mask)<<4))
		w += int(n6)
		c7 := c[7]
		n7 := lens[c7]
		bad |= n7 - 1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c7&mask)<<4))
		w += int(n7)
		i += 8
	}
	return w, i, bad
}

// gatherFatPacked is gatherFat reading codes i.. (i a multiple of 8) of
// a stream packed at width bits (8..16) straight from packed. A block of 8
// codes starts on a byte boundary (8*width bits) and takes two unaligned
// 8-byte loads: codes 0..3 from the first (4*width <= 64 bits), codes 4..7
// from the second at byte 4*width/8, shifted by the half byte when width
// is odd (4+4*width <= 64 for width <= 15). Each code is then a mask and a
// shift by width, so no []uint16 is materialised. The table has a slot
// for every width-bit code (fill's minSlots), so codes index it unmasked. One loop per width parity keep the loop's state in registers (the
// shifts all use width, which stays in the shift-count register).
func (t *fatTable) gatherFatPacked(out []byte, w int, packed []byte, width uint, m int, i int) (int, int, uint8) {
	if len(t.rows) < (int(t.mask)+1)*MaxTokenSize || int(t.mask) < 1<<width-1 || w < 0 || i < 0 || i%8 != 0 || width < 8 || width > 16 {
		return w, i, 0
	}
	h := int(4 * width >> 3) // byte offset of code 4 in a block
	// Blocks from i/8 up to the last one that is whole (8 codes <= m), has
	// its second load within packed, and has 128 bytes of out (checked in
	// the loop).
	base := i / 8 * int(width)
	last := min((m/8-1)*int(width), len(packed)-8-h)
	if base > last || w > len(out)-8*MaxTokenSize {
		return w, i, 0
	}
	d0 := unsafe.Pointer(unsafe.SliceData(out))
	wEnd := len(out) - 8*MaxTokenSize
	rows := unsafe.Pointer(unsafe.SliceData(t.rows))
	p0 := unsafe.Pointer(unsafe.SliceData(packed))
	q := base
	lens := t.lens
	wm := uint64(1)<<width - 1
	width &= 63 // lets the compiler drop its shift-count check
	var bad uint8
	if width&1 != 0 {
		for q <= last && w <= wEnd {
			v0 := *(*uint64)(unsafe.Add(p0, q))
			v1 := *(*uint64)(unsafe.Add(p0, q+h)) >> 4
			c0 := uint16(v0 & wm)
			v0 >>= width
			n0 := int(lens[c0])
			bad |= uint8(n0) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c0)<<4))
			w += n0
			c1 := uint16(v0 & wm)
			v0 >>= width
			n1 := int(lens[c1])
			bad |= uint8(n1) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c1)<<4))
			w += n1
			c2 := uint16(v0 & wm)
			v0 >>= width
			n2 := int(lens[c2])
			bad |= uint8(n2) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c2)<<4))
			w += n2
			c3 := uint16(v0 & wm)
			n3 := int(lens[c3])
			bad |= uint8(n3) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c3)<<4))
			w += n3
			c4 := uint16(v1 & wm)
			v1 >>= width
			n4 := int(lens[c4])
			bad |= uint8(n4) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c4)<<4))
			w += n4
			c5 := uint16(v1 & wm)
			v1 >>= width
			n5 := int(lens[c5])
			bad |= uint8(n5) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c5)<<4))
			w += n5
			c6 := uint16(v1 & wm)
			v1 >>= width
			n6 := int(lens[c6])
			bad |= uint8(n6) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c6)<<4))
			w += n6
			c7 := uint16(v1 & wm)
			n7 := int(lens[c7])
			bad |= uint8(n7) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c7)<<4))
			w += n7
			q += int(width)
		}
	} else {
		for q <= last && w <= wEnd {
			v0 := *(*uint64)(unsafe.Add(p0, q))
			v1 := *(*uint64)(unsafe.Add(p0, q+h))
			c0 := uint16(v0 & wm)
			v0 >>= width
			n0 := int(lens[c0])
			bad |= uint8(n0) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c0)<<4))
			w += n0
			c1 := uint16(v0 & wm)
			v0 >>= width
			n1 := int(lens[c1])
			bad |= uint8(n1) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c1)<<4))
			w += n1
			c2 := uint16(v0 & wm)
			v0 >>= width
			n2 := int(lens[c2])
			bad |= uint8(n2) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c2)<<4))
			w += n2
			c3 := uint16(v0 & wm)
			n3 := int(lens[c3])
			bad |= uint8(n3) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c3)<<4))
			w += n3
			c4 := uint16(v1 & wm)
			v1 >>= width
			n4 := int(lens[c4])
			bad |= uint8(n4) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c4)<<4))
			w += n4
			c5 := uint16(v1 & wm)
			v1 >>= width
			n5 := int(lens[c5])
			bad |= uint8(n5) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c5)<<4))
			w += n5
			c6 := uint16(v1 & wm)
			v1 >>= width
			n6 := int(lens[c6])
			bad |= uint8(n6) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c6)<<4))
			w += n6
			c7 := uint16(v1 & wm)
			n7 := int(lens[c7])
			bad |= uint8(n7) - 1
			*(*[16]byte)(unsafe.Add(d0, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c7)<<4))
			w += n7
			q += int(width)
		}
	}
	return w, i + 8*(q-base)/int(width), bad
}

// gatherSpec decodes codes[i:] straight from the spec layout of a
// validated dictionary (token c at dict[offs[c]:offs[c+1]], every token
// start readable for 16 bytes), in blocks of 8 while a whole block fits.
// It stops before a block holding a code >= n (the caller's checked tail
// then locates it), so it needs no table: the one-shot decoders' per-call
// work is the dictionary check and the codes.
func gatherSpec(out []byte, w int, dict []byte, offs []uint32, codes []uint16, i int) (int, int) {
	lim := len(out) - 8*MaxTokenSize
	n := len(offs) - 1
	if n <= 0 || len(dict) < int(offs[n-1])+MaxTokenSize || w < 0 || i < 0 {
		return w, i
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	src := unsafe.Pointer(unsafe.SliceData(dict))
	o := unsafe.Pointer(unsafe.SliceData(offs))
	for i+8 <= len(codes) && w <= lim {
		c := (*[8]uint16)(codes[i : i+8])
		if int(max(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])) >= n {
			break
		}
		a0 := *(*uint32)(unsafe.Add(o, uintptr(c[0])<<2))
		b0 := *(*uint32)(unsafe.Add(o, uintptr(c[0])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a0)))
		w += int(b0 - a0)
		a1 := *(*uint32)(unsafe.Add(o, uintptr(c[1])<<2))
		b1 := *(*uint32)(unsafe.Add(o, uintptr(c[1])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a1)))
		w += int(b1 - a1)
		a2 := *(*uint32)(unsafe.Add(o, uintptr(c[2])<<2))
		b2 := *(*uint32)(unsafe.Add(o, uintptr(c[2])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a2)))
		w += int(b2 - a2)
		a3 := *(*uint32)(unsafe.Add(o, uintptr(c[3])<<2))
		b3 := *(*uint32)(unsafe.Add(o, uintptr(c[3])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a3)))
		w += int(b3 - a3)
		a4 := *(*uint32)(unsafe.Add(o, uintptr(c[4])<<2))
		b4 := *(*uint32)(unsafe.Add(o, uintptr(c[4])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a4)))
		w += int(b4 - a4)
		a5 := *(*uint32)(unsafe.Add(o, uintptr(c[5])<<2))
		b5 := *(*uint32)(unsafe.Add(o, uintptr(c[5])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a5)))
		w += int(b5 - a5)
		a6 := *(*uint32)(unsafe.Add(o, uintptr(c[6])<<2))
		b6 := *(*uint32)(unsafe.Add(o, uintptr(c[6])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a6)))
		w += int(b6 - a6)
		a7 := *(*uint32)(unsafe.Add(o, uintptr(c[7])<<2))
		b7 := *(*uint32)(unsafe.Add(o, uintptr(c[7])<<2+4))
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(src, uintptr(a7)))
		w += int(b7 - a7)
		i += 8
	}
	return w, i
}

// gatherRoomy decodes validated codes (every code < n) into out, which has
// 16 bytes of room per code, so every store is in bounds without a check:
// the row decoder, where rows are too short for 8-code blocks to pay.
// Unrolled by four.
func (t *fatTable) gatherRoomy(out []byte, codes []uint16) int {
	if len(out) < MaxTokenSize*len(codes) || len(t.rows) < (int(t.mask)+1)*MaxTokenSize { // never taken
		return 0
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	rows := unsafe.Pointer(unsafe.SliceData(t.rows))
	lens := t.lens
	w, i := 0, 0
	for ; i+4 <= len(codes); i += 4 {
		c := (*[4]uint16)(codes[i : i+4])
		c0, c1, c2, c3 := c[0], c[1], c[2], c[3]
		n0, n1, n2, n3 := int(lens[c0]), int(lens[c1]), int(lens[c2]), int(lens[c3])
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c0)<<4))
		w += n0
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c1)<<4))
		w += n1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c2)<<4))
		w += n2
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c3)<<4))
		w += n3
	}
	for ; i < len(codes); i++ {
		c := codes[i]
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c)<<4))
		w += int(lens[c])
	}
	return w
}

// gatherValid is gatherFat for codes the caller has validated (every code
// < n, so every code has a slot in rows unmasked and a length of 1..16):
// no out-of-range flag and no mask, and each group of four codes comes in
// one 8-byte load (codes are little-endian uint16 in memory on every
// architecture this file is built for), so the loop issues one load a
// code less and no reload after a store. The caller finishes with tail.
func (t *fatTable) gatherValid(out []byte, w int, codes []uint16, i int) (int, int) {
	lim := len(out) - 8*MaxTokenSize
	if len(t.rows) < (int(t.mask)+1)*MaxTokenSize || w < 0 || i < 0 { // proof for the reader; never taken
		return w, i
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	rows := unsafe.Pointer(unsafe.SliceData(t.rows))
	lens := t.lens
	for i+8 <= len(codes) && w <= lim {
		g := (*[2]uint64)(unsafe.Pointer((*[8]uint16)(codes[i : i+8])))
		v, u := g[0], g[1]
		c0, c1, c2, c3 := uint16(v), uint16(v>>16), uint16(v>>32), uint16(v>>48)
		n0, n1, n2, n3 := int(lens[c0]), int(lens[c1]), int(lens[c2]), int(lens[c3])
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c0)<<4))
		w += n0
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c1)<<4))
		w += n1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c2)<<4))
		w += n2
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c3)<<4))
		w += n3
		c0, c1, c2, c3 = uint16(u), uint16(u>>16), uint16(u>>32), uint16(u>>48)
		n0, n1, n2, n3 = int(lens[c0]), int(lens[c1]), int(lens[c2]), int(lens[c3])
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c0)<<4))
		w += n0
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c1)<<4))
		w += n1
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c2)<<4))
		w += n2
		*(*[16]byte)(unsafe.Add(d, w)) = *(*[16]byte)(unsafe.Add(rows, uintptr(c3)<<4))
		w += n3
		i += 8
	}
	return w, i
}
