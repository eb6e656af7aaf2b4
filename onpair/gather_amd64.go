//go:build amd64 && !purego

package onpair

import "unsafe"

// gatherValidAsm is gatherValid's 16-code loop in assembly
// (gather_amd64.s); gatherValid calls it when asmGather is set.
//
//go:noescape
func gatherValidAsm(o unsafe.Pointer, end uintptr, cs unsafe.Pointer, i, n int, rows unsafe.Pointer, lens *[MaxTokens]uint8) (uintptr, int)

// asmGather selects gatherValidAsm (a variable so the benchmarks can time
// the Go loop beside it in the same run).
var asmGather = true

//go:noescape
func gatherRowAsm(o unsafe.Pointer, cs unsafe.Pointer, k int, pad uint64, rows unsafe.Pointer, lens *[MaxTokens]uint8) uintptr

// rowAsm selects gatherRowAsm for rows of more than eight codes (a
// variable so the benchmarks can time the Go loop beside it).
var rowAsm = true

// asmChunk bounds the codes (or packed bytes) one call of an assembly
// loop decodes, about 30-100 us: a goroutine inside an assembly function
// cannot be preempted, so a whole column in one call would hold up the
// garbage collector's stop-the-world for as long as it takes.
const asmChunk = 1 << 16
