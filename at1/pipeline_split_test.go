package at1

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// xzBlocks is the number of blocks the index of the xz stream src (one
// stream, footer last) lists.
func xzBlocks(t *testing.T, src []byte) int {
	t.Helper()
	foot := src[len(src)-12:]
	isize := int(binary.LittleEndian.Uint32(foot[4:8])+1) * 4
	idx := src[len(src)-12-isize:]
	n, k := binary.Uvarint(idx[1:])
	if k <= 0 {
		t.Fatal("bad index")
	}
	return int(n)
}

// valuesStreams returns the compressed values streams of enc (one per
// frame).
func valuesStreams(t *testing.T, enc []byte) [][]byte {
	t.Helper()
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatal(err)
	}
	dirs := [][]StreamInfo{f.Streams}
	if f.Framed {
		dirs = dirs[:0]
		for _, fr := range f.Frames {
			if fr.Method != methodStructured {
				continue
			}
			dir, err := f.dec.parseDirectory(f.src, fr.Offset+1, fr.Offset+fr.Size)
			if err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dir)
		}
	}
	var out [][]byte
	for _, dir := range dirs {
		for _, s := range dir {
			if s.Name == "values" && s.Backend == BackendXZ {
				out = append(out, enc[s.Offset:s.Offset+s.Size])
			}
		}
	}
	return out
}

// withSplitMin lowers valuesSplitMin for a test.
func withSplitMin(t *testing.T, n int) {
	old := valuesSplitMin
	valuesSplitMin = n
	t.Cleanup(func() { valuesSplitMin = old })
}

// TestValuesSplit: a columnar values stream of valuesSplitMin bytes or
// more is written as two xz blocks (whole files and frames), the output
// does not depend on the concurrency, and it decodes alike serially, in
// parallel and through the Reader.
func TestValuesSplit(t *testing.T) {
	withSplitMin(t, xzTrialMax+1)
	src := tradesCSV(700 << 10)
	for _, opts := range [][]Option{nil, {WithChunkSize(350 << 10)}} {
		one, err := Encode(src, append(opts, WithConcurrency(1))...)
		if err != nil {
			t.Fatal(err)
		}
		if codecOf(one) != CodecColumnar {
			t.Fatalf("codec %v", codecOf(one))
		}
		two, err := Encode(src, append(opts, WithConcurrency(3))...)
		if err != nil || !bytes.Equal(one, two) {
			t.Fatalf("output depends on the concurrency: %v", err)
		}
		vs := valuesStreams(t, one)
		if len(vs) == 0 {
			t.Fatal("no xz values stream")
		}
		for _, v := range vs {
			if n := xzBlocks(t, v); n != 2 {
				t.Fatalf("%d options: values stream of %d blocks (%d bytes)", len(opts), n, len(v))
			}
		}
		roundTrip(t, "split", src, opts...)
		for _, conc := range []int{1, 2, 4} {
			got, err := Decode(one, WithConcurrency(conc))
			if err != nil || !bytes.Equal(got, src) {
				t.Fatalf("concurrency %d: %v", conc, err)
			}
		}
	}
	// Below the threshold: one block, as before.
	withSplitMin(t, 100<<20)
	one, err := Encode(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range valuesStreams(t, one) {
		if n := xzBlocks(t, v); n != 1 {
			t.Fatalf("values stream of %d blocks under the threshold", n)
		}
	}
}

// TestValuesSplitCorrupt: damage in the second block of a split values
// stream gives the serial decoder's error, wrapping ErrCorrupt, at every
// concurrency and through the Reader.
func TestValuesSplitCorrupt(t *testing.T) {
	withSplitMin(t, xzTrialMax+1)
	src := tradesCSV(700 << 10)
	enc, err := Encode(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatal(err)
	}
	var at int64 = -1
	for _, s := range f.Streams {
		if s.Name == "values" {
			at = s.Offset + s.Size*3/4
		}
	}
	if at < 0 {
		t.Fatal("no values stream")
	}
	bad := append([]byte(nil), enc...)
	bad[at] ^= 0x20
	_, want := Decode(bad, WithConcurrency(1))
	if !errors.Is(want, ErrCorrupt) {
		t.Fatalf("serial: %v", want)
	}
	for _, conc := range []int{2, 4} {
		if _, err := Decode(bad, WithConcurrency(conc)); err == nil || err.Error() != want.Error() {
			t.Fatalf("concurrency %d: %v, want %v", conc, err, want)
		}
		z, err := NewReader(bytes.NewReader(bad), WithConcurrency(conc))
		if err == nil {
			_, err = z.WriteTo(new(bytes.Buffer))
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Reader, concurrency %d: %v", conc, err)
		}
	}
}

// TestValuesCut: the cut is the column boundary that balances the
// columns' compressed sizes, among those that leave each block a quarter
// of them and split few repeated strings; none when there is no such
// boundary or the stream is under valuesSplitMin.
func TestValuesCut(t *testing.T) {
	rnd := func(n int, seed uint64) []byte {
		r := rand.New(rand.NewPCG(seed, 9))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	set := func(cols ...[]byte) []namedStream {
		var idx, values []byte
		for _, c := range cols {
			idx = binary.AppendUvarint(idx, uint64(len(c)))
			values = append(values, c...)
		}
		return []namedStream{{name: "col_index", data: idx}, {name: "values", data: values}}
	}
	a, b, c := rnd(300_000, 1), rnd(250_000, 2), bytes.Repeat([]byte("z"), 400_000)
	// Random columns weigh their length, the run almost nothing: the
	// cut falls between a and b, and not after b.
	if vi, cut := valuesCut(set(a, b, c)); vi != 1 || cut != len(a) {
		t.Fatalf("a|b c: stream %d cut %d", vi, cut)
	}
	// One column holds nearly all the weight: no cut.
	if _, cut := valuesCut(set(a, rnd(20_000, 3), c)); cut != 0 {
		t.Fatalf("dominant column cut at %d", cut)
	}
	// A column and its copy on either side of the balancing boundary:
	// the second block would code a's strings again. The boundary after
	// the copy, admissible but less balanced, is taken instead; with the
	// copy last, no boundary is both admissible and cheap: no cut.
	d := rnd(300_000, 4)
	if _, cut := valuesCut(set(b, a, bytes.Clone(a), d)); cut != len(b)+2*len(a) {
		t.Fatalf("b a a c: cut %d, want %d", cut, len(b)+2*len(a))
	}
	if _, cut := valuesCut(set(a, b, bytes.Clone(a), c)); cut != 0 {
		t.Fatalf("a b a: cut at %d", cut)
	}
	// Under the threshold: no cut.
	withSplitMin(t, 2<<20)
	if _, cut := valuesCut(set(a, b, c)); cut != 0 {
		t.Fatalf("small stream cut at %d", cut)
	}
}

// TestCutCrossings: strings repeated across a boundary cross it; random
// columns share none.
func TestCutCrossings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	col := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	a, b, c := col(200_000), col(100_000), col(150_000)
	values := slices.Concat(a, b, a, c)
	ends := []int{len(a), len(a) + len(b), 2*len(a) + len(b), len(values)}
	cross, distinct := cutCrossings(values, ends)
	// a's sampled strings (4/9 of the distinct ones: a once, b, c)
	// cross the boundaries between its two copies, and nothing else.
	for k, want := range []float64{0.44, 0.44, 0, 0} {
		if got := float64(cross[k]) / float64(distinct); math.Abs(got-want) > 0.03 {
			t.Errorf("boundary %d: %.3f of the strings cross it, want %.2f", k, got, want)
		}
	}
	if distinct < len(values)/2/64 || distinct > cutSamples*2 {
		t.Errorf("%d distinct samples of %d bytes", distinct, len(values))
	}
}
