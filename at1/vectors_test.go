package at1

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

type vector struct {
	Name           string `json:"name"`
	File           string `json:"file"`
	Expect         string `json:"expect"`
	Expected       string `json:"expected"`
	ExpectedLen    int    `json:"expected_len"`
	ExpectedSHA256 string `json:"expected_sha256"`
	WouldDecodeTo  string `json:"would_decode_to"`
}

func loadManifest(t testing.TB) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Vectors) < 19 {
		t.Fatalf("manifest lists %d vectors", len(m.Vectors))
	}
	return m.Vectors
}

func readVector(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestManifest decodes every vector of the shared manifest: each decodes
// byte-exactly or is rejected, as listed.
func TestManifest(t *testing.T) {
	for _, v := range loadManifest(t) {
		t.Run(v.Name, func(t *testing.T) {
			src := readVector(t, v.File)
			for _, opts := range [][]Option{{WithConcurrency(1)}, {WithConcurrency(4)}, {withSafe()}} {
				got, err := Decode(src, opts...)
				switch v.Expect {
				case "bytes":
					if err != nil {
						t.Fatalf("decode: %v", err)
					}
					want := readVector(t, v.Expected)
					if !bytes.Equal(got, want) {
						t.Fatalf("decoded %q, want %q", got, want)
					}
					sum := sha256.Sum256(got)
					if len(got) != v.ExpectedLen || hex.EncodeToString(sum[:]) != v.ExpectedSHA256 {
						t.Fatalf("length/sha256 differ from the manifest")
					}
					if v.WouldDecodeTo != "" && string(got) != v.WouldDecodeTo {
						t.Fatalf("differs from would_decode_to")
					}
				case "error":
					if err == nil {
						t.Fatalf("decoded %q, want an error", got)
					}
					if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrChecksum) {
						t.Fatalf("error %v wraps no package sentinel", err)
					}
					t.Logf("rejected: %v", err)
				default:
					t.Fatalf("unknown expect %q", v.Expect)
				}
			}
		})
	}
}

// TestSharedVectorsUnchanged checks that the copies in testdata match the
// project's shared vectors (skipped in a clone without ../shared).
func TestSharedVectorsUnchanged(t *testing.T) {
	dir := shareddata.Path(t, "at1")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		shared, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(shared, readVector(t, e.Name())) {
			t.Errorf("testdata/%s differs from the shared copy: re-copy it", e.Name())
		}
		n++
	}
	if n < 37 {
		t.Fatalf("only %d shared files", n)
	}
}
