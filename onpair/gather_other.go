//go:build !amd64 || purego

package onpair

// asmGather is false: gatherValid runs its Go loop on this build.
var asmGather = false
