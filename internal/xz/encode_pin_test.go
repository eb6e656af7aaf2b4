package xz

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// pinCase is one input and preset whose encoded output is pinned by hash:
// speed work on the match finders and the parsers must not change a byte.
type pinCase struct {
	file   string // dbtext file, or "" for structured(seed)
	seed   int64
	n      int // prefix length (0: all)
	preset int
	ext    bool
	block  int     // WithBlockSize, 0: default
	raw    *params // encode the LZMA2 data alone with these parameters
	sha    string
}

// pinCases were recorded with the encoder of 2026-11-26 before the match
// finder speed work (issue 12), and those of the normal (optimal) parser
// again on 2026-11-28, when its prices and symbols were made liblzma's
// (TestLiblzmaParity). Setting XZ_PIN_PRINT=1 logs the hashes instead of
// comparing them.
var pinCases = []pinCase{
	{seed: 3, preset: 0, sha: "878fe0a377f467dc"},
	{seed: 4, preset: 2, sha: "dbb56c9d3d1bd5d3"},
	{seed: 5, preset: 6, sha: "ac2aedea18c8c2c2"},
	{seed: 6, preset: 9, ext: true, sha: "8a1c2870d8bcda34"},
	{seed: 7, preset: 3, ext: true, sha: "524f2a5b0c92ffec"},
	{file: "c_name", preset: 0, sha: "ee9d8cdca9fedd59"},
	{file: "c_name", preset: 1, sha: "022ffbc793134786"},
	{file: "c_name", n: 600 << 10, preset: 3, sha: "79310b99e781a9bc"},
	{file: "l_comment", n: 500 << 10, preset: 6, sha: "d94621f045a3fee4"},
	{file: "l_comment", n: 400 << 10, preset: 6, ext: true, sha: "789586f251300e50"},
	{file: "l_comment", n: 300 << 10, preset: 3, ext: true, sha: "b654458ebc603aad"},
	{file: "hex", n: 300 << 10, preset: 9, ext: true, sha: "2ef70b0fe4130375"},
	{file: "urls2", n: 400 << 10, preset: 9, ext: true, sha: "3fb5395e8d462493"},
	{file: "japanese", preset: 5, sha: "fe2ad064bfd9851d"},
	{file: "email", n: 700 << 10, preset: 4, block: MinBlockSize, sha: "39396b9f3909a976"},
	// Small dictionaries, so that the cyclic window wraps many times.
	{file: "l_comment", n: 500 << 10, raw: &params{dictSize: 64 << 10, nice: 64, depth: 48, mf: mfBT4, lc: 3, pb: 2}, sha: "7df21a7c0b551aa4"},
	{file: "urls2", n: 500 << 10, raw: &params{dictSize: 5000, nice: 273, depth: 512, mf: mfBT4, lc: 3, pb: 2}, sha: "81e7d5753be63478"},
	{file: "c_name", n: 500 << 10, raw: &params{dictSize: 32 << 10, nice: 273, depth: 48, mf: mfHC4, fast: true, lc: 3, pb: 2}, sha: "ed6a2327e35cbec9"},
	{file: "hex", n: 300 << 10, raw: &params{dictSize: 16 << 10, nice: 128, depth: 4, mf: mfHC3, fast: true, lc: 3, pb: 2}, sha: "f26609cc09f7def9"},
}

func TestEncodePinned(t *testing.T) {
	print := os.Getenv("XZ_PIN_PRINT") != ""
	for i, c := range pinCases {
		name := fmt.Sprintf("%d-structured%d", i, c.seed)
		if c.file != "" {
			name = fmt.Sprintf("%d-%s", i, c.file)
		}
		t.Run(name, func(t *testing.T) {
			var src []byte
			if c.file != "" {
				b, err := os.ReadFile(filepath.Join(shareddata.Path(t, "onpair", "dbtext"), c.file))
				if err != nil {
					t.Fatal(err)
				}
				src = b
			} else {
				src = structured(c.seed)
			}
			if c.n > 0 && c.n < len(src) {
				src = src[:c.n]
			}
			var out []byte
			if c.raw != nil {
				out = appendLZMA2(nil, src, *c.raw, nil)
			} else {
				opts := []Option{WithPreset(c.preset), WithExtreme(c.ext)}
				if c.block > 0 {
					opts = append(opts, WithBlockSize(c.block))
				}
				var err error
				out, err = AppendEncode(nil, src, opts...)
				if err != nil {
					t.Fatal(err)
				}
			}
			sum := sha256.Sum256(out)
			got := hex.EncodeToString(sum[:8])
			if print {
				t.Logf("%d bytes sha %s", len(out), got)
				return
			}
			if got != c.sha {
				t.Errorf("preset %d extreme %v raw %v: output hash %s (%d bytes), pinned %s", c.preset, c.ext, c.raw, got, len(out), c.sha)
			}
		})
	}
}
