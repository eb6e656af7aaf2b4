package at1

import (
	"runtime"
	"testing"
)

// TestEncodeReleasesMemory: once Encode has returned and the garbage
// collector has run, the encoder holds no large buffers. The zstd
// encoders it used (12 to 20 MB each at the better speeds, whatever the
// input's size) were kept by the package for good before: 88 MB after
// encoding a 200 KB table.
func TestEncodeReleasesMemory(t *testing.T) {
	src := tradesCSV(4000)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	out, err := Encode(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 || len(out) >= len(src) {
		t.Fatalf("Encode: %d bytes from %d", len(out), len(src))
	}
	out = nil
	// A pool's idle items survive one collection (its victim cache).
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	const limit = 16 << 20
	if ms.HeapAlloc > before+limit {
		t.Errorf("heap %d MB after Encode of %d bytes and two collections, %d MB before (at most %d MB more)",
			ms.HeapAlloc>>20, len(src), before>>20, limit>>20)
	}
}
