//go:build !purego && (386 || amd64 || arm64 || loong64 || ppc64le || wasm)

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
