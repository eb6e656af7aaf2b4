package at1

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

// rowWriterInputs are originals whose columnar files use every row writer
// kind: token tables (constant DERIVED columns, small DICTs), DICTs of
// 1-byte in-place, 2-byte-varint and 2-byte indexes, one too large for a
// table, INT, DEC, NUMEXC and SHUF numbers, TEXT, quoted columns (all
// and by bitmap), verbatim and short rows.
func rowWriterInputs() map[string][]byte {
	in := map[string][]byte{}
	var jl strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&jl, "{\"delay\":%d,\"origin\":\"A%02d\",\"dest\":\"B%03d\",\"t\":%d.%d}\n", (i*37)%500-20, i%90, (i*7)%300, i%60, i%10)
		if i%701 == 5 {
			jl.WriteString("not json\n")
		}
	}
	in["tokens"] = []byte(jl.String())

	var csv strings.Builder
	csv.WriteString("id,price,mixed,cat,city,name,note,shuf\n")
	for i := 0; i < 6000; i++ {
		mixed := fmt.Sprint(i * 3 % 1000)
		if i%9 == 0 {
			mixed = "n/a"
		}
		note := fmt.Sprintf("n%d", i%40)
		if i%5 == 0 {
			note = fmt.Sprintf("\"say \"\"hi\"\", %d\"", i%13)
		}
		fmt.Fprintf(&csv, "%d,%d.%02d,%s,c%03d,city-%04d,person %05d of the long name set,%s,%d\n",
			i, i%977, i%100, mixed, (i*31)%200, (i*13)%3000, (i*7919)%5500, note, (i*104729)%65000+70000)
		switch i % 997 {
		case 3:
			csv.WriteString("a,short,row\n")
		case 4:
			csv.WriteString("\"unterminated,quote\n")
		}
	}
	in["csv"] = []byte(csv.String())

	var q strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&q, "\"k%d\",\"v%d\"\n", i%50, i%7)
	}
	in["quoted"] = []byte(q.String())
	return in
}

// columnarRowsOf decodes a whole-file columnar file's columns (lazily
// as colfmt cat does, or not) and plans its rows.
func columnarRowsOf(t testing.TB, src []byte, lazy bool) *columnarRows {
	t.Helper()
	c, err := newConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.decoder().parse(memSource(src, 0))
	if err != nil || p.Framed || p.Codec != CodecColumnar {
		t.Fatalf("not a whole-file columnar file: %v", err)
	}
	ss, err := c.decoder().streamSetOf(memSource(src, 0), p.Streams)
	if err != nil {
		t.Fatal(err)
	}
	if err := ss.load(columnarStreams...); err != nil {
		t.Fatal(err)
	}
	m, err := parseColumnarMeta(ss.get("meta"))
	if err != nil {
		t.Fatal(err)
	}
	cols, err := c.decoder().decodeColumns(m.ncols, ss.get("coltypes"), ss.get("col_index"), func(int) []byte { return ss.get("values") }, 1<<40, lazy)
	if err != nil {
		t.Fatal(err)
	}
	quotes, err := quoteFlags(cols, ss.get("quotemodes"), ss.get("quotebits"))
	if err != nil {
		t.Fatal(err)
	}
	rs := &columnarRows{m: m, rowModes: ss.get("row_modes"), fieldcounts: ss.get("fieldcounts"), verbatim: ss.get("verbatim"),
		header: ss.get("header"), cols: cols, quotes: quotes}
	if _, err := c.decoder().planRows(rs); err != nil {
		t.Fatal(err)
	}
	return rs
}

// The row writers reproduce the originals byte for byte through every
// path (streamed, whole, parallel, the checked twin), and the inputs
// reach every writer kind.
func TestRowWriters(t *testing.T) {
	kinds := map[uint8]bool{}
	for name, enc := range rowWriterFiles(t) {
		orig := rowWriterInputs()[strings.TrimSuffix(name, "/plain")]
		if name == "dicts" {
			orig = dictsOrig(t, enc)
			if !bytes.HasPrefix(orig, []byte("a,b,c,d,e,f\nm0,name number 0,-50,-20.00,\"0\",-9\n")) {
				t.Fatalf("dicts: %.80q", orig)
			}
		}
		for _, opts := range [][]Option{nil, {WithConcurrency(1)}, {WithConcurrency(4)}, {withSafe()}} {
			got, err := Decode(enc, opts...)
			if err != nil || !bytes.Equal(got, orig) {
				t.Fatalf("%s: Decode %d opts: %v", name, len(opts), err)
			}
			var w bytes.Buffer
			if _, err := DecodeTo(&w, enc, opts...); err != nil || !bytes.Equal(w.Bytes(), orig) {
				t.Fatalf("%s: DecodeTo %d opts: %v", name, len(opts), err)
			}
		}
		z, err := NewReader(bytes.NewReader(enc))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(z); err != nil || !bytes.Equal(got, orig) {
			t.Fatalf("%s: NewReader: %v", name, err)
		}
		for _, lazy := range []bool{true, false} {
			for _, w := range columnarRowsOf(t, enc, lazy).ws {
				kinds[w.kind] = true
			}
		}
	}
	for k := uint8(wGeneric); k <= wText; k++ {
		if !kinds[k] {
			t.Errorf("no input uses writer kind %d", k)
		}
	}
}

// A DICT column whose indexes sit in place in the values stream, and one
// whose index is out of range, as the fast and checked paths see them.
func TestDictInPlace(t *testing.T) {
	for _, tc := range []struct {
		b     []byte
		ndict int
		want  bool
	}{
		{[]byte{0, 1, 2, 1}, 3, true},
		{[]byte{0, 3}, 3, false},
		{[]byte{0x7f, 0}, 0x80, true},
		{[]byte{0x80, 0}, 0x80, false},
		{[]byte{0, 0}, 1, true},
		{[]byte{1}, 1, false},
		{nil, 5, true},
	} {
		if got := dictInPlace(tc.b, tc.ndict); got != tc.want {
			t.Errorf("dictInPlace(%v, %d) = %v", tc.b, tc.ndict, got)
		}
	}
	// Through the column decoder: in place (no copy), and range errors.
	chunk := []byte{4, 2, 1, 'a', 1, 'b', 0, 1, 1, 0}
	v, err := dictColumn(&cursor{b: chunk})
	if err != nil || v.idx.w != 1 || &v.idx.b[0] != &chunk[6] || string(v.at(1)) != "b" || string(v.at(3)) != "a" {
		t.Fatalf("in place: %+v %v", v.idx, err)
	}
	bad := []byte{2, 2, 1, 'a', 1, 'b', 0, 2}
	if _, err := dictColumn(&cursor{b: bad}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("index 2 of 2 entries: %v", err)
	}
	// Two-byte varints (more than 0x80 entries) go through the copy.
	var big []byte
	big = append(big, 3, 0x81, 0x01)
	for i := 0; i < 0x81; i++ {
		big = append(big, 1, byte('a'+i%26))
	}
	big = append(big, 0x80, 0x01, 5, 0x80, 0x00)
	v, err = dictColumn(&cursor{b: big})
	if err != nil || v.idx.at(0) != 0x80 || v.idx.at(1) != 5 || v.idx.at(2) != 0 {
		t.Fatalf("two-byte indexes: %v", err)
	}
	big[len(big)-5] = 0x81 // index 0x81 of 0x81 entries
	if _, err := dictColumn(&cursor{b: big}); err == nil {
		t.Fatal("index 0x81 of 0x81 entries accepted")
	}
}

// FuzzDiffDecode's seeds include the row writer inputs' files.
func addRowWriterSeeds(f *testing.F) {
	for _, enc := range rowWriterFiles(f) {
		f.Add(enc)
	}
}

// rowWriterFiles encodes rowWriterInputs as columnar files, as token
// tables and (name/plain) without.
func rowWriterFiles(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	for name, orig := range rowWriterInputs() {
		for _, tokens := range []bool{true, false} {
			enc, err := Encode(orig, WithCodec(CodecColumnar), WithLevel(1), WithTokenTables(tokens))
			if err != nil {
				t.Fatal(name, err)
			}
			if !tokens {
				name += "/plain"
			}
			files[name] = enc
		}
	}
	// DICTs of 300 and 5,000 entries (2-byte indexes, by table and by
	// offsets), INT and DEC deltas, quoted INT, SHUF, short rows: built
	// directly.
	var rows [][]string
	for i := 0; i < 6000; i++ {
		rows = append(rows, []string{fmt.Sprintf("m%d", (i*7)%300), fmt.Sprintf("name number %d", (i*7919)%5000),
			strconv.Itoa(i*3 - 50), fmt.Sprintf("%d.%02d", i%40-20, i%100), strconv.Itoa(i % 17), strconv.Itoa(i*11%60000 - 9)})
		if i%1000 == 999 {
			rows = append(rows, rows[len(rows)-1][:2])
		}
	}
	files["dicts"] = columnarFile(t, BackendZstd, "a,b,c,d,e,f", rows, []string{"dict", "dict", "int", "dec2", "qint", "shuf"}, true)
	return files
}

// dictsOrig is the original of rowWriterFiles' "dicts" file.
func dictsOrig(t testing.TB, enc []byte) []byte {
	got, err := Decode(enc, withSafe())
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Columns over one DICT's indexes (a DICT and DERIVED columns over it,
// directly or through another DERIVED) rank their entries from the
// indexes' first-appearance order, computed once per index vector; the
// ranks must equal those of hashing every value in order.
func TestRankEntriesShareFirstSeen(t *testing.T) {
	entries := func(vals ...string) colVals {
		var v colVals
		v.offs = append(v.offs, 0)
		for _, s := range vals {
			v.buf = append(append(v.buf, s...), '\n')
			v.offs = append(v.offs, uint32(len(v.buf)))
		}
		return v
	}
	check := func(t *testing.T, name string, v *colVals, r sourceRanks) {
		seen := map[string]uint32{}
		for i := 0; i < v.idx.n; i++ {
			s := string(v.at(i))
			want, ok := seen[s]
			if !ok {
				want = uint32(len(seen))
				seen[s] = want
			}
			if got := r.rank[v.idx.at(i)]; got != want {
				t.Fatalf("%s: value %d (%q) ranked %d, want %d", name, i, s, got, want)
			}
		}
		if r.distinct != len(seen) {
			t.Fatalf("%s: %d distinct, want %d", name, r.distinct, len(seen))
		}
	}
	for _, w := range []int{0, 1, 2, 4} {
		const n = 5000
		x := &idxVec{b: make([]byte, n*w), n: n, w: w}
		// Six entries: "x" twice (one rank), entry 4 never used, entry 5
		// only in the last value (the walk reads to the end).
		src := entries("x", "y", "x", "z", "w", "v")
		if w == 0 {
			src = entries("x")
		} else {
			for i := 0; i < n-1; i++ {
				x.set(i, []uint32{0, 1, 2, 3}[(i*7+i/13)%4])
			}
			x.set(n-1, 5)
		}
		src.idx = x
		r1 := rankEntries(&src)
		check(t, "dict", &src, r1)
		first := x.first
		// A DERIVED column over the DICT (its map joins two ranks), and
		// one over that DERIVED column.
		d1 := entries("A", "B", "A", "C", "D")
		d1.idx, d1.rank = x, r1.rank
		r2 := rankEntries(&d1)
		check(t, "derived", &d1, r2)
		d2 := entries("p", "q", "r", "s")
		d2.idx, d2.rank = x, r2.rank
		check(t, "derived of derived", &d2, rankEntries(&d2))
		if len(first) == 0 || &x.first[0] != &first[0] {
			t.Fatalf("width %d: first-appearance order computed again (or not at all)", w)
		}
	}
}
