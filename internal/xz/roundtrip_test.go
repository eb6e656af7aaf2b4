package xz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	trxz "github.com/therootcompany/xz"
	ulxz "github.com/ulikunitz/xz"
)

// decodeUlikunitz decodes with github.com/ulikunitz/xz.
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

// decodeTheRootCompany decodes with github.com/therootcompany/xz, the
// reader the at1 package uses.
func decodeTheRootCompany(t testing.TB, enc []byte) []byte {
	t.Helper()
	r, err := trxz.NewReader(bytes.NewReader(enc), 0)
	if err != nil {
		t.Fatalf("therootcompany/xz NewReader: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("therootcompany/xz decode: %v", err)
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

// roundTrip encodes src and checks that ulikunitz/xz, therootcompany/xz
// and (withTool) xz -d give src back.
func roundTrip(t *testing.T, name string, src []byte, withTool bool, opts ...Option) []byte {
	t.Helper()
	enc, err := AppendEncode(nil, src, opts...)
	if err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	if got := decodeUlikunitz(t, enc); !bytes.Equal(got, src) {
		t.Fatalf("%s: ulikunitz round trip differs (len %d vs %d)", name, len(got), len(src))
	}
	if got := decodeTheRootCompany(t, enc); !bytes.Equal(got, src) {
		t.Fatalf("%s: therootcompany round trip differs (len %d vs %d)", name, len(got), len(src))
	}
	if withTool {
		if got, ok := decodeXZ(t, enc); ok && !bytes.Equal(got, src) {
			t.Fatalf("%s: xz -d round trip differs (len %d vs %d)", name, len(got), len(src))
		}
	}
	return enc
}

// heavy reports whether the larger inputs run: not in -short mode and not
// under the race detector (which slows the encoder ten times).
func heavy() bool { return !testing.Short() && !raceEnabled }

func randomBytes(seed int64, n int) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

func TestRoundTripSmall(t *testing.T) {
	inputs := map[string][]byte{
		"empty":  {},
		"one":    {'x'},
		"two":    {'a', 'a'},
		"five":   []byte("abcab"),
		"zeros":  make([]byte, 70000),
		"random": randomBytes(1, 100000),
		"text":   bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog. "), 3000),
	}
	for name, src := range inputs {
		for _, lvl := range []int{0, 1, 3, 4, 6} {
			roundTrip(t, name, src, true, WithPreset(lvl))
		}
		roundTrip(t, name+"/3e", src, true, WithPreset(3), WithExtreme(true), WithCheck(CheckNone))
		roundTrip(t, name+"/9e", src, true, WithPreset(9), WithExtreme(true), WithCheck(CheckCRC32))
	}
}

func TestEmptyIsXZsEmptyStream(t *testing.T) {
	enc, err := AppendEncode(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// xz -c </dev/null writes 32 bytes: header, empty index, footer.
	if len(enc) != 32 {
		t.Fatalf("empty stream is %d bytes, want 32", len(enc))
	}
	if want, ok := xzCompress(t, nil, "-6"); ok && !bytes.Equal(enc, want) {
		t.Fatalf("empty stream %x, xz writes %x", enc, want)
	}
}

func xzCompress(t testing.TB, src []byte, args ...string) ([]byte, bool) {
	path, err := exec.LookPath("xz")
	if err != nil {
		return nil, false
	}
	cmd := exec.Command(path, append([]string{"-c", "-T1"}, args...)...)
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xz: %v", err)
	}
	return out, true
}

// TestRoundTripChunkBoundaries crosses the 2 MiB uncompressed and 64 KiB
// compressed chunk limits, and mixes incompressible runs (stored chunks,
// then a state reset) with repeats of them (matches and reps reaching back
// across stored chunks).
func TestRoundTripChunkBoundaries(t *testing.T) {
	zeros := make([]byte, 2<<20+4096) // LZMA chunks hold at most 2 MiB
	if heavy() {
		zeros = make([]byte, 4<<20+123)
	}
	roundTrip(t, "zeros", zeros, true, WithPreset(6))

	rnd := randomBytes(2, 300000)
	var mixed []byte
	rng := rand.New(rand.NewSource(3))
	size := 400000
	if heavy() {
		size = 1000000
	}
	for len(mixed) < size {
		switch rng.Intn(4) {
		case 0: // fresh random run: stored chunks
			mixed = append(mixed, randomBytes(rng.Int63(), 1+rng.Intn(90000))...)
		case 1: // a repeat of earlier random data
			off := rng.Intn(len(rnd) - 5000)
			mixed = append(mixed, rnd[off:off+2+rng.Intn(5000)]...)
		case 2: // text with repeats
			mixed = append(mixed, bytes.Repeat([]byte("colfmt xz chunk "), 1+rng.Intn(500))...)
		default: // a repeat of the output so far, then one changed byte
			if len(mixed) > 100 {
				off := rng.Intn(len(mixed) - 50)
				end := min(len(mixed), off+2+rng.Intn(3000))
				mixed = append(mixed, mixed[off:end]...)
				mixed = append(mixed, byte(rng.Intn(256)))
			}
		}
	}
	for _, lvl := range []int{0, 5} {
		roundTrip(t, "mixed", mixed, true, WithPreset(lvl))
	}
	roundTrip(t, "mixed/9e", mixed, true, WithPreset(9), WithExtreme(true))
}

func TestRoundTripDBText(t *testing.T) {
	dir := shareddata.Path(t, "onpair", "dbtext")
	names := []string{"city", "credentials", "street"}
	if heavy() {
		names = append(names, "japanese", "firstname", "hex")
	}
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		enc := roundTrip(t, name, src, true)
		want, ok := xzCompress(t, src, "-6")
		if ok && float64(len(enc)) > 1.03*float64(len(want)) {
			t.Errorf("%s: %d bytes at -6, xz -6 writes %d (more than 3%% larger)", name, len(enc), len(want))
		}
		t.Logf("%s: %d -> %d (xz -6: %d)", name, len(src), len(enc), len(want))
	}
}

// TestRoundTripGoSource packs this module's Go source files (the tree
// two levels up), concatenated, and the first few on their own; then Go's
// own net/http sources at -9e.
func TestRoundTripGoSource(t *testing.T) {
	limit := 256 << 10
	if heavy() {
		limit = 2 << 20
	}
	gather := func(root string) (all []byte, files [][]byte) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || len(all) > limit {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				all = append(all, b...)
				files = append(files, b)
			}
			return nil
		})
		return all, files
	}
	all, files := gather(filepath.Join("..", ".."))
	if len(all) == 0 {
		t.Fatal("no Go source found in the module")
	}
	enc := roundTrip(t, "module source", all, true, WithPreset(6))
	want, ok := xzCompress(t, all, "-6")
	if ok && float64(len(enc)) > 1.03*float64(len(want)) {
		t.Errorf("Go source: %d bytes at -6, xz -6 writes %d", len(enc), len(want))
	}
	t.Logf("module Go source: %d -> %d (xz -6: %d)", len(all), len(enc), len(want))
	for i, f := range files[:min(len(files), 8)] {
		roundTrip(t, "source file", f, i%4 == 0, WithPreset(i%10), WithExtreme(i%2 == 1))
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return // no go tool: the module's own source was enough
	}
	if std, _ := gather(filepath.Join(strings.TrimSpace(string(goroot)), "src", "net", "http")); len(std) > 0 {
		roundTrip(t, "net/http", std[:min(len(std), limit/2)], false, WithPreset(9), WithExtreme(true))
	}
}

// TestMultiBlockDeterministic splits into blocks and checks the output
// does not depend on the concurrency, and that the Writer, fed in odd
// pieces, writes the same bytes.
func TestMultiBlockDeterministic(t *testing.T) {
	src := bytes.Repeat(append(randomBytes(4, 3000), "some text some text"...), 100)
	opts := []Option{WithPreset(4), WithBlockSize(64 << 10)}
	one := roundTrip(t, "blocks", src, true, opts...)
	for _, n := range []int{2, 3, 8} {
		got, err := AppendEncode(nil, src, append(opts, WithConcurrency(n))...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, one) {
			t.Fatalf("concurrency %d changes the output", n)
		}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, append(opts, WithConcurrency(n))...)
		if err != nil {
			t.Fatal(err)
		}
		for rest := src; len(rest) > 0; {
			k := min(len(rest), 1+len(rest)%77777)
			if _, err := w.Write(rest[:k]); err != nil {
				t.Fatal(err)
			}
			rest = rest[k:]
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), one) {
			t.Fatalf("Writer with concurrency %d writes different bytes", n)
		}
	}
	// Blocks cost a little: the single-block stream is smaller.
	single, _ := AppendEncode(nil, src, WithPreset(4))
	if len(single) >= len(one) {
		t.Errorf("single block %d bytes, 64 KiB blocks %d", len(single), len(one))
	}
}

func TestWriterEmptyAndAppend(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want, _ := AppendEncode(nil, nil)
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("empty Writer stream %x, want %x", buf.Bytes(), want)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("Write after Close: %v", err)
	}
	prefix := []byte("keep")
	out, err := AppendEncode(prefix, []byte("hello"))
	if err != nil || !bytes.HasPrefix(out, []byte("keep")) {
		t.Fatalf("AppendEncode does not append: %v", err)
	}
	if got := decodeUlikunitz(t, out[4:]); string(got) != "hello" {
		t.Fatalf("decoded %q", got)
	}
}

func TestInvalidOptions(t *testing.T) {
	bad := map[string]Option{
		"WithPreset":      WithPreset(10),
		"WithCheck":       WithCheck(Check(10)),
		"WithBlockSize":   WithBlockSize(100),
		"WithConcurrency": WithConcurrency(0),
	}
	for name, o := range bad {
		_, err := AppendEncode(nil, []byte("x"), o)
		if !errors.Is(err, ErrInvalidOption) || !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v", name, err)
		}
		if _, err := NewWriter(io.Discard, o); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("NewWriter %s: error %v", name, err)
		}
	}
	for _, o := range []Option{WithMatchSearch(MinNiceLen-1, 0), WithMatchSearch(MaxNiceLen+1, 0),
		WithMatchSearch(64, -1), WithMatchSearch(64, MaxDepth+1)} {
		if _, err := AppendEncode(nil, []byte("x"), o); !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), "WithMatchSearch") {
			t.Errorf("WithMatchSearch out of range: error %v", err)
		}
	}
	if _, err := NewWriter(nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NewWriter(nil): %v", err)
	}
	if _, err := AppendEncode(nil, []byte("x"), nil, WithPreset(0)); err != nil {
		t.Errorf("nil option: %v", err)
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{}, byte(6))
	f.Add([]byte("a"), byte(0))
	f.Add([]byte("abcabcabcabcabcabc, abcabcabcabd"), byte(0x89))
	f.Add(bytes.Repeat([]byte{0, 1, 0, 1, 2}, 300), byte(3))
	// Text of a few KiB: small hash tables, many near-collisions.
	f.Add([]byte(strings.Repeat("if v2 != 0 && delta2 < mf.cyclicSize {\n\treturn x[i]\n}\n", 90)), byte(0x86))
	small := structured(5)
	f.Add(small[:min(len(small), 6000)], byte(1))
	f.Fuzz(func(t *testing.T, src []byte, sel byte) {
		lvl := int(sel&0x0F) % 10
		opts := []Option{WithPreset(lvl), WithExtreme(sel&0x80 != 0), WithBlockSize(MinBlockSize)}
		if sel&0x40 != 0 { // a nice length and depth of their own
			opts = append(opts, WithMatchSearch(MinNiceLen+int(sel&0x0F)*17, int(sel>>4&0x3)*40))
		}
		enc, err := AppendEncode(nil, src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := decodeUlikunitz(t, enc); !bytes.Equal(got, src) {
			t.Fatalf("round trip differs at preset %d extreme %v", lvl, sel&0x80 != 0)
		}
	})
}

func TestParsePreset(t *testing.T) {
	for s, want := range map[string][2]int{"0": {0, 0}, "6": {6, 0}, "9e": {9, 1}, "-3e": {3, 1}, "-1": {1, 0}} {
		l, e, err := ParsePreset(s)
		if err != nil || l != want[0] || e != (want[1] == 1) {
			t.Errorf("ParsePreset(%q) = %d, %v, %v", s, l, e, err)
		}
	}
	for _, s := range []string{"", "e", "10", "9ee", "x", "-", "6 "} {
		if _, _, err := ParsePreset(s); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("ParsePreset(%q): %v", s, err)
		}
	}
}

// structured returns up to 300 KB mixing random bytes from a small
// alphabet, copies at near and far distances (long, short, and broken by
// one changed byte) and byte runs: the cases the parser's rep and
// match+literal+rep0 paths look for.
func structured(seed int64) []byte {
	rng := rand.New(rand.NewSource(seed))
	n := rng.Intn(300000)
	src := make([]byte, 0, n+1000)
	alpha := 1 + rng.Intn(255)
	copyBack := func(d, l int) {
		for k := 0; k < l; k++ {
			src = append(src, src[len(src)-d])
		}
	}
	for len(src) < n {
		switch rng.Intn(5) {
		case 0:
			for k := rng.Intn(100); k > 0; k-- {
				src = append(src, byte(rng.Intn(alpha)))
			}
		case 1:
			if len(src) > 0 {
				copyBack(1+rng.Intn(len(src)), rng.Intn(600))
			}
		case 2:
			if len(src) > 0 {
				copyBack(1+rng.Intn(min(len(src), 16)), rng.Intn(300))
			}
		case 3:
			b := byte(rng.Intn(256))
			for k := rng.Intn(1000); k > 0; k-- {
				src = append(src, b)
			}
		default:
			if len(src) > 10 {
				copyBack(1+rng.Intn(len(src)), rng.Intn(40))
				src = append(src, byte(rng.Intn(256)))
			}
		}
	}
	return src
}

func TestRoundTripStructured(t *testing.T) {
	seeds := int64(10)
	if heavy() {
		seeds = 60
	}
	for seed := int64(0); seed < seeds; seed++ {
		rng := rand.New(rand.NewSource(seed))
		opts := []Option{WithPreset(int(seed % 10)), WithExtreme(seed%3 == 0)}
		if seed%4 == 1 {
			opts = append(opts, WithBlockSize(MinBlockSize+rng.Intn(100000)), WithConcurrency(2))
		}
		roundTrip(t, "structured", structured(seed), seed%7 == 0, opts...)
	}
}

// TestRoundTripSmallBlocks covers inputs under 16 KiB, whose hash tables
// are smaller than liblzma's (a hash hit then no longer implies that the
// bytes match).
func TestRoundTripSmallBlocks(t *testing.T) {
	text := []byte(strings.Repeat("func (e *encoder) helper2(cur, lenEnd, newLen, position int) int {\n\topts := e.opts\n", 300))
	for i := 0; i < 24; i++ {
		n := 300 + i*650
		src := structured(int64(i))
		if len(src) < n {
			src = append(src, text...)
		}
		src = src[:min(len(src), n)]
		if i%2 == 0 {
			src = text[i*37 : i*37+n/2]
		}
		roundTrip(t, "small", src, i%6 == 0, WithPreset(i%10), WithExtreme(i%3 == 0))
	}
}

type failWriter struct{ n int }

var errWrite = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errWrite
	}
	f.n--
	return len(p), nil
}

// TestWriterError checks that an error from the underlying writer is
// returned by the call that hit it and by every later call.
func TestWriterError(t *testing.T) {
	w, err := NewWriter(&failWriter{}, WithBlockSize(MinBlockSize))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, 3*MinBlockSize)); !errors.Is(err, errWrite) {
		t.Fatalf("Write: %v", err)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, errWrite) {
		t.Fatalf("second Write: %v", err)
	}
	if err := w.Close(); !errors.Is(err, errWrite) {
		t.Fatalf("Close: %v", err)
	}
	w, _ = NewWriter(&failWriter{n: 1})
	if _, err := w.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, errWrite) {
		t.Fatalf("Close with a failing index write: %v", err)
	}
}

// FuzzDiffWriter checks that the Writer, fed in arbitrary pieces, writes
// exactly AppendEncode's bytes, at any concurrency.
func FuzzDiffWriter(f *testing.F) {
	f.Add([]byte("hello, hello, hello"), uint16(1), byte(2))
	f.Add(bytes.Repeat([]byte("abcdefgh"), 2000), uint16(333), byte(0x13))
	f.Fuzz(func(t *testing.T, src []byte, piece uint16, sel byte) {
		opts := []Option{WithPreset(int(sel%10) % 4), WithBlockSize(MinBlockSize), WithConcurrency(1 + int(sel>>4)%3)}
		want, err := AppendEncode(nil, src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, opts...)
		if err != nil {
			t.Fatal(err)
		}
		step := 1 + int(piece)
		for rest := src; len(rest) > 0; {
			k := min(len(rest), step)
			if _, err := w.Write(rest[:k]); err != nil {
				t.Fatal(err)
			}
			rest = rest[k:]
			step = 1 + (step*7)%5000
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("Writer output (%d bytes) differs from AppendEncode (%d bytes)", buf.Len(), len(want))
		}
	})
}

// TestRoundTripLiteralContext: every lc and pb round-trips through three
// decoders, the properties byte says which, and the size follows xz with
// the same --lzma2 options (within 0.5%).
func TestRoundTripLiteralContext(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(shareddata.Path(t, "onpair", "dbtext"), "city"))
	if err != nil {
		t.Fatal(err)
	}
	text = text[:min(len(text), 120<<10)]
	for lc := 0; lc <= 4; lc++ {
		for pb := 0; pb <= 2; pb++ {
			name := fmt.Sprintf("lc%d-pb%d", lc, pb)
			enc := roundTrip(t, name, text, true, WithPreset(6), WithLiteralContext(lc, pb))
			// Stream header 12 bytes, block header (its first byte
			// gives its size), then the first LZMA2 chunk: control
			// byte, 4 size bytes, properties.
			if i := 12 + (int(enc[12])+1)*4; enc[i]&0xE0 != 0xE0 || enc[i+5] != byte((pb*5)*9+lc) {
				t.Fatalf("%s: properties byte not found or wrong", name)
			}
			if want, ok := xzCompress(t, text, fmt.Sprintf("--lzma2=preset=6,lc=%d,pb=%d", lc, pb)); ok {
				if r := float64(len(enc)) / float64(len(want)); r > 1.005 || r < 0.995 {
					t.Errorf("%s: %d bytes, xz %d (%.4f)", name, len(enc), len(want), r)
				}
			}
		}
	}
	roundTrip(t, "random/lc0-pb0", randomBytes(2, 50000), true, WithLiteralContext(0, 0))
	for _, bad := range [][2]int{{-1, 0}, {5, 0}, {0, 3}, {0, -1}} {
		if _, err := AppendEncode(nil, text[:100], WithLiteralContext(bad[0], bad[1])); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("WithLiteralContext(%d, %d): %v", bad[0], bad[1], err)
		}
	}
}
