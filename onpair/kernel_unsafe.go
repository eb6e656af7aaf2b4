//go:build !purego && (386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package onpair

import "unsafe"

//go:generate go run gen_packed.go
//go:generate go run gen_packed_asm.go

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
// blocks of 8 codes (16 in gatherValid) while the block provably stays in
// bounds: more than 16 bytes a code of out remain (each 16-byte store
// starts at most 16 bytes after the last), and for packed codes the
// block's last 8-byte load ends within packed. The callers finish the
// remaining codes with the exact, checked tail (fat.go), which keeps the
// exact-size guarantee.

// The block kernels write through a pointer cursor o (the next output
// byte) rather than out[w:]: the store then takes its address straight
// from the cursor and each token costs one add to it, where base+offset
// cost an extra address computation per token (measured 1.2-1.5x on
// dbtext). To keep o inside out (unsafe.Add must not step past the end of
// an allocation) the loops stop while more than 8*16 bytes remain, so o
// stays at most len(out)-1 past the start; codes are read by index.

// gatherFat decodes codes[i:] from the fat table t into out[w:], in blocks
// of 8, while a whole block fits. Any uint16 code is safe: lens is indexed
// by the code itself (65536 entries, 0 for codes >= n) and rows by
// code&mask (rows holds mask+1 slots of 16 bytes), so an out-of-range code
// writes in-bounds garbage of length 0 and sets bad's top bit (0-1 = 255).
func (t *fatTable) gatherFat(out []byte, w int, codes []uint16, i int) (int, int, uint8) {
	if len(t.rows) < (int(t.mask)+1)*MaxTokenSize || w < 0 || i < 0 || w > len(out)-8*MaxTokenSize-1 { // proof for the reader; the last: no whole block fits
		return w, i, 0
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	end := uintptr(d) + uintptr(len(out)-8*MaxTokenSize-1)
	o := unsafe.Add(d, w)
	cs := unsafe.Pointer(unsafe.SliceData(codes))
	rows := unsafe.Pointer(unsafe.SliceData(t.rows))
	lens, mask := t.lens, uintptr(t.mask)
	var bad uint8
	if t.n <= 1<<15 {
		// Every code of the block < n, checked four at a time: in each
		// 16-bit lane (c|0x8000)-n cannot borrow (n <= 0x8000) and has its
		// top bit set iff c >= n when c < 0x8000; c itself has it set
		// otherwise. Codes < n need no mask and no per-code flag.
		const hi = 0x8000800080008000
		nn := uint64(t.n) * 0x0001000100010001
		for i+8 <= len(codes) && uintptr(o) <= end {
			v := *(*uint64)(unsafe.Add(cs, 2*i))
			u := *(*uint64)(unsafe.Add(cs, 2*i+8))
			if (((v|hi)-nn)|v|((u|hi)-nn)|u)&hi != 0 {
				break // a code >= n: the caller's checked tail locates it
			}
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(v))<<4))
			o = unsafe.Add(o, lens[uint16(v)])
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(v>>16))<<4))
			o = unsafe.Add(o, lens[uint16(v>>16)])
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(v>>32))<<4))
			o = unsafe.Add(o, lens[uint16(v>>32)])
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(v>>48)<<4))
			o = unsafe.Add(o, lens[v>>48])
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(u))<<4))
			o = unsafe.Add(o, lens[uint16(u)])
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(u>>16))<<4))
			o = unsafe.Add(o, lens[uint16(u>>16)])
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(u>>32))<<4))
			o = unsafe.Add(o, lens[uint16(u>>32)])
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(u>>48)<<4))
			o = unsafe.Add(o, lens[u>>48])
			i += 8
		}
		return int(uintptr(o) - uintptr(d)), i, 0
	}
	var n uint8
	for i+8 <= len(codes) && uintptr(o) <= end {
		v := *(*uint64)(unsafe.Add(cs, 2*i))
		u := *(*uint64)(unsafe.Add(cs, 2*i+8))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(v))&mask)<<4))
		n = lens[uint16(v)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(v>>16))&mask)<<4))
		n = lens[uint16(v>>16)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(v>>32))&mask)<<4))
		n = lens[uint16(v>>32)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(v>>48))&mask)<<4))
		n = lens[uint16(v>>48)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(u))&mask)<<4))
		n = lens[uint16(u)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(u>>16))&mask)<<4))
		n = lens[uint16(u>>16)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(u>>32))&mask)<<4))
		n = lens[uint16(u>>32)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(uint16(u>>48))&mask)<<4))
		n = lens[uint16(u>>48)]
		bad |= n - 1
		o = unsafe.Add(o, n)
		i += 8
	}
	return int(uintptr(o) - uintptr(d)), i, bad
}

// packedRoom is the room gatherFatPacked keeps at the end of out: its
// lengths table (plens) gives a code >= N the length badLen, so that one OR
// a code flags it (a valid length is 1..16, below the top bit), and a block
// of 8 such codes moves the cursor by at most 8*badLen; the cursor then
// still lies within out.
const packedRoom = 8*badLen + 1

// gatherFatPacked is gatherFat reading codes i.. (i a multiple of 8) of
// a stream packed at width bits (8..16) straight from packed. A block of 8
// codes starts on a byte boundary (8*width bits) and takes two unaligned
// 8-byte loads: codes 0..3 from the first (4*width <= 64 bits), codes 4..7
// from the second at byte 4*width/8, shifted by the half byte when width
// is odd (4+4*width <= 64 for width <= 15). Each code is then a mask and a
// shift, so no []uint16 is materialised. The table has a slot for every
// width-bit code (fill's minSlots), so codes index it unmasked. Widths
// 9..16 run a loop of their own with constant shifts and masks
// (kernel_packed_unsafe.go, written by gen_packed.go); on amd64 widths
// 8..16 run the assembly twins of those loops (packed_asm_amd64.s, written
// by gen_packed_asm.go) when packedAsmOn is set.
func (t *fatTable) gatherFatPacked(out []byte, w int, packed []byte, width uint, m int, i int) (int, int, uint8) {
	if len(t.rows) < (int(t.mask)+1)*MaxTokenSize || int(t.mask) < 1<<width-1 || len(t.plens) < 1<<width || w < 0 || i < 0 || i%8 != 0 || width < 8 || width > 16 {
		return w, i, 0
	}
	h := int(4 * width >> 3) // byte offset of code 4 in a block
	// Blocks from i/8 up to the last one that is whole (8 codes <= m), has
	// its second load within packed, and has packedRoom bytes of out
	// (checked in the loop).
	base := i / 8 * int(width)
	last := min((m/8-1)*int(width), len(packed)-8-h)
	if base > last || w > len(out)-packedRoom {
		return w, i, 0
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	end := uintptr(d) + uintptr(len(out)-packedRoom)
	o := unsafe.Add(d, w)
	rows := unsafe.Pointer(unsafe.SliceData(t.rows))
	p0 := unsafe.Pointer(unsafe.SliceData(packed))
	q := base
	lens := unsafe.Pointer(unsafe.SliceData(t.plens))
	if f := packedAsm(width, t.n == 1<<width); f != nil {
		// In calls of at most asmChunk packed bytes (see gatherValid).
		var bad uint8
		for q <= last && uintptr(o) <= end {
			q0 := q
			var b uint8
			o, q, b = f(o, end, rows, p0, q, min(last, q+asmChunk), lens)
			bad |= b
			if q == q0 {
				break
			}
		}
		return int(uintptr(o) - uintptr(d)), i + 8*(q-base)/int(width), bad
	}
	if f := packedWidth(width, t.n == 1<<width); f != nil {
		o, q, bad := f(o, end, rows, p0, q, last, lens)
		return int(uintptr(o) - uintptr(d)), i + 8*(q-base)/int(width), bad
	}
	// Width 8 (a dictionary without merges): the shifts are variables.
	var bad, n uint8
	wm := uintptr(1)<<width - 1
	hs := (4 * width) & 7 // 4 when width is odd
	width &= 63           // lets the compiler drop its shift-count check
	w2, w3 := (2*width)&63, (3*width)&63
	for q <= last && uintptr(o) <= end {
		v := *(*uint64)(unsafe.Add(p0, q))
		u := *(*uint64)(unsafe.Add(p0, q+h)) >> hs
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(v)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(v)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(v>>width)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(v>>width)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(v>>w2)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(v>>w2)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(v>>w3)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(v>>w3)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(u)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(u)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(u>>width)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(u>>width)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(u>>w2)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(u>>w2)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, (uintptr(u>>w3)&wm)<<4))
		n = *(*uint8)(unsafe.Add(lens, uintptr(u>>w3)&wm))
		bad |= n
		o = unsafe.Add(o, n)
		q += int(width)
	}
	return int(uintptr(o) - uintptr(d)), i + 8*(q-base)/int(width), bad
}

// gatherSpec decodes codes[i:] straight from the spec layout of a
// validated dictionary (token c at dict[offs[c]:offs[c+1]], every token
// start readable for 16 bytes), in blocks of 8 while a whole block fits.
// It stops before a block holding a code >= n (the caller's checked tail
// then locates it), so it needs no table: the one-shot decoders' per-call
// work is the dictionary check and the codes.
func gatherSpec(out []byte, w int, dict []byte, offs []uint32, codes []uint16, i int) (int, int) {
	n := len(offs) - 1
	if n <= 0 || len(dict) < int(offs[n-1])+MaxTokenSize || w < 0 || i < 0 || w > len(out)-8*MaxTokenSize-1 {
		return w, i
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	end := uintptr(d) + uintptr(len(out)-8*MaxTokenSize-1)
	o := unsafe.Add(d, w)
	cs := unsafe.Pointer(unsafe.SliceData(codes))
	src := unsafe.Pointer(unsafe.SliceData(dict))
	ob := unsafe.Pointer(unsafe.SliceData(offs))
	// The block's codes are checked < n four to a word as in gatherFat;
	// past 32768 tokens the lanes have no spare bit, so the block's
	// maximum is compared instead.
	const hi = 0x8000800080008000
	nn := uint64(n) * 0x0001000100010001
	small := n <= 1<<15
	var a, e uint32
	for i+8 <= len(codes) && uintptr(o) <= end {
		v := *(*uint64)(unsafe.Add(cs, 2*i))
		u := *(*uint64)(unsafe.Add(cs, 2*i+8))
		if small {
			if (((v|hi)-nn)|v|((u|hi)-nn)|u)&hi != 0 {
				break
			}
		} else if c := (*[8]uint16)(codes[i : i+8]); int(max(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])) >= n {
			break
		}
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(v))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(v))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(v>>16))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(v>>16))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(v>>32))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(v>>32))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(v>>48))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(v>>48))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(u))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(u))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(u>>16))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(u>>16))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(u>>32))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(u>>32))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		a, e = *(*uint32)(unsafe.Add(ob, uintptr(uint16(u>>48))<<2)), *(*uint32)(unsafe.Add(ob, uintptr(uint16(u>>48))<<2+4))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(src, uintptr(a)))
		o = unsafe.Add(o, e-a)
		i += 8
	}
	return int(uintptr(o) - uintptr(d)), i
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
// architecture this file is built for), in blocks of 16 (one loop test
// per 16 codes ran 3% faster than per 8; the checked kernels gained
// nothing from it). The caller finishes with tail. On amd64 the loop is
// gatherValidAsm (gather_amd64.s) when asmGather is set.
func (t *fatTable) gatherValid(out []byte, w int, codes []uint16, i int) (int, int) {
	if len(t.rows) < (int(t.mask)+1)*MaxTokenSize || w < 0 || i < 0 || w > len(out)-16*MaxTokenSize-1 { // proof for the reader; the last: no whole block fits
		return w, i
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	end := uintptr(d) + uintptr(len(out)-16*MaxTokenSize-1)
	o := unsafe.Add(d, w)
	cs := unsafe.Pointer(unsafe.SliceData(codes))
	rows := unsafe.Pointer(unsafe.SliceData(t.rows))
	lens := t.lens
	if asmGather {
		// In calls of at most asmChunk codes: the goroutine cannot be
		// preempted inside an assembly function.
		for i+16 <= len(codes) && uintptr(o) <= end {
			e, j := gatherValidAsm(o, end, cs, i, min(len(codes), i+asmChunk), rows, lens)
			o = unsafe.Add(d, int(e-uintptr(d)))
			if j == i {
				break
			}
			i = j
		}
		return int(uintptr(o) - uintptr(d)), i
	}
	for i+16 <= len(codes) && uintptr(o) <= end {
		w0 := *(*uint64)(unsafe.Add(cs, 2*i))
		w1 := *(*uint64)(unsafe.Add(cs, 2*i+8))
		w2 := *(*uint64)(unsafe.Add(cs, 2*i+16))
		w3 := *(*uint64)(unsafe.Add(cs, 2*i+24))
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w0))<<4))
		o = unsafe.Add(o, lens[uint16(w0)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w0>>16))<<4))
		o = unsafe.Add(o, lens[uint16(w0>>16)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w0>>32))<<4))
		o = unsafe.Add(o, lens[uint16(w0>>32)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w0>>48))<<4))
		o = unsafe.Add(o, lens[uint16(w0>>48)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w1))<<4))
		o = unsafe.Add(o, lens[uint16(w1)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w1>>16))<<4))
		o = unsafe.Add(o, lens[uint16(w1>>16)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w1>>32))<<4))
		o = unsafe.Add(o, lens[uint16(w1>>32)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w1>>48))<<4))
		o = unsafe.Add(o, lens[uint16(w1>>48)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w2))<<4))
		o = unsafe.Add(o, lens[uint16(w2)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w2>>16))<<4))
		o = unsafe.Add(o, lens[uint16(w2>>16)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w2>>32))<<4))
		o = unsafe.Add(o, lens[uint16(w2>>32)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w2>>48))<<4))
		o = unsafe.Add(o, lens[uint16(w2>>48)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w3))<<4))
		o = unsafe.Add(o, lens[uint16(w3)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w3>>16))<<4))
		o = unsafe.Add(o, lens[uint16(w3>>16)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w3>>32))<<4))
		o = unsafe.Add(o, lens[uint16(w3>>32)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(w3>>48))<<4))
		o = unsafe.Add(o, lens[uint16(w3>>48)])
		i += 16
	}
	return int(uintptr(o) - uintptr(d)), i
}

// gatherPos decodes validated codes into out[w:] as gatherValid does and
// records where each code's token starts, relative to w, in pos (pos[k]
// for code k, pos[len(codes)] the end), so AppendArrow gets every row's
// end without a loop per row; it finishes with posTail and returns the
// new w. out must hold the decoded length (+ up to 15 bytes of slack).
func (t *fatTable) gatherPos(out []byte, w int, codes []uint16, pos []uint32) int {
	w0, i := w, 0
	if len(pos) > len(codes) && len(t.rows) >= (int(t.mask)+1)*MaxTokenSize && w >= 0 && w <= len(out)-8*MaxTokenSize-1 {
		d := unsafe.Pointer(unsafe.SliceData(out))
		end := uintptr(d) + uintptr(len(out)-8*MaxTokenSize-1)
		o := unsafe.Add(d, w)
		b0 := uintptr(o)
		cs := unsafe.Pointer(unsafe.SliceData(codes))
		ps := unsafe.Pointer(unsafe.SliceData(pos))
		rows := unsafe.Pointer(unsafe.SliceData(t.rows))
		lens := t.lens
		for i+8 <= len(codes) && uintptr(o) <= end {
			v := *(*uint64)(unsafe.Add(cs, 2*i))
			u := *(*uint64)(unsafe.Add(cs, 2*i+8))
			*(*uint32)(unsafe.Add(ps, 4*i+0)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(v))<<4))
			o = unsafe.Add(o, lens[uint16(v)])
			*(*uint32)(unsafe.Add(ps, 4*i+4)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(v>>16))<<4))
			o = unsafe.Add(o, lens[uint16(v>>16)])
			*(*uint32)(unsafe.Add(ps, 4*i+8)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(v>>32))<<4))
			o = unsafe.Add(o, lens[uint16(v>>32)])
			*(*uint32)(unsafe.Add(ps, 4*i+12)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(v>>48))<<4))
			o = unsafe.Add(o, lens[uint16(v>>48)])
			*(*uint32)(unsafe.Add(ps, 4*i+16)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(u))<<4))
			o = unsafe.Add(o, lens[uint16(u)])
			*(*uint32)(unsafe.Add(ps, 4*i+20)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(u>>16))<<4))
			o = unsafe.Add(o, lens[uint16(u>>16)])
			*(*uint32)(unsafe.Add(ps, 4*i+24)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(u>>32))<<4))
			o = unsafe.Add(o, lens[uint16(u>>32)])
			*(*uint32)(unsafe.Add(ps, 4*i+28)) = uint32(uintptr(o) - b0)
			*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(rows, uintptr(uint16(u>>48))<<4))
			o = unsafe.Add(o, lens[uint16(u>>48)])
			i += 8
		}
		w = int(uintptr(o) - uintptr(d))
	}
	return t.posTail(out, w, w0, codes, i, pos)
}
