package onpair

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRoundTrip: any rows (the input split on 0xFF... here on '\n') at any
// width compress and decode back exactly, through every access path and
// the serialized form.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("hello\nworld\nhello world\n\n"), uint8(12), uint8(0))
	f.Add([]byte(strings.Repeat("abcabcabd\n", 50)), uint8(9), uint8(3))
	f.Add([]byte{0, 255, '\n', 1, 2, 3, '\n'}, uint8(16), uint8(255))
	f.Fuzz(func(t *testing.T, in []byte, bits, threshold uint8) {
		values := strings.Split(string(in), "\n")
		opts := []Option{WithBits(9 + int(bits)%8), WithSampleFraction(1)}
		if threshold >= 2 {
			opts = append(opts, WithPairThreshold(int(threshold)))
		}
		c, err := CompressStrings(values, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.AppendAll(nil); string(got) != strings.Join(values, "") {
			t.Fatalf("AppendAll %q", got)
		}
		var buf []byte
		for i, v := range values {
			buf, err = c.AppendRow(buf[:0], i)
			if err != nil || string(buf) != v {
				t.Fatalf("row %d: %q, %v; want %q", i, buf, err, v)
			}
		}
		b, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseColumn(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := back.MarshalBinary()
		if !bytes.Equal(b, b2) {
			t.Fatal("re-marshal differs")
		}
	})
}

// FuzzParseColumn: arbitrary bytes as a serialized column either fail with
// an ErrCorrupt/ErrTooLarge/ErrUnsupported error or give a column whose
// every access path agrees with the safe decoder.
func FuzzParseColumn(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.opcol"))
	for _, fn := range files {
		if b, err := os.ReadFile(fn); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseColumn(b, WithMaxDecodedSize(1<<20))
		if err != nil {
			if _, ok := err.(*CorruptError); !ok {
				t.Fatalf("error without location: %v", err)
			}
			return
		}
		want, err := decompressSafe(c.Parts())
		if err != nil {
			t.Fatal(err)
		}
		if got := c.AppendAll(nil); !bytes.Equal(got, want) {
			t.Fatalf("AppendAll %q, safe %q", got, want)
		}
		var joined []byte
		for _, row := range c.All() {
			joined = append(joined, row...)
		}
		if !bytes.Equal(joined, want) {
			t.Fatalf("rows %q, safe %q", joined, want)
		}
		out, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseColumn(out); err != nil {
			t.Fatalf("re-parse: %v", err)
		}
	})
}
