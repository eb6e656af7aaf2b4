package at1

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
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
		// On a consistent qcolumnar file a full query returns exactly the
		// structured lines a full decode writes.
		if full, err := Decode(src, append(fuzzOpts, Strict())...); err == nil && file.Codec == CodecQColumnar {
			lines := map[string]bool{}
			for _, l := range strings.Split(string(full), "\n") {
				lines[l] = true
			}
			rs, err := file.Query(Query{})
			if err != nil {
				t.Fatal(err)
			}
			n := int64(0)
			for row, err := range rs.All() {
				if err != nil {
					t.Fatalf("query fails where decode succeeds: %v", err)
				}
				if l := string(bytes.Join(row.Values, file.Delimiter())); !lines[l] {
					t.Fatalf("query row %q is not a decoded line", l)
				}
				n++
			}
			if n != file.StructuredRows() {
				t.Fatalf("query returned %d rows, n_struct %d", n, file.StructuredRows())
			}
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

// FuzzColumn feeds one column chunk of any type to the columnar decoder
// inside a file of stored streams, so mutations reach the column decoders
// and row assembly directly; the fast path and its checked twin must agree.
func FuzzColumn(f *testing.F) {
	f.Add(byte(colNumExc), []byte("\x00\x06\x0d\x03\x03N/A\x00\x03007\x14\x04\x1d"), uint8(6), byte(2), []byte{0x0c})
	f.Add(byte(colDict), []byte("\x04\x02\x01x\x01y\x00\x01\x00\x01"), uint8(4), byte(1), []byte(nil))
	f.Add(byte(colShuf), []byte("\x03\xc7\x01\x02\x00\x2c\x4c\x00\x01\xfe"), uint8(3), byte(0), []byte(nil))
	f.Add(byte(colDec), []byte("\x02\x64\x6d\xea\x12"), uint8(3), byte(0), []byte(nil))
	f.Add(byte(colText), []byte("a\n\"b\"\n"), uint8(3), byte(2), []byte{0x05})
	f.Fuzz(func(t *testing.T, typ byte, chunk []byte, nrows uint8, qmode byte, qbits []byte) {
		// Column 0 is TEXT (one value per row), column 1 the fuzzed one,
		// column 2 derives from column 1.
		text := strings.Repeat("v\n", int(nrows))
		fc := strings.Repeat("\x03", int(nrows))
		src := wholeFile(CodecColumnar, packSet(t, stored(
			"meta", uvs(uint64(nrows))+"\x01\x00\x01,\x03",
			"row_modes", strings.Repeat("\x01", int(nrows)),
			"fieldcounts", fc,
			"coltypes", string([]byte{colText, typ, colDerived}),
			"col_index", uvs(uint64(len(text)), uint64(len(chunk)), 4),
			"values", text+string(chunk)+"\x01\x02\x01A\x01B",
			"quotemodes", string([]byte{0, qmode, 0}),
			"quotebits", string(qbits))...))
		fast, err1 := Decode(src, fuzzOpts...)
		safe, err2 := Decode(src, append(fuzzOpts, withSafe())...)
		checkErr(t, err1)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(fast, safe) {
			t.Fatalf("fast %q %v / safe %q %v", fast, err1, safe, err2)
		}
	})
}

// FuzzAppendFixed checks fixed-point formatting against math/big.
func FuzzAppendFixed(f *testing.F) {
	f.Add(int64(-5), uint8(2))
	f.Add(int64(math.MinInt64), uint8(18))
	f.Fuzz(func(t *testing.T, n int64, d uint8) {
		d %= maxScale + 1
		got := string(appendFixed(nil, n, int(d)))
		r := new(big.Rat).SetFrac(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil))
		want := r.FloatString(int(d))
		if d == 0 {
			want += "." // D = 0 keeps a trailing dot
		}
		if n < 0 && !strings.HasPrefix(want, "-") {
			want = "-" + want
		}
		if got != want {
			t.Fatalf("appendFixed(%d, %d) = %q, want %q", n, d, got, want)
		}
	})
}
