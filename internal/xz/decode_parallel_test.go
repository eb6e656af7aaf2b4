package xz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"runtime"
	"testing"
)

// decodeBoth decodes enc serially and with concurrency conc and fails
// unless both give the same output or the same error; it returns the
// parallel result.
func decodeBoth(t testing.TB, enc []byte, conc int, opts ...Option) ([]byte, error) {
	t.Helper()
	want, werr := Decode(enc, opts...)
	got, gerr := Decode(enc, append(opts[:len(opts):len(opts)], WithConcurrency(conc))...)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("concurrency %d: error %v, serial %v", conc, gerr, werr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("concurrency %d: %d bytes differ from the serial %d", conc, len(got), len(want))
	}
	return got, gerr
}

// multiBlockText is varied text of n bytes.
func multiBlockText(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	words := []string{"alpha ", "beta ", "gamma\n", "delta,", "epsilon;", "zeta 12345 ", "eta"}
	var b []byte
	for len(b) < n {
		b = append(b, words[rng.IntN(len(words))]...)
		if rng.IntN(9) == 0 {
			b = append(b, byte(rng.Uint32()))
		}
	}
	return b[:n]
}

// TestDecodeParallelSame: streams of several blocks (block size, cuts,
// every check) decode in parallel to the input, as the serial path does.
func TestDecodeParallelSame(t *testing.T) {
	src := multiBlockText(700_000, 1)
	for _, opts := range [][]Option{
		{WithPreset(1), WithBlockSize(MinBlockSize * 20)},
		{WithPreset(6), WithBlockCuts(250_001)},
		{WithPreset(0), WithBlockCuts(1, 2, 3, 100_000, 100_001), WithCheck(CheckCRC32)},
		{WithPreset(1), WithBlockSize(1 << 18), WithCheck(CheckNone)},
		{WithPreset(1), WithBlockCuts(500_000), WithCheck(CheckCRC64), WithConcurrency(2)},
	} {
		enc, err := Encode(src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for _, conc := range []int{2, 3, 8} {
			got, err := decodeBoth(t, enc, conc)
			if err != nil || !bytes.Equal(got, src) {
				t.Fatalf("concurrency %d: %v", conc, err)
			}
			// Into dst with room and without, after a prefix.
			for _, dst := range [][]byte{[]byte("prefix"), make([]byte, 3, 3+len(src)+10)} {
				pre := append([]byte(nil), dst...)
				got, n, err := AppendDecodeStream(dst, enc, WithConcurrency(conc))
				if err != nil || n != len(enc) || !bytes.Equal(got[:len(pre)], pre) || !bytes.Equal(got[len(pre):], src) {
					t.Fatalf("AppendDecodeStream concurrency %d: %v", conc, err)
				}
			}
		}
	}
}

// TestBlockCuts: WithBlockCuts places the blocks, and leaves the output
// of other options alone.
func TestBlockCuts(t *testing.T) {
	src := multiBlockText(300_000, 2)
	plain, _ := Encode(src, WithPreset(1))
	same, _ := Encode(src, WithPreset(1), WithBlockCuts(len(src), len(src)+5))
	if !bytes.Equal(plain, same) {
		t.Fatal("cuts at or past the end changed the output")
	}
	cut, _ := Encode(src, WithPreset(1), WithBlockCuts(100_000))
	recs, total, ok := parallelIndex(cut, cut[6:8], 1<<40, 0)
	if !ok || total != len(src) || len(recs) != 2 || recs[1].outAt != 100_000 {
		t.Fatalf("cut stream: %v %d %+v", ok, total, recs)
	}
	par, _ := Encode(src, WithPreset(1), WithBlockCuts(100_000), WithConcurrency(2))
	if !bytes.Equal(par, cut) {
		t.Fatal("output depends on the concurrency")
	}
	for _, bad := range [][]int{{0}, {5, 5}, {7, 3}, {-1}} {
		if _, err := Encode(src, WithBlockCuts(bad...)); !errors.Is(err, ErrInvalidOption) {
			t.Fatalf("cuts %v: %v", bad, err)
		}
	}
}

// TestDecodeParallelLiblzma: what xz -T2 writes decodes in parallel.
func TestDecodeParallelLiblzma(t *testing.T) {
	src := multiBlockText(600_000, 3)
	for _, args := range [][]string{
		{"-T2", "-3", "--block-size=65536"},
		{"-T2", "-6", "--block-size=200000", "--check=sha256"},
		{"-T2", "-1", "--block-size=100000", "--check=none"},
	} {
		enc := xzCmd(t, src, args...)
		if recs, _, ok := parallelIndex(enc, enc[6:8], 1<<40, 0); !ok || len(recs) < 2 {
			t.Fatalf("%v: the parallel path does not take it", args)
		}
		got, err := decodeBoth(t, enc, 2)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("%v: %v", args, err)
		}
	}
}

// fixIndexCRC recomputes the CRC32 of the index of the stream enc (one
// stream, footer last).
func fixIndexCRC(enc []byte) {
	if len(enc) < 2*streamHeaderLen {
		return
	}
	f := enc[len(enc)-streamHeaderLen:]
	isize := (int64(binary.LittleEndian.Uint32(f[4:8])) + 1) * 4
	if isize > int64(len(enc)-2*streamHeaderLen) {
		return
	}
	idx := enc[len(enc)-streamHeaderLen-int(isize) : len(enc)-streamHeaderLen]
	binary.LittleEndian.PutUint32(idx[len(idx)-4:], crc32.ChecksumIEEE(idx[:len(idx)-4]))
}

// TestDecodeParallelErrors: damage in a later block, or an index that
// lies, gives the serial path's error (same message and offset) and no
// output.
func TestDecodeParallelErrors(t *testing.T) {
	for _, c := range []Check{CheckCRC32, CheckNone} {
		testDecodeParallelErrors(t, c)
	}
}

func testDecodeParallelErrors(t *testing.T, c Check) {
	src := multiBlockText(400_000, 4)
	enc, err := Encode(src, WithPreset(1), WithBlockSize(100_000), WithCheck(c))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, ok := parallelIndex(enc, enc[6:8], 1<<40, 0)
	if !ok || len(recs) != 4 {
		t.Fatal("want 4 blocks")
	}
	idxAt := recs[3].at + (recs[3].unpadded+3)&^3
	check := func(name string, bad []byte) {
		t.Helper()
		_, err := decodeBoth(t, bad, 4)
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	mutate := func(f func(b []byte)) []byte {
		b := append([]byte(nil), enc...)
		f(b)
		return b
	}
	// Damage in the LZMA data of block 2, and in its check.
	check("data", mutate(func(b []byte) { b[recs[2].at+200] ^= 0x40 }))
	if c != CheckNone {
		check("check", mutate(func(b []byte) { b[recs[2].at+recs[2].unpadded-1] ^= 1 }))
	}
	check("header", mutate(func(b []byte) { b[recs[3].at+2] ^= 1 }))
	// Two damaged blocks: the first in stream order is reported.
	two := mutate(func(b []byte) { b[recs[1].at+300] ^= 0x40; b[recs[3].at+300] ^= 0x40 })
	_, e2 := decodeBoth(t, two, 4)
	_, e1 := Decode(mutate(func(b []byte) { b[recs[1].at+300] ^= 0x40 }))
	if e2 == nil || e1 == nil || e2.Error() != e1.Error() {
		t.Fatalf("two damaged blocks: %v, want %v", e2, e1)
	}
	// The index lies about a block's uncompressed size: swap the sizes
	// of blocks 1 and 2 after shortening block 1 by a byte, CRC fixed.
	lie := func(delta int) []byte {
		return mutate(func(b []byte) {
			q := idxAt + 1
			readVarint(b, &q) // count
			for i := 0; i < 2; i++ {
				readVarint(b, &q)
				readVarint(b, &q)
			}
			// Block 2's uncompressed size follows its unpadded size.
			readVarint(b, &q)
			at := q
			v, _ := readVarint(b, &q)
			nv := appendVarint(nil, uint64(int(v)+delta))
			if len(nv) != q-at {
				t.Fatal("varint length changed")
			}
			copy(b[at:], nv)
			fixIndexCRC(b)
		})
	}
	for _, d := range []int{-1, 1, 1000} {
		bad := lie(d)
		if _, _, ok := parallelIndex(bad, bad[6:8], 1<<40, 0); !ok {
			t.Fatalf("delta %d: the lying index should reach the parallel path", d)
		}
		check("index lies", bad)
	}
	// An index whose total is beyond the limit: refused, as serially.
	_, err = decodeBoth(t, enc, 4, WithMaxDecodedSize(int64(len(src)-1)))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("limit: %v", err)
	}
}

// TestDecodeParallelProgress: the prefix WithProgress sees only grows,
// ends at the whole output, and is the output's prefix.
func TestDecodeParallelProgress(t *testing.T) {
	src := multiBlockText(900_000, 5)
	enc, err := Encode(src, WithPreset(1), WithBlockSize(450_000))
	if err != nil {
		t.Fatal(err)
	}
	var seen [][]byte
	got, err := Decode(enc, WithConcurrency(3), WithProgress(func(b []byte) {
		seen = append(seen, b)
	}))
	if err != nil || !bytes.Equal(got, src) {
		t.Fatal(err)
	}
	last := 0
	for _, b := range seen {
		if len(b) <= last || !bytes.Equal(b, src[:len(b)]) {
			t.Fatalf("progress went from %d to %d bytes (or differs)", last, len(b))
		}
		last = len(b)
	}
	if last != len(src) {
		t.Fatalf("progress ended at %d of %d", last, len(src))
	}
	// The first block reports chunk by chunk, as serially.
	if len(seen) < 3 || len(seen[0]) >= 450_000 {
		t.Fatalf("first report at %d bytes, %d reports", len(seen[0]), len(seen))
	}
}

// TestDecodeParallelAllocs: the parallel path allocates the output once
// (with room in dst, not at all beyond its bookkeeping).
func TestDecodeParallelAllocs(t *testing.T) {
	src := multiBlockText(600_000, 6)
	enc, _ := Encode(src, WithPreset(1), WithBlockCuts(300_000))
	dst := make([]byte, 0, len(src))
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := AppendDecode(dst, enc, WithConcurrency(2)); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 16 {
		t.Fatalf("%.0f allocations", allocs)
	}
}

// FuzzDecodeParallel: parallel and serial decodes of mutated multi-block
// streams agree (output, or error message and offset).
func FuzzDecodeParallel(f *testing.F) {
	f.Add([]byte("hello hello hello, a few blocks of text"), uint16(5), uint16(3), byte(0), uint8(1))
	f.Add(bytes.Repeat([]byte("abcdefgh"), 3000), uint16(100), uint16(17), byte(0x80), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, cut1, pos uint16, x byte, conc uint8) {
		c1 := int(cut1)%(len(src)+1) + 1
		enc, err := Encode(src, WithPreset(0), WithBlockCuts(c1, c1+int(cut1)+1), WithCheck(Check([]byte{0, 1, 4}[int(x)%3])))
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeBoth(t, enc, 2+int(conc%3))
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("round trip: %v", err)
		}
		if x != 0 && len(enc) > 0 {
			bad := append([]byte(nil), enc...)
			bad[int(pos)%len(bad)] ^= x
			decodeBoth(t, bad, 2+int(conc%3))
			fixIndexCRC(bad)
			decodeBoth(t, bad, 2+int(conc%3))
		}
	})
}

// BenchmarkDecodeParallel decodes a stream of two blocks serially and
// with concurrency 2.
func BenchmarkDecodeParallel(b *testing.B) {
	src := multiBlockText(8<<20, 8)
	enc, err := Encode(src, WithPreset(6), WithBlockCuts(len(src)/2), WithConcurrency(2))
	if err != nil {
		b.Fatal(err)
	}
	out := make([]byte, 0, len(src))
	for _, conc := range []int{1, 2} {
		b.Run([]string{"", "serial", "two"}[conc], func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				if _, err := AppendDecode(out[:0], enc, WithConcurrency(conc)); err != nil {
					b.Fatal(err)
				}
			}
			reportCPUSpeed(b, cpu0, len(src))
		})
	}
}

// TestDecodeParallelHostileIndex: an index that claims far more output
// than the input can hold is not reserved: the stream goes to the serial
// path, which fails without allocating the claim.
func TestDecodeParallelHostileIndex(t *testing.T) {
	src := multiBlockText(200_000, 9)
	enc, err := Encode(src, WithPreset(1), WithBlockCuts(100_000), WithCheck(CheckCRC32))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, _ := parallelIndex(enc, enc[6:8], 1<<40, 0)
	idxAt := recs[1].at + (recs[1].unpadded+3)&^3
	// Rewrite the index with block 1 claiming 500 MiB (under the default limit, over 1024 times the input).
	idx := []byte{0}
	idx = appendVarint(idx, 2)
	for i, r := range recs {
		idx = appendVarint(idx, uint64(r.unpadded))
		if i == 1 {
			idx = appendVarint(idx, 500<<20)
		} else {
			idx = appendVarint(idx, uint64(r.size))
		}
	}
	for len(idx)%4 != 0 {
		idx = append(idx, 0)
	}
	idx = binary.LittleEndian.AppendUint32(idx, crc32.ChecksumIEEE(idx))
	bad := append(enc[:idxAt:idxAt], idx...)
	var tail [6]byte
	binary.LittleEndian.PutUint32(tail[:4], uint32(len(idx)/4-1))
	tail[5] = byte(CheckCRC32)
	bad = binary.LittleEndian.AppendUint32(bad, crc32.ChecksumIEEE(tail[:]))
	bad = append(bad, tail[:]...)
	bad = append(bad, footerMagic...)
	if _, _, ok := parallelIndex(bad, bad[6:8], 1<<40, 0); ok {
		t.Fatal("an implausible index reached the parallel path")
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err = decodeBoth(t, bad, 2)
	runtime.ReadMemStats(&m1)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("hostile index: %v", err)
	}
	if d := m1.TotalAlloc - m0.TotalAlloc; d > 16<<20 {
		t.Fatalf("hostile index: %d bytes allocated", d)
	}
}
