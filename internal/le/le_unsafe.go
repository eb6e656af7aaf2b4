//go:build !purego && (386 || amd64 || arm64 || loong64 || ppc64le || riscv64 || wasm)

package le

import "unsafe"

// Unsafe reports whether the unchecked implementation is in use.
const Unsafe = true

// Uint64 loads the little-endian uint64 at b[off:off+8]. The caller
// guarantees off >= 0 and off+8 <= len(b).
func Uint64(b []byte, off int) uint64 {
	// Only built on the little-endian architectures listed in the build tag.
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), off))
}

// PutUint64 stores v little-endian at b[off:off+8]; same contract as Uint64.
func PutUint64(b []byte, off int, v uint64) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), off)) = v
}

// Copy16 copies the 16 bytes at src[soff:soff+16] to dst[doff:doff+16]. The
// caller guarantees both ranges are in bounds. This is the "fat" copy of a
// gather decoder: it always moves 16 bytes, whatever the token length.
func Copy16(dst []byte, doff int, src []byte, soff int) {
	s := unsafe.Add(unsafe.Pointer(unsafe.SliceData(src)), soff)
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), doff)
	*(*[16]byte)(d) = *(*[16]byte)(s)
}

// Gather16 is the loop of a fat-read gather decoder: starting at w = 0, for
// each code c in turn it copies the 16 bytes at f.Rows[16c:16c+16] to
// dst[w:w+16] and advances w by f.Lens[c]; it returns the final w. The
// caller guarantees every c < len(f.Lens), 16c+16 <= len(f.Rows), and w+16
// <= len(dst) before every copy (for instance: dst has 16 bytes of room per
// code, or every code is followed by 15 more of length >= 1 and dst holds
// their decoded length).
//
// It walks raw pointers, unrolled by eight, so the loop keeps everything in
// registers and spends seven instructions per code. The last code is done
// apart so the write pointer never moves past the end of dst (which the
// pointer rules, and checkptr under -race, forbid).
func (f *Fat) Gather16(dst []byte, codes []uint16) int {
	n := len(codes) - 1
	if n < 0 {
		return 0
	}
	d0 := unsafe.Pointer(unsafe.SliceData(dst))
	d := d0
	t := unsafe.Pointer(unsafe.SliceData(f.Rows))
	l := unsafe.Pointer(unsafe.SliceData(f.Lens))
	cp := unsafe.Pointer(unsafe.SliceData(codes))
	i := 0
	for ; i+8 <= n; i += 8 {
		c := (*[8]uint16)(unsafe.Add(cp, 2*i))
		c0 := uintptr(c[0])
		n0 := uintptr(*(*uint8)(unsafe.Add(l, c0)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c0<<4))
		d = unsafe.Add(d, n0)
		c1 := uintptr(c[1])
		n1 := uintptr(*(*uint8)(unsafe.Add(l, c1)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c1<<4))
		d = unsafe.Add(d, n1)
		c2 := uintptr(c[2])
		n2 := uintptr(*(*uint8)(unsafe.Add(l, c2)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c2<<4))
		d = unsafe.Add(d, n2)
		c3 := uintptr(c[3])
		n3 := uintptr(*(*uint8)(unsafe.Add(l, c3)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c3<<4))
		d = unsafe.Add(d, n3)
		c4 := uintptr(c[4])
		n4 := uintptr(*(*uint8)(unsafe.Add(l, c4)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c4<<4))
		d = unsafe.Add(d, n4)
		c5 := uintptr(c[5])
		n5 := uintptr(*(*uint8)(unsafe.Add(l, c5)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c5<<4))
		d = unsafe.Add(d, n5)
		c6 := uintptr(c[6])
		n6 := uintptr(*(*uint8)(unsafe.Add(l, c6)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c6<<4))
		d = unsafe.Add(d, n6)
		c7 := uintptr(c[7])
		n7 := uintptr(*(*uint8)(unsafe.Add(l, c7)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c7<<4))
		d = unsafe.Add(d, n7)
	}
	for ; i < n; i++ {
		c0 := uintptr(*(*uint16)(unsafe.Add(cp, 2*i)))
		n0 := uintptr(*(*uint8)(unsafe.Add(l, c0)))
		*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c0<<4))
		d = unsafe.Add(d, n0)
	}
	c0 := uintptr(*(*uint16)(unsafe.Add(cp, 2*n)))
	*(*[16]byte)(d) = *(*[16]byte)(unsafe.Add(t, c0<<4))
	return int(uintptr(d)-uintptr(d0)) + int(*(*uint8)(unsafe.Add(l, c0)))
}
