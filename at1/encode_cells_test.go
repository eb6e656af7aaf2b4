package at1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// A parsed field is 8 bytes: the table's cells are the encoder's largest
// holder after the input.
func TestCellSize(t *testing.T) {
	if n := unsafe.Sizeof(cell{}); n != 8 {
		t.Fatalf("cell is %d bytes, want 8", n)
	}
}

// Values are cells into the input, except quoted values with doubled
// quotes, whose unquoted text is in the table's arena; every value, cut
// piece and joined value reads back as the text it stands for.
func TestTableCells(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,name,note,x\n")
	for i := 0; i < 200; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "%d,\"say \"\"hi\"\" %d\",plain %d,%d.%04d\n", i, i, i, i, i*7)
		case 1:
			fmt.Fprintf(&b, "%d,\"a, b %d\",\"\"\"\",%d.%04d\n", i, i, i, i*7)
		case 2:
			fmt.Fprintf(&b, "%d,,x,%d.%04d\r\n", i, i, i*7)
		default:
			fmt.Fprintf(&b, "%d,n%d,\"q\",%d.%04d,extra,fields\n", i, i, i, i*7)
		}
	}
	src := []byte(b.String())
	tab := buildTable(src, ',', true)
	if len(tab.cols) != 4 {
		t.Fatalf("%d columns, want 4", len(tab.cols))
	}
	// The rows again from splitFields: each value and quote flag.
	ls, _ := lines(src)
	next := make([]int, 4)
	arena := 0
	for _, l := range ls[1:] {
		fs := splitFields(nil, l, ',')
		if len(fs) > 4 {
			continue
		}
		for k, f := range fs {
			got := tab.cols[k].field(next[k])
			if !bytes.Equal(got.val, f.val) || got.quoted != f.quoted {
				t.Fatalf("column %d value %d: %q quoted %v, want %q %v", k, next[k], got.val, got.quoted, f.val, f.quoted)
			}
			inSrc := int(tab.cols[k].cells[next[k]].off) < len(src)
			if inSrc != (f.off >= 0) {
				t.Fatalf("column %d value %d (%q): in the input %v, want %v", k, next[k], f.val, inSrc, f.off >= 0)
			}
			if f.off < 0 {
				arena += len(f.val)
			}
			next[k]++
		}
	}
	if arena == 0 || len(tab.cols[1].arena) != arena {
		t.Fatalf("arena of %d bytes, want %d (> 0)", len(tab.cols[1].arena), arena)
	}
	// The token table's rows join back to the lines.
	tt := tokenTable(tab, 2)
	if tt == nil {
		t.Fatal("no token table")
	}
	want := []string{}
	for _, l := range ls[1:] {
		if fs := splitFields(nil, l, ','); len(fs) <= 4 {
			var row []byte
			for k, f := range fs {
				if k > 0 {
					row = append(row, ',')
				}
				row = append(row, f.val...)
			}
			want = append(want, string(row))
		}
	}
	requireRows(t, tt, false, want)
	roundTrip(t, "cells", src, WithKeepCodec(true))
}

// JSON Lines values are cells into the input at their place in the line
// (string values without their quotes).
func TestJSONTokenCells(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "{\"a\": %d, \"b\": \"s%d\", \"c\": %d.%02d}\n", i*37, i%7, i, i%100)
		if i%50 == 3 {
			b.WriteString("{\"other\": 1}\n")
		}
	}
	src := []byte(b.String())
	tt := jsonTokenTable(src, 2)
	if tt == nil {
		t.Fatal("no token table")
	}
	ls, _ := lines(src)
	var want []string
	for _, l := range ls {
		if !bytes.HasPrefix(l, []byte(`{"other"`)) {
			want = append(want, string(l))
		}
	}
	requireRows(t, tt, true, want)
	roundTrip(t, "json cells", src, WithKeepCodec(true))
}

// TestJSONUnionTable: JSON Lines whose objects leave out keys (the first
// one too) are one token table over the union of the keys; lines whose
// keys the union cannot take in order stay verbatim; the table is
// smaller than the common shape's, whose other lines are verbatim.
func TestJSONUnionTable(t *testing.T) {
	var b strings.Builder
	var odd []string
	for i := 0; i < 600; i++ {
		b.WriteString("{")
		if i%3 == 0 {
			fmt.Fprintf(&b, "\"alpha_2\": \"%c%c\", ", 'a'+i%26, 'a'+i/26%26)
		}
		fmt.Fprintf(&b, "\"alpha_3\": \"x%03d\", \"name\": \"Name %d\"", i, i*7)
		if i%4 == 1 {
			fmt.Fprintf(&b, ", \"parent\": \"P-%d\"", i%9)
		}
		if i%5 == 2 {
			b.WriteString(`, "empty": ""`)
		}
		fmt.Fprintf(&b, ", \"n\": %d}\n", i*13)
		switch i % 97 {
		case 5:
			odd = append(odd, `{"name": "swapped", "alpha_3": "q"}`) // another order
		case 6:
			odd = append(odd, `{"alpha_3": "a", "alpha_3": "b"}`) // a key twice
		case 7:
			odd = append(odd, `not json`)
		}
		if i%97 >= 5 && i%97 <= 7 {
			b.WriteString(odd[len(odd)-1] + "\n")
		}
	}
	src := []byte(b.String())
	tt := jsonUnionTable(src, 2)
	if tt == nil {
		t.Fatal("no union table")
	}
	ls, _ := lines(src)
	var want []string
	for _, l := range ls {
		if !slices.Contains(odd, string(l)) {
			want = append(want, string(l))
		}
	}
	requireRows(t, tt, true, want)
	var verb []string
	for _, v := range tt.verbatim {
		verb = append(verb, string(v))
	}
	if strings.Join(verb, "\n") != strings.Join(odd, "\n") {
		t.Fatalf("verbatim lines %q, want %q", verb, odd)
	}
	union := roundTrip(t, "json union", src, onlyLayout("jsonunion"))
	common := roundTrip(t, "json common shape", src, onlyLayout("jsontokens"))
	if len(union) >= len(common) {
		t.Fatalf("union table %d bytes, the common shape's %d", len(union), len(common))
	}
	roundTrip(t, "json union auto", src)

	// One shape: no union table (jsonTokenTable's is the same).
	one := []byte(strings.Repeat("{\"a\": 1, \"b\": \"x\"}\n", 40))
	if jsonUnionTable(one, 2) != nil {
		t.Fatal("a union table for one shape")
	}
}

// TestMergeKeys: the union keeps both sequences' orders, or refuses.
func TestMergeKeys(t *testing.T) {
	ks := func(s string) [][]byte {
		var out [][]byte
		for _, f := range strings.Fields(s) {
			out = append(out, []byte(f))
		}
		return out
	}
	str := func(bs [][]byte) string { return string(bytes.Join(bs, []byte(" "))) }
	for _, c := range []struct{ u, k, want string }{
		{"", "a b", "a b"},
		{"b c", "a b", "a b c"},
		{"a c", "a b c d", "a b c d"},
		{"a b", "a x b y", "a x b y"},
		{"a p n", "a e n", "a p e n"},
		{"a b", "b a", "!"},
		{"a b", "a a", "!"},
	} {
		m, ok := mergeKeys(ks(c.u), ks(c.k))
		got := str(m)
		if !ok {
			got = "!"
		}
		if got != c.want {
			t.Errorf("mergeKeys(%q, %q) = %q, want %q", c.u, c.k, got, c.want)
		}
	}
}

// TestJSONUnionNested: nested objects of the same keys on every line are
// flattened into columns (their keys as paths), those used as maps (a
// key that varies by line) stay whole values; the lines round-trip and
// the table is smaller than the common shape's.
func TestJSONUnionNested(t *testing.T) {
	var b strings.Builder
	langs := []string{"nld", "pap", "eng", "fra", "deu", "spa", "ita", "por", "rus", "zho", "jpn", "kor", "ara", "hin"}
	rng := rand.New(rand.NewPCG(1, 2))
	var words []string
	for range 200 {
		w := make([]byte, 3+rng.IntN(8))
		for j := range w {
			w[j] = byte('a' + rng.IntN(26))
		}
		words = append(words, string(w))
	}
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, `{"id":%d,"name":{"common":"%s","official":"%s"},`, i, words[rng.IntN(len(words))], words[rng.IntN(len(words))])
		fmt.Fprintf(&b, `"native":{"%s":{"official":"N%d","common":"n%d"}},"area":%d.%d,"flag":{}}`+"\n",
			langs[rng.IntN(len(langs))], rng.IntN(100000), rng.IntN(1000), rng.IntN(100000), rng.IntN(10))
	}
	src := []byte(b.String())
	ls, _ := lines(src)
	union, keep := jsonKeyUnion(ls)
	var names []string
	for _, k := range union {
		names = append(names, strings.ReplaceAll(string(k), "\x00", "."))
	}
	if got, want := strings.Join(names, " "), "id name.common name.official native area flag"; got != want {
		t.Fatalf("union %q, want %q", got, want)
	}
	if !keep["native"] || len(keep) != 1 {
		t.Fatalf("objects kept whole %v, want native only", keep)
	}
	tt := jsonUnionTable(src, 2)
	if tt == nil || len(tt.verbatim) != 0 {
		t.Fatal("no union table, or verbatim lines")
	}
	want := make([]string, len(ls))
	for i, l := range ls {
		want[i] = string(l)
	}
	requireRows(t, tt, true, want)
	union2 := roundTrip(t, "json nested", src, onlyLayout("jsonunion"))
	common := roundTrip(t, "json nested common shape", src, onlyLayout("jsontokens"))
	if len(union2) >= len(common) {
		t.Fatalf("union table %d bytes, the common shape's %d", len(union2), len(common))
	}

	// Flat shapes: paths for nested keys, jsonShape's split otherwise.
	for _, c := range []struct{ line, keys, vals string }{
		{`{"a": 1, "b": "x"}`, "a b", `1 "x"`},
		{`{"a": {"b": {"c": 1}, "d": [1]}, "e": {}}`, "a.b.c a.d e", "1 [1] {}"},
		{`{"a":{"b":1}}`, "a.b", "1"},
	} {
		segs, vals, keys, _, ok := jsonFlatShape([]byte(c.line), nil, nil, nil, nil, nil)
		if !ok {
			t.Fatalf("%s: not a shape", c.line)
		}
		var ks, vs []string
		for _, k := range keys {
			ks = append(ks, strings.ReplaceAll(string(k), "\x00", "."))
		}
		for _, v := range vals {
			vs = append(vs, string(v))
		}
		var join strings.Builder
		for i, s := range segs {
			join.Write(s)
			if i < len(vals) {
				join.Write(vals[i])
			}
		}
		if strings.Join(ks, " ") != c.keys || strings.Join(vs, " ") != c.vals || join.String() != c.line {
			t.Errorf("%s: keys %q values %q joined %q", c.line, ks, vs, join.String())
		}
	}
	for _, bad := range []string{`{"a": {"b": 1}`, `{"a": {"b": 1}}}`, `{"a": {"b" 1}}`, `{"a": {"b": 1} x}`} {
		if _, _, _, _, ok := jsonFlatShape([]byte(bad), nil, nil, nil, nil, nil); ok {
			t.Errorf("%s: a shape", bad)
		}
	}
}
