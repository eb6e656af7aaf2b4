package xz

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os/exec"
	"testing"

	rootxz "github.com/therootcompany/xz"
)

// periodicInput is runs of short periods (1 to 40 bytes) of random
// lengths (2 to 300 bytes) between random bytes: the encoder turns them
// into matches at every short distance, of every short length, many of
// them ending at LZMA2 chunk ends when blocks are small, and the last one
// at the end of the output.
func periodicInput(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]byte, 0, n+400)
	for len(out) < n {
		for k := rng.IntN(4); k > 0; k-- {
			out = append(out, byte(rng.Uint32()))
		}
		period := 1 + rng.IntN(40)
		if rng.IntN(2) == 0 {
			period = 1 + rng.IntN(8)
		}
		pat := make([]byte, period)
		for i := range pat {
			pat[i] = byte('a' + rng.IntN(3))
		}
		for l := 2 + rng.IntN(300); l > 0; l-- {
			out = append(out, pat[l%period])
		}
	}
	// End with a short match, up to the last byte: 20 bytes from 100
	// back, or a run of period 3.
	if seed%2 == 0 {
		out = append(out, out[len(out)-100:len(out)-80]...)
	} else {
		out = append(out, "xyzxyzxyzxyzx"...)
	}
	return out
}

// matchStreams are .xz streams full of short and overlapping matches:
// this package's encoder at several presets and block sizes, and liblzma's
// when the xz command is installed.
func matchStreams(t testing.TB, sizes ...int) map[string][2][]byte {
	streams := map[string][2][]byte{}
	for i, n := range sizes {
		src := periodicInput(uint64(i), n)
		for _, opts := range [][]Option{
			{WithPreset(0)},
			{WithPreset(6), WithBlockSize(MinBlockSize)},
			{WithPreset(3), WithBlockSize(MinBlockSize), WithCheck(CheckNone)}, // mutations get past the check
			{WithPreset(9), WithExtreme(true), WithLiteralContext(0, 0)},
		} {
			enc, err := Encode(src, opts...)
			if err != nil {
				t.Fatal(err)
			}
			streams[string(rune('a'+len(streams)))] = [2][]byte{src, enc}
		}
		if path, err := exec.LookPath("xz"); err == nil {
			cmd := exec.Command(path, "-c", "-6", "-T1")
			cmd.Stdin = bytes.NewReader(src)
			enc, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			streams["xz"+string(rune('0'+i))] = [2][]byte{src, enc}
		}
	}
	return streams
}

// TestDecodeShortMatches decodes streams of short, overlapping matches
// into buffers with no spare capacity (the last match ends exactly at
// the capacity) and with a little, and checks that the spare capacity is
// left as it was (as append leaves it: word copies stop at the chunk's
// end) and that no byte the progress callback has seen is written again.
func TestDecodeShortMatches(t *testing.T) {
	for name, s := range matchStreams(t, 1<<10, 70<<10, 600<<10) {
		src, enc := s[0], s[1]
		ref, err := rootDecode(enc)
		if err != nil || !bytes.Equal(ref, src) {
			t.Fatalf("%s: therootcompany: %v", name, err)
		}
		for _, slack := range []int{0, 1, 7, 8, 15, 31, 32, 40, 100} {
			for _, pre := range []int{0, 3} {
				dst := make([]byte, pre, pre+len(src)+slack)
				full := dst[:cap(dst)]
				for i := pre; i < len(full); i++ {
					full[i] = 0xA5
				}
				var seen, snaps [][]byte
				got, err := AppendDecode(dst, enc, WithProgress(func(out []byte) {
					seen = append(seen, out)
					snaps = append(snaps, bytes.Clone(out))
				}))
				if err != nil || !bytes.Equal(got[pre:], src) {
					t.Fatalf("%s slack %d: %v", name, slack, err)
				}
				if &got[0] != &dst[:1][0] {
					t.Fatalf("%s slack %d: output was reallocated", name, slack)
				}
				for i, b := range got[len(got):cap(got)] {
					if b != 0xA5 {
						t.Fatalf("%s slack %d: spare capacity written at %d past the output", name, slack, i)
					}
				}
				for i := range seen {
					if !bytes.Equal(seen[i], snaps[i]) {
						t.Fatalf("%s slack %d: bytes seen by progress call %d were written again", name, slack, i)
					}
				}
				if len(seen) == 0 || len(seen[len(seen)-1]) != len(src) {
					t.Fatalf("%s: progress did not see the whole output", name)
				}
			}
		}
		// Decode sizes the output from the index: no spare capacity.
		if got, err := Decode(enc); err != nil || !bytes.Equal(got, src) || cap(got) != len(got) {
			t.Fatalf("%s: Decode: %v (cap %d, len %d)", name, err, cap(got), len(got))
		}
	}
}

// FuzzDecodeMatches mutates streams of short, overlapping matches (at
// chunk ends too) and compares the decoder with therootcompany/xz, as
// FuzzDiffDecode does.
func FuzzDecodeMatches(f *testing.F) {
	for _, s := range matchStreams(f, 1<<10, 12<<10) {
		f.Add(s[1])
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, _, err := AppendDecodeStream(nil, src, WithMaxDecodedSize(1<<22))
		if err != nil {
			return
		}
		// therootcompany with the same bounds as FuzzDiffDecode (its
		// dictionary is allocated as the header declares).
		r, err := rootxz.NewReader(bytes.NewReader(src), 1<<22)
		if err != nil {
			return
		}
		r.Multistream(false)
		ref, rerr := io.ReadAll(io.LimitReader(r, 1<<22+1))
		if rerr == nil && !bytes.Equal(got, ref) {
			t.Fatalf("outputs differ: %d and %d bytes", len(got), len(ref))
		}
	})
}
