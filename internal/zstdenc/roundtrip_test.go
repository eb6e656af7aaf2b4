package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"
)

var testDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))

// roundTrip encodes src, checks the frame decodes to it and returns the frame.
func roundTrip(t testing.TB, src []byte, opts ...Option) []byte {
	t.Helper()
	z, err := AppendEncode(nil, src, opts...)
	if err != nil {
		t.Fatalf("AppendEncode(%d bytes): %v", len(src), err)
	}
	got, err := testDecoder.DecodeAll(z, nil)
	if err != nil {
		t.Fatalf("decode of %d-byte input (%d-byte frame): %v", len(src), len(z), err)
	}
	if !bytes.Equal(got, src) {
		t.Fatalf("decode of %d-byte input: got %d bytes, differing", len(src), len(got))
	}
	return z
}

func textLike(r *rand.Rand, n int) []byte {
	words := []string{"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "colfmt", "zstd",
		"encoder", "\n", ", ", "value", "column", "1234", "2026-11-26", "\"name\":", "{", "}"}
	var b []byte
	for len(b) < n {
		b = append(b, words[r.IntN(len(words))]...)
		b = append(b, ' ')
	}
	return b[:n]
}

func generated() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	in := map[string][]byte{
		"empty": {},
		"one":   {'x'},
		"two":   {'x', 'y'},
		"nine":  []byte("abcabcabc"),
		"run":   bytes.Repeat([]byte{0}, 1000),
		"run2":  bytes.Repeat([]byte("ab"), 5000),
	}
	rnd := make([]byte, 5000)
	for i := range rnd {
		rnd[i] = byte(r.Uint32())
	}
	in["random"] = rnd
	in["text300"] = textLike(r, 300)
	in["text5k"] = textLike(r, 5000)
	in["text40k"] = textLike(r, 40000)
	// Matches at a few distances, reused: exercises repeat offsets.
	var reps []byte
	for len(reps) < 20000 {
		n := r.IntN(12)
		for i := 0; i < n; i++ {
			reps = append(reps, byte(r.Uint32()))
		}
		d := []int{7, 13, 7, 100, 13}[r.IntN(5)]
		if len(reps) > d {
			l := 3 + r.IntN(10)
			for i := 0; i < l; i++ {
				reps = append(reps, reps[len(reps)-d])
			}
		}
	}
	in["repeats"] = reps
	// Blocks of each kind in one frame: raw (random), RLE (zeros), then
	// compressed text matching both earlier blocks; repeat offsets must
	// carry over only the compressed blocks.
	rnd128 := make([]byte, blockMax)
	for i := range rnd128 {
		rnd128[i] = byte(r.Uint32())
	}
	mixed := append([]byte(nil), rnd128...)
	mixed = append(mixed, make([]byte, blockMax)...)
	mixed = append(mixed, textLike(r, 20000)...)
	mixed = append(mixed, rnd128[1000:3000]...)
	mixed = append(mixed, textLike(r, 20000)...)
	in["mixed-blocks"] = mixed
	for _, n := range []int{blockMax - 1, blockMax, blockMax + 1, 2*blockMax + 77} {
		in["text"+string(rune('a'+n%26))+"-"+itoa(n)] = textLike(r, n)
	}
	return in
}

func itoa(n int) string {
	var b []byte
	for n >= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(append([]byte{byte('0' + n)}, b...))
}

func TestRoundTripGenerated(t *testing.T) {
	for name, src := range generated() {
		t.Run(name, func(t *testing.T) {
			z := roundTrip(t, src)
			t.Logf("%d -> %d", len(src), len(z))
		})
	}
}

func newRand(s uint64) *rand.Rand { return rand.New(rand.NewPCG(s, s+1)) }

func FuzzRoundTrip(f *testing.F) {
	for _, src := range generated() {
		if len(src) < 6000 {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		roundTrip(t, src)
	})
}
