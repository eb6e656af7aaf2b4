package at1

import (
	"fmt"
	"strings"
	"testing"
)

// TestTokenTableSharesSeparators: the separator columns of a token table
// are slices of one column (one copy per column took 32 bytes per row
// each), and the table still round-trips.
func TestTokenTableSharesSeparators(t *testing.T) {
	var b strings.Builder
	b.WriteString("name,city,code,note\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "person%d x%d,town%d,%c%c,note %d here\n", i*7919%10007, i%13, i*31%97, 'A'+i%26, 'a'+i*7%26, i*i%1009)
	}
	src := []byte(b.String())
	tt := tokenTable(buildTable(src, ',', true), 2)
	if tt == nil {
		t.Fatal("no token table")
	}
	var first *cell
	n := 0
	for _, col := range tt.cols {
		if col.len() == 0 || !constColumn(col) || string(col.val(0)) != "," {
			continue
		}
		n++
		if first == nil {
			first = &col.cells[0]
		} else if &col.cells[0] != first {
			t.Errorf("separator column %d has its own copy", n)
		}
	}
	if n < 2 {
		t.Fatalf("%d separator columns left, want at least 2", n)
	}
	out, err := Encode(src, WithCodec(CodecColumnar))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(out)
	if err != nil || string(got) != string(src) {
		t.Fatalf("round trip: %v", err)
	}
}
