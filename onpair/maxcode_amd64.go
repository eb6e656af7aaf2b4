//go:build amd64 && !purego

package onpair

import "golang.org/x/sys/cpu"

// The SIMD check pass: the largest code of a []uint16 in one vector pass
// (maxcode_amd64.s), so the decoders check a block of codes with a
// compare per 16 codes and then run the unchecked kernel. AVX2 or SSE4.1,
// detected at run time; without either (or under -tags purego, or off
// amd64) the decoders keep the fused per-block check (maxcode_other.go).

//go:noescape
func maxCodeAVX2(s []uint16) uint16

//go:noescape
func maxCodeSSE41(s []uint16) uint16

// maxCodeFunc is the selected implementation, nil when neither is usable.
var maxCodeFunc = func() func([]uint16) uint16 {
	switch {
	case cpu.X86.HasAVX2:
		return maxCodeAVX2
	case cpu.X86.HasSSE41:
		return maxCodeSSE41
	}
	return nil
}()

// maxCodeImpls lists the implementations this CPU runs, by name, for the
// tests and benchmarks that compare each with the Go twin.
func maxCodeImpls() map[string]func([]uint16) uint16 {
	m := map[string]func([]uint16) uint16{}
	if cpu.X86.HasAVX2 {
		m["avx2"] = maxCodeAVX2
	}
	if cpu.X86.HasSSE41 {
		m["sse41"] = maxCodeSSE41
	}
	return m
}
