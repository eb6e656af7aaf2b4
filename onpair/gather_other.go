//go:build !amd64 || purego

package onpair

// asmGather is false: gatherValid runs its Go loop on this build.
var asmGather = false

// packedAsmOn is false: the packed decoders run their Go loops.
var packedAsmOn = false

// rowAsm is false: long rows go through gatherRoomy's Go loop.
var rowAsm = false

// asmChunk is gather_amd64.go's (unused here but by the shared code).
const asmChunk = 1 << 16
