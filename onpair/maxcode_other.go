//go:build !amd64 || purego

package onpair

// maxCodeFunc is nil: there is no vector check pass on this build, and the
// decoders check codes as they decode them (maxcode_amd64.go).
var maxCodeFunc func([]uint16) uint16

// maxCodeImpls lists no implementation on this build.
func maxCodeImpls() map[string]func([]uint16) uint16 { return nil }
