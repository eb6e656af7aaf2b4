package zstdenc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDropSeqs encodes pieces of 100 bytes to 1 KiB of this package's
// source with and without dropSeqs: every frame decodes, none is larger
// with it, and it makes some smaller (on inputs this small the parser's
// prices keep matches that cost more than their literals).
func TestDropSeqs(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	var text []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text = append(text, b...)
	}
	if len(text) < 32<<10 {
		t.Fatalf("only %d bytes of source", len(text))
	}
	smaller := 0
	n := 0
	for off, size := 0, 100; off+size <= len(text) && n < 300; off, size = off+size*3, 100+(size*7)%925 {
		src := text[off : off+size]
		noDropSeqs = true
		without := roundTrip(t, src)
		noDropSeqs = false
		with := roundTrip(t, src)
		if len(with) > len(without) {
			t.Fatalf("%d bytes at %d: %d with dropSeqs, %d without", size, off, len(with), len(without))
		}
		if len(with) < len(without) {
			smaller++
		}
		n++
	}
	t.Logf("%d inputs, %d smaller with dropSeqs", n, smaller)
	if smaller == 0 {
		t.Errorf("dropSeqs made none of %d inputs smaller", n)
	}
}
