package at1

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func openVector(t *testing.T, name string, opts ...Option) *File {
	t.Helper()
	src := readVector(t, name)
	f, err := Open(bytes.NewReader(src), int64(len(src)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func collect(t *testing.T, rs *Rows) []string {
	t.Helper()
	var out []string
	for row, err := range rs.All() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(bytes.Join(row.Values, []byte("|"))))
	}
	return out
}

func TestOpenQColumnar(t *testing.T) {
	f := openVector(t, "qcol.at1")
	if f.Codec != CodecQColumnar || f.Framed || f.RowGroupSize() != 2 || f.Lines() != 6 || f.StructuredRows() != 4 {
		t.Fatalf("header: codec %v framed %v rg %d lines %d", f.Codec, f.Framed, f.RowGroupSize(), f.Lines())
	}
	var names []string
	for _, s := range f.Streams {
		names = append(names, s.Name+":"+BackendName(s.Backend))
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "blocks:stored") || !strings.Contains(got, "index:") {
		t.Fatalf("streams %s", got)
	}
	g := f.RowGroups()
	if len(g) != 2 || len(g[0]) != 3 {
		t.Fatalf("row groups %v", g)
	}
	if g[0][0].IntMin != 1000 || g[0][0].IntMax != 1001 || g[1][0].IntMin != 1003 || g[1][0].IntMax != 1005 {
		t.Fatalf("int zones %+v %+v", g[0][0], g[1][0])
	}
	if g[0][1].DecMin != 1.25 || g[0][1].DecMax != 1.5 || g[1][1].DecMin != 1.75 || g[1][1].DecMax != 2.0 {
		t.Fatalf("dec zones %+v %+v", g[0][1], g[1][1])
	}
	if g[1][0].Size != 0x17 || g[2-1][2].HasZone {
		t.Fatalf("block sizes/zones %+v", g[1])
	}
	if cols := f.Columns(); len(cols) != 3 || cols[0].Type != QInt || cols[1].Type != QDecimal || cols[2].Type != QText {
		t.Fatalf("columns %+v", cols)
	}
	out, err := f.Decode()
	if err != nil || !bytes.Equal(out, readVector(t, "qcol.expected")) {
		t.Fatalf("File.Decode: %q %v", out, err)
	}
}

func TestQueryQColumnar(t *testing.T) {
	f := openVector(t, "qcol.at1")
	cases := []struct {
		name string
		q    Query
		want []string
		st   QueryStats
	}{
		{"all", Query{}, []string{"1000|1.50|AAA", "1001|1.25|\"B,B\"", "1005|2.00|CCC", "1003|1.75|"},
			QueryStats{Groups: 2, BlocksRead: 6, BytesRead: 0x45*3 + 0x17 + 0x45 + 0x3d, Rows: 4}},
		{"int range skips group 0", Query{Columns: []int{2, 0}, Where: []Range{{Column: 0, Min: "1002"}}},
			[]string{"CCC|1005", "|1003"},
			QueryStats{Groups: 2, GroupsSkipped: 1, BlocksRead: 2, BlocksSkipped: 2, BytesRead: 0x17 + 0x3d, Rows: 2}},
		{"exact recheck in a surviving group", Query{Columns: []int{0}, Where: []Range{{Column: 0, Min: "1004", Max: "1005"}}},
			[]string{"1005"}, QueryStats{Groups: 2, GroupsSkipped: 1, BlocksRead: 1, BlocksSkipped: 1, BytesRead: 0x17, Rows: 1}},
		{"decimal range", Query{Columns: []int{1, 2}, Where: []Range{{Column: 1, Min: "1.5", Max: "1.75"}}},
			[]string{"1.50|AAA", "1.75|"}, QueryStats{Groups: 2, BlocksRead: 4, BytesRead: 0x45*3 + 0x3d, Rows: 2}},
		{"decimal zone skip", Query{Columns: []int{0}, Where: []Range{{Column: 1, Max: "1.3"}}},
			[]string{"1001"}, QueryStats{Groups: 2, GroupsSkipped: 1, BlocksRead: 2, BlocksSkipped: 2, BytesRead: 0x45 * 2, Rows: 1}},
		{"no row matches inside the zone", Query{Columns: []int{2}, Where: []Range{{Column: 0, Min: "1004", Max: "1004"}}},
			nil, QueryStats{Groups: 2, GroupsSkipped: 2, BlocksRead: 1, BlocksSkipped: 3, BytesRead: 0x17}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := f.Query(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			got := collect(t, rs)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("rows %q, want %q", got, tc.want)
			}
			if rs.Stats() != tc.st {
				t.Fatalf("stats %+v, want %+v", rs.Stats(), tc.st)
			}
		})
	}
}

func TestQueryQJSONByPath(t *testing.T) {
	f := openVector(t, "qjson.at1")
	cols := f.Columns()
	if len(cols) != 2 || cols[0].Type != QInt || cols[1].Type != QText {
		t.Fatalf("columns %+v", cols)
	}
	q := Query{Columns: []int{1}, Where: []Range{{Column: 0, Min: "2"}}}
	if cols[0].Path != "" {
		q = Query{Paths: []string{cols[1].Path}, Where: []Range{{Path: cols[0].Path, Min: "2"}}}
	}
	rs, err := f.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, rs)
	if strings.Join(got, ",") != `null,"c"` {
		t.Fatalf("rows %q (paths %+v)", got, cols)
	}
	if _, err := f.Query(Query{Paths: []string{"no.such.path"}}); err == nil {
		t.Fatal("unknown path accepted")
	}
	// A text column: decimal bounds match values that are numbers (none
	// here), other bounds compare text, a quoted value without its quotes.
	for _, tc := range []struct {
		r    Range
		want string
	}{
		{Range{Column: 1, Min: "1"}, ""},
		{Range{Column: 1, Min: "c", Max: "c"}, `3|"c"`},
		{Range{Column: 1, Min: "b"}, `3|"c"`},
		{Range{Column: 1, Max: "b"}, `1|"a"`},
		{Range{Column: 1, Min: "a", Max: "null"}, `1|"a";3|"c"`},
		{Range{Column: 1, Min: "a", Max: "zz"}, `1|"a";3|"c"`}, // null matches nothing
	} {
		rs, err := f.Query(Query{Where: []Range{tc.r}})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(collect(t, rs), ";"); got != tc.want {
			t.Errorf("%+v: rows %q, want %q", tc.r, got, tc.want)
		}
	}
	if _, err := f.Query(Query{Where: []Range{{Column: 0, Min: "c"}}}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("text bound on an integer column: %v", err)
	}
}

func TestQueryRejectsOtherCodecs(t *testing.T) {
	f := openVector(t, "columnar_edge.at1")
	if _, err := f.Query(Query{}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("query on columnar: %v", err)
	}
	if len(f.Streams) != 10 || f.Streams[0].Name != "meta" {
		t.Fatalf("streams %+v", f.Streams)
	}
	fr := openVector(t, "stream_columnar.at1")
	if !fr.Framed || fr.ChunkLines != 2 || len(fr.Frames) != 2 || fr.Frames[0].Method != 0 || fr.Frames[1].Method != 1 || fr.Frames[0].Size != 636 {
		t.Fatalf("frames %+v", fr.Frames)
	}
	tr := openVector(t, "raw_xz_integrity_ok.at1")
	if tr.Trailer == nil || tr.RawBackend != BackendXZ {
		t.Fatalf("trailer %x backend %d", tr.Trailer, tr.RawBackend)
	}
}

func TestDecimalCompare(t *testing.T) {
	order := []string{"-100", "-1.5", "-1.25", "-0.05", "0", "-0.00", "0.", "0.001", "1", "1.00", "1.5", "10", "99.99", "100"}
	for i, a := range order {
		for j, b := range order {
			da, ok1 := parseDecimal([]byte(a))
			db, ok2 := parseDecimal([]byte(b))
			if !ok1 || !ok2 {
				t.Fatalf("parse %q %q", a, b)
			}
			got := cmpDecimal(da, db)
			ra, rb := rank(order, i), rank(order, j)
			want := 0
			if ra < rb {
				want = -1
			} else if ra > rb {
				want = 1
			}
			if got != want {
				t.Errorf("cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	for _, bad := range []string{"", "-", ".", "1e3", "null", "\"1\"", "1.2.3"} {
		if _, ok := parseDecimal([]byte(bad)); ok {
			t.Errorf("parsed %q", bad)
		}
	}
}

// rank maps equal values to the same rank in the order list above.
func rank(order []string, i int) int {
	eq := map[string]string{"-0.00": "0", "0.": "0", "1.00": "1"}
	s := order[i]
	if e, ok := eq[s]; ok {
		s = e
	}
	for k, o := range order {
		if o == s {
			return k
		}
	}
	return i
}

func TestQueryBlocksNotStored(t *testing.T) {
	lines, want := tradesLines(100)
	src := qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, 16, lines, true, tagZstd)
	// Re-pack every stream, blocks included, with xz: not range-readable.
	c, _ := newConfig(nil)
	ss, err := c.decoder().parseStreamSet(src[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	var streams []tstream
	for i, s := range ss.streams {
		d, err := c.decoder().decompress(s.Backend, ss.data[i], 1<<20, 0, s.Name)
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, tstream{s.Name, BackendXZ, d})
	}
	xzFile := wholeFile(CodecQColumnar, packSet(t, streams...))
	if got, err := Decode(xzFile); err != nil || string(got) != want {
		t.Fatalf("decode: %v", err)
	}
	f, err := Open(bytes.NewReader(xzFile), int64(len(xzFile)))
	if err != nil {
		t.Fatal(err)
	}
	if f.BlocksOffset() != -1 {
		t.Fatal("xz blocks stream reported as range-readable")
	}
	rs, err := f.Query(Query{Columns: []int{0}, Where: []Range{{Column: 0, Min: "1030", Max: "1036"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, rs); strings.Join(got, ",") != "1030,1033,1036" {
		t.Fatalf("rows %q", got)
	}
	// A framed file has no single index to query.
	fr := openVector(t, "stream_columnar.at1")
	if _, err := fr.Query(Query{}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("framed query: %v", err)
	}
}

// Frames of one file may type a column differently (a frame whose "lat"
// strings are all numbers makes it a decimal column, a frame with "n/a"
// among them keeps it text): the file stays queryable, Columns calls the
// column text, numeric bounds use each frame's zone maps or values, and
// text bounds compare the raw text wherever the column is text in some
// frame.
func TestQueryFramesMixedTypes(t *testing.T) {
	var jl strings.Builder
	for i := range 12000 {
		lat := fmt.Sprintf("%d.%02d", i/100, i%100)
		if i == 3500 {
			lat = "n/a"
		}
		fmt.Fprintf(&jl, "{\"lat\":\"%s\",\"id\":%d}\n", lat, i)
	}
	enc, err := Encode([]byte(jl.String()), WithCodec(CodecQJSON), WithChunkSize(64<<10), WithRowGroupSize(200), WithKeepCodec(true))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Framed || len(f.Frames) < 3 {
		t.Fatalf("want a framed file of several frames, got framed %v, %d frames", f.Framed, len(f.Frames))
	}
	types := map[byte]bool{}
	for _, p := range f.parts {
		types[p.t.coltypes[0]] = true
	}
	if !types[QDecimal] || !types[QText] {
		t.Fatalf("frame types of lat %v: want decimal and text frames", types)
	}
	if c := f.Columns(); len(c) != 2 || c[0].Type != QText || c[0].Path != "lat" || c[1].Type != QInt {
		t.Fatalf("columns %+v", c)
	}
	var desc strings.Builder
	if err := f.Describe(&desc); err != nil {
		t.Fatal(err)
	}
	if d := desc.String(); !strings.Contains(d, `column 0: text (numeric in some frames) path "lat"`) ||
		!strings.Contains(d, fmt.Sprintf("groups in %d frames", len(f.Frames))) {
		t.Fatalf("Describe:\n%s", d)
	}
	for _, tc := range []struct {
		r    Range
		want []string
	}{
		{Range{Path: "lat", Min: "12.5", Max: "12.52"}, []string{"12.50|1250", "12.51|1251", "12.52|1252"}},
		{Range{Path: "lat", Min: "34.98", Max: "35.01"}, []string{"34.98|3498", "34.99|3499", "35.01|3501"}},
		{Range{Path: "lat", Min: "n/a", Max: "n/a"}, []string{"n/a|3500"}},
	} {
		rs, err := f.Query(Query{Paths: []string{"lat", "id"}, Where: []Range{tc.r}})
		if err != nil {
			t.Fatal(err)
		}
		if got := collect(t, rs); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: rows %q, want %q", tc.r, got, tc.want)
		}
	}
}
