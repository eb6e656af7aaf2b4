package at1

import (
	"math"
	"testing"
)

// TestPutNum: numLen and putNum agree with appendNum on edge values
// (zero, digit-count boundaries, both extremes) for every scale used.
func TestPutNum(t *testing.T) {
	var vals []int64
	for _, b := range []int64{0, 1, 5, 9, 10, 99, 100, 12345, 999999999999999999, math.MaxInt64, math.MinInt64} {
		vals = append(vals, b, -b, b+1, b-1)
	}
	for p := uint64(1); p <= 1e18; p *= 10 {
		vals = append(vals, int64(p), int64(p-1), -int64(p), -int64(p-1))
	}
	for _, n := range vals {
		for dec := -1; dec <= 19; dec++ {
			want := appendNum(nil, n, dec)
			if l := numLen(n, dec); l != len(want) {
				t.Fatalf("numLen(%d, %d) = %d, want %d (%q)", n, dec, l, len(want), want)
			}
			got := make([]byte, len(want))
			putNum(got, n, dec)
			if string(got) != string(want) {
				t.Fatalf("putNum(%d, %d) = %q, want %q", n, dec, got, want)
			}
		}
	}
}
