package at1

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"slices"
	"testing"
)

// The emitter writes and hashes the chunks handed to it in order, and
// stop returns once all are written.
func TestEmitterOrder(t *testing.T) {
	var w bytes.Buffer
	h := sha256.New()
	cw := newChunkWriter(&w, h, 1<<30)
	e := cw.async()
	var want []byte
	for i := 0; i < 50; i++ {
		chunk := bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i*37)
		cw.buf = append(cw.buf, chunk...)
		want = append(want, chunk...)
		if err := e.flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.stop(); err != nil {
		t.Fatal(err)
	}
	if err := e.stop(); err != nil { // a second stop is harmless
		t.Fatal(err)
	}
	sum := sha256.Sum256(want)
	if !bytes.Equal(w.Bytes(), want) || cw.n != int64(len(want)) || !bytes.Equal(h.Sum(nil), sum[:]) {
		t.Fatalf("wrote %d bytes (n %d), want %d; equal %v", w.Len(), cw.n, len(want), bytes.Equal(w.Bytes(), want))
	}
}

// A write error stops the emitter: a later flush or stop returns it, and
// nothing after the failed chunk is written.
func TestEmitterWriteError(t *testing.T) {
	fw := &failAfterWriter{after: 2500}
	cw := newChunkWriter(fw, sha256.New(), 1<<30)
	e := cw.async()
	var err error
	for i := 0; i < 20 && err == nil; i++ {
		cw.buf = append(cw.buf, bytes.Repeat([]byte{'x'}, 1000)...)
		err = e.flush()
	}
	if serr := e.stop(); !errors.Is(serr, errWrite) {
		t.Fatalf("stop: %v", serr)
	}
	if err != nil && !errors.Is(err, errWrite) {
		t.Fatalf("flush: %v", err)
	}
	if fw.n != 2000 || cw.n != 2000 {
		t.Fatalf("writer took %d bytes, count %d; want 2000", fw.n, cw.n)
	}
}

// Streaming rows with and without the emitter gives the same bytes, the
// same writes and the same errors.
func TestStreamRowsConcurrency(t *testing.T) {
	orig := streamCSV(150000)
	if len(orig) < asyncMin {
		t.Fatalf("%d bytes: too small for the emitter (%d)", len(orig), asyncMin)
	}
	enc, err := Encode(orig, WithCodec(CodecColumnar), WithLevel(1))
	if err != nil {
		t.Fatal(err)
	}
	var writes [][]int
	for _, n := range []int{1, 2, 4} {
		var w chunkLog
		if got, err := DecodeTo(&w, enc, WithConcurrency(n)); err != nil || got != int64(len(orig)) || !bytes.Equal(w.Bytes(), orig) {
			t.Fatalf("concurrency %d: %d bytes, %v", n, got, err)
		}
		writes = append(writes, w.writes)
		fw := &failAfterWriter{after: 3 * streamChunk}
		if got, err := DecodeTo(fw, enc, WithConcurrency(n)); !errors.Is(err, errWrite) || got != int64(fw.n) || got == 0 {
			t.Fatalf("concurrency %d, failing writer: %d bytes, %v", n, got, err)
		}
	}
	for i := range writes[1:] {
		if !slices.Equal(writes[0], writes[i+1]) {
			t.Fatalf("writes differ with concurrency: %v vs %v", writes[0], writes[i+1])
		}
	}
}
