package at1

import (
	"bytes"
	"strings"
	"testing"
)

var encodeCodecs = []Codec{CodecAuto, CodecColumnar, CodecQColumnar, CodecQJSON, CodecRaw}

// fuzzRoundTrip encodes src under codec (forced when structured), decodes
// it and fails unless the bytes come back.
func fuzzRoundTrip(t *testing.T, src []byte, codec Codec, rg int) {
	opts := []Option{WithCodec(codec), WithLevel(1), WithRowGroupSize(rg), WithKeepCodec(true)}
	enc, err := Encode(src, opts...)
	if err != nil {
		t.Fatalf("Encode(%v): %v", codec, err)
	}
	got, err := Decode(enc, WithStrict())
	if err != nil {
		t.Fatalf("Decode(%v): %v", codec, err)
	}
	if !bytes.Equal(got, src) {
		t.Fatalf("codec %v: round trip gives %q, want %q", codec, got, src)
	}
	checkReference(t, codec.String(), enc, src)
}

// FuzzEncodeRoundTrip: Encode then Decode gives the input back, for any
// bytes and every codec.
func FuzzEncodeRoundTrip(f *testing.F) {
	for _, s := range []string{"", "\n", "a,b\n1,2\n", "a,b\r\n1,2", "\"x\"\"y\",\"\n", "{\"a\":1}\n{\"a\":2}\n", "\xff\x00\n\n1;2;3\n",
		"2025-06-24 14:36:25 status installed a:amd64 1.2-3\n2025-06-24 14:36:26 startup packages configure\n2025-06-24 14:36:27 configure \"b c\" 2 <none>\n"} {
		f.Add([]byte(s), byte(0), byte(0))
	}
	f.Fuzz(func(t *testing.T, src []byte, codec, rg byte) {
		if len(src) > 1<<16 {
			return
		}
		fuzzRoundTrip(t, src, encodeCodecs[int(codec)%len(encodeCodecs)], int(rg%8))
		checkNotLarger(t, src)
		checkFastBaseline(t, src)
	})
}

// csvTokens are field values that sit on the edges of the column types.
var csvTokens = []string{"0", "-0", "007", "1", "-1", "42", "1.50", "-0.05", "-0.00", "0.", "5.", "12.000",
	"N/A", "", "\"q,\"\"x\"\"\"", "\"\"", "a\"b", "\"open", "9223372036854775807", "-9223372036854775808",
	"9223372036854775808", "1e3", "+1", ".5", "x\r", "naïve", "\xff", "alpha", "beta", "{\"k\": 1}"}

// genCSV turns fuzz bytes into delimited text: a delimiter, a column
// count, then one token per byte, rows ended by a newline (sometimes CRLF,
// sometimes ragged, sometimes no final newline).
func genCSV(seed []byte) []byte {
	if len(seed) < 3 {
		return seed
	}
	delim := []string{",", ";", "\t", "|", " "}[seed[0]%5]
	ncols := 1 + int(seed[1]%6)
	var b strings.Builder
	k := 0
	for _, s := range seed[2:] {
		if k > 0 {
			b.WriteString(delim)
		}
		b.WriteString(csvTokens[int(s)%len(csvTokens)])
		k++
		if k >= ncols || s%17 == 0 {
			if s%23 == 0 {
				b.WriteString("\r")
			}
			b.WriteString("\n")
			k = 0
		}
	}
	return []byte(b.String())
}

// FuzzEncodeCSV: generated CSV-shaped input round-trips under every codec.
func FuzzEncodeCSV(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29})
	f.Add([]byte{1, 2, 6, 6, 6, 7, 7, 7, 12, 12, 0, 0})
	f.Add([]byte{2, 5, 18, 19, 20, 21, 22, 23, 24, 25, 26})
	f.Add([]byte{4, 4, 1, 2, 27, 28, 14, 3, 15, 17, 4, 5, 6, 7, 25, 26, 12, 13}) // space-delimited
	f.Fuzz(func(t *testing.T, seed []byte) {
		if len(seed) > 1<<12 {
			return
		}
		src := genCSV(seed)
		for _, codec := range encodeCodecs {
			fuzzRoundTrip(t, src, codec, 0)
		}
		checkNotLarger(t, src)
	})
}

// checkNotLarger: without forcing, the output is never larger than the
// smallest of our own plain xz, plain zstd and stored encodings of the
// input plus the RAW container (6 bytes) and the trailer (36).
func checkNotLarger(t *testing.T, src []byte) {
	enc, err := Encode(src, WithLevel(1))
	if err != nil {
		t.Fatal(err)
	}
	x, err := xzCompress(nil, src, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	bound := min(len(x), len(zstdCompress(nil, src, 1)), len(src)) + 6 + TrailerSize
	if len(enc) > bound {
		t.Fatalf("Encode gave %d bytes, more than the plain bound %d", len(enc), bound)
	}
}

// checkFastBaseline: without the xz baseline the output still round-trips
// and is no larger than plain zstd or stored plus the container.
func checkFastBaseline(t *testing.T, src []byte) {
	enc, err := Encode(src, WithLevel(1), WithXZBaseline(false))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(enc)
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("WithXZBaseline(false): round trip %v", err)
	}
	bound := min(len(zstdCompress(nil, src, 1)), len(src)) + 6 + TrailerSize
	if len(enc) > bound {
		t.Fatalf("WithXZBaseline(false) gave %d bytes, more than the plain zstd/stored bound %d", len(enc), bound)
	}
}

// onlyLayout keeps only the structured layout of that name (and forces
// it, as WithKeepCodec(true) does).
func onlyLayout(name string) Option {
	return func(c *config) error {
		c.enc.layout, c.enc.force = name, true
		return nil
	}
}

// genJSONL turns fuzz bytes into JSON Lines: a key count, then one value
// token per byte (quoted or not), some lines of another shape, spacing
// or nesting.
func genJSONL(seed []byte) []byte {
	if len(seed) < 2 {
		return seed
	}
	nkeys := 1 + int(seed[0]%5)
	var b strings.Builder
	k := 0
	for _, s := range seed[1:] {
		if k == 0 {
			b.WriteString("{")
		} else {
			b.WriteString([]string{",", ", "}[int(s>>7)&int(seed[0]>>7)])
		}
		b.WriteString(`"k` + string(rune('a'+k+int(s%29/28))) + `":`)
		tok := csvTokens[int(s)%len(csvTokens)]
		switch s % 5 {
		case 0:
			tok = `"` + strings.ReplaceAll(tok, `"`, `\"`) + `"`
		case 1:
			tok = "null"
		case 2:
			if tok == "" {
				tok = "[1,{\"x\":2}]"
			}
		}
		b.WriteString(tok)
		k++
		if k >= nkeys || s%19 == 0 {
			b.WriteString("}\n")
			k = 0
		}
	}
	return []byte(b.String())
}

// FuzzEncodeTokens: token tables (the empty delimiter) round-trip on
// generated CSV and JSON Lines, whatever the fields hold.
func FuzzEncodeTokens(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29})
	f.Add([]byte{1, 2, 6, 6, 6, 7, 7, 7, 12, 12, 0, 0, 6, 6, 6, 7, 7, 7, 12, 12, 0, 0, 6, 6, 6, 7, 7, 7, 12, 12, 0, 0})
	f.Add([]byte{130, 5, 18, 19, 20, 21, 22, 23, 24, 25, 26, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70})
	f.Add([]byte{0, 1, 27, 6, 28, 7, 27, 11, 28, 5, 27, 6, 28, 7, 27, 3, 28, 4, 27, 36, 28, 37, 27, 41, 28, 7, 27, 35, 28, 38}) // name, number
	f.Fuzz(func(t *testing.T, seed []byte) {
		if len(seed) > 1<<12 {
			return
		}
		table := bytes.Repeat(genCSV(seed), 20)
		// CRLF lines: every last field ends in '\r', which affixCut
		// tries to take off.
		crlf := bytes.ReplaceAll(table, []byte("\n"), []byte("\r\n"))
		for _, src := range [][]byte{genCSV(seed), genJSONL(seed), table, bytes.Repeat(genJSONL(seed), 20), crlf} {
			for _, l := range []string{"tokens", "jsontokens", "jsonunion"} {
				enc, err := Encode(src, WithCodec(CodecColumnar), WithLevel(1), onlyLayout(l))
				if err != nil {
					t.Fatalf("Encode(%s): %v", l, err)
				}
				got, err := Decode(enc, WithStrict())
				if err != nil || !bytes.Equal(got, src) {
					t.Fatalf("%s: round trip %v: %q, want %q", l, err, got, src)
				}
			}
		}
	})
}
