package hugepage

import (
	"testing"
)

func TestMake(t *testing.T) {
	for _, n := range []int{0, 1, 4095, Min - 1, Min, Min + 12345, 3 * Min} {
		b := Make(n)
		if len(b) != 0 || cap(b) != n {
			t.Fatalf("Make(%d): len %d cap %d", n, len(b), cap(b))
		}
		// The whole capacity is ordinary, zeroed, writable memory.
		b = b[:n]
		for i := range b {
			if b[i] != 0 {
				t.Fatalf("Make(%d): byte %d is %d", n, i, b[i])
			}
			b[i] = byte(i)
		}
		Done(b)
		for i := range b {
			if b[i] != byte(i) {
				t.Fatalf("Make(%d): byte %d changed after Done", n, i)
			}
		}
	}
	Done(nil)
}
