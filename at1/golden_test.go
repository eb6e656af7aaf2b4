package at1

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files written by this package's test builder")

// goldens are files this package's test builder writes; the decoder must
// reproduce the .expected originals from the checked-in bytes.
var goldens = []struct {
	name  string
	build func(t *testing.T) (file, original []byte)
}{
	// The shared vectors re-packed with every stream stored: the same
	// content, easy for a fuzzer to mutate meaningfully.
	{"golden_columnar_edge_stored", func(t *testing.T) ([]byte, []byte) {
		return restored(t, "columnar_edge.at1"), readVector(t, "columnar_edge.expected")
	}},
	{"golden_qcol_stored", func(t *testing.T) ([]byte, []byte) {
		return restored(t, "qcol.at1"), readVector(t, "qcol.expected")
	}},
	{"golden_qjson_stored", func(t *testing.T) ([]byte, []byte) {
		return restored(t, "qjson.at1"), readVector(t, "qjson.expected")
	}},
	{"golden_columnar", func(t *testing.T) ([]byte, []byte) {
		rows := [][]string{{"1", "0.10", "x"}, {"-2", "-3.05", "y,z"}, {"3"}, {"4", "0.00", ""}}
		src := columnarFile(t, BackendXZ, "a,b,c", rows, []string{"int", "dec2", "text"}, true)
		return src, []byte("a,b,c\n1,0.10,x\n-2,-3.05,y,z\n3\n4,0.00,\n")
	}},
	{"golden_qcol_trades", func(t *testing.T) ([]byte, []byte) {
		lines, want := tradesLines(5000)
		src := qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, 1024, lines, true, tagZstd)
		return withTrailer(src, []byte(want)), []byte(want)
	}},
}

// bads are inputs that must fail, each with the sentinel it must wrap.
var bads = []struct {
	name     string
	sentinel error
	build    func(t *testing.T) []byte
}{
	{"bad_go_binding_16383_streams", ErrCorrupt, func(t *testing.T) []byte {
		return []byte{0x41, 0x54, 0x31, 0x02, 0x07, 0xff, 0xff, 0x00}
	}},
	{"bad_257_streams", ErrTooLarge, func(t *testing.T) []byte {
		var streams []tstream
		for i := 0; i < 257; i++ {
			streams = append(streams, tstream{"s", BackendStored, nil})
		}
		return wholeFile(CodecColumnar, packSet(t, streams...))
	}},
	{"bad_dict_index", ErrCorrupt, func(t *testing.T) []byte {
		return oneColumn(t, colDict, "\x01\x01\x01x\x01", 1)
	}},
	{"bad_shuf_width_9", ErrCorrupt, func(t *testing.T) []byte {
		return oneColumn(t, colShuf, "\x01\x00\x09"+strings.Repeat("\x00", 9), 1)
	}},
	{"bad_block_tag_2", ErrCorrupt, func(t *testing.T) []byte {
		src := qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt}, 2, []qLine{{row: []string{"1"}}}, false, tagZstd)
		// The stored blocks stream is last; its first byte is the tag.
		i := bytes.LastIndex(src, []byte{tagZstd, 0x28, 0xB5, 0x2F, 0xFD})
		src[i] = 2
		return src
	}},
	{"bad_framed_truncated", ErrCorrupt, func(t *testing.T) []byte {
		return framed(CodecRaw, append([]byte{1, 2}, "hello"...))[:10]
	}},
	{"bad_framed_method_2", ErrCorrupt, func(t *testing.T) []byte {
		return framed(CodecColumnar, []byte{2, 0})
	}},
	{"bad_codec_vcf", ErrUnsupported, func(t *testing.T) []byte {
		return wholeFile(CodecVCF, []byte{0})
	}},
	{"bad_trailer_framed", ErrChecksum, func(t *testing.T) []byte {
		return withTrailer(framed(CodecRaw, append([]byte{1, 2}, "hello"...)), []byte("hellO"))
	}},
	{"bad_zstd_two_frames", ErrCorrupt, func(t *testing.T) []byte {
		z := compress(t, BackendZstd, []byte("ab"))
		return append(append(wholeFile(CodecRaw, []byte{BackendZstd}), z...), z...)
	}},
}

func TestBad(t *testing.T) {
	for _, b := range bads {
		t.Run(b.name, func(t *testing.T) {
			path := filepath.Join("testdata", b.name+".at1")
			if *update {
				must(t, os.WriteFile(path, b.build(t), 0o644))
			}
			src := readVector(t, b.name+".at1")
			if _, err := Decode(src); !errors.Is(err, b.sentinel) {
				t.Fatalf("Decode: %v, want %v", err, b.sentinel)
			}
			z, err := NewReader(bytes.NewReader(src))
			if err == nil {
				_, err = io.Copy(io.Discard, z)
			}
			if !errors.Is(err, b.sentinel) {
				t.Fatalf("NewReader: %v, want %v", err, b.sentinel)
			}
		})
	}
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			path := filepath.Join("testdata", g.name+".at1")
			if *update {
				file, orig := g.build(t)
				must(t, os.WriteFile(path, file, 0o644))
				must(t, os.WriteFile(filepath.Join("testdata", g.name+".expected"), orig, 0o644))
				if g.name == "golden_qcol_trades" {
					must(t, os.WriteFile("../cmd/colfmt/demodata/at1/trades.at1", file, 0o644))
				}
			}
			got, err := Decode(readVector(t, g.name+".at1"), WithStrict())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, readVector(t, g.name+".expected")) {
				t.Fatal("decoded bytes differ from the golden original")
			}
		})
	}
}

// restored re-packs a whole-file vector with every stream stored.
func restored(t *testing.T, name string) []byte {
	src := readVector(t, name)
	c, _ := newConfig(nil)
	ss, err := c.decoder().parseStreamSet(src[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	var streams []tstream
	for i, s := range ss.streams {
		d, err := c.decoder().decompress(s.Backend, ss.data[i], 1<<20, 0, s.Name)
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, tstream{s.Name, BackendStored, d})
	}
	return wholeFile(Codec(src[4]), packSet(t, streams...))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
