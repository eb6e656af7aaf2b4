package at1

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// TestEncodeReleasesMemory: once Encode has returned and zstdIdle has
// passed, the encoder holds no large buffers. The zstd encoders it used
// (12 to 20 MB each at the better speeds, whatever the input's size)
// were kept by the package for good before: 88 MB after encoding a 200 KB
// table.
func TestEncodeReleasesMemory(t *testing.T) {
	zstdShared.Lock()
	idle := zstdIdle
	zstdIdle = 10 * time.Millisecond
	zstdShared.Unlock()
	t.Cleanup(func() {
		zstdShared.Lock()
		zstdIdle = idle
		zstdShared.Unlock()
	})
	src := tradesCSV(4000)
	zstdShared.Lock()
	zstdShared.enc = [len(zstdShared.enc)]*zstd.Encoder{} // none left by other tests
	zstdShared.Unlock()
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
	// Calls closer together than zstdIdle share the encoders (building
	// one costs more than encoding a small file): the one of
	// estLevelSmall, which a small table's estimates and plain zstd use,
	// is kept. The best level's (34 MB of tables; see estLevel) is never
	// built for it.
	zstdShared.Lock()
	kept := zstdShared.enc[zstdLevel(estLevelSmall)] != nil
	best := zstdShared.enc[zstd.SpeedBestCompression] != nil
	zstdShared.Unlock()
	if !kept {
		t.Errorf("the zstd encoder of level %d was dropped as soon as Encode returned", estLevelSmall)
	}
	if best {
		t.Error("Encode of a small table built the best level's zstd encoder")
	}
	time.Sleep(100 * time.Millisecond) // past zstdIdle
	checkHeapGrowth(t, before, 16<<20, "Encode of a small table")
}

// checkHeapGrowth fails t when the heap, after two collections, is more
// than limit bytes larger than before (a HeapAlloc).
func checkHeapGrowth(t *testing.T, before, limit uint64, after string) {
	t.Helper()
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > before+limit {
		t.Errorf("heap %d KB after %s and two collections, %d KB before (at most %d KB more)",
			ms.HeapAlloc>>10, after, before>>10, limit>>10)
	}
}

// TestDecodeReleasesMemory: decoding zstd streams leaves no large buffers
// behind. The shared zstd decoders (one per CPU) kept buffers the size
// of the largest frame each had decoded (up to 4 MiB) for good.
func TestDecodeReleasesMemory(t *testing.T) {
	src := tradesCSV(3 << 20)
	file, err := AppendRaw(nil, src, BackendZstd)
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := Decode(file); err != nil || !bytes.Equal(got, src) {
				t.Errorf("Decode: %d bytes, %v", len(got), err)
			}
		}()
	}
	wg.Wait()
	checkHeapGrowth(t, before, 2<<20, "decoding a 3 MB zstd frame 4 times at once")
}
