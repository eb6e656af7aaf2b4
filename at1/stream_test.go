package at1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/varint"
)

// streamCSV is a columnar-shaped CSV of several MiB: more than one
// chunk, with quoted fields, a ragged row and a verbatim line.
func streamCSV(rows int) []byte {
	var b strings.Builder
	b.WriteString("id,price,name,note\n")
	for i := 0; i < rows; i++ {
		switch {
		case i%997 == 5:
			b.WriteString("not,a \"proper row\n")
		case i%1009 == 7:
			fmt.Fprintf(&b, "%d,%d.%02d\n", i, i%1000, i%100)
		default:
			fmt.Fprintf(&b, "%d,%d.%02d,name-%d,\"say \"\"%d\"\", ok\"\n", i, i%1000, i%100, i%37, i%11)
		}
	}
	return []byte(b.String())
}

// chunkLog records the size of every Write.
type chunkLog struct {
	bytes.Buffer
	writes []int
}

func (c *chunkLog) Write(p []byte) (int, error) {
	c.writes = append(c.writes, len(p))
	return c.Buffer.Write(p)
}

func TestDecodeToColumnarChunks(t *testing.T) {
	orig := streamCSV(120000)
	for _, chunk := range []int64{0, 1 << 20} { // whole-file, and framed
		opts := []Option{WithCodec(CodecColumnar), WithLevel(1)}
		if chunk > 0 {
			opts = append(opts, WithChunkSize(chunk))
		}
		enc, err := Encode(orig, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if framed, codec, _ := checkHeader(enc); framed != (chunk > 0) || (chunk == 0 && codec != CodecColumnar) {
			t.Fatalf("chunk %d: framed %v codec %v", chunk, framed, codec)
		}
		var w chunkLog
		n, err := DecodeTo(&w, enc)
		if err != nil || n != int64(len(orig)) || !bytes.Equal(w.Bytes(), orig) {
			t.Fatalf("chunk %d: DecodeTo %d bytes, %v; equal %v", chunk, n, err, bytes.Equal(w.Bytes(), orig))
		}
		// The output went out in pieces of about streamChunk, not whole.
		for _, k := range w.writes {
			if k > 2*streamChunk {
				t.Fatalf("chunk %d: a write of %d bytes (chunk %d)", chunk, k, streamChunk)
			}
		}
		if len(w.writes) < len(orig)/(2*streamChunk) {
			t.Fatalf("chunk %d: %d writes for %d bytes", chunk, len(w.writes), len(orig))
		}
		// The Reader's WriteTo streams the same way.
		z, err := NewReader(bytes.NewReader(enc))
		if err != nil {
			t.Fatal(err)
		}
		var w2 chunkLog
		if n, err := z.WriteTo(&w2); err != nil || n != int64(len(orig)) || !bytes.Equal(w2.Bytes(), orig) {
			t.Fatalf("chunk %d: WriteTo %d, %v", chunk, n, err)
		}
		if len(w2.writes) != len(w.writes) {
			t.Errorf("chunk %d: WriteTo made %d writes, DecodeTo %d", chunk, len(w2.writes), len(w.writes))
		}
	}
}

// A bad trailer is found after the bytes were written: DecodeTo returns
// ErrChecksum (and has written the unverified bytes); Decode returns
// nothing but the error.
func TestDecodeToChecksumAfterWrite(t *testing.T) {
	orig := streamCSV(3000)
	enc, err := Encode(orig, WithCodec(CodecColumnar), WithLevel(1))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(enc, trailerMagic) {
		t.Fatal("no trailer")
	}
	bad := bytes.Clone(enc)
	bad[len(bad)-TrailerSize] ^= 1
	var w bytes.Buffer
	n, err := DecodeTo(&w, bad)
	if !errors.Is(err, ErrChecksum) || n != int64(len(orig)) || !bytes.Equal(w.Bytes(), orig) {
		t.Fatalf("DecodeTo bad trailer: %d bytes, %v", n, err)
	}
	if out, err := Decode(bad); !errors.Is(err, ErrChecksum) || out != nil {
		t.Fatalf("Decode bad trailer: %d bytes, %v", len(out), err)
	}
	z, err := NewReader(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(z); !errors.Is(err, ErrChecksum) {
		t.Fatalf("Read bad trailer: %v", err)
	}
}

type failAfterWriter struct{ n, after int }

var errWrite = errors.New("disk full")

func (f *failAfterWriter) Write(p []byte) (int, error) {
	if f.n+len(p) > f.after {
		return 0, errWrite
	}
	f.n += len(p)
	return len(p), nil
}

func TestDecodeToErrors(t *testing.T) {
	orig := streamCSV(40000)
	enc, err := Encode(orig, WithCodec(CodecColumnar), WithLevel(1))
	if err != nil {
		t.Fatal(err)
	}
	// The writer's error is returned, with the count of bytes it took.
	fw := &failAfterWriter{after: 3 * streamChunk}
	if n, err := DecodeTo(fw, enc); !errors.Is(err, errWrite) || n != int64(fw.n) || n == 0 {
		t.Fatalf("failing writer: %d bytes, %v", n, err)
	}
	// The decoded limit applies before anything is written.
	var w bytes.Buffer
	if _, err := DecodeTo(&w, enc, WithMaxDecodedSize(int64(len(orig)-1))); !errors.Is(err, ErrTooLarge) || w.Len() != 0 {
		t.Fatalf("limit: %v, %d bytes written", err, w.Len())
	}
	if _, err := DecodeTo(&w, enc, WithMaxDecodedSize(int64(len(orig)))); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	if _, err := DecodeTo(nil, enc); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("nil writer: %v", err)
	}
	// Damage found while decoding surfaces as ErrCorrupt or ErrChecksum.
	bad := bytes.Clone(enc)
	bad[len(bad)/2] ^= 0x55
	if _, err := DecodeTo(io.Discard, bad); err == nil {
		t.Fatal("damaged file decoded")
	}
}

// Every shared vector decodes through DecodeTo as through Decode.
func TestDecodeToVectors(t *testing.T) {
	for _, v := range loadManifest(t) {
		src := readVector(t, v.File)
		want, derr := Decode(src)
		var w bytes.Buffer
		n, err := DecodeTo(&w, src)
		if (err == nil) != (derr == nil) || (err == nil && (!bytes.Equal(w.Bytes(), want) || n != int64(len(want)))) {
			t.Errorf("%s: DecodeTo %q %v, Decode %q %v", v.Name, w.Bytes(), err, want, derr)
		}
		if derr != nil && err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrChecksum) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: DecodeTo error %v wraps no sentinel", v.Name, err)
		}
	}
}

func BenchmarkDecodeToColumnar(b *testing.B) {
	orig := streamCSV(120000)
	enc, err := Encode(orig, WithCodec(CodecColumnar), WithLevel(1))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Decode", func(b *testing.B) {
		b.SetBytes(int64(len(orig)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Decode(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DecodeTo", func(b *testing.B) {
		b.SetBytes(int64(len(orig)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := DecodeTo(io.Discard, enc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// qcolumnar and qjson lines stream in chunks too; a damaged file gives
// an error whatever was written before it.
func TestDecodeToQueryCodecs(t *testing.T) {
	var jl strings.Builder
	for i := 0; i < 60000; i++ {
		fmt.Fprintf(&jl, "{\"id\": %d, \"name\": \"pkg-%d\", \"meta\": {\"v\": \"%d.%d\"}}\n", i, i%333, i%7, i%13)
		if i%4999 == 3 {
			jl.WriteString("not json at all\n")
		}
	}
	for _, tc := range []struct {
		codec Codec
		orig  []byte
	}{{CodecQColumnar, streamCSV(100000)}, {CodecQJSON, []byte(jl.String())}} {
		enc, err := Encode(tc.orig, WithCodec(tc.codec), WithLevel(1))
		if err != nil {
			t.Fatal(err)
		}
		if _, codec, _ := checkHeader(enc); codec != tc.codec {
			t.Fatalf("%v: encoded as %v", tc.codec, codec)
		}
		var w chunkLog
		n, err := DecodeTo(&w, enc)
		if err != nil || n != int64(len(tc.orig)) || !bytes.Equal(w.Bytes(), tc.orig) {
			t.Fatalf("%v: DecodeTo %d bytes, %v", tc.codec, n, err)
		}
		if len(w.writes) < len(tc.orig)/(2*streamChunk) || slicesMax(w.writes) > 2*streamChunk {
			t.Fatalf("%v: writes %v", tc.codec, w.writes)
		}
		if _, err := DecodeTo(io.Discard, enc, WithMaxDecodedSize(int64(len(tc.orig)-1))); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("%v: limit: %v", tc.codec, err)
		}
	}
}

func slicesMax(s []int) int {
	m := 0
	for _, v := range s {
		m = max(m, v)
	}
	return m
}

// A lazy INT/DEC column gives the same values as a materialized one, in
// any access order (going back restarts from value 0).
func TestLazyNumsMatchText(t *testing.T) {
	vals := []int64{0, -1, 5, 1 << 40, -(1 << 62), 7, 7, -300, 12345678, 0, 1<<63 - 1, -1 << 63}
	var deltas []byte
	var prev int64
	for _, v := range vals {
		deltas = varint.AppendSigned(deltas, v-prev)
		prev = v
	}
	for _, dec := range []int{-1, 0, 2, maxScale} {
		budget := int64(1 << 20)
		text, err := numColumn(&cursor{b: deltas}, dec, &budget, false)
		if err != nil {
			t.Fatal(err)
		}
		budget2 := int64(1 << 20)
		lazy, err := numColumn(&cursor{b: deltas}, dec, &budget2, true)
		if err != nil || lazy.num == nil || budget != budget2 {
			t.Fatalf("dec %d: lazy %v, %v; budgets %d %d", dec, lazy.num != nil, err, budget, budget2)
		}
		if lazy.count() != text.count() || lazy.count() != len(vals) {
			t.Fatalf("dec %d: counts %d %d", dec, lazy.count(), text.count())
		}
		var sum int64
		for i := 0; i < text.count(); i++ {
			sum += int64(len(text.at(i)))
		}
		if sum != lazy.num.textLen {
			t.Fatalf("dec %d: textLen %d, want %d", dec, lazy.num.textLen, sum)
		}
		for _, i := range []int{0, 1, 1, 2, 5, 3, 11, 0, 10, 10, 4, 6, 7, 8, 9} {
			if got, want := lazy.at(i), text.at(i); !bytes.Equal(got, want) {
				t.Fatalf("dec %d: value %d = %q, want %q", dec, i, got, want)
			}
		}
	}
}

// A lazy TEXT column gives splitLines' values in any access order.
func TestLazyTextMatchesSplitLines(t *testing.T) {
	for _, b := range []string{"", "\n", "a", "a\n", "\nb", "one\ntwo\n\nfour\"q\"\n", "x\n\n\n"} {
		want := splitLines([]byte(b))
		got := colVals{text: lazyLines([]byte(b))}
		if got.count() != want.count() {
			t.Fatalf("%q: count %d, want %d", b, got.count(), want.count())
		}
		order := []int{}
		for i := 0; i < want.count(); i++ {
			order = append(order, i, i)
		}
		for i := want.count() - 1; i >= 0; i-- {
			order = append(order, i)
		}
		for _, i := range order {
			if g, w := got.at(i), want.at(i); !bytes.Equal(g, w) {
				t.Fatalf("%q: line %d = %q, want %q", b, i, g, w)
			}
		}
	}
}

// aheadWriter records what a Reader's WriteTo writes, and whether the
// frames were being read ahead (z.ahead set) while it wrote.
type aheadWriter struct {
	bytes.Buffer
	z     *Reader
	ahead bool
}

func (w *aheadWriter) Write(p []byte) (int, error) {
	w.ahead = w.ahead || w.z.ahead != nil
	return w.Buffer.Write(p)
}

// TestReaderFramesAhead: a framed columnar file streamed by WriteTo with
// its frames read and decoded ahead gives the bytes, the errors and the
// bytes written before an error that the serial path (WithConcurrency(1))
// gives: intact, with a bad trailer, with a damaged later frame and cut
// off inside a later frame.
func TestReaderFramesAhead(t *testing.T) {
	orig := streamCSV(60000)
	enc, err := Encode(orig, WithCodec(CodecColumnar), WithLevel(1), WithChunkSize(256<<10))
	if err != nil {
		t.Fatal(err)
	}
	c, err := newConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.decoder().parse(memSource(enc, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Frames) < 4 || p.Codec != CodecColumnar {
		t.Fatalf("%d frames, codec %v", len(p.Frames), p.Codec)
	}
	last := p.Frames[len(p.Frames)-2]
	badTrailer := bytes.Clone(enc)
	badTrailer[len(badTrailer)-TrailerSize] ^= 1
	damaged := bytes.Clone(enc)
	damaged[last.Offset+last.Size/2] ^= 0x55
	cases := map[string][]byte{
		"intact":      enc,
		"bad trailer": badTrailer,
		"damaged":     damaged,
		"cut":         enc[:last.Offset+last.Size/2],
	}
	for name, src := range cases {
		run := func(opts ...Option) (*aheadWriter, error) {
			z, err := NewReader(bytes.NewReader(src), opts...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			w := &aheadWriter{z: z}
			n, err := z.WriteTo(w)
			if n != int64(w.Len()) {
				t.Fatalf("%s: WriteTo returned %d, wrote %d", name, n, w.Len())
			}
			return w, err
		}
		ahead, aerr := run(WithConcurrency(2))
		serial, serr := run(WithConcurrency(1))
		if !ahead.ahead || serial.ahead {
			t.Fatalf("%s: frames read ahead %v (concurrency 2), %v (concurrency 1)", name, ahead.ahead, serial.ahead)
		}
		if fmt.Sprint(aerr) != fmt.Sprint(serr) || !bytes.Equal(ahead.Bytes(), serial.Bytes()) {
			t.Fatalf("%s: ahead %d bytes, %v; serial %d bytes, %v", name, ahead.Len(), aerr, serial.Len(), serr)
		}
		switch name {
		case "intact":
			if aerr != nil || !bytes.Equal(ahead.Bytes(), orig) {
				t.Fatalf("intact: %v, equal %v", aerr, bytes.Equal(ahead.Bytes(), orig))
			}
		case "bad trailer":
			if !errors.Is(aerr, ErrChecksum) || !bytes.Equal(ahead.Bytes(), orig) {
				t.Fatalf("bad trailer: %v", aerr)
			}
		default:
			if !errors.Is(aerr, ErrCorrupt) || ahead.Len() == 0 || ahead.Len() >= len(orig) {
				t.Fatalf("%s: %d bytes, %v", name, ahead.Len(), aerr)
			}
		}
	}
}

// TestSplitLinesWords checks splitLines (its word-at-a-time scan and its
// IndexByte loop for long values) against bytes.Split on buffers of
// every length up to 80 with newlines at random places, dense and
// sparse, runs of them, and the bytes next to '\n' in value (0x0b, 0x09,
// 0x8a) that a scan with carries would mistake for it.
func TestSplitLinesWords(t *testing.T) {
	seed := uint64(7)
	rnd := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	dense := []byte{'\n', '\n', 0x0b, 0x09, 0x8a, 0x00, 0xff, 'a', 0x01}
	// Newlines one byte in 40: long values, the IndexByte branch.
	sparse := append(bytes.Repeat([]byte{'a', 0x0b}, 20), '\n')
	for size := 0; size <= 80; size++ {
		for trial := 0; trial < 200; trial++ {
			alphabet := dense
			if trial%2 == 1 {
				alphabet = sparse
			}
			b := make([]byte, size)
			for i := range b {
				b[i] = alphabet[rnd()%uint64(len(alphabet))]
			}
			if trial == 0 {
				for i := range b {
					b[i] = '\n'
				}
			}
			v := splitLines(b)
			want := bytes.Split(b, []byte{'\n'})
			if v.count() != len(want) {
				t.Fatalf("%q: %d values, want %d", b, v.count(), len(want))
			}
			for i, w := range want {
				if got := v.at(i); !bytes.Equal(got, w) {
					t.Fatalf("%q: value %d is %q, want %q", b, i, got, w)
				}
			}
		}
	}
}
