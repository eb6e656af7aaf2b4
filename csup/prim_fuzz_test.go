package csup

import (
	"testing"

	"github.com/colfmt/colfmt/csup/bsup"
)

// FuzzDiffDecodePrim compares the column reader's fast primitive path with
// bsup.DecodeInto, the exact and checked decoder: whenever the fast path
// accepts a body, both must give the same value, and the fast path may
// only refuse bodies the exact one also refuses or handles.
func FuzzDiffDecodePrim(f *testing.F) {
	f.Add(uint8(bsup.KindInt64), []byte{0x03})
	f.Add(uint8(bsup.KindUint8), []byte{0xff})
	f.Add(uint8(bsup.KindString), []byte("hello"))
	f.Add(uint8(bsup.KindInt32), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		typ := bsup.Primitive(int(kind % 30))
		if typ == nil || typ.Kind == bsup.KindNull {
			return
		}
		// Start from a dirty value, as a reused one would be.
		fast := bsup.Value{Type: bsup.TypeFloat64, Float: 1.5, Bytes: []byte("x"), Elems: make([]bsup.Value, 2)}
		ok := decodePrim(&fast, typ, bsup.PayloadKind(typ), body)
		var exact bsup.Value
		err := bsup.DecodeInto(&exact, typ, body)
		if ok {
			if err != nil {
				t.Fatalf("fast path accepted a %s body the exact decoder refuses: %v", typ, err)
			}
			if !bsup.Equal(fast, exact) || len(fast.Elems) != 0 {
				t.Fatalf("fast and exact differ for %s % x", typ, body)
			}
		}
	})
}
