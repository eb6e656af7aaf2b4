package at1

import (
	"os"
	"path/filepath"
	"testing"
)

// Real public tables (testdata/vega, see its README): each round-trips
// with the default options in the layout that wins on it, well under
// our own plain xz of the same input (xz -9e figures are in doc.go).
func TestVegaRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		file   string
		max    float64 // at most this times our plain xz (level 6e, tuned)
		tokens bool    // the token table wins (else the table split at its delimiter)
	}{
		{"penguins.jsonl", 0.85, true},
		{"seattle-weather.csv", 0.65, true},
		{"unemployment.tsv", 0.60, false},
		{"flights-airport.csv", 0.80, false},
	} {
		src, err := os.ReadFile(filepath.Join("testdata", "vega", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		enc := roundTrip(t, tc.file, src)
		if delim, _ := tokenMeta(t, enc); (len(delim) == 0) != tc.tokens {
			t.Errorf("%s: delimiter %q, want a token table: %v", tc.file, delim, tc.tokens)
		}
		x, err := xzTuned(nil, src, 6, true, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		r := float64(len(enc)) / float64(len(x))
		t.Logf("%s: %d bytes -> %d, %.3f x our plain xz (%d)", tc.file, len(src), len(enc), r, len(x))
		if r > tc.max {
			t.Errorf("%s: %.3f x our plain xz, want at most %.2f", tc.file, r, tc.max)
		}
	}
}
