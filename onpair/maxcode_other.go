//go:build !amd64 || purego

package onpair

// maxCodeFunc is nil: there is no vector check pass on this build, and the
// decoders check codes as they decode them (maxcode_amd64.go).
var maxCodeFunc func([]uint16) uint16

// maxCodeImpls lists no implementation on this build.
func maxCodeImpls() map[string]func([]uint16) uint16 { return nil }

// packedSIMD is false: the packed decoders run gatherFatPacked.
var packedSIMD = false

// gatherPackedSIMD is never called on this build (packedSIMD is false).
func (t *fatTable) gatherPackedSIMD(out []byte, w int, packed []byte, width uint, m int, i int) (int, int, uint8) {
	return t.gatherFatPacked(out, w, packed, width, m, i)
}
