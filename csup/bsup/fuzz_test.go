package bsup_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/testgen"
)

// FuzzReader: any input either reads or fails with a bsup error; never a
// panic, never an allocation past the limits.
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob("../testdata/zst-v2_zed-v1.2.0/*.zst")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	var buf bytes.Buffer
	w, _ := bsup.NewWriter(&buf)
	g := testgen.New(3)
	for i := 0; i < 20; i++ {
		_ = w.Write(g.Value(g.Type(3)))
	}
	_ = w.Close()
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := bsup.NewReader(bytes.NewReader(b), bsup.WithMaxFrameSize(1<<20), bsup.WithMaxTypes(1000), bsup.WithMaxDepth(20))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10000; i++ {
			v, err := r.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				if !errors.Is(err, bsup.ErrCorrupt) && !errors.Is(err, bsup.ErrTooLarge) && !errors.Is(err, bsup.ErrUnsupported) {
					t.Fatalf("error without a sentinel: %v", err)
				}
				return
			}
			_ = bsup.AppendJSON(nil, v, bsup.JSONZed)
			// What was read re-encodes and reads back the same.
			body, err := bsup.AppendTagged(nil, v)
			if err != nil {
				t.Fatalf("re-encoding a value that was read: %v", err)
			}
			v2, _, err := bsup.DecodeTagged(v.Type, body)
			if err != nil || !bsup.Equal(v, v2) {
				t.Fatalf("re-decoding: %v", err)
			}
		}
	})
}

// FuzzRoundTrip: generated values of every type survive the writer and the
// reader exactly, compressed or not.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(1), uint8(3), false)
	f.Add(uint64(77), uint8(5), true)
	f.Fuzz(func(t *testing.T, seed uint64, depth uint8, compress bool) {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(int(depth % 6)), g.Type(2)}
		var vals []bsup.Value
		for i := 0; i < 50; i++ {
			vals = append(vals, g.Value(types[i%2]))
		}
		var buf bytes.Buffer
		w, _ := bsup.NewWriter(&buf, bsup.WithCompression(compress), bsup.WithFrameThreshold(256))
		for _, v := range vals {
			if err := w.Write(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, _ := bsup.NewReader(bytes.NewReader(buf.Bytes()))
		for i, want := range vals {
			got, err := r.Read()
			if err != nil || !bsup.Equal(want, got) {
				t.Fatalf("value %d: %v", i, err)
			}
		}
		if _, err := r.Read(); err != io.EOF {
			t.Fatalf("extra value or error: %v", err)
		}
	})
}

// FuzzJSONReader: JSON either parses into values that encode and decode
// exactly, or fails with a located bsup error.
func FuzzJSONReader(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":[1,"x",null,{"c":2.5}],"d":{}} 42 "s" [] null`))
	f.Add([]byte(`{"name":null,"val":"three","tags":["z",1],"obj":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		jr, err := bsup.NewJSONReader(bytes.NewReader(b), bsup.WithMaxDepth(20))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 1000; i++ {
			v, err := jr.Read()
			if err != nil {
				if err != io.EOF && !errors.Is(err, bsup.ErrCorrupt) && !errors.Is(err, bsup.ErrTooLarge) {
					t.Fatalf("error without a sentinel: %v", err)
				}
				return
			}
			body, err := bsup.AppendTagged(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			v2, _, err := bsup.DecodeTagged(v.Type, body)
			if err != nil || !bsup.Equal(v, v2) {
				t.Fatalf("JSON value does not round-trip: %v", err)
			}
		}
	})
}

// FuzzDiffJSONReader: the byte-scanning JSONReader and its twin built on
// encoding/json's tokenizer read the same values from the same input, and
// fail on the same inputs (up to the point of failure).
func FuzzDiffJSONReader(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[1,"x",null,{"c":2.5}],"d":{}} 42 "s" [] null`,
		`{"s":"\u00e9\ud83d\ude00\ud800x\\\"\/\b\f\n\r\t","n":-0.5e-3,"big":123456789012345678901234,"dup":1,"dup":"two"}`,
		"[1,2,3]\n[\"a\",1]\n{\"x\":[[],[1]]}",
		"\"\xff\xfe\" tru",
	} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, b []byte, chunk uint8) {
		fast, err := bsup.NewJSONReader(&chunkReader{b: b, n: int(chunk%16) + 1}, bsup.WithMaxDepth(20))
		if err != nil {
			t.Fatal(err)
		}
		twin := bsup.NewTokenJSON(bytes.NewReader(b), 20)
		for i := 0; i < 1000; i++ {
			v1, err1 := fast.Read()
			v2, err2 := twin.Read()
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("value %d: fast err %v, twin err %v", i, err1, err2)
			}
			if err1 != nil {
				if (err1 == io.EOF) != (err2 == io.EOF) {
					t.Fatalf("value %d: fast err %v, twin err %v", i, err1, err2)
				}
				return
			}
			if !bsup.Equal(v1, v2) {
				t.Fatalf("value %d differs: %s vs %s", i, bsup.AppendJSON(nil, v1, 0), bsup.AppendJSON(nil, v2, 0))
			}
		}
	})
}

// chunkReader hands out n bytes per Read, to exercise refills.
type chunkReader struct {
	b []byte
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[k:]
	return k, nil
}
