package at1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"testing"
)

// scratchInput is text of many frames whose streams differ in size from
// frame to frame (so buffers of the scratch are reused across sizes),
// with frames of random bytes among them (raw, often stored).
func scratchInput(jsonl bool, blocks int) []byte {
	r := rand.New(rand.NewSource(7))
	var b bytes.Buffer
	if !jsonl {
		b.WriteString("id,name,score,when,note\n")
	}
	for blk := 0; blk < blocks; blk++ {
		if blk%7 == 5 && !jsonl {
			junk := make([]byte, 20<<10)
			r.Read(junk)
			for i := range junk {
				if junk[i] == '\n' || junk[i] == ',' || junk[i] == '"' {
					junk[i] = 'x'
				}
			}
			b.Write(junk)
			b.WriteByte('\n')
			continue
		}
		n := 300 + r.Intn(3000)
		for i := 0; i < n; i++ {
			id := blk*10000 + i
			name := fmt.Sprintf("user%d", r.Intn(50+blk*40))
			if jsonl {
				fmt.Fprintf(&b, "{\"id\":%d,\"name\":%q,\"score\":%d.%02d,\"ok\":%v}\n", id, name, r.Intn(1000), r.Intn(100), r.Intn(2) == 0)
			} else {
				fmt.Fprintf(&b, "%d,%s,%d.%02d,2024-%02d-%02d,%s\n", id, name, r.Intn(1000), r.Intn(100), 1+r.Intn(12), 1+r.Intn(28), bytes.Repeat([]byte{byte('a' + r.Intn(26))}, r.Intn(30)))
			}
		}
	}
	return b.Bytes()
}

// TestScratchFrames decodes many-frame files with the decoder's scratch
// on (stream buffers reused frame to frame) and compares every frame
// with the frame decoded alone by a decoder without scratch, after all
// frames are done (an output sharing a reused buffer would have been
// overwritten by then); then Decode (serial), Validate and a Reader
// (WriteTo with the goroutine decoding ahead, and Read) against the
// input, and the encoded file, whose stored streams are decoded as views
// of it, must be unchanged.
func TestScratchFrames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		jsonl bool
		codec Codec
	}{{"csv-auto", false, CodecAuto}, {"jsonl-columnar", true, CodecColumnar}, {"jsonl-qjson", true, CodecQJSON}, {"csv-qcolumnar", false, CodecQColumnar}} {
		if (testing.Short() || raceEnabled) && tc.codec != CodecAuto && tc.codec != CodecColumnar {
			continue // encoding is slow under -race; two files suffice there
		}
		t.Run(tc.name, func(t *testing.T) {
			blocks := 16
			if testing.Short() || raceEnabled {
				blocks = 8
			}
			in := scratchInput(tc.jsonl, blocks)
			src, err := Encode(in, WithChunkSize(64<<10), WithLevel(1), WithCodec(tc.codec))
			if err != nil {
				t.Fatal(err)
			}
			orig := bytes.Clone(src)
			c, err := newConfig(nil)
			if err != nil {
				t.Fatal(err)
			}
			s := memSource(src, 0)
			p, err := c.decoder().parse(s)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Framed || len(p.Frames) < 10 {
				t.Fatalf("want a framed file of many frames, got framed=%v with %d frames", p.Framed, len(p.Frames))
			}
			sd := c.decoder().withScratch()
			var got, want [][]byte
			var cat []byte
			for i, fr := range p.Frames {
				w, err := c.decoder().decodeFrame(nil, s, p.Codec, fr, i, c.maxDecoded, nil)
				if err != nil {
					t.Fatal(err)
				}
				g, err := sd.decodeFrame(nil, s, p.Codec, fr, i, c.maxDecoded, nil)
				if err != nil {
					t.Fatal(err)
				}
				want, got = append(want, w), append(got, g)
				cat = append(cat, w...)
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("frame %d: decoded with scratch differs from the frame decoded alone", i)
				}
			}
			if !bytes.Equal(cat, in) {
				t.Fatal("frames do not make the input")
			}
			// (qjson and qcolumnar frames here have only small streams,
			// left to the allocator, and at level 1 row_modes is an
			// RLE zstd frame, filled directly: those cases check the
			// outputs alone.)
			if tc.codec != CodecQJSON && tc.codec != CodecQColumnar && len(sd.scratch.free) == 0 {
				t.Fatal("scratch holds no buffer after many frames: nothing to reuse")
			}
			out, err := Decode(src, WithConcurrency(1))
			if err != nil || !bytes.Equal(out, in) {
				t.Fatalf("Decode serial: %v, equal %v", err, bytes.Equal(out, in))
			}
			f, err := Open(bytes.NewReader(src), int64(len(src)))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, conc := range []int{1, 2} {
				z, err := NewReader(bytes.NewReader(src), WithConcurrency(conc))
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := z.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), in) {
					t.Fatalf("Reader.WriteTo, concurrency %d: %v, equal %v", conc, err, bytes.Equal(buf.Bytes(), in))
				}
				z, err = NewReader(bytes.NewReader(src), WithConcurrency(conc))
				if err != nil {
					t.Fatal(err)
				}
				rd, err := io.ReadAll(io.LimitReader(z, 1<<30))
				if err != nil || !bytes.Equal(rd, in) {
					t.Fatalf("Reader.Read, concurrency %d: %v, equal %v", conc, err, bytes.Equal(rd, in))
				}
			}
			if !bytes.Equal(src, orig) {
				t.Fatal("decoding wrote into the encoded file")
			}
		})
	}
}

// TestScratchLimits checks the limits hold with the scratch on: a free
// buffer larger than a stream does not let it decode past its declared
// size or the memory limit (both are charged by the declared size).
func TestScratchLimits(t *testing.T) {
	in := scratchInput(false, 8)
	src, err := Encode(in, WithChunkSize(64<<10), WithLevel(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Option{WithMaxStreamSize(8 << 10), WithMemoryLimit(16 << 10)} {
		if _, err := Decode(src, WithConcurrency(1), opt); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Decode with a small limit: %v, want ErrTooLarge", err)
		}
		f, err := Open(bytes.NewReader(src), int64(len(src)), opt)
		if err == nil {
			err = f.Validate()
		}
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Validate with a small limit: %v, want ErrTooLarge", err)
		}
	}
}

func TestScratchGetPut(t *testing.T) {
	s := &scratch{}
	if s.get(1<<20) != nil {
		t.Fatal("empty scratch gave a buffer")
	}
	s.put([][]byte{make([]byte, 10, 64<<10), make([]byte, 0, 16<<10), make([]byte, 0, 100)})
	if len(s.free) != 2 {
		t.Fatalf("%d free buffers, want 2 (small ones are dropped)", len(s.free))
	}
	if b := s.get(20 << 10); cap(b) != 64<<10 || len(b) != 0 {
		t.Fatalf("get(20K): cap %d len %d, want the 64K buffer, empty", cap(b), len(b))
	}
	if b := s.get(20 << 10); b != nil {
		t.Fatal("get(20K) from a 16K buffer")
	}
	for i := 0; i < 2*scratchKeep; i++ {
		s.put([][]byte{make([]byte, 0, (8+i)<<10)})
	}
	if len(s.free) != scratchKeep || cap(s.free[0]) != (8+scratchKeep)<<10 {
		t.Fatalf("%d free, smallest %d: want %d, the largest kept", len(s.free), cap(s.free[0]), scratchKeep)
	}
}

// TestScratchNotStored checks that a stored stream, whose output is a
// view of the input, is never given to the scratch (a later frame would
// decode into the caller's bytes), while a zstd stream's output is.
func TestScratchNotStored(t *testing.T) {
	plain := bytes.Repeat([]byte("stored stream bytes, reused never. "), 400)
	z := zstdCompress(nil, plain, 6)
	file := append(bytes.Clone(plain), z...)
	c, err := newConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	dc := c.decoder().withScratch()
	ss, err := dc.streamSetOf(memSource(file, 0), []StreamInfo{
		{Name: "s", Backend: BackendStored, Offset: 0, Size: int64(len(plain))},
		{Name: "z", Backend: BackendZstd, Offset: int64(len(plain)), Size: int64(len(z))},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := ss.load("s", "z"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ss.get("s"), plain) || !bytes.Equal(ss.get("z"), plain) {
		t.Fatal("streams decode wrong")
	}
	ss.release()
	if len(dc.scratch.free) != 1 {
		t.Fatalf("%d buffers in the scratch, want 1 (the zstd output only)", len(dc.scratch.free))
	}
	if b := dc.scratch.free[0][:1]; &b[0] == &file[0] {
		t.Fatal("the stored stream's bytes (the input) went to the scratch")
	}
	if ss.get("z") != nil {
		t.Fatal("released stream set still reads its streams")
	}
}
