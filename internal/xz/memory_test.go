package xz

import (
	"math"
	"runtime"
	"testing"
	"unsafe"
)

func TestMemoryStructSizes(t *testing.T) {
	if n := unsafe.Sizeof(optimal{}); n > optimalBytes {
		t.Errorf("optimal is %d bytes, bound %d", n, optimalBytes)
	}
	if n := unsafe.Sizeof(encoder{}); n > encoderBytes {
		t.Errorf("encoder is %d bytes, bound %d", n, encoderBytes)
	}
	if n := unsafe.Sizeof(arrival{}); n > arrivalBytes {
		t.Errorf("arrival is %d bytes, bound %d", n, arrivalBytes)
	}
	if n := unsafe.Sizeof(arrivals{}); n > arrivalsBytes {
		t.Errorf("arrivals is %d bytes, bound %d", n, arrivalsBytes)
	}
}

// TestMemoryTable keeps the package documentation's table true.
func TestMemoryTable(t *testing.T) {
	doc := []float64{1.5, 6.3, 12.3, 24.3, 40.3, 80.3, 80.3, 160.3, 320.3, 576.3}
	docExtreme := []float64{2.8, 10.3, 20.3, 40.3}
	for lvl := 0; lvl <= 9; lvl++ {
		for _, e := range []bool{false, true} {
			want := doc[lvl]
			if e && lvl < 4 {
				want = docExtreme[lvl]
			}
			got := float64(memoryFor(presetParams(lvl, e), 1<<30)) / (1 << 20)
			if math.Abs(got-want) > 0.05 {
				t.Errorf("preset %d extreme %v: tables %.2f MiB, documented %.1f", lvl, e, got, want)
			}
		}
	}
	small := memoryFor(presetParams(9, true), 1000)
	if small > 1<<20 {
		t.Errorf("a 1000-byte block at -9e needs %d bytes of tables", small)
	}
	m1, err := Memory(WithPreset(6))
	if err != nil {
		t.Fatal(err)
	}
	m2, _ := Memory(WithPreset(6), WithConcurrency(2))
	if m1 < 24<<20+80<<20 || m2 != 2*m1 {
		t.Errorf("Memory: %d at 1 thread, %d at 2", m1, m2)
	}
	if _, err := Memory(WithPreset(-1)); err == nil {
		t.Error("Memory accepts a bad option")
	}
}

// TestMemoryBoundHolds checks, for one block, that everything AppendEncode
// allocates (a bound on its peak) stays within blockMemory, the per-block
// figure Memory adds up, plus the returned slice.
func TestMemoryBoundHolds(t *testing.T) {
	src := structured(11)
	for _, c := range []struct {
		level    int
		extreme  bool
		arrivals int
	}{{0, false, 1}, {3, false, 1}, {6, false, 1}, {9, true, 1}, {6, true, MaxArrivals}} {
		p := presetParams(c.level, c.extreme)
		p.arrivals = c.arrivals
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, err := AppendEncode(nil, src, WithPreset(c.level), WithExtreme(c.extreme), WithArrivals(c.arrivals))
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		got := int64(after.TotalAlloc - before.TotalAlloc)
		bound := blockMemory(p, len(src)) + 2*int64(cap(out))
		if got > bound {
			t.Errorf("preset %d extreme %v, %d arrivals: allocated %d bytes for %d, bound %d", c.level, c.extreme, c.arrivals, got, len(src), bound)
		}
		t.Logf("preset %d extreme %v, %d arrivals: allocated %d, bound %d", c.level, c.extreme, c.arrivals, got, bound)
	}
}
