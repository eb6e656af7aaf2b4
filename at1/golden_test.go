package at1

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files written by this package's test builder")

// goldens are files this package's test builder writes; the decoder must
// reproduce the .expected originals from the checked-in bytes.
var goldens = []struct {
	name  string
	build func(t *testing.T) (file, original []byte)
}{
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
			got, err := Decode(readVector(t, g.name+".at1"), Strict())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, readVector(t, g.name+".expected")) {
				t.Fatal("decoded bytes differ from the golden original")
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
