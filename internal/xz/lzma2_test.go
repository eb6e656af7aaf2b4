package xz

import (
	"bytes"
	"testing"
)

type chunkInfo struct {
	ctrl         byte
	uncompressed int
	compressed   int
}

// walkLZMA2 splits an LZMA2 stream into its chunks.
func walkLZMA2(t *testing.T, s []byte) []chunkInfo {
	t.Helper()
	var cs []chunkInfo
	for p := 0; ; {
		if p >= len(s) {
			t.Fatalf("LZMA2 stream ends without the end marker")
		}
		ctrl := s[p]
		switch {
		case ctrl == 0:
			if p+1 != len(s) {
				t.Fatalf("bytes after the end marker")
			}
			return cs
		case ctrl == 1 || ctrl == 2:
			u := int(s[p+1])<<8 | int(s[p+2]) + 1
			cs = append(cs, chunkInfo{ctrl, u, u})
			p += 3 + u
		case ctrl >= 0x80:
			u := int(ctrl&0x1F)<<16 | int(s[p+1])<<8 | int(s[p+2]) + 1
			c := int(s[p+3])<<8 | int(s[p+4]) + 1
			cs = append(cs, chunkInfo{ctrl & 0xE0, u, c})
			p += 5 + c
			if ctrl >= 0xC0 {
				if s[p-c] != 0x5D { // lc=3, lp=0, pb=2
					t.Fatalf("properties byte %#x", s[p-c])
				}
				p++
			}
		default:
			t.Fatalf("invalid control byte %#x", ctrl)
		}
	}
}

// TestLZMA2Chunks checks the chunk sequence of a stream that mixes random
// runs (stored chunks) and repeats: the first chunk resets the dictionary,
// the first LZMA chunk sets the properties, an LZMA chunk after a stored
// one resets the state, and the limits hold.
func TestLZMA2Chunks(t *testing.T) {
	rnd := randomBytes(7, 200000)
	var src []byte
	src = append(src, rnd...)
	src = append(src, bytes.Repeat([]byte("abcdefgh"), 100000)...) // 800 KB
	src = append(src, rnd[1000:150000]...)
	src = append(src, randomBytes(8, 300000)...)
	src = append(src, rnd[:100000]...)
	for _, lvl := range []int{1, 6} {
		cs := walkLZMA2(t, appendLZMA2(nil, src, presetParams(lvl, false), nil))
		if cs[0].ctrl != 1 {
			t.Fatalf("first chunk control %#x, want 1 (stored, dictionary reset)", cs[0].ctrl)
		}
		total, stored, resets := 0, 0, 0
		props := false
		for i, c := range cs {
			total += c.uncompressed
			if c.compressed > chunkCompMax || c.uncompressed > chunkUncompMax {
				t.Fatalf("chunk %d: %d -> %d exceeds the limits", i, c.uncompressed, c.compressed)
			}
			switch c.ctrl {
			case 1:
				if i != 0 {
					t.Fatalf("chunk %d resets the dictionary", i)
				}
			case 2:
				stored++
			case 0xE0:
				t.Fatalf("chunk %d resets the dictionary", i)
			case 0xC0:
				props = true
			case 0xA0:
				resets++
				if cs[i-1].ctrl != 2 && cs[i-1].ctrl != 1 {
					t.Fatalf("chunk %d resets the state after an LZMA chunk", i)
				}
			case 0x80:
				if !props || cs[i-1].ctrl <= 2 {
					t.Fatalf("chunk %d continues the state after a stored chunk or before properties", i)
				}
			}
		}
		if total != len(src) || stored == 0 || resets == 0 || !props {
			t.Fatalf("preset %d: %d bytes in chunks (want %d), %d stored, %d state resets", lvl, total, len(src), stored, resets)
		}
		roundTrip(t, "chunks", src, false, WithPreset(lvl))
	}
}
