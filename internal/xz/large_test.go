package xz

import (
	"bytes"
	"crypto/sha256"
	"io"
	"math/rand"
	"os/exec"
	"testing"

	trxz "github.com/therootcompany/xz"
)

// largeInput is n bytes of text lines drawn at random from a small
// vocabulary, with random binary runs: compressible, never periodic.
func largeInput(n int) []byte {
	rng := rand.New(rand.NewSource(42))
	words := []string{"alpha", "beta", "gamma", "delta", "colfmt", "lance", "xz", "super", "onpair", "1234", "2026-11-25", "GET /index.html", "\t", ",", "\"quoted\""}
	out := make([]byte, 0, n)
	for len(out) < n {
		if rng.Intn(1000) == 0 {
			run := make([]byte, rng.Intn(2000))
			rng.Read(run)
			out = append(out, run...)
			continue
		}
		for k := rng.Intn(12); k >= 0; k-- {
			out = append(out, words[rng.Intn(len(words))]...)
			out = append(out, ' ')
		}
		out = append(out, '\n')
	}
	return out[:n]
}

// TestRoundTrip100MB streams 100 MB through a Writer in parallel blocks
// and decodes it with the at1 reader (therootcompany/xz) and xz -d.
func TestRoundTrip100MB(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB round trip skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("100 MB round trip is too slow under the race detector; the non-race run covers it")
	}
	src := largeInput(100 << 20)
	want := sha256.Sum256(src)
	var enc bytes.Buffer
	w, err := NewWriter(&enc, WithPreset(0), WithConcurrency(2), WithBlockSize(16<<20))
	if err != nil {
		t.Fatal(err)
	}
	for rest := src; len(rest) > 0; {
		k := min(len(rest), 3<<20+17)
		if _, err := w.Write(rest[:k]); err != nil {
			t.Fatal(err)
		}
		rest = rest[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("100 MiB -> %d bytes", enc.Len())
	r, err := trxz.NewReader(bytes.NewReader(enc.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(h.Sum(nil), want[:]) {
		t.Fatal("therootcompany/xz decodes different bytes")
	}
	if path, err := exec.LookPath("xz"); err == nil {
		cmd := exec.Command(path, "-dc")
		cmd.Stdin = bytes.NewReader(enc.Bytes())
		h := sha256.New()
		cmd.Stdout = h
		if err := cmd.Run(); err != nil {
			t.Fatalf("xz -d: %v", err)
		}
		if !bytes.Equal(h.Sum(nil), want[:]) {
			t.Fatal("xz -d decodes different bytes")
		}
	}
}
