package at1

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"runtime"
	"testing"
)

// TestXZDeclaredDictionary: a small stream that declares xz -6's 8 MiB
// dictionary (as liblzma does for any input size) decodes without
// allocating anything near the declared dictionary: the output is the
// decoder's window.
func TestXZDeclaredDictionary(t *testing.T) {
	orig := bytes.Repeat([]byte("shrink the dictionary, keep the bytes; "), 50)
	src, err := xzCompress(nil, orig, 6, false)
	if err != nil {
		t.Fatal(err)
	}
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
	c, _ := newConfig(nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := c.decoder().unxz(nil, src, 1<<20, 0, "test", nil)
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Equal(got, orig) {
		t.Fatalf("decode: %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("decoding allocated %d bytes", n)
	}
	// Over the configured dictionary limit: refused before decoding.
	c2, _ := newConfig([]Option{WithMaxXZDictionary(1 << 20)})
	if _, err := c2.decoder().unxz(nil, src, 1<<20, 0, "test", nil); err == nil {
		t.Fatal("an 8 MiB dictionary passed a 1 MiB limit")
	}
}

// TestXZConcatenated: when a second stream follows the first, only the
// first is decoded (the index at the end is the second's and must not
// size the output).
func TestXZConcatenated(t *testing.T) {
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
	got, err := c.decoder().unxz(nil, both, 1<<20, 0, "test", nil)
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("decoded %d bytes, %v; want the first stream's %d", len(got), err, len(first))
	}
}
