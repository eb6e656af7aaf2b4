package at1

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// bigColumnar is a columnar file whose values stream (xz, about 400 KB
// decoded) is large enough for the pipelined decode; edit may change the
// decoded streams and the compressed values before packing.
func bigColumnar(t *testing.T, edit func(s map[string][]byte), editXZ func([]byte)) ([]byte, string) {
	var rows [][]string
	var want strings.Builder
	for i := 0; i < 70000; i++ {
		r := []string{strconv.Itoa(i * 7), "t" + strconv.Itoa(i%1000), strconv.Itoa(i % 3)}
		if i%7 == 3 {
			r = r[:i%3] // ragged rows, some empty
		}
		rows = append(rows, r)
		want.WriteString(strings.Join(r, ",") + "\n")
	}
	plain := columnarFile(t, BackendStored, "", rows, []string{"int", "text", "int"}, true)
	c, _ := newConfig(nil)
	ss, err := c.decoder().parseStreamSet(plain[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for i, s := range ss.streams {
		m[s.Name] = ss.data[i]
	}
	if edit != nil {
		edit(m)
	}
	var streams []tstream
	for _, s := range ss.streams {
		ts := tstream{s.Name, BackendStored, m[s.Name]}
		if s.Name == "values" {
			ts.backend = BackendXZ
		}
		streams = append(streams, ts)
	}
	src := wholeFile(CodecColumnar, packSet(t, streams...))
	if editXZ != nil {
		z := compress(t, BackendXZ, m["values"])
		i := bytes.Index(src, z)
		editXZ(src[i : i+len(z)])
	}
	return src, strings.TrimSuffix(want.String(), "\n") + "\n"
}

func TestPipelinedValues(t *testing.T) {
	src, want := bigColumnar(t, nil, nil)
	c, _ := newConfig(nil)
	ss, _ := c.decoder().parseStreamSet(src[5:], 5)
	if n, ok := xzIndexSize(ss.data[ss.find("values")]); !ok || n < 2*progressChunk {
		t.Fatalf("values stream of %d bytes is too small to be pipelined", n)
	}
	for _, conc := range []int{1, 2, 4} {
		got, err := Decode(src, WithConcurrency(conc))
		if err != nil || string(got) != want {
			t.Fatalf("concurrency %d: %v (%d bytes, want %d)", conc, err, len(got), len(want))
		}
	}
	// Verbatim rows (every 999th row; the columns then run ahead, which
	// leaves values unused at their ends), checked against the serial
	// path and the checked twin.
	src, _ = bigColumnar(t, func(s map[string][]byte) {
		var fc, vb []byte
		modes := bytes.Clone(s["row_modes"])
		for r := range modes {
			if r%999 == 5 {
				modes[r] = 0
				vb = append(vb, "# verbatim "+strconv.Itoa(r)+"\n"...)
			} else {
				fc = append(fc, s["fieldcounts"][r])
			}
		}
		s["row_modes"], s["fieldcounts"], s["verbatim"] = modes, fc, vb
	}, nil)
	serial, err := Decode(src, WithConcurrency(1))
	if err != nil || !bytes.Contains(serial, []byte("\n# verbatim 69935\n")) {
		t.Fatalf("verbatim rows: %v", err)
	}
	for _, opt := range []Option{WithConcurrency(2), WithConcurrency(3), withSafe()} {
		if got, err := Decode(src, opt); err != nil || !bytes.Equal(got, serial) {
			t.Fatalf("parallel or checked decode differs from serial: %v", err)
		}
	}
	bad := map[string][]byte{
		// The xz check (CRC64, just before the index) fails only once the
		// whole stream is decoded, after the columns have used it.
		"xz check": func() []byte {
			src, _ := bigColumnar(t, nil, func(z []byte) { z[len(z)-32] ^= 1 })
			return src
		}(),
		// The last column's chunk runs past the end of the values.
		"short values": func() []byte {
			src, _ := bigColumnar(t, func(s map[string][]byte) {
				s["col_index"] = append(bytes.Clone(s["col_index"][:len(s["col_index"])-1]), 0x7f)
				s["values"] = s["values"][:len(s["values"])-200]
			}, nil)
			return src
		}(),
		// A column fails early; the values stream is fine.
		"bad column": func() []byte {
			src, _ := bigColumnar(t, func(s map[string][]byte) { s["coltypes"] = []byte{colInt, colDec, colInt} }, nil)
			return src
		}(),
	}
	for name, src := range bad {
		for _, conc := range []int{1, 2} {
			if _, err := Decode(src, WithConcurrency(conc)); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s, concurrency %d: %v, want ErrCorrupt", name, conc, err)
			}
		}
	}
}
