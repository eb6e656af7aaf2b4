package at1

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestRLEFrame checks that runs the encoder writes as RLE-only frames are
// filled without the zstd decoder and equal its output, and that every
// other frame is left to the decoder.
func TestRLEFrame(t *testing.T) {
	withSum, _ := zstd.NewWriter(nil, zstd.WithSingleSegment(true), zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1))
	dec, _ := zstd.NewReader(nil)
	// Runs 0, 1 and 3 are written as RLE blocks only (a run of 200,000
	// row modes is two: 128 KiB and the rest); the others are not.
	runs := [][]byte{
		bytes.Repeat([]byte{1}, 1000),
		bytes.Repeat([]byte{7}, 128<<10),
		bytes.Repeat([]byte{0}, 128<<10+1),
		bytes.Repeat([]byte{'a'}, 300000),
		append(bytes.Repeat([]byte{1}, 200000), bytes.Repeat([]byte{2}, 200000)...),
	}
	rle := 0
	for i, run := range runs {
		for _, sum := range []bool{false, true} {
			// Without a checksum: as the encoder writes streams.
			frame := zstdCompress(nil, run, DefaultLevel)
			if sum {
				frame = withSum.EncodeAll(run, nil)
			}
			size, n, msg := zstdFrame(frame)
			if msg != "" || n != len(frame) || size != uint64(len(run)) {
				t.Fatalf("zstdFrame: %q %d %d", msg, n, size)
			}
			out, ok := appendRLEFrame([]byte("x"), frame, size)
			if sum && ok {
				t.Fatalf("a frame with a checksum was filled without the decoder")
			}
			if !sum && (i == 0 || i == 1 || i == 3) && !ok {
				t.Fatalf("run of %d bytes of one value: the encoder's frame was not filled", len(run))
			}
			if ok {
				rle++
				if !bytes.Equal(out[1:], run) || out[0] != 'x' {
					t.Fatalf("run of %d: RLE fill differs from the input", len(run))
				}
			} else if string(out) != "x" {
				t.Fatalf("declined frame changed dst: %d bytes", len(out))
			}
			got, err := unzstdInto(nil, frame, 1<<30, 0, "s")
			want, derr := dec.DecodeAll(frame, nil)
			if err != nil || derr != nil || !bytes.Equal(got, want) || !bytes.Equal(got, run) {
				t.Fatalf("run of %d: unzstdInto %v, decoder %v", len(run), err, derr)
			}
		}
	}
	// Frames the format does not allow stay the decoder's to reject: an
	// RLE block over 128 KiB, and blocks that do not add up to the size.
	hdr := []byte{0x28, 0xB5, 0x2F, 0xFD, 0xA0, 0, 0, 0x04, 0} // single segment, 4-byte size 0x40000
	rleBlock := func(n int) []byte {                           // last block, type RLE, then its byte
		bh := n<<3 | 1<<1 | 1
		return []byte{byte(bh), byte(bh >> 8), byte(bh >> 16), 'z'}
	}
	big := append(append([]byte{}, hdr...), rleBlock(0x40000)...)
	short := append(append([]byte{}, hdr...), rleBlock(0x100)...)
	for name, f := range map[string][]byte{"block over 128 KiB": big, "blocks short of the size": short} {
		size, n, msg := zstdFrame(f)
		if msg != "" || n != len(f) {
			t.Fatalf("%s: zstdFrame %q", name, msg)
		}
		if _, ok := appendRLEFrame(nil, f, size); ok {
			t.Fatalf("%s: filled", name)
		}
	}
}
