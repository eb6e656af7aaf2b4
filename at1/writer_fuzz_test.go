package at1

import (
	"bytes"
	"testing"
)

// FuzzWriter: a Writer fed in writes of a fuzz-chosen size, and flushed
// at a fuzz-chosen point, writes a file that decodes to its input; without
// a flush, and over one chunk, it is Encode's file to the byte (but for the
// header's codec byte when every frame is raw, which Encode sets to RAW).
// The input is the seed's generated CSV repeated to 64-160 KiB, so that the
// 64 KiB chunks make one to three frames.
func FuzzWriter(f *testing.F) {
	f.Add([]byte("\x00\x03\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"), uint16(4093), uint32(0))
	f.Add([]byte("\x02\x04\x0d\x0e\x16\x1c\x11\x05\x0b"), uint16(65535), uint32(40000<<1|1))
	f.Add([]byte("plain text, not a table\n"), uint16(1), uint32(1<<17|1))
	f.Fuzz(func(t *testing.T, seed []byte, step uint16, at uint32) {
		if len(seed) == 0 || len(seed) > 4096 {
			return
		}
		unit := genCSV(seed)
		if len(unit) == 0 {
			unit = seed
		}
		n := 64<<10 + int(at>>1)%(96<<10)
		src := bytes.Repeat(unit, n/len(unit)+1)[:n]
		flush := at&1 == 1
		flushAt := int(at>>1) % n
		opts := []Option{WithChunkSize(64 << 10), WithLevel(1), WithConcurrency(2)}

		var out bytes.Buffer
		z, err := NewWriter(&out, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for p, off := src, 0; len(p) > 0; {
			k := min(int(step)+1, len(p))
			if _, err := z.Write(p[:k]); err != nil {
				t.Fatal(err)
			}
			if flush && off < flushAt && flushAt <= off+k {
				if err := z.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			p, off = p[k:], off+k
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := Decode(out.Bytes(), WithStrict())
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("Decode: %v (equal %v)", err, bytes.Equal(got, src))
		}
		if st := z.Stats(); st.In != int64(n) || st.Out != int64(out.Len()) {
			t.Fatalf("Stats %+v for %d bytes in, %d out", st, n, out.Len())
		}
		if flush || n <= 64<<10 {
			return // Encode writes a whole-file container up to one chunk
		}
		want, err := Encode(src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		w := out.Bytes()
		if st := z.Stats(); st.RawFrames == st.Frames && len(w) > 4 && len(want) > 4 {
			w[4] = want[4]
		}
		if !bytes.Equal(w, want) {
			t.Fatalf("%d bytes, Encode %d", len(w), len(want))
		}
	})
}
