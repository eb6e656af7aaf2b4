package at1

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// writerInput is a table of about n bytes whose chunks are columnar, with
// a line that breaks the table in the middle and no final newline.
func writerInput(n int) []byte {
	var b bytes.Buffer
	b.WriteString("id,price,sym,note\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d,%d.%02d,%s,\"n %d, q\"\n", 1000+i*3, i%997, i%100, []string{"AAA", "BB", "C"}[i%3], i%13)
		if i == 4000 {
			b.WriteString("a stray line, \"unbalanced\n")
		}
	}
	b.WriteString("tail")
	return b.Bytes()
}

func writeAll(t testing.TB, src []byte, step int, opts ...Option) ([]byte, WriterStats) {
	t.Helper()
	var out bytes.Buffer
	z, err := NewWriter(&out, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for p := src; len(p) > 0; {
		k := min(step, len(p))
		if _, err := z.Write(p[:k]); err != nil {
			t.Fatal(err)
		}
		p = p[k:]
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), z.Stats()
}

// TestWriterConcurrencySameBytes: frames encoded in flight are written in
// input order, so the output is the same for any concurrency and any
// write size, and it is Encode's output of the whole input.
func TestWriterConcurrencySameBytes(t *testing.T) {
	src, concs, steps := writerInput(600<<10), []int{1, 2, 3, 8}, []int{1 << 20, 4093}
	if raceEnabled {
		// The race detector slows the encoder tenfold; frames in flight
		// are what it is here for.
		src, concs, steps = writerInput(200<<10), []int{1, 3}, []int{4093}
	}
	// A chunk of one random line over and over, in the middle, is
	// written raw: the structure's streams cost more than they save.
	rng := rand.New(rand.NewPCG(1, 2))
	line := make([]byte, 997)
	for i := range line {
		line[i] = 'a' + byte(rng.IntN(26))
	}
	var noise []byte
	for len(noise) < 140<<10 {
		noise = append(append(noise, line...), '\n')
	}
	mid := bytes.IndexByte(src[len(src)/2:], '\n') + len(src)/2 + 1
	src = append(append(append([]byte{}, src[:mid]...), noise...), src[mid:]...)
	want, err := Encode(src, WithChunkSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	var progress []int64
	for _, conc := range concs {
		for _, step := range steps {
			progress = progress[:0]
			got, st := writeAll(t, src, step, WithChunkSize(64<<10), WithConcurrency(conc), WithProgress(func(done, total int64) {
				if total != -1 {
					t.Errorf("Writer progress total %d, want -1", total)
				}
				progress = append(progress, done)
			}))
			if !bytes.Equal(got, want) {
				t.Fatalf("concurrency %d, writes of %d: %d bytes, not Encode's %d", conc, step, len(got), len(want))
			}
			f, err := Open(bytes.NewReader(got), int64(len(got)))
			if err != nil {
				t.Fatal(err)
			}
			raw := 0
			for _, fr := range f.Frames {
				if fr.Method != methodStructured {
					raw++
				}
			}
			if raw == 0 || raw == len(f.Frames) {
				t.Fatalf("%d of %d frames raw: the test wants both kinds", raw, len(f.Frames))
			}
			if want := (WriterStats{In: int64(len(src)), Out: int64(len(got)), Frames: len(f.Frames), RawFrames: raw}); st != want {
				t.Fatalf("concurrency %d: Stats %+v, want %+v", conc, st, want)
			}
			if len(progress) != len(f.Frames) || progress[len(progress)-1] != int64(len(src)) {
				t.Fatalf("concurrency %d: progress %v for %d frames of %d bytes", conc, progress, len(f.Frames), len(src))
			}
			for i := 1; i < len(progress); i++ {
				if progress[i] <= progress[i-1] {
					t.Fatalf("concurrency %d: progress not increasing: %v", conc, progress)
				}
			}
		}
	}
}

// limitWriter fails from its n-th call on.
type limitWriter struct {
	n   int
	err error
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.n--; w.n <= 0 {
		return 0, w.err
	}
	return len(p), nil
}

// TestWriterErrorDrains: an error from the underlying writer is returned
// (by Write or Close), later calls fail too, and no frame's encoding
// outlives the call that reports it.
func TestWriterErrorDrains(t *testing.T) {
	src := writerInput(800 << 10)
	if raceEnabled {
		src = writerInput(300 << 10)
	}
	boom := errors.New("disk full")
	z, err := NewWriter(&limitWriter{n: 5, err: boom}, WithChunkSize(64<<10), WithConcurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	var werr error
	for p := src; len(p) > 0 && werr == nil; {
		k := min(10000, len(p))
		_, werr = z.Write(p[:k])
		p = p[k:]
	}
	cerr := z.Close()
	if !errors.Is(werr, boom) && !errors.Is(cerr, boom) {
		t.Fatalf("Write %v, Close %v: want %v", werr, cerr, boom)
	}
	if werr != nil && !errors.Is(cerr, boom) {
		t.Fatalf("Close after a failed Write: %v, want %v", cerr, boom)
	}
	if _, err := z.Write([]byte("x\n")); err == nil {
		t.Fatal("Write after a failure succeeded")
	}
	// The frames that were in flight have all finished.
	if len(z.flight) != 0 {
		t.Fatalf("%d frames still in flight after the failed Writer", len(z.flight))
	}
}

// TestWriterHoldsBoundedChunks: the Writer reuses its chunk buffers, so
// a long stream allocates a number of chunk buffers bounded by the
// concurrency, not by the input.
func TestWriterHoldsBoundedChunks(t *testing.T) {
	src := writerInput(1 << 20)
	if raceEnabled {
		src = writerInput(400 << 10)
	}
	var out bytes.Buffer
	z, err := NewWriter(&out, WithChunkSize(64<<10), WithConcurrency(2), WithVerify(false))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := z.Write(src); err != nil {
		t.Fatal(err)
	}
	if n := len(z.flight); n > 4 {
		t.Fatalf("%d frames in flight with concurrency 2", n)
	}
	bufs := len(z.free) + len(z.flight) + 1
	if bufs > 6 {
		t.Fatalf("%d chunk buffers for concurrency 2", bufs)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := Decode(out.Bytes()); err != nil || !bytes.Equal(got, src) {
		t.Fatalf("Decode: %v", err)
	}
}

// TestEncodeFramedAllRaw: when every frame is raw, Encode's header says
// RAW; a Writer, which writes its header before any frame, says the codec
// it chose from the first chunk, and the frames are the same.
func TestEncodeFramedAllRaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	src := make([]byte, 200<<10)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	enc := roundTrip(t, "noise", src, WithChunkSize(64<<10))
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Framed || f.Codec != CodecRaw || len(f.Frames) != 4 {
		t.Fatalf("framed %v, codec %v, %d frames", f.Framed, f.Codec, len(f.Frames))
	}
	got, st := writeAll(t, src, 1<<20, WithChunkSize(64<<10))
	if st.RawFrames != 4 || len(got) != len(enc) || Codec(got[4]) == CodecRaw {
		t.Fatalf("Writer: %+v, %d bytes (Encode %d), codec %v", st, len(got), len(enc), Codec(got[4]))
	}
	got[4] = enc[4]
	if !bytes.Equal(got, enc) {
		t.Fatal("Writer's frames differ from Encode's")
	}
}

// TestWriterFlush: Flush writes what was written so far as frames (the
// output grows at once), and the file decodes to the input once closed.
func TestWriterFlush(t *testing.T) {
	src := writerInput(150 << 10)
	var out bytes.Buffer
	z, err := NewWriter(&out, WithChunkSize(64<<10), WithConcurrency(2))
	if err != nil {
		t.Fatal(err)
	}
	cuts := []int{10 << 10, 11 << 10, 100 << 10, len(src)}
	prev, sizes := 0, []int{}
	for _, c := range cuts {
		if _, err := z.Write(src[prev:c]); err != nil {
			t.Fatal(err)
		}
		prev = c
		if err := z.Flush(); err != nil {
			t.Fatal(err)
		}
		if z.Stats().In != int64(c) || int64(out.Len()) != z.Stats().Out {
			t.Fatalf("after Flush at %d: %+v, %d bytes out", c, z.Stats(), out.Len())
		}
		sizes = append(sizes, out.Len())
	}
	if err := z.Flush(); err != nil { // nothing buffered
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(out.Bytes(), WithStrict())
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("Decode: %v (equal %v)", err, bytes.Equal(got, src))
	}
	f, err := Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil || len(f.Frames) != 5 || z.Stats().Frames != 5 {
		t.Fatalf("Open: %v, %d frames (sizes after each Flush %v)", err, len(f.Frames), sizes)
	}
	if err := z.Flush(); err == nil {
		t.Fatal("Flush after Close succeeded")
	}
}

// TestWriterSelfCheck: a frame that does not decode to its chunk fails
// the Writer and a framed Encode with an error naming the chunk's input
// bytes; WithVerify(false) writes it.
func TestWriterSelfCheck(t *testing.T) {
	src := writerInput(200 << 10)
	if raceEnabled {
		src = writerInput(140 << 10) // three frames
	}
	n := 0
	testHookFrame = func(frame []byte) {
		if n++; n == 2 {
			frame[len(frame)-1] ^= 0x55
		}
	}
	defer func() { testHookFrame = nil }()
	var out bytes.Buffer
	z, err := NewWriter(&out, WithChunkSize(64<<10), WithConcurrency(1), WithLevel(1))
	if err != nil {
		t.Fatal(err)
	}
	_, werr := z.Write(src)
	cerr := z.Close()
	err = errors.Join(werr, cerr)
	if err == nil || !strings.Contains(err.Error(), "self-check failed on the frame of input bytes 65") {
		t.Fatalf("Writer: %v", err)
	}
	n = 0
	if _, err := Encode(src, WithChunkSize(64<<10), WithConcurrency(1), WithLevel(1)); err == nil || !strings.Contains(err.Error(), "self-check failed on the frame of input bytes 65") {
		t.Fatalf("Encode: %v", err)
	}
	n = 0
	if _, err := Encode(src, WithChunkSize(64<<10), WithConcurrency(1), WithLevel(1), WithVerify(false)); err != nil {
		t.Fatalf("Encode without the check: %v", err)
	}
}
