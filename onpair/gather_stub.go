//go:build !purego && (386 || arm64 || loong64 || ppc64le || wasm)

package onpair

import "unsafe"

// gatherValidAsm is never called on this build (asmGather is false); it
// decodes nothing. The build line is kernel_unsafe.go's without amd64.
func gatherValidAsm(o unsafe.Pointer, end uintptr, cs unsafe.Pointer, i, n int, rows unsafe.Pointer, lens *[MaxTokens]uint8) (uintptr, int) {
	return uintptr(o), i
}
