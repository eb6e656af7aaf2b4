package at1

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"testing"
)

// fuzzOpts keeps fuzzing allocations small and checkable.
var fuzzOpts = []Option{WithMaxDecodedSize(1 << 20), WithMaxStreamSize(1 << 20), WithMaxXZDictionary(8 << 20)}

// fuzzAllocLimit bounds the bytes one call may allocate under fuzzOpts:
// streams (twice the output limit), column text and offsets, output, and
// up to one fresh 8 MiB xz dictionary per concurrent decoder.
const fuzzAllocLimit = 128 << 20

// withSafe selects the checked twins of the fast paths.
func withSafe() Option {
	return func(c *config) error {
		c.safe = true
		return nil
	}
}

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.at1")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x41, 0x54, 0x31, 0x02, 0x07, 0xff, 0xff, 0x00})
}

// allocated reads the cumulative heap allocation counter through
// runtime/metrics (runtime.ReadMemStats stops the world, which stalls
// fuzz workers).
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func checkErr(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) &&
		!errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrChecksum) {
		t.Fatalf("error wraps no sentinel: %v", err)
	}
}

// FuzzDecode decodes arbitrary input serially, in parallel and through the
// streaming Reader: all three must agree, and never panic or allocate
// beyond the limits.
func FuzzDecode(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		before := allocated()
		serial, err1 := Decode(src, append(fuzzOpts, WithConcurrency(1))...)
		if a := allocated() - before; a > fuzzAllocLimit {
			t.Fatalf("allocated %d bytes", a)
		}
		checkErr(t, err1)
		if err1 == nil && len(serial) > 1<<20 {
			t.Fatalf("output of %d bytes beyond the limit", len(serial))
		}
		par, err2 := Decode(src, append(fuzzOpts, WithConcurrency(4))...)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(serial, par) {
			t.Fatalf("serial %v / parallel %v disagree", err1, err2)
		}
		// The validated fast paths against their checked twins.
		safe, err3 := Decode(src, append(fuzzOpts, withSafe())...)
		if (err1 == nil) != (err3 == nil) || !bytes.Equal(serial, safe) {
			t.Fatalf("fast %v / safe twin %v disagree", err1, err3)
		}
		z, err := NewReader(bytes.NewReader(src), fuzzOpts...)
		if err == nil {
			var streamed []byte
			streamed, err = io.ReadAll(z)
			if err == nil && !bytes.Equal(streamed, serial) {
				t.Fatalf("NewReader output differs from Decode")
			}
		}
		checkErr(t, err)
		if err1 == nil && err != nil && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Decode ok, NewReader: %v", err)
		}
	})
}

// FuzzOpenQuery opens arbitrary input and runs a full and a filtered query.
func FuzzOpenQuery(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		before := allocated()
		defer func() {
			if a := allocated() - before; a > fuzzAllocLimit {
				t.Fatalf("allocated %d bytes", a)
			}
		}()
		file, err := Open(bytes.NewReader(src), int64(len(src)), fuzzOpts...)
		checkErr(t, err)
		if err != nil || file.Columns() == nil {
			return
		}
		qs := []Query{{}}
		for _, c := range file.Columns() {
			if c.Type != QText {
				qs = append(qs, Query{Columns: []int{c.Index}, Where: []Range{{Column: c.Index, Min: "-5", Max: "1000.5"}}})
			}
		}
		for _, q := range qs {
			rs, err := file.Query(q)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for row, err := range rs.All() {
				checkErr(t, err)
				if err == nil && len(row.Values) != max(len(q.Columns), 1) && len(q.Columns) > 0 {
					t.Fatalf("row has %d values", len(row.Values))
				}
				n++
				if n > 1<<20 {
					t.Fatal("too many rows")
				}
			}
		}
	})
}
