package lance

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// packChunk is the exact inverse of the reader's unpackChunk at every
// width and value size.
func TestWritePackChunk(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tb := range []int{8, 16, 32, 64} {
		for w := 0; w <= tb; w++ {
			vals := make([]byte, 1024*tb/8)
			for i := 0; i < 1024; i++ {
				v := r.Uint64()
				if w < 64 {
					v &= 1<<w - 1
				}
				putWord(vals, i, tb, v)
			}
			packed := packChunk(nil, vals, 1024, tb, w)
			if len(packed) != packedChunkBytes(w) {
				t.Fatalf("t=%d w=%d: %d bytes", tb, w, len(packed))
			}
			out := make([]byte, len(vals))
			unpackChunk(packed, tb, w, out)
			if !bytes.Equal(out, vals) {
				t.Fatalf("t=%d w=%d: round trip differs", tb, w)
			}
		}
	}
}

// The FSST encoder's output decodes (with the reader's decoder and the
// serialised table) to the input, for text, random bytes and edge cases.
func TestWriteFsstRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	words := []string{"the", "lance", "format", "http://example.com/", "index.html", "\xff\xfe", "a"}
	var strs [][]byte
	for i := 0; i < 3000; i++ {
		var b []byte
		switch i % 3 {
		case 0:
			for range r.IntN(12) {
				b = append(b, words[r.IntN(len(words))]...)
			}
		case 1:
			for range r.IntN(40) {
				b = append(b, byte(r.IntN(256)))
			}
		}
		strs = append(strs, b)
	}
	e := buildFsst(strs[:500])
	tab, err := parseFsstTable(e.table())
	if err != nil {
		t.Fatal(err)
	}
	var total, packed int
	for _, s := range strs {
		enc := e.appendEncode(nil, s)
		dec, err := tab.appendDecode(nil, enc)
		if err != nil || !bytes.Equal(dec, s) {
			t.Fatalf("%q -> %x -> %q, %v", s, enc, dec, err)
		}
		total += len(s)
		packed += len(enc)
	}
	if packed >= total {
		t.Errorf("FSST did not compress: %d -> %d bytes", total, packed)
	}
}
