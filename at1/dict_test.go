package at1

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"runtime"
	"testing"

	rootxz "github.com/therootcompany/xz"
)

// TestShrinkDict: a small stream that declares xz -6's 8 MiB dictionary
// decodes, after shrinkDict, to the same bytes with a decoder that
// allocates far less than the declared dictionary.
func TestShrinkDict(t *testing.T) {
	orig := bytes.Repeat([]byte("shrink the dictionary, keep the bytes; "), 50)
	src, err := xzCompress(nil, orig, 6, false)
	if err != nil {
		t.Fatal(err)
	}
	// Declare xz -6's dictionary, as liblzma does for any input size
	// (internal/xz already declares only what the input needs).
	_, at, ok := xzDictProps(src)
	if !ok {
		t.Fatal("no dictionary properties")
	}
	src[at] = 22
	hsize := (int(src[12]) + 1) * 4
	binary.LittleEndian.PutUint32(src[12+hsize-4:], crc32.ChecksumIEEE(src[12:12+hsize-4]))
	if d, ok := xzDictSize(src); !ok || d != 8<<20 {
		t.Fatalf("declared dictionary %d, %v; want 8 MiB", d, ok)
	}
	small := shrinkDict(src, uint64(len(orig)))
	if d, ok := xzDictSize(small); !ok || d < uint64(len(orig)) || d > max(4096, 2*uint64(len(orig))) {
		t.Fatalf("shrunk dictionary %d, %v for %d bytes", d, ok, len(orig))
	}
	if d, _ := xzDictSize(src); d != 8<<20 {
		t.Fatal("shrinkDict changed its input")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	z, err := rootxz.NewReader(bytes.NewReader(small), 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(z)
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Equal(got, orig) {
		t.Fatalf("decode of the shrunk stream: %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("decoding allocated %d bytes", n)
	}
	// Streams whose output fills the dictionary, and damaged headers,
	// are left alone.
	if got := shrinkDict(src, 8<<20); &got[0] != &src[0] {
		t.Error("shrinkDict copied a stream that needs its whole dictionary")
	}
	bad := bytes.Clone(src)
	bad[14] ^= 1
	if got := shrinkDict(bad, 10); &got[0] != &bad[0] {
		t.Error("shrinkDict rewrote a header whose CRC does not match")
	}
}

// TestShrinkDictConcatenated: when a second stream follows the first, the
// index at the end is the second's, so the first keeps its declared
// dictionary and decodes in full.
func TestShrinkDictConcatenated(t *testing.T) {
	// Matches 6000 bytes back: beyond the 4 KiB dictionary the second
	// stream's size would give.
	rnd := make([]byte, 6000)
	for i, x := 0, uint32(1); i < len(rnd); i++ {
		x = x*1664525 + 1013904223
		rnd[i] = byte(x >> 24)
	}
	first := bytes.Repeat(rnd, 3)
	a, err := xzCompress(nil, first, 6, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := xzCompress(nil, []byte("tiny"), 6, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, one, ok := xzIndex(a); !ok || !one {
		t.Fatalf("single stream: one=%v ok=%v", one, ok)
	}
	both := append(bytes.Clone(a), b...)
	if n, one, ok := xzIndex(both); !ok || one || n != 4 {
		t.Fatalf("concatenated: n=%d one=%v ok=%v", n, one, ok)
	}
	c, _ := newConfig(nil)
	z, _ := rootxz.NewReader(nil, 0)
	got, err := c.unxzBuf(z, nil, both, 1<<20, 0, "test", nil)
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("decoded %d bytes, %v; want the first stream's %d", len(got), err, len(first))
	}
}
