//go:build linux

package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

func TestInterior(t *testing.T) {
	for _, n := range []int{0, 100, hugeSize - 1, hugeSize, hugeSize + 1, Min, 5*hugeSize + 77} {
		for _, skip := range []int{0, 1, 4096, hugeSize - 1} {
			if skip > n {
				continue
			}
			b := make([]byte, n)[skip:]
			in := interior(b)
			if len(in) == 0 {
				continue
			}
			base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(in)))
			hi := lo + uintptr(len(in))
			if lo%hugeSize != 0 || len(in)%hugeSize != 0 {
				t.Fatalf("n=%d skip=%d: interior [%#x, %#x) not aligned", n, skip, lo, hi)
			}
			if lo < base || hi > base+uintptr(cap(b)) {
				t.Fatalf("n=%d skip=%d: interior outside the buffer", n, skip)
			}
			if lo-base >= hugeSize || base+uintptr(cap(b))-hi >= hugeSize {
				t.Fatalf("n=%d skip=%d: interior not the largest aligned part", n, skip)
			}
		}
	}
	if in := interior(make([]byte, hugeSize-1)); len(in) != 0 {
		t.Fatalf("a buffer smaller than a huge page has an interior of %d bytes", len(in))
	}
}

// vmFlags returns the VmFlags of the mapping holding address p, from
// /proc/self/smaps.
func vmFlags(t *testing.T, p uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= p && p < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return line
		}
	}
	t.Fatalf("no mapping holds %#x", p)
	return ""
}

// TestAdvice checks the advice reaches the kernel: the mapping that holds
// the buffer's aligned part is marked for huge pages ("hg") after Make
// and not ("nh") after Done.
func TestAdvice(t *testing.T) {
	if !onRequest() {
		t.Skip("transparent huge pages are not in madvise mode here: Make gives no advice")
	}
	b := Make(3 * Min)
	in := interior(b)
	if len(in) == 0 {
		t.Fatal("a 12 MiB buffer has no aligned 2 MiB part")
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(in)))
	if f := vmFlags(t, p); !strings.Contains(f, " hg") {
		t.Fatalf("after Make: %s (want hg)", f)
	}
	Done(b)
	if f := vmFlags(t, p); !strings.Contains(f, " nh") || strings.Contains(f, " hg") {
		t.Fatalf("after Done: %s (want nh)", f)
	}
}
