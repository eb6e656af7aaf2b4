package csup_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/testgen"
)

var fuzzLimits = []csup.Option{
	csup.WithMaxSegmentSize(1 << 20), csup.WithMaxReassemblySize(1 << 20),
	csup.WithMaxDepth(30), csup.WithMaxElements(1 << 12),
}

func isOurs(err error) bool {
	for _, s := range []error{csup.ErrCorrupt, csup.ErrTooLarge, csup.ErrUnsupported, bsup.ErrCorrupt, bsup.ErrTooLarge, bsup.ErrUnsupported} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// FuzzOpen: any file either opens, scans and validates, or fails with a
// package error; never a panic or an allocation past the limits.
func FuzzOpen(f *testing.F) {
	for _, dir := range []string{"zst-v2_zed-v1.2.0/*.zst", "vng-v3_zed-v1.6.0/*.vng", "bad_*.csup"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir))
		for _, p := range files {
			b, _ := os.ReadFile(p)
			f.Add(b)
		}
	}
	g := testgen.New(5)
	var vals []bsup.Value
	t1, t2 := g.Type(3), g.Type(2)
	for i := 0; i < 30; i++ {
		vals = append(vals, g.Value(t1), g.Value(t2))
	}
	f.Add(writeCSUP(f, vals, csup.WithSegmentThresh(64)))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := csup.Open(bytes.NewReader(b), int64(len(b)), fuzzLimits...)
		if err != nil {
			if !isOurs(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		n := 0
		for v, err := range file.Values() {
			if err != nil {
				if !isOurs(err) {
					t.Fatalf("error without a sentinel: %v", err)
				}
				break
			}
			_ = bsup.AppendJSON(nil, v, bsup.JSONZed)
			if n++; n > 100000 {
				break
			}
		}
		if err := file.Validate(); err != nil && !isOurs(err) {
			t.Fatalf("error without a sentinel: %v", err)
		}
		for _, err := range file.Project("a", "f0") {
			if err != nil && !isOurs(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
		}
	})
}

// FuzzRoundTrip: generated values of every type round-trip exactly
// through the spec-layout writer and reader, with any thresholds.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(1), uint8(4), uint16(64), true)
	f.Add(uint64(9), uint8(6), uint16(5000), false)
	f.Fuzz(func(t *testing.T, seed uint64, depth uint8, seg uint16, compress bool) {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(int(depth % 7)), g.Type(3), g.Type(1)}
		var vals []bsup.Value
		for i := 0; i < 60; i++ {
			vals = append(vals, g.Value(types[g.R.IntN(3)]))
		}
		b := writeCSUP(t, vals, csup.WithSegmentThresh(int(seg)+1), csup.WithSkewThresh(int(seg)*3+1), csup.WithCompression(compress))
		_, got := readCSUP(t, b)
		requireSame(t, vals, got)
	})
}
