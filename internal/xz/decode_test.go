package xz

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	rootxz "github.com/therootcompany/xz"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// rootDecode is the reference: therootcompany/xz (a port of xz-embedded),
// first stream only.
func rootDecode(src []byte) ([]byte, error) {
	r, err := rootxz.NewReader(bytes.NewReader(src), 1<<30)
	if err != nil {
		return nil, err
	}
	r.Multistream(false)
	return io.ReadAll(r)
}

// decodeInputs are varied data: text, binary, runs, random.
func decodeInputs(t testing.TB) map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	rnd := make([]byte, 100_000)
	for i := range rnd {
		rnd[i] = byte(rng.Uint32())
	}
	runs := make([]byte, 0, 300_000)
	for len(runs) < 300_000 {
		runs = append(runs, bytes.Repeat([]byte{byte(rng.IntN(4))}, 1+rng.IntN(600))...)
	}
	words := []string{"alpha ", "beta ", "gamma\n", "delta,", "epsilon;", "zeta 12345 "}
	var text []byte
	for len(text) < 500_000 {
		text = append(text, words[rng.IntN(len(words))]...)
	}
	in := map[string][]byte{
		"empty":  {},
		"one":    {'x'},
		"zeros":  make([]byte, 3<<20),
		"random": rnd,
		"runs":   runs,
		"text":   text,
	}
	if dir := shareddata.Dir("onpair", "dbtext"); dir != "" {
		for _, f := range []string{"c_name", "urls2", "japanese"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			in[f] = b
		}
	}
	return in
}

func TestDecodeRoundTrip(t *testing.T) {
	for name, src := range decodeInputs(t) {
		for _, opts := range [][]Option{
			{WithPreset(0)},
			{WithPreset(6)},
			{WithPreset(6), WithLiteralContext(4, 0), WithCheck(CheckCRC32)},
			{WithPreset(1), WithLiteralContext(0, 1), WithCheck(CheckNone), WithBlockSize(MinBlockSize * 16)},
		} {
			enc, err := Encode(src, opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(enc)
			if err != nil || !bytes.Equal(got, src) {
				t.Fatalf("%s: decode: %v (%d bytes, want %d)", name, err, len(got), len(src))
			}
		}
	}
}

var _ = rootDecode
