package at1

import "testing"

// TestEncodeLevelNine: level 9 writes its xz streams with the
// multi-arrival parser (xzArrivals), so on a table it is smaller than
// level 6, which is xz -6e and under 8 MiB the same as xz -9e; the output
// decodes under every reader.
func TestEncodeLevelNine(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
	}{
		{"trades", tradesCSV(60 << 10)},
		{"prices", pricesCSV(1500)},
	} {
		six := roundTrip(t, tc.name+"/6", tc.src)
		nine := roundTrip(t, tc.name+"/9", tc.src, WithLevel(9))
		if len(nine) >= len(six) {
			t.Errorf("%s: level 9 %d bytes, level 6 %d", tc.name, len(nine), len(six))
		}
		t.Logf("%s (%d bytes): level 6 %d, level 9 %d (%.4f)", tc.name, len(tc.src), len(six), len(nine), float64(len(nine))/float64(len(six)))
	}
	if xzArrivals(9, false) != 1 || xzArrivals(8, true) != 1 || xzArrivals(9, true) != levelNineArrivals {
		t.Error("xzArrivals: only level 9 extreme uses the multi-arrival parser")
	}
}
