package at1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
)

// fuzzOpts keeps fuzzing allocations small and checkable.
var fuzzOpts = []Option{WithMaxDecodedSize(1 << 20), WithMaxStreamSize(1 << 20), WithMaxXZDictionary(8 << 20), WithMemoryLimit(2 << 20)}

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

// FuzzDiffDecode decodes arbitrary input serially, in parallel and through the
// streaming Reader: all three must agree, and never panic or allocate
// beyond the limits.
func FuzzDiffDecode(f *testing.F) {
	addSeeds(f)
	addRowWriterSeeds(f)
	addQStreamSeeds(f)
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
		// WriteTo (frames read ahead with more than one goroutine) writes
		// the bytes and returns the error of the serial WriteTo.
		writeTo := func(conc int) ([]byte, error) {
			z, err := NewReader(bytes.NewReader(src), append(fuzzOpts, WithConcurrency(conc))...)
			if err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			n, err := z.WriteTo(&buf)
			if n != int64(buf.Len()) {
				t.Fatalf("WriteTo reports %d bytes, wrote %d", n, buf.Len())
			}
			return buf.Bytes(), err
		}
		w1, werr1 := writeTo(1)
		w2, werr2 := writeTo(2)
		if fmt.Sprint(werr1) != fmt.Sprint(werr2) || !bytes.Equal(w1, w2) {
			t.Fatalf("WriteTo serial %d bytes, %v / ahead %d bytes, %v", len(w1), werr1, len(w2), werr2)
		}
		if err1 == nil && werr1 == nil && !bytes.Equal(w1, serial) {
			t.Fatalf("WriteTo output differs from Decode")
		}
		// DecodeTo streams in chunks: the same bytes when Decode
		// succeeds, an error when it fails.
		var out bytes.Buffer
		n, err4 := DecodeTo(&out, src, fuzzOpts...)
		checkErr(t, err4)
		if n != int64(out.Len()) {
			t.Fatalf("DecodeTo reports %d bytes, wrote %d", n, out.Len())
		}
		if (err1 == nil) != (err4 == nil) || (err1 == nil && !bytes.Equal(out.Bytes(), serial)) {
			t.Fatalf("Decode %v / DecodeTo %v disagree", err1, err4)
		}
		// The streaming fast paths against the checked twin, streaming.
		var safeOut bytes.Buffer
		_, err5 := DecodeTo(&safeOut, src, append(fuzzOpts, withSafe())...)
		if (err4 == nil) != (err5 == nil) || (err4 == nil && !bytes.Equal(out.Bytes(), safeOut.Bytes())) {
			t.Fatalf("DecodeTo %v / safe twin %v disagree", err4, err5)
		}
		// qcolumnar and qjson stream a row group at a time (streamQuery),
		// but return the error of decoding every block first, as the
		// serial Decode does (limits aside: they are checked at
		// different points), having written only a start of the output.
		if _, codec, err := checkHeader(src); err == nil && (codec == CodecQColumnar || codec == CodecQJSON) {
			if !errors.Is(err1, ErrTooLarge) && !errors.Is(err4, ErrTooLarge) && fmt.Sprint(err1) != fmt.Sprint(err4) {
				t.Fatalf("Decode %v / DecodeTo %v: different errors", err1, err4)
			}
			if err4 != nil && err1 == nil && !bytes.HasPrefix(serial, out.Bytes()) {
				t.Fatalf("DecodeTo wrote %d bytes that do not start the output", out.Len())
			}
		}
	})
}

// FuzzDiffQuery opens arbitrary input and runs queries. Wherever a full
// decode succeeds, each query either fails or returns exactly the rows of
// the full decode that satisfy its predicates, in order. The one allowance
// is for zone maps, which a query trusts by design: rows may be missing
// only from row groups whose zone map is contradicted by a value in that
// group. On a file that also passes Strict decoding the queries must
// succeed.
func FuzzDiffQuery(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		before := allocated()
		file, err := Open(bytes.NewReader(src), int64(len(src)), fuzzOpts...)
		if a := allocated() - before; a > fuzzAllocLimit {
			t.Fatalf("Open allocated %d bytes", a)
		}
		checkErr(t, err)
		if err != nil || file.Columns() == nil {
			return
		}
		var ref *fullRows
		// The row-by-row reference covers whole-file tables; framed files
		// (queried frame by frame) are checked for errors and limits.
		if full, err := Decode(src, fuzzOpts...); err == nil && file.t != nil {
			ref = decodedRows(t, file, src, full)
		}
		_, strictErr := Decode(src, append(fuzzOpts, WithStrict())...)
		qs := []Query{{}}
		for _, c := range file.Columns() {
			if c.Type != QText {
				qs = append(qs, Query{Columns: []int{c.Index}, Where: []Range{{Column: c.Index, Min: "-5", Max: "1000.5"}}},
					Query{Where: []Range{{Column: c.Index, Min: "1001"}}})
			} else {
				qs = append(qs, Query{Columns: []int{c.Index}, Where: []Range{{Column: c.Index, Min: "B", Max: "m"}}},
					Query{Where: []Range{{Column: c.Index, Min: "0", Max: "99"}}})
			}
		}
		for _, q := range qs {
			before := allocated()
			rs, err := file.Query(q)
			checkErr(t, err)
			if err != nil && strictErr == nil && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("query plan fails on a Strict-valid file: %v", err)
			}
			if err != nil {
				continue
			}
			var got []Row
			var qerr error
			for row, err := range rs.All() {
				if err != nil {
					qerr = err
					break
				}
				got = append(got, row)
				if len(got) > 1<<20 {
					t.Fatal("too many rows")
				}
			}
			if a := allocated() - before; a > fuzzAllocLimit {
				t.Fatalf("query allocated %d bytes", a)
			}
			checkErr(t, qerr)
			if qerr != nil && strictErr == nil && !errors.Is(qerr, ErrTooLarge) {
				t.Fatalf("query fails on a Strict-valid file: %v", qerr)
			}
			if qerr == nil && ref != nil {
				ref.check(t, rs, q, got)
			}
		}
	})
}

// fullRows holds the structured rows of a full decode as column values.
type fullRows struct {
	f     *File
	rows  [][][]byte // [structured line][column]
	blocs [][]colVals
}

// decodedRows rebuilds the structured rows behind a successful full
// decode from row_modes and every block, and checks them against the
// decoded lines (when no template segment or delimiter holds a newline).
func decodedRows(t *testing.T, f *File, src, full []byte) *fullRows {
	t.Helper()
	tb := f.t
	modes, err := f.loadStream("row_modes")
	if err != nil {
		t.Fatalf("Decode succeeded, row_modes does not load: %v", err)
	}
	var idx []int // line number of each structured line
	for i, m := range modes[:tb.nlines] {
		if m != 0 {
			idx = append(idx, i)
		}
	}
	ref := &fullRows{f: f}
	if tb.ncols > 0 {
		ng := (len(idx) + tb.rg - 1) / tb.rg
		for g := 0; g < ng; g++ {
			var cols []colVals
			for c := 0; c < tb.ncols; c++ {
				b := tb.groups[g][c]
				raw := f.blocks
				if f.blocksOff >= 0 {
					raw = src[f.blocksOff:]
				}
				v, err := f.dec.decodeBlock(raw[b.Offset:b.Offset+b.Size], 0, g, c, nil, false)
				if err != nil {
					t.Fatalf("Decode succeeded, block (%d,%d) fails: %v", g, c, err)
				}
				cols = append(cols, v)
			}
			ref.blocs = append(ref.blocs, cols)
		}
	}
	lines := bytes.Split(full, []byte("\n"))
	plain := !bytes.Contains(tb.delim, []byte("\n"))
	for _, sg := range tb.segs {
		plain = plain && !bytes.Contains(sg, []byte("\n"))
	}
	for si, li := range idx {
		var vals [][]byte
		if tb.ncols > 0 {
			cols := ref.blocs[si/tb.rg]
			for c := range cols {
				vals = append(vals, cols[c].at(si%tb.rg))
			}
			if l := tb.appendRow(nil, cols, si%tb.rg); plain && !bytes.Equal(l, lines[li]) {
				t.Fatalf("structured line %d: rebuilt %q, decoded %q", li, l, lines[li])
			}
		}
		ref.rows = append(ref.rows, vals)
	}
	return ref
}

// zoneLies reports whether a value of column c in group g contradicts
// the block's zone map.
func (ref *fullRows) zoneLies(g, c int) bool {
	b := ref.f.t.groups[g][c]
	if !b.HasZone {
		return false
	}
	v := ref.blocs[g][c]
	for r := 0; r < min(v.count(), ref.f.t.rg); r++ {
		s := v.at(r)
		d, ok := parseDecimal(s)
		if !ok {
			continue
		}
		if ref.f.t.coltypes[c] == QInt {
			mn, _ := parseDecimal(strconv.AppendInt(nil, b.IntMin, 10))
			mx, _ := parseDecimal(strconv.AppendInt(nil, b.IntMax, 10))
			if cmpDecimal(d, mn) < 0 || cmpDecimal(d, mx) > 0 {
				return true
			}
			continue
		}
		x, err := strconv.ParseFloat(string(s), 64)
		if err != nil || x < b.DecMin || x > b.DecMax {
			return true
		}
	}
	return false
}

// check compares a query's rows with the full decode filtered by q.
func (ref *fullRows) check(t *testing.T, rs *Rows, q Query, got []Row) {
	t.Helper()
	var want []Row
	lies := map[int]bool{} // row groups whose zone maps a query may wrongly trust
	for si, vals := range ref.rows {
		ok := true
		for _, p := range rs.preds {
			if !p.match(vals[p.col]) {
				ok = false
			}
			if g := si / ref.f.t.rg; si%ref.f.t.rg == 0 && ref.zoneLies(g, p.col) {
				lies[g] = true
			}
		}
		if !ok {
			continue
		}
		row := Row{Index: int64(si), Values: [][]byte{}}
		for _, c := range rs.cols {
			row.Values = append(row.Values, vals[c])
		}
		want = append(want, row)
	}
	i := 0
	for _, w := range want {
		if i < len(got) && got[i].Index == w.Index {
			if !equalValues(got[i].Values, w.Values) {
				t.Fatalf("query %+v row %d: %q, full decode %q", q, w.Index, got[i].Values, w.Values)
			}
			i++
			continue
		}
		if !lies[int(w.Index)/ref.f.t.rg] {
			t.Fatalf("query %+v misses row %d (%q) of the full decode", q, w.Index, w.Values)
		}
	}
	if i != len(got) {
		t.Fatalf("query %+v returned %d rows the full decode does not have (first: %d %q)", q, len(got)-i, got[i].Index, got[i].Values)
	}
}

func equalValues(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// FuzzDiffColumn feeds one column chunk of any type to the columnar decoder
// inside a file of stored streams, so mutations reach the column decoders
// and row assembly directly; the fast path and its checked twin must agree.
func FuzzDiffColumn(f *testing.F) {
	f.Add(byte(colNumExc), []byte("\x00\x06\x0d\x03\x03N/A\x00\x03007\x14\x04\x1d"), uint8(6), byte(2), []byte{0x0c})
	f.Add(byte(colDict), []byte("\x04\x02\x01x\x01y\x00\x01\x00\x01"), uint8(4), byte(1), []byte(nil))
	f.Add(byte(colShuf), []byte("\x03\xc7\x01\x02\x00\x2c\x4c\x00\x01\xfe"), uint8(3), byte(0), []byte(nil))
	f.Add(byte(colShuf), []byte("\x03\x00\x01\x05\x07\x05"), uint8(3), byte(0), []byte(nil))
	f.Add(byte(colDec), []byte("\x02\x64\x6d\xea\x12"), uint8(3), byte(0), []byte(nil))
	f.Add(byte(colText), []byte("a\n\"b\"\n"), uint8(3), byte(2), []byte{0x05})
	// DICT sources with a repeated entry (two entries, one rank) and with
	// more distinct values than the DERIVED map holds.
	f.Add(byte(colDict), []byte("\x04\x03\x01x\x01y\x01x\x00\x01\x02\x01"), uint8(4), byte(0), []byte(nil))
	f.Add(byte(colDict), []byte("\x03\x03\x01x\x01y\x01z\x00\x01\x02"), uint8(3), byte(0), []byte(nil))
	f.Fuzz(func(t *testing.T, typ byte, chunk []byte, nrows uint8, qmode byte, qbits []byte) {
		src := columnFile(t, typ, string(chunk), int(nrows), qmode, qbits)
		fast, err1 := Decode(src, fuzzOpts...)
		safe, err2 := Decode(src, append(fuzzOpts, withSafe())...)
		checkErr(t, err1)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(fast, safe) {
			t.Fatalf("fast %q %v / safe %q %v", fast, err1, safe, err2)
		}
		// The streaming path formats numbers (INT, DEC, SHUF) and walks
		// TEXT lazily: the same bytes, or an error where Decode fails.
		var out bytes.Buffer
		_, err3 := DecodeTo(&out, src, fuzzOpts...)
		if (err1 == nil) != (err3 == nil) || (err1 == nil && !bytes.Equal(out.Bytes(), fast)) {
			t.Fatalf("Decode %q %v / DecodeTo %q %v", fast, err1, out.Bytes(), err3)
		}
	})
}

// columnFile is FuzzDiffColumn's file: column 0 is TEXT (one value per
// row), column 1 the chunk of type typ (quoted per qmode and qbits),
// column 2 derives from column 1 and column 3 from column 2 (a DERIVED
// source: the rank of a rank).
func columnFile(t *testing.T, typ byte, chunk string, nrows int, qmode byte, qbits []byte) []byte {
	text := strings.Repeat("v\n", nrows)
	const derived2, derived3 = "\x01\x02\x01A\x01B", "\x02\x02\x01P\x01Q"
	return wholeFile(CodecColumnar, packSet(t, stored(
		"meta", uvs(uint64(nrows))+"\x01\x00\x01,\x04",
		"row_modes", strings.Repeat("\x01", nrows),
		"fieldcounts", strings.Repeat("\x04", nrows),
		"coltypes", string([]byte{colText, typ, colDerived, colDerived}),
		"col_index", uvs(uint64(len(text)), uint64(len(chunk)), uint64(len(derived2)), uint64(len(derived3))),
		"values", text+chunk+derived2+derived3,
		"quotemodes", string([]byte{0, qmode, 0, 0}),
		"quotebits", string(qbits))...))
}

// TestDiffColumnSeedsDecode keeps FuzzDiffColumn honest: its seeds of
// each column type decode (a harness whose files never decode would only
// compare errors).
func TestDiffColumnSeedsDecode(t *testing.T) {
	for _, tc := range []struct {
		typ   byte
		chunk string
		nrows int
		want  string
	}{
		{colDict, "\x04\x02\x01x\x01y\x00\x01\x00\x01", 4, "v,x,A,P\nv,y,B,Q\nv,x,A,P\nv,y,B,Q\n"},
		{colShuf, "\x03\x00\x01\x05\x07\x05", 3, "v,5,A,P\nv,7,B,Q\nv,5,A,P\n"},
		{colNumExc, "\x00\x04\x05\x02\x03N/A\x03N/A\x14\x00", 4, "v,10,A,P\nv,N/A,B,Q\nv,10,A,P\nv,N/A,B,Q\n"},
		{colShuf, "\x02\xc7\x01\x02\x2c\x4c\x01\xfe", 2, "v,200,A,P\nv,65000,B,Q\n"},
		{colDict, "\x04\x03\x01x\x01y\x01x\x00\x01\x02\x01", 4, "v,x,A,P\nv,y,B,Q\nv,x,A,P\nv,y,B,Q\n"},
	} {
		src := columnFile(t, tc.typ, tc.chunk, tc.nrows, 0, nil)
		got, err := Decode(src)
		if err != nil {
			t.Fatalf("type %d: %v", tc.typ, err)
		}
		var out bytes.Buffer
		if _, err := DecodeTo(&out, src); err != nil || !bytes.Equal(out.Bytes(), got) {
			t.Fatalf("type %d: DecodeTo %q %v, Decode %q", tc.typ, out.Bytes(), err, got)
		}
		if tc.want != "" && string(got) != tc.want {
			t.Fatalf("type %d: %q, want %q", tc.typ, got, tc.want)
		}
		t.Logf("type %d: %q", tc.typ, got)
	}
}

// FuzzDiffAppendFixed checks fixed-point formatting against math/big.
func FuzzDiffAppendFixed(f *testing.F) {
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
		// numColumn's in-place formatter agrees with appendNum, for
		// DEC and (d = maxScale stands in for) INT.
		dec := int(d)
		if d == maxScale {
			dec = -1
		}
		want = string(appendNum(nil, n, dec))
		b := make([]byte, numLen(n, dec))
		putNum(b, n, dec)
		if string(b) != want {
			t.Fatalf("putNum(%d, %d) = %q, want %q", n, dec, b, want)
		}
	})
}
