package csup_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/stretchr/testify/require"
)

func readV16(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "csup-v16_super-v0.3.0", name+".csup"))
	require.NoError(t, err)
	return b
}

// openAndScan opens b, reads every value and validates: the first error.
func openAndScan(b []byte, opts ...csup.Option) error {
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return err
	}
	r := f.NewReader()
	var v bsup.Value
	for {
		err := r.ReadInto(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	return f.Validate()
}

// Hand-built bad CSUP v16 files (patched real files): each fails with a
// located csup error of the right kind, never a panic.
func TestCSUPv16BadFiles(t *testing.T) {
	le := binary.LittleEndian
	dataStart := func(b []byte) int { return len(b) - int(le.Uint64(b[24:])) }
	for name, c := range map[string]struct {
		base  string
		patch func(b []byte) []byte
		want  error
		text  string
	}{
		"version 17":        {"hello", func(b []byte) []byte { b[4] = 17; return b }, csup.ErrUnsupported, "CSUP version 17"},
		"truncated":         {"hello", func(b []byte) []byte { return b[:len(b)-10] }, csup.ErrCorrupt, "exceed"},
		"meta size huge":    {"hello", func(b []byte) []byte { le.PutUint64(b[8:], 1<<62); return b }, csup.ErrCorrupt, "exceed"},
		"types section":     {"hello", func(b []byte) []byte { b[16] = 1; le.PutUint64(b[24:], le.Uint64(b[24:])-1); return b }, csup.ErrUnsupported, "types section"},
		"root out of range": {"hello", func(b []byte) []byte { le.PutUint32(b[32:], 200); return b }, csup.ErrCorrupt, "root node 200"},
		"node cycle":        {"hello", func(b []byte) []byte { b[0x146] = 2; return b }, csup.ErrCorrupt, "cycle"},
		"dynamic tag":       {"unions", func(b []byte) []byte { b[dataStart(b)+8] = 5; return b }, csup.ErrCorrupt, "Dynamic tag 5"},
		"intcomp length 0":  {"unions", func(b []byte) []byte { le.PutUint32(b[dataStart(b)+4:], 0); return b }, csup.ErrCorrupt, "block length"},
		"offsets past data": {"hello", func(b []byte) []byte { b[dataStart(b)+14+8] = 0x7f; return b }, csup.ErrCorrupt, "offset"},
		"trailing garbage":  {"hello", func(b []byte) []byte { return append(b, 'C', 'S', 'U', 'P') }, csup.ErrCorrupt, "header"},
	} {
		b := c.patch(append([]byte(nil), readV16(t, c.base)...))
		err := openAndScan(b)
		require.Error(t, err, name)
		require.True(t, errors.Is(err, c.want), "%s: %v", name, err)
		require.Contains(t, err.Error(), c.text, name)
		var ce *csup.CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v has no location", name, err)
	}
}

// FuzzCSUPv16: any mutation of a real v16 file opens, scans and
// validates, or fails with a csup error; never a panic, and allocation
// stays within the limits.
func FuzzCSUPv16(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "csup-v16_super-v0.3.0", "*.csup"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	opts := append(append([]csup.Option{}, fuzzLimits...), csup.WithMemoryLimit(32<<20))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err := openAndScan(b, opts...)
		runtime.ReadMemStats(&m1)
		if err != nil && !errors.Is(err, csup.ErrCorrupt) && !errors.Is(err, csup.ErrTooLarge) && !errors.Is(err, csup.ErrUnsupported) {
			t.Fatalf("error without a csup sentinel: %v", err)
		}
		if d := m1.TotalAlloc - m0.TotalAlloc; d > 256<<20 {
			t.Fatalf("allocated %d bytes for a %d-byte file", d, len(b))
		}
	})
}
