package at1

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// colFile builds a columnar file whose streams are stored verbatim.
func colFile(t *testing.T, kv ...string) []byte {
	return wholeFile(CodecColumnar, packSet(t, stored(kv...)...))
}

// oneColumn builds a file with one column of type typ and chunk, nrows
// structured rows of one field each, quote mode 0.
func oneColumn(t *testing.T, typ byte, chunk string, nrows int) []byte {
	fc := strings.Repeat("\x01", nrows)
	return colFile(t,
		"meta", uvs(uint64(nrows))+"\x00\x00\x01,\x01",
		"row_modes", strings.Repeat("\x01", nrows),
		"fieldcounts", fc,
		"coltypes", string([]byte{typ}),
		"col_index", uvs(uint64(len(chunk))),
		"values", chunk,
		"quotemodes", "\x00")
}

func TestColumnTypes(t *testing.T) {
	dict := "\x04\x02" + "\x01x" + "\x01y" + "\x00\x01\x00\x01"
	cases := []struct {
		name  string
		typ   byte
		chunk string
		rows  int
		want  string
	}{
		{"text split like bytes.split", colText, "a\n\nb\n", 4, "a\n\nb\n"},
		{"text empty chunk is one value", colText, "", 1, ""},
		{"int deltas", colInt, svs(7, -14, 1007), 3, "7\n-7\n1000"},
		{"int wraps like two's complement", colInt, svs(math.MaxInt64, 1), 2, "9223372036854775807\n-9223372036854775808"},
		{"dec D=2", colDec, "\x02" + svs(50, -55, 1205), 3, "0.50\n-0.05\n12.00"},
		{"dec D=0 trailing dot", colDec, "\x00" + svs(5, -12, 7), 3, "5.\n-7.\n0."},
		{"dec MinInt64", colDec, "\x03" + svs(math.MinInt64), 1, "-9223372036854775.808"},
		{"dec D=18", colDec, "\x12" + svs(1), 1, "0.000000000000000001"},
		{"numexc int", colNumExc, "\x00\x06\x0d\x03\x03N/A\x00\x03007" + svs(10, 2, -15), 6, "10\nN/A\n12\n-3\n\n007"},
		{"numexc dec chains across exceptions", colNumExc, "\x01\x01\x03\x05\x01\x01-" + svs(15, 10), 3, "1.5\n-\n2.5"},
		{"dict", colDict, dict, 4, "x\ny\nx\ny"},
		{"shuf", colShuf, "\x03" + svs(-100) + "\x02" + "\x00\x2c\x4c" + "\x00\x01\xfe", 3, "-100\n200\n65000"},
		{"shuf W=8 wraps", colShuf, "\x01" + svs(1) + "\x08" + "\xff\xff\xff\xff\xff\xff\xff\x7f", 1, "-9223372036854775808"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(oneColumn(t, tc.typ, tc.chunk, tc.rows))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDerivedAndQuotes(t *testing.T) {
	// Column 1 derives from column 0 (first-appearance order), column 1
	// is all quoted, column 0 has a bitmap marking value 1 quoted.
	src := colFile(t,
		"meta", "\x03\x01\x00\x01;\x02",
		"row_modes", "\x01\x01\x01",
		"fieldcounts", "\x02\x02\x02",
		"coltypes", "\x00\x04",
		"col_index", uvs(6, 12),
		"values", "b\na\"\nb"+"\x00\x02\x04B\"1\"\x04A;22",
		"quotemodes", "\x02\x01",
		"quotebits", "\x02")
	got, err := Decode(src)
	if err != nil {
		t.Fatal(err)
	}
	want := "b;\"B\"\"1\"\"\"\n\"a\"\"\";\"A;22\"\nb;\"B\"\"1\"\"\"\n"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestDerivedFromDict checks DERIVED columns over a DICT source, whose
// ranks come from its entries (equal entries share one) and are shared by
// every DERIVED column of that source, and the too-small map error.
func TestDerivedFromDict(t *testing.T) {
	file := func(dict string) []byte {
		return colFile(t,
			"meta", "\x04\x00\x00\x01,\x03",
			"row_modes", "\x01\x01\x01\x01",
			"fieldcounts", "\x03\x03\x03\x03",
			"coltypes", string([]byte{colDict, colDerived, colDerived}),
			"col_index", uvs(uint64(len(dict)), 6, 6),
			"values", dict+"\x00\x02\x01X\x01Y"+"\x00\x02\x01P\x01Q",
			"quotemodes", "\x00\x00\x00")
	}
	// Entries a, b, a; values 2, 1, 0, 1: a b a b, ranks 0 1 0 1.
	got, err := Decode(file("\x04\x03\x01a\x01b\x01a\x02\x01\x00\x01"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a,X,P\nb,Y,Q\na,X,P\nb,Y,Q"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Entries a, b, c all used: three distinct values, maps of two.
	_, err = Decode(file("\x04\x03\x01a\x01b\x01c\x00\x01\x02\x00"))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "DERIVED map has 2 values, source column 0 has more distinct values") {
		t.Fatalf("err = %v", err)
	}
}

func TestRowAssembly(t *testing.T) {
	base := []string{
		"meta", "\x04\x00\x01\x02<>\x02",
		"row_modes", "\x01\x00\x01\x00",
		"fieldcounts", "\x02\x01",
		"coltypes", "\x01\x00",
		"col_index", uvs(2, 1),
		"values", svs(1, 1) + "z",
		"quotemodes", "\x00\x00",
		"verbatim", "v1",
		"header", "h<>h",
	}
	got, err := Decode(colFile(t, base...))
	if err != nil {
		t.Fatal(err)
	}
	// Multi-byte delimiter, header, verbatim rows, ragged rows, and the
	// verbatim lines running out (an empty line, as the reference).
	if want := "h<>h\n1<>z\nv1\n2\n"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if _, err := Decode(colFile(t, base...), WithStrict()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("strict accepted running out of verbatim lines: %v", err)
	}
}

func TestColumnarErrors(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		want string
	}{
		{"dec scale 19", oneColumn(t, colDec, "\x13\x02", 1), "decimal scale out of range"},
		{"empty dec chunk", oneColumn(t, colDec, "", 1), "empty DEC chunk"},
		{"numexc scale 19", oneColumn(t, colNumExc, "\x01\x13\x01\x01\x00\x02", 1), "decimal scale out of range"},
		{"numexc exceptions run out", oneColumn(t, colNumExc, "\x00\x02\x01\x00"+svs(1), 2), "exceptions run out"},
		{"dict index out of range", oneColumn(t, colDict, "\x01\x01\x01x\x01", 1), "DICT index 1 out of range"},
		{"shuf width 0", oneColumn(t, colShuf, "\x01\x00\x00\x00", 1), "SHUF width 0"},
		{"shuf width 9", oneColumn(t, colShuf, "\x01\x00\x09"+strings.Repeat("\x00", 9), 1), "SHUF width 9"},
		{"shuf planes short", oneColumn(t, colShuf, "\x04\x00\x02\x00", 1), "SHUF count"},
		{"derived of itself", oneColumn(t, colDerived, "\x00\x00", 1), "DERIVED source column 0"},
		{"column runs out", oneColumn(t, colInt, svs(1), 2), "runs out of values"},
		{"truncated delta", oneColumn(t, colInt, "\x80", 1), "truncated varint"},
		{"unknown column type", oneColumn(t, 7, "x", 1), "unknown column type 7"},
		{"nf > ncols", colFile(t, "meta", "\x01\x00\x00\x01,\x01", "row_modes", "\x01", "fieldcounts", "\x02",
			"coltypes", "\x00", "col_index", "\x01", "values", "a", "quotemodes", "\x00"), "more than the 1 columns"},
		{"row_modes short", colFile(t, "meta", "\x02\x00\x00\x01,\x00", "row_modes", "\x01"), "row modes for 2 rows"},
		{"coltypes short", colFile(t, "meta", "\x00\x00\x00\x01,\x05", "coltypes", "\x00"), "column types for 5 columns"},
		{"quotebits short", colFile(t, "meta", "\x01\x00\x00\x01,\x01", "row_modes", "\x01", "fieldcounts", "\x01",
			"coltypes", "\x00", "col_index", "\x01", "values", "a", "quotemodes", "\x02"), "quote bitmap"},
		{"values short", colFile(t, "meta", "\x01\x00\x00\x01,\x01", "row_modes", "\x01", "fieldcounts", "\x01",
			"coltypes", "\x00", "col_index", "\x05", "values", "a", "quotemodes", "\x00"), "column 0 chunk"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.src)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v, want ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "at1: ") {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not located", err)
			}
		})
	}
}

func TestNumExcStrict(t *testing.T) {
	extra := oneColumn(t, colNumExc, "\x00\x01\x01\x01\x01x"+svs(4), 1)
	if got, err := Decode(extra); err != nil || string(got) != "4" {
		t.Fatalf("extra exceptions: %q %v", got, err)
	}
	if _, err := Decode(extra, WithStrict()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("strict: %v", err)
	}
	sub2 := oneColumn(t, colNumExc, "\x02\x01\x01\x01\x00"+svs(4), 1)
	if got, err := Decode(sub2); err != nil || string(got) != "0.4" {
		t.Fatalf("subtype 2 reads as decimal: %q %v", got, err)
	}
	if _, err := Decode(sub2, WithStrict()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("strict subtype 2: %v", err)
	}
}

func TestAppendFixed(t *testing.T) {
	cases := []struct {
		n    int64
		d    int
		want string
	}{
		{5, 0, "5."}, {-7, 0, "-7."}, {0, 0, "0."}, {0, 2, "0.00"}, {-5, 2, "-0.05"}, {125, 2, "1.25"},
		{1, 18, "0.000000000000000001"}, {math.MinInt64, 0, "-9223372036854775808."},
		{math.MaxInt64, 18, "9.223372036854775807"}, {math.MinInt64, 18, "-9.223372036854775808"},
	}
	for _, tc := range cases {
		if got := string(appendFixed(nil, tc.n, tc.d)); got != tc.want {
			t.Errorf("appendFixed(%d, %d) = %q, want %q", tc.n, tc.d, got, tc.want)
		}
	}
}

func TestColumnarRoundTrip(t *testing.T) {
	rows := [][]string{{"1", "1.50", "a"}, {"-3", "-0.25", ""}, {"7"}, {"8", "0.00", "zz", ""}}
	for _, backend := range []byte{BackendXZ, BackendZstd, BackendStored} {
		src := columnarFile(t, backend, "id,p,s,x", rows, []string{"int", "dec2", "text", "text"}, true)
		got, err := Decode(src)
		if err != nil {
			t.Fatal(err)
		}
		if want := "id,p,s,x\n1,1.50,a\n-3,-0.25,\n7\n8,0.00,zz,\n"; string(got) != want {
			t.Fatalf("backend %d: got %q want %q", backend, got, want)
		}
	}
}

// TestColumnarParallelParts covers row assembly in parts (more than
// 2*assemblePart rows): every part but the last is measured, the last
// takes what the plan leaves. Header, quoted fields, a constant column,
// DICT-like and numeric columns, ragged and verbatim rows, with and
// without a final newline; the same bytes at every concurrency and from
// the checked twin.
func TestColumnarParallelParts(t *testing.T) {
	n := 3*assemblePart + 123
	var sb strings.Builder
	sb.WriteString("id,kind,price,note,const,d700,d5000\n")
	kinds := []string{"alpha", "beta", "gamma", "a much longer kind name"}
	for i := 0; i < n; i++ {
		switch {
		case i%1009 == 5:
			sb.WriteString("a,ragged,row,with,far,too,many,fields\n")
			continue
		case i%733 == 7:
			sb.WriteString(strconv.Itoa(i) + ",short\n")
			continue
		}
		note := "n" + strconv.Itoa(i%17)
		if i%5 == 0 {
			note = "\"q,\"\"" + strconv.Itoa(i%7) + "\""
		}
		// d700 and d5000: DICTs of 2-byte indexes, through a value
		// table and through the entries' offsets (more than maxTable).
		d700, d5000 := "v"+strconv.Itoa(i*7%700), "w"+strconv.Itoa(i*13%5000)
		sb.WriteString(strconv.Itoa(1000+i*3) + "," + kinds[i%len(kinds)] + "," + strconv.Itoa(i%991) + "." + strconv.Itoa(10+i%90) + "," + note + ",k," + d700 + "," + d5000 + "\n")
	}
	full := sb.String()
	for _, in := range []string{full, strings.TrimSuffix(full, "\n")} {
		for _, tok := range []bool{false, true} {
			src, err := Encode([]byte(in), WithCodec(CodecColumnar), WithLevel(1), WithTokenTables(tok))
			if err != nil {
				t.Fatal(err)
			}
			for _, opt := range []Option{WithConcurrency(1), WithConcurrency(2), WithConcurrency(3), withSafe()} {
				got, err := Decode(src, opt)
				if err != nil || string(got) != in {
					t.Fatalf("tokens %v: %v (%d bytes, want %d)", tok, err, len(got), len(in))
				}
			}
		}
	}
}

// TestColumnarParallelPartsKinds sizes parts through every row writer:
// DICTs of 1-byte indexes (value table), of 2-byte indexes (value table,
// and offsets past maxTable), SHUF, INT, quoted INT, DEC and TEXT, with
// ragged rows, so later columns give fewer values than earlier ones.
func TestColumnarParallelPartsKinds(t *testing.T) {
	n := 3*assemblePart + 501
	types := []string{"int", "dict", "dict", "dict", "shuf", "qint", "dec2", "text"}
	rows := make([][]string, n)
	var want strings.Builder
	want.WriteString("h1,h2")
	for i := range rows {
		row := []string{
			strconv.Itoa(i * 3),
			"k" + strconv.Itoa(i%5),
			"v" + strconv.Itoa(i*7%700),
			"w" + strconv.Itoa(i*13%5000),
			strconv.Itoa(1000 + i%40000),
			strconv.Itoa(i % 77),
			strconv.Itoa(i%500) + "." + strconv.Itoa(10+i%90),
			"t" + strconv.Itoa(i%3),
		}
		row = row[:len(row)-i%4] // ragged: 5 to 8 fields
		rows[i] = row
		want.WriteByte('\n')
		for k, f := range row {
			if k > 0 {
				want.WriteByte(',')
			}
			if types[k] == "qint" {
				f = `"` + f + `"`
			}
			want.WriteString(f)
		}
	}
	want.WriteByte('\n')
	src := columnarFile(t, BackendStored, "h1,h2", rows, types, true)
	for _, opt := range []Option{WithConcurrency(1), WithConcurrency(2), WithConcurrency(3), withSafe()} {
		got, err := Decode(src, opt)
		if err != nil || string(got) != want.String() {
			t.Fatalf("%v (%d bytes, want %d)", err, len(got), want.Len())
		}
	}
}
