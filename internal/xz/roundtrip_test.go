package xz

import (
	"bytes"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	ulxz "github.com/ulikunitz/xz"
)

// decodeUlikunitz is the reference decoder used in tests.
func decodeUlikunitz(t testing.TB, enc []byte) []byte {
	t.Helper()
	r, err := ulxz.NewReader(bytes.NewReader(enc))
	if err != nil {
		t.Fatalf("ulikunitz/xz NewReader: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("ulikunitz/xz decode: %v", err)
	}
	return out
}

// decodeXZ runs the xz tool when it is installed.
func decodeXZ(t testing.TB, enc []byte) ([]byte, bool) {
	t.Helper()
	path, err := exec.LookPath("xz")
	if err != nil {
		return nil, false
	}
	cmd := exec.Command(path, "-dc")
	cmd.Stdin = bytes.NewReader(enc)
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("xz -dc: %v: %s", err, stderr.String())
	}
	return out.Bytes(), true
}

func roundTrip(t *testing.T, name string, src []byte, withTool bool, opts ...Option) []byte {
	t.Helper()
	enc, err := AppendEncode(nil, src, opts...)
	if err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	if got := decodeUlikunitz(t, enc); !bytes.Equal(got, src) {
		t.Fatalf("%s: ulikunitz round trip differs (len %d vs %d)", name, len(got), len(src))
	}
	if withTool {
		if got, ok := decodeXZ(t, enc); ok && !bytes.Equal(got, src) {
			t.Fatalf("%s: xz -d round trip differs (len %d vs %d)", name, len(got), len(src))
		}
	}
	return enc
}

func TestRoundTripSmall(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	rnd := make([]byte, 100000)
	rng.Read(rnd)
	inputs := map[string][]byte{
		"empty":  {},
		"one":    {'x'},
		"two":    {'a', 'a'},
		"zeros":  make([]byte, 70000),
		"random": rnd,
		"text":   bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog. "), 3000),
	}
	for name, src := range inputs {
		for _, lvl := range []int{0, 3, 6} {
			roundTrip(t, name, src, true, WithPreset(lvl))
		}
		roundTrip(t, name+"/9e", src, true, WithPreset(9), WithExtreme(true), WithCheck(CheckCRC32))
	}
}

func TestRoundTripDBText(t *testing.T) {
	dir := shareddata.Path(t, "onpair", "dbtext")
	for _, name := range []string{"city", "street", "japanese"} {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		enc := roundTrip(t, name, src, true)
		t.Logf("%s: %d -> %d", name, len(src), len(enc))
	}
}
