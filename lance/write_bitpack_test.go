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
