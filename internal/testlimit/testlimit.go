// Package testlimit lets tests assert how much memory a function allocates:
// the bytes it asks the Go heap for (runtime.MemStats.TotalAlloc), which is
// what a decoder tricked by a crafted header into a huge make() shows, even
// when the allocation is freed at once.
//
// The count covers every goroutine of the process, so a test that uses it
// must not run in parallel with others (no t.Parallel) and should give
// budgets with headroom for the runtime's and the testing package's own
// small allocations meanwhile (a few KiB; allow 64 KiB). It is meant for
// budgets where a bug costs megabytes, not for counting bytes exactly.
package testlimit

import (
	"fmt"
	"runtime"
	"testing"
)

// Bytes returns the bytes allocated on the heap while f runs.
func Bytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// BytesPerRun returns the average bytes allocated by one call of f over
// runs calls, after one warm-up call (as testing.AllocsPerRun does for
// allocation counts), with GOMAXPROCS set to 1 meanwhile.
func BytesPerRun(runs int, f func()) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	if runs <= 0 {
		return 0
	}
	n := Bytes(func() {
		for range runs {
			f()
		}
	})
	return float64(n) / float64(runs)
}

// AtMost fails tb when f allocates more than limit bytes, naming what (a
// format and arguments, as for fmt.Sprintf) and the amount. It returns the
// bytes allocated.
func AtMost(tb testing.TB, limit uint64, f func(), what string, args ...any) uint64 {
	tb.Helper()
	n := Bytes(f)
	if n > limit {
		tb.Errorf("%s allocated %d bytes (%s), more than the %d (%s) allowed", fmt.Sprintf(what, args...), n, human(n), limit, human(limit))
	}
	return n
}

func human(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
