//go:build !purego && (386 || arm64 || loong64 || ppc64le || wasm)

package onpair

import "unsafe"

// gatherValidAsm is never called on this build (asmGather is false); it
// decodes nothing. The build line is kernel_unsafe.go's without amd64.
func gatherValidAsm(o unsafe.Pointer, end uintptr, cs unsafe.Pointer, i, n int, rows unsafe.Pointer, lens *[MaxTokens]uint8) (uintptr, int) {
	return uintptr(o), i
}

// packedAsm returns nil on this build: gatherFatPacked runs the Go loops.
func packedAsm(width uint, full bool) func(o unsafe.Pointer, end uintptr, rows, p0 unsafe.Pointer, q, last int, plens unsafe.Pointer) (unsafe.Pointer, int, uint8) {
	return nil
}

// gatherRowAsm is never called on this build (rowAsm is false).
func gatherRowAsm(o unsafe.Pointer, cs unsafe.Pointer, k int, pad uint64, rows unsafe.Pointer, lens *[MaxTokens]uint8) uintptr {
	return uintptr(o)
}
