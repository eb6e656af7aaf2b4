package le

import (
	"encoding/binary"
	"runtime"
	"slices"
	"testing"
)

// unsafeArchs must match the build lines of le_unsafe.go and le_purego.go.
var unsafeArchs = []string{"386", "amd64", "arm64", "loong64", "ppc64le", "riscv64", "wasm"}

func TestImplementationMatchesArchList(t *testing.T) {
	want := !puregoTag && slices.Contains(unsafeArchs, runtime.GOARCH)
	if Unsafe != want {
		t.Fatalf("GOARCH=%s purego=%v: Unsafe=%v, want %v", runtime.GOARCH, puregoTag, Unsafe, want)
	}
	// The unsafe loads are native loads: they are right only on a
	// little-endian host.
	var probe [8]byte
	binary.NativeEndian.PutUint64(probe[:], 1)
	if Unsafe && probe[0] != 1 {
		t.Fatalf("unsafe loads built on a big-endian host (GOARCH=%s)", runtime.GOARCH)
	}
}
