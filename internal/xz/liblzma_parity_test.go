package xz

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// liblzmaCases are the LZMA2 data (from the block's first chunk header
// to the end marker) that xz 5.4.1 (liblzma 5.4.1, Debian 12's xz-utils
// 5.4.1-1+deb12u2) writes for a prefix of an input with
// `xz -PRESET --check=crc32 -c`: its length and the first 8 bytes of its
// SHA-256. The inputs are dbtext files of ../shared/data/onpair/dbtext,
// or structured(6) and structured(11) ("structured6", "structured11").
// Each compresses to one LZMA2 chunk, so the chunking cannot differ.
var liblzmaCases = []struct {
	input  string
	n      int
	preset string
	size   int
	sha    string
}{
	{"c_name", 49152, "0", 9414, "5eecd38a924322fd"},
	{"c_name", 49152, "1", 9199, "b446f4b7c278a6d7"},
	{"c_name", 49152, "3", 9006, "00457a19908817b3"},
	{"c_name", 49152, "6e", 7236, "f51525a04c1973ae"},
	{"c_name", 300, "6e", 105, "e80ac17c88cedcae"},
	{"l_comment", 65536, "2", 16360, "5087338d3a0482c5"},
	{"l_comment", 65536, "4", 15255, "34c367bbbc7a392d"},
	{"l_comment", 65536, "6", 14647, "51cb06997567184a"},
	{"l_comment", 65536, "3e", 14648, "718287f44a00d06f"},
	{"hex", 40960, "6e", 21678, "27bbd2fc23aa0d0b"},
	{"hex", 40960, "5", 21678, "27bbd2fc23aa0d0b"},
	{"urls2", 49152, "6e", 18124, "a49bf700eefb23bf"},
	{"urls2", 49152, "1", 19795, "cf8d428cc3d7cc0e"},
	{"japanese", 65536, "5", 20884, "bf08e9c4523a1729"},
	{"japanese", 65536, "6e", 20902, "1a5cfeb210fa43af"},
	{"email", 65536, "4", 26777, "599fc3f4d5c85dfa"},
	{"email", 65536, "6e", 26744, "fe49935e277150c4"},
	{"structured6", 102400, "6e", 5841, "41aab148e34d3d4b"},
	{"structured6", 102400, "2", 5983, "3c4eeb07bc50e8d0"},
	{"structured11", 122880, "7", 7010, "13ccad49c25ddc82"},
	{"structured11", 122880, "4e", 6907, "265979da64953b55"},
}

// TestLiblzmaParity checks that, with liblzma's table sizes, the encoder
// writes liblzma's LZMA2 data byte for byte at every kind of preset:
// the same match finder results, the same prices (a 1 bit priced from
// prob^2047, length tables of nice-1 entries refreshed before the
// length's own bits reach the model, as liblzma's queued range coder
// does), the same parse, and each copy written as the kind of symbol
// the parser chose.
func TestLiblzmaParity(t *testing.T) {
	dir := shareddata.Path(t, "onpair", "dbtext")
	for _, c := range liblzmaCases {
		t.Run(c.input+"-"+c.preset, func(t *testing.T) {
			var src []byte
			switch c.input {
			case "structured6":
				src = structured(6)
			case "structured11":
				src = structured(11)
			default:
				b, err := os.ReadFile(filepath.Join(dir, c.input))
				if err != nil {
					t.Fatal(err)
				}
				src = b
			}
			src = src[:min(c.n, len(src))]
			p := presetParams(int(c.preset[0]-'0'), strings.HasSuffix(c.preset, "e"))
			p.liblzmaTables = true
			got := appendLZMA2(nil, src, p, nil)
			sum := sha256.Sum256(got)
			if h := hex.EncodeToString(sum[:8]); len(got) != c.size || h != c.sha {
				t.Errorf("xz -%s of %d bytes: %d bytes (sha %s), liblzma %d (sha %s)", c.preset, len(src), len(got), h, c.size, c.sha)
			}
		})
	}
}
