package xz

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	rootxz "github.com/therootcompany/xz"

	"github.com/colfmt/colfmt/internal/errs"
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
		"zeros":  make([]byte, 2<<20+100),
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
		if len(src) > 300_000 && name != "zeros" {
			src = src[:300_000]
		}
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

// xzCmd compresses src with the xz command and the given arguments.
func xzCmd(t testing.TB, src []byte, args ...string) []byte {
	t.Helper()
	path, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz not installed")
	}
	cmd := exec.Command(path, append([]string{"-c"}, args...)...)
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xz %v: %v", args, err)
	}
	return out
}

// TestDecodeLiblzma decodes what liblzma writes with every check, several
// literal models, presets and block splits, and compares with the input
// and with therootcompany/xz.
func TestDecodeLiblzma(t *testing.T) {
	in := decodeInputs(t)
	for _, name := range []string{"empty", "one", "random", "runs", "text", "c_name"} {
		src, ok := in[name]
		if !ok {
			continue
		}
		if len(src) > 400_000 {
			src = src[:400_000]
		}
		for _, args := range [][]string{
			{"-0", "-T1"}, {"-6", "-T1"}, {"-9e", "-T1"},
			{"-6", "-T1", "--check=crc32"}, {"-6", "-T1", "--check=sha256"}, {"-1", "-T1", "--check=none"},
			{"-T1", "--lzma2=preset=6,lc=4,pb=0"}, {"-T1", "--lzma2=preset=1,lc=1,lp=3,pb=4"},
			{"-T2", "-3", "--block-size=65536"},
		} {
			enc := xzCmd(t, src, args...)
			got, err := Decode(enc)
			if err != nil || !bytes.Equal(got, src) {
				t.Fatalf("%s %v: %v (%d bytes, want %d)", name, args, err, len(got), len(src))
			}
			ref, err := rootDecode(enc)
			if err != nil || !bytes.Equal(ref, got) {
				t.Fatalf("%s %v: therootcompany: %v", name, args, err)
			}
		}
	}
}

// TestDecodeStreams covers concatenated streams, stream padding and
// trailing bytes.
func TestDecodeStreams(t *testing.T) {
	a, b := []byte("first stream\n"), []byte("second, longer stream\n")
	ea, _ := Encode(a)
	eb, _ := Encode(b, WithCheck(CheckCRC32))
	cat := append(append(append([]byte{}, ea...), 0, 0, 0, 0), eb...)
	got, err := Decode(cat)
	if err != nil || string(got) != string(a)+string(b) {
		t.Fatalf("concatenated: %q, %v", got, err)
	}
	got, n, err := AppendDecodeStream([]byte("pre:"), append(cat, "JUNK"...))
	if err != nil || string(got) != "pre:"+string(a) || n != len(ea) {
		t.Fatalf("first stream: %q, %d, %v", got, n, err)
	}
	for _, bad := range [][]byte{
		append(append([]byte{}, ea...), 0, 0),      // padding not a multiple of 4
		append(append([]byte{}, ea...), "JUNK"...), // trailing garbage
		ea[:len(ea)-1],
	} {
		if _, err := Decode(bad); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("want ErrCorrupt, got %v", err)
		}
	}
}

// TestDecodeErrors: unsupported filters and checks, damage, truncation
// and the size limit fail with the package's errors, never a panic or a
// wrong success.
func TestDecodeErrors(t *testing.T) {
	src := []byte(strings.Repeat("AT-1 columns, rows and streams; ", 200))
	enc, err := Encode(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(enc, WithMaxDecodedSize(int64(len(src)-1))); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("limit: %v", err)
	}
	if got, err := Decode(enc, WithMaxDecodedSize(int64(len(src)))); err != nil || !bytes.Equal(got, src) {
		t.Fatalf("exact limit: %v", err)
	}
	if _, err := Decode(enc, WithMaxDecodedSize(-1)); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("bad option: %v", err)
	}
	for n := 0; n < len(enc); n++ {
		if _, err := Decode(enc[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated at %d: %v", n, err)
		}
	}
	for i := 0; i < len(enc); i++ {
		bad := append([]byte{}, enc...)
		bad[i] ^= 0x41
		got, err := Decode(bad)
		if err == nil && !bytes.Equal(got, src) {
			t.Fatalf("byte %d flipped: wrong output without an error", i)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
		var ce *errs.CorruptError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("byte %d flipped: error is not located: %v", i, err)
		}
	}
	if _, err := exec.LookPath("xz"); err == nil {
		for _, args := range [][]string{{"--x86", "--lzma2"}, {"--delta=dist=2", "--lzma2"}, {"--check=crc64", "--format=xz", "--lzma2=preset=1", "--arm64"}} {
			cmd := exec.Command("xz", append([]string{"-c"}, args...)...)
			cmd.Stdin = bytes.NewReader(src)
			enc, err := cmd.Output()
			if err != nil {
				continue // an xz without that filter
			}
			if _, err := Decode(enc); !errors.Is(err, ErrUnsupported) {
				t.Fatalf("%v: want ErrUnsupported, got %v", args, err)
			}
		}
	}
}

// fuzzSeeds are small .xz streams of varied shapes.
func fuzzSeeds(f *testing.F) {
	for _, s := range []string{"", "a", "abcabcabcabcabc", strings.Repeat("xyz, 0123 ", 50)} {
		for _, opts := range [][]Option{{WithPreset(0)}, {WithPreset(6), WithCheck(CheckCRC32)}, {WithLiteralContext(4, 0), WithCheck(CheckNone)}} {
			enc, err := Encode([]byte(s), opts...)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(enc)
		}
	}
}

// FuzzDiffDecode compares the decoder with therootcompany/xz (a port of
// xz-embedded) on the first stream of arbitrary input: when both succeed
// the output is the same, and when one succeeds so does the other, except
// where this decoder is stricter by design (see decodeStricter).
func FuzzDiffDecode(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		got, n, err := AppendDecodeStream(nil, src, WithMaxDecodedSize(1<<22))
		r, rerr := rootxz.NewReader(bytes.NewReader(src), 1<<22)
		var ref []byte
		if rerr == nil {
			r.Multistream(false)
			ref, rerr = io.ReadAll(io.LimitReader(r, 1<<22+1))
			if rerr == nil && len(ref) > 1<<22 {
				rerr = errors.New("over the limit")
			}
		}
		switch {
		case err == nil && rerr == nil:
			if !bytes.Equal(got, ref) {
				t.Fatalf("outputs differ: %d and %d bytes", len(got), len(ref))
			}
			if n > len(src) {
				t.Fatalf("stream length %d > input %d", n, len(src))
			}
		case err == nil:
			// therootcompany's single-stream reader fails on one to
			// three bytes after the stream (it reads them as stream
			// padding); the reference decoder ignores trailing bytes, and
			// so do we. On the stream alone it must agree.
			if n == len(src) {
				t.Fatalf("we decode %d bytes, therootcompany fails: %v", len(got), rerr)
			}
			if ref, rerr = rootDecode(src[:n]); rerr != nil || !bytes.Equal(got, ref) {
				t.Fatalf("we decode %d bytes, therootcompany fails on the stream alone: %v", len(got), rerr)
			}
		case rerr == nil:
			if !decodeStricter(err) {
				t.Fatalf("therootcompany decodes %d bytes, we fail: %v", len(ref), err)
			}
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("unexpected error class: %v", err)
		}
	})
}

// decodeStricter reports the errors where this decoder rejects what
// xz-embedded accepts: liblzma rejects these too.
func decodeStricter(err error) bool {
	for _, s := range []string{
		"first range coder byte is not 0", // liblzma rejects it; xz-embedded ignores the byte
	} {
		if strings.Contains(err.Error(), s) {
			return true
		}
	}
	return false
}

// FuzzDecodeRoundTrip encodes arbitrary bytes with the encoder and decodes
// them.
func FuzzDecodeRoundTrip(f *testing.F) {
	f.Add([]byte("hello hello hello"), uint8(3), uint8(2), uint8(6))
	f.Add(bytes.Repeat([]byte{0}, 5000), uint8(0), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, src []byte, lc, pb, preset uint8) {
		// pb's higher values pick lp (lc+lp <= 4).
		lcv := int(lc % 5)
		enc, err := Encode(src, WithLiteralModel(lcv, int(pb/3)%(5-lcv), int(pb%3)), WithPreset(int(preset%10)), WithBlockSize(MinBlockSize))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(enc)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// TestDecodeHugeLimit: a limit far beyond memory (as on 32-bit) must not
// overflow the growth arithmetic.
func TestDecodeHugeLimit(t *testing.T) {
	src := bytes.Repeat([]byte("grow me "), 40_000)
	enc, err := Encode(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, lim := range []int64{1<<63 - 1, 1 << 40, int64(len(src))} {
		got, n, err := AppendDecodeStream(nil, append(enc, "TRAILING"...), WithMaxDecodedSize(lim))
		if err != nil || !bytes.Equal(got, src) || n != len(enc) {
			t.Fatalf("limit %d: %v", lim, err)
		}
	}
}
