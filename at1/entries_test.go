package at1

import (
	"errors"
	"strings"
	"testing"
)

// TestReadEntries reads DICT-style entry tables in place (every length
// one varint byte) and by copy (an entry of 128 bytes or more), and
// reports a truncated table at its offset.
func TestReadEntries(t *testing.T) {
	long := strings.Repeat("L", 200)
	for _, tc := range []struct {
		name    string
		entries []string
		inPlace bool
	}{
		{"none", nil, false},
		{"short", []string{"a", "", "bc", "d\nx"}, true},
		{"long first", []string{long, "b"}, true}, // only later lengths must be one byte
		{"long later", []string{"a", long, ""}, false},
	} {
		var chunk string
		for _, e := range tc.entries {
			chunk += uvs(uint64(len(e))) + e
		}
		cur := &cursor{b: []byte("xy" + chunk + "z"), off: 2, path: "test"}
		v, err := readEntries(cur, len(tc.entries), "entry")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if cur.off != 2+len(chunk) {
			t.Fatalf("%s: cursor at %d, want %d", tc.name, cur.off, 2+len(chunk))
		}
		if len(v.offs) != len(tc.entries)+1 {
			t.Fatalf("%s: %d offsets", tc.name, len(v.offs))
		}
		for j, e := range tc.entries {
			if got := string(v.entry(j)); got != e {
				t.Fatalf("%s: entry %d = %q, want %q", tc.name, j, got, e)
			}
		}
		shares := len(v.buf) > 0 && &v.buf[0] == &cur.b[2+len(uvs(uint64(len(tc.entries[0]))))]
		if shares != tc.inPlace {
			t.Fatalf("%s: in place %v, want %v", tc.name, shares, tc.inPlace)
		}
	}
	cur := &cursor{b: []byte("\x01a\x05ab"), path: "test"}
	if _, err := readEntries(cur, 2, "DICT entry"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "DICT entry") {
		t.Fatalf("truncated table: %v", err)
	}
}
