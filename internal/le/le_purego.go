//go:build purego || !(386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package le

import "encoding/binary"

// Unsafe reports whether the unchecked implementation is in use.
const Unsafe = false

// Uint64 loads the little-endian uint64 at b[off:off+8].
func Uint64(b []byte, off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }

// PutUint64 stores v little-endian at b[off:off+8].
func PutUint64(b []byte, off int, v uint64) { binary.LittleEndian.PutUint64(b[off:], v) }

// Copy16 copies the 16 bytes at src[soff:soff+16] to dst[doff:doff+16].
func Copy16(dst []byte, doff int, src []byte, soff int) {
	copy(dst[doff:doff+16], src[soff:soff+16])
}
