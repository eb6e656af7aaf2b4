package at1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// fieldsOf is a column of the values, unquoted.
func fieldsOf(vals ...string) column {
	var out column
	for _, v := range vals {
		out.cells = append(out.cells, mkCell(len(out.src), len(v), false))
		out.src = append(out.src, v...)
	}
	return out
}

// rowTexts is the rows of a token table, its fields concatenated: a
// row with n fields takes the next value of columns 0..n-1 (ragged).
// With quote, quoted values are written in quotes (doubled inside), as
// the decoder writes them; else as their values.
func rowTexts(t *table, quote bool) []string {
	next := make([]int, len(t.cols))
	var out []string
	for _, n := range t.counts {
		var b strings.Builder
		for k := 0; k < n; k++ {
			f := t.cols[k].field(next[k])
			if quote && f.quoted {
				b.WriteString(`"` + strings.ReplaceAll(string(f.val), `"`, `""`) + `"`)
			} else {
				b.Write(f.val)
			}
			next[k]++
		}
		out = append(out, b.String())
	}
	return out
}

// requireRows fails t unless the token table's rows (rowTexts) are want.
func requireRows(t *testing.T, tt *table, quote bool, want []string) {
	t.Helper()
	got := rowTexts(tt, quote)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d is %q, want %q", i, got[i], want[i])
		}
	}
}

func TestPairCut(t *testing.T) {
	vals := fieldsOf("95376472", "5698933", "-12345", "12", "", "-7", "0000")
	pieces := pairCut(vals)
	if len(pieces) != 4 {
		t.Fatalf("%d pieces, want 4 (the longest run has 8 digits)", len(pieces))
	}
	want := [][]string{{"95", "37", "64", "72"}, {"56", "98", "93", "3"}, {"-12", "34", "5", ""},
		{"12", "", "", ""}, {"", "", "", ""}, {"-7", "", "", ""}, {"00", "00", "", ""}}
	for i, w := range want {
		var got []string
		for _, p := range pieces {
			got = append(got, string(p.val(i)))
		}
		if strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("value %q cut into %q, want %q", vals.val(i), got, w)
		}
	}
	if pairCut(fieldsOf("123", "-45")) != nil {
		t.Error("runs of at most 3 digits were cut")
	}
	if pairCut(fieldsOf(strings.Repeat("1", pairCutMax+1))) != nil {
		t.Error("a run longer than pairCutMax was cut")
	}
}

// Coordinates with eight random decimals: their fractions go to two-digit
// DICT pieces, and the file round-trips.
func TestPairCutCoordinates(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var b strings.Builder
	b.WriteString("id,lat,lon\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%d,%d.%08d,-%d.%07d\n", i, 25+r.IntN(25), r.IntN(1e8), 70+r.IntN(50), r.IntN(1e7))
	}
	src := []byte(b.String())
	enc := roundTrip(t, "coords", src, onlyLayout("tokens"), WithKeepCodec(true))
	_, types := tokenMeta(t, enc)
	dicts := bytes.Count(types, []byte{colDict})
	if dicts < 6 {
		t.Errorf("column types %v: %d DICT columns, want the fractions cut into two-digit DICT pieces", types, dicts)
	}
	split, err := Encode(src, onlyLayout("split"), WithKeepCodec(true))
	if err != nil {
		t.Fatal(err)
	}
	if len(enc) >= len(split) {
		t.Errorf("token table %d bytes, split table %d: the pieces should pay", len(enc), len(split))
	}
}

// airportsLike is names that mostly begin with their city, the city, and
// a state.
func airportsLike(rows int) []byte {
	r := rand.New(rand.NewPCG(5, 6))
	syll := []string{"ka", "lo", "mi", "ster", "ton", "ville", "ber", "ash", "wood", "field", "port", "ham"}
	word := func() string {
		w := ""
		for n := 2 + r.IntN(2); n > 0; n-- {
			w += syll[r.IntN(len(syll))]
		}
		return strings.ToUpper(w[:1]) + w[1:]
	}
	kinds := []string{"Municipal", "County", "Regional", "International", "Memorial"}
	states := []string{"TX", "CA", "AK", "MS", "NY", "OH", "FL"}
	var b strings.Builder
	b.WriteString("name,city,state\n")
	for i := 0; i < rows; i++ {
		city := word()
		if r.IntN(3) == 0 {
			city += " " + word()
		}
		name := city + " " + kinds[r.IntN(len(kinds))]
		if r.IntN(3) == 0 {
			name = word() + " " + kinds[r.IntN(len(kinds))]
		}
		fmt.Fprintf(&b, "%s,%s,%s\n", name, city, states[r.IntN(len(states))])
	}
	return []byte(b.String())
}

// A name that begins with its row's city is cut into the city and the
// rest; other names at their last space; joined they are the name.
func TestAlignPrefixes(t *testing.T) {
	src := airportsLike(3000)
	tab := buildTable(src, ',', true)
	cuts := make([][]column, len(tab.cols))
	for k := range cuts {
		cuts[k] = []column{tab.cols[k]}
	}
	alignPrefixes(tab.cols, cuts)
	if len(cuts[0]) != 2 || len(cuts[1]) != 1 || len(cuts[2]) != 1 {
		t.Fatalf("pieces per column %d %d %d, want the name cut in two", len(cuts[0]), len(cuts[1]), len(cuts[2]))
	}
	p, rest := cuts[0][0], cuts[0][1]
	for i := range tab.cols[0].cells {
		f := tab.cols[0].field(i)
		if got := string(p.val(i)) + string(rest.val(i)); got != string(f.val) {
			t.Fatalf("row %d: pieces join to %q, want %q", i, got, f.val)
		}
		city := tab.cols[1].val(i)
		if bytes.HasPrefix(f.val, city) && len(f.val) > len(city) && !bytes.Equal(p.val(i), city) {
			t.Fatalf("row %d: first piece %q, want the city %q", i, p.val(i), city)
		}
	}
	roundTrip(t, "airports-like", src, onlyLayout("tokens"), WithKeepCodec(true))
}

// Columns of few values that go together are joined into one DICT, and
// the rows' field counts follow, ragged rows included.
func TestMergeAdjacent(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	states := []string{"TX", "CA", "AK", "MS", "NY", "OH", "FL", "WA", "OR", "ME"}
	var b strings.Builder
	for i := 0; i < 4000; i++ {
		s := r.IntN(len(states))
		country := "USA"
		if r.IntN(50) == 0 {
			country = "CAN"
		}
		fmt.Fprintf(&b, "%d,%s,%s,%d", r.IntN(1e6), states[s], country, 20+3*s+r.IntN(3))
		if i%97 != 5 {
			fmt.Fprintf(&b, ",%x", r.Uint32())
		}
		b.WriteByte('\n')
	}
	src := []byte(b.String())
	tab := buildTable(src, ',', false)
	tt := tokenTable(tab, 1)
	if tt == nil {
		t.Fatal("no token table")
	}
	if len(tt.cols) >= 2*len(tab.cols)-1 {
		t.Errorf("%d token columns for %d fields: nothing joined", len(tt.cols), len(tab.cols))
	}
	lines := bytes.Split(src, []byte{'\n'})
	for i, got := range rowTexts(tt, false) {
		if got != string(lines[i]) {
			t.Fatalf("row %d: token table gives %q, want %q", i, got, lines[i])
		}
	}
	roundTrip(t, "merge", src, onlyLayout("tokens"), WithKeepCodec(true))
}

// A CSV whose every field is quoted (and JSON strings): a column of
// quoted values is cut like an unquoted one, its quotes going with the
// first and last pieces; a column with some values unquoted, or with a
// doubled quote, is not cut.
func TestCutQuotedColumn(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var b, plain strings.Builder
	for i := 0; i < 3000; i++ {
		d := fmt.Sprintf("20%02d-%02d-%02d", r.IntN(24), 1+r.IntN(12), 1+r.IntN(28))
		p := fmt.Sprintf("%d.%06d", 10+r.IntN(500), r.IntN(1e6))
		fmt.Fprintf(&b, "\"%s\",\"%s\",\"%d\"\n", d, p, 1000+i*3)
		fmt.Fprintf(&plain, "%s,%s,%d\n", d, p, 1000+i*3)
	}
	src := []byte(b.String())
	tab := buildTable(src, ',', false)
	// (The integers need no cut: a column quoted throughout is INT.)
	for k, col := range tab.cols[:2] {
		parts := cutColumn(col)
		if len(parts) < 3 {
			t.Fatalf("column %d: %d pieces, want it cut", k, len(parts))
		}
		for i := 0; i < col.len(); i += 97 {
			var joined []byte
			for _, p := range parts {
				if p.quoted(i) {
					t.Fatalf("column %d: a quoted piece", k)
				}
				joined = append(joined, p.val(i)...)
			}
			if want := `"` + string(col.val(i)) + `"`; string(joined) != want {
				t.Fatalf("column %d row %d: pieces give %q, want %q", k, i, joined, want)
			}
		}
	}
	quoted := roundTrip(t, "quoted", src, onlyLayout("tokens"))
	unquoted := roundTrip(t, "unquoted", []byte(plain.String()), onlyLayout("tokens"))
	// The quotes cost a few bytes: two constant columns per field.
	if len(quoted) > len(unquoted)+len(unquoted)/50 {
		t.Errorf("quoted fields %d bytes, unquoted %d", len(quoted), len(unquoted))
	}

	// Mixed quoting, or a doubled quote: whole.
	mixed := buildTable([]byte(strings.Repeat("\"2001-02-03\"\n2001-02-04\n", 20)), ',', false)
	if n := len(cutColumn(mixed.cols[0])); n != 1 {
		t.Errorf("mixed quoting: %d pieces", n)
	}
	doubled := buildTable([]byte(strings.Repeat("\"2001-02-03\"\n\"2001\"\"02-04\"\n", 20)), ',', false)
	if n := len(cutColumn(doubled.cols[0])); n != 1 {
		t.Errorf("a doubled quote: %d pieces", n)
	}
}

// A column whose values mostly share a run pattern is cut with the
// others (a quoted empty, "N/A", a quoted value among unquoted ones) as
// exceptions: the first piece takes them whole. More than one in
// cutExceptions, and it stays whole.
func TestCutExceptions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var b strings.Builder
	for i := 0; i < 4000; i++ {
		switch i % 40 {
		case 3:
			b.WriteString("\"\"\n")
		case 9:
			b.WriteString("N/A\n")
		case 15:
			b.WriteString("\"2019-07-01\"\n")
		default:
			fmt.Fprintf(&b, "20%02d-%02d-%02d %02d:%02d\n", r.IntN(24), 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60))
		}
	}
	src := []byte(b.String())
	col := buildTable(src, ',', false).cols[0]
	parts := cutColumn(col)
	if len(parts) < 5 {
		t.Fatalf("%d pieces, want the dates cut", len(parts))
	}
	for i := 0; i < col.len(); i++ {
		want := string(col.val(i))
		if col.quoted(i) {
			want = `"` + want + `"`
		}
		if joined := joinedPieces(parts, i); joined != want {
			t.Fatalf("row %d: pieces give %q, want %q", i, joined, want)
		}
		if i%40 == 9 && string(parts[0].val(i)) != "N/A" {
			t.Fatalf("row %d: first piece %q, want the exception whole", i, parts[0].val(i))
		}
	}
	roundTrip(t, "exceptions", src, onlyLayout("tokens"))

	// One value in four of another pattern: whole.
	var many strings.Builder
	for i := 0; i < 400; i++ {
		if i%4 == 0 {
			many.WriteString("N/A\n")
		} else {
			fmt.Fprintf(&many, "20%02d-%02d-01\n", i%24, 1+i%12)
		}
	}
	if n := len(cutColumn(buildTable([]byte(many.String()), ',', false).cols[0])); n != 1 {
		t.Errorf("a quarter exceptions: %d pieces, want 1", n)
	}
}

// Timestamps are cut into their runs up to ISO 8601 with fractional
// seconds and a zone offset (17 runs), and the pieces beat the text.
func TestCutTimestamps(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var b strings.Builder
	b.WriteString("ts,ms\n")
	sec := 8 * 3600
	for i := 0; i < 3000; i++ {
		sec += r.IntN(5)
		fmt.Fprintf(&b, "2024-03-%02dT%02d:%02d:%02d.%03d+01:00,%d\n", 1+sec/86400, sec/3600%24, sec/60%60, sec%60, r.IntN(1000), r.IntN(900))
	}
	src := []byte(b.String())
	tab := buildTable(src, ',', true)
	var runs [maxRuns][2]int
	if n, ok := valueRuns(tab.cols[0].val(0), &runs); !ok || n != 17 {
		t.Fatalf("%q: %d runs (ok %v), want 17", tab.cols[0].val(0), n, ok)
	}
	parts := cutColumn(tab.cols[0])
	if len(parts) < 17 {
		t.Fatalf("%d pieces, want the timestamps cut into their runs", len(parts))
	}
	c, err := testEncoder()
	if err != nil {
		t.Fatal(err)
	}
	split, err := c.packStreams(nil, c.columnarStreamsOf(tab))
	if err != nil {
		t.Fatal(err)
	}
	enc := roundTrip(t, "timestamps", src)
	if delim, _ := tokenMeta(t, enc); len(delim) != 0 {
		t.Errorf("delimiter %q, want a token table", delim)
	}
	t.Logf("token table %d bytes, split at ',' %d (streams only)", len(enc), len(split))
	if len(enc) >= len(split) {
		t.Errorf("token table %d bytes, not smaller than the split table's %d", len(enc), len(split))
	}
}

// Fixed-point numbers printed with more decimals than they carry are cut
// before their trailing digits: a DEC of fewer decimals and the digits
// (mostly zeros) apart, which xz codes smaller than the DEC of the whole.
func TestTailCut(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var b strings.Builder
	x := 50_000_000 // a reading in millionths, wandering
	for i := 0; i < 3000; i++ {
		x += 10 * (r.IntN(2001) - 1000)
		if i%6 == 5 {
			x += 1 + r.IntN(9) // a sixth decimal
		}
		fmt.Fprintf(&b, "%d.%06d\n", x/1000000, x%1000000)
		x -= x % 10
	}
	col := buildTable([]byte(b.String()), ',', false).cols[0]
	parts := mustCut(t, col, 2, "a DEC and the trailing digits")
	if c, _ := bestCandidate(parts[0]); c.typ != colDec {
		t.Errorf("first piece type %d, want DEC", c.typ)
	}
	if cut, whole := xzEstimateCols(parts...), xzEstimateCols(col); cut >= whole {
		t.Errorf("pieces %d bytes under xz, not smaller than the whole's %d", cut, whole)
	}
	roundTrip(t, "tail cut", []byte(b.String()), onlyLayout("tokens"))

	// Six random decimals: nothing to cut off.
	b.Reset()
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%d.%06d\n", r.IntN(100), r.IntN(1000000))
	}
	if tc, _ := tailCut(buildTable([]byte(b.String()), ',', false).cols[0]); tc != nil {
		t.Errorf("random decimals: tailCut gave %d pieces, want none", len(tc))
	}
}

// TestAffixCut: a CRLF table's last column of numbers keeps each line's
// '\r' (rows are '\n' lines), so its values are text ("-0.17\r"), or
// cut into runs, none a number ("-0" | "." | "17" | "\r"). affixCut
// takes the '\r' off as a constant column and leaves a number, smaller
// under xz than either; columns without a shared affix, constant columns
// and quoted ones that share only their quotes are not cut.
func TestAffixCut(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var b strings.Builder
	b.WriteString("year,temp\r\n")
	x := -20 // hundredths, wandering
	for i := 0; i < 3000; i++ {
		x += r.IntN(31) - 15
		v := fmt.Sprintf("%.2f", float64(x)/100)
		if v == "-0.00" {
			v = "0.00"
		}
		if i%5 == 2 {
			v = strings.TrimSuffix(v, "0") // printed shorter
		}
		fmt.Fprintf(&b, "%d,%s\r\n", 1000+i, v)
	}
	src := []byte(b.String())
	col := buildTable(src, ',', true).cols[1]
	parts := mustCut(t, col, 2, "the number and the '\\r'")
	for i := 0; i < col.len(); i++ {
		if string(parts[1].val(i)) != "\r" {
			t.Fatalf("row %d: suffix %q, want \"\\r\"", i, parts[1].val(i))
		}
	}
	if c, _ := bestCandidate(parts[0]); c.typ != colNumExc && c.typ != colDec {
		t.Errorf("first piece type %d, want a number (NUMEXC or DEC)", c.typ)
	}
	runCut, _ := cutRuns(col, col)
	cut, whole, runs := xzEstimateCols(parts...), xzEstimateCols(col), xzEstimateCols(runCut...)
	if float64(cut) > affixMargin*float64(min(whole, runs)) {
		t.Errorf("pieces %d bytes under xz, not %.2fx the whole's %d or the runs' %d", cut, affixMargin, whole, runs)
	}
	roundTrip(t, "affix cut", src, onlyLayout("tokens"))

	cases := []struct {
		name string
		vals []string
		pre  string // "" with suf "": no cut
		suf  string
	}{
		{"no affix", []string{"a1", "b2", "c3"}, "", ""},
		{"constant", []string{"abc", "abc", "abc"}, "", ""},
		{"digits only", []string{"1x1", "2x1", "3y1"}, "", ""},
		{"quotes", []string{`"a"`, `"bc"`, `"d"`}, "", ""},
		{"unit", []string{"$1.5%", "$22%", "$0.25%"}, "$", "%"},
		{"overlap", []string{"aa", "aaa", "aaXaa"}, "", "aa"},
	}
	for _, tc := range cases {
		var s strings.Builder
		for _, v := range tc.vals {
			s.WriteString(v + "\n")
		}
		c := buildTable([]byte(s.String()), ',', false).cols[0]
		c, _ = fieldText(c)
		ac, _ := affixCut(c)
		if tc.pre == "" && tc.suf == "" {
			if ac != nil {
				t.Errorf("%s: %d pieces, want none", tc.name, len(ac))
			}
			continue
		}
		want := 1 + min(1, len(tc.pre)) + min(1, len(tc.suf))
		if len(ac) != want {
			t.Fatalf("%s: %d pieces, want %d", tc.name, len(ac), want)
		}
		for i, v := range tc.vals {
			if got := joinedPieces(ac, i); got != v {
				t.Errorf("%s: row %d: pieces give %q, want %q", tc.name, i, got, v)
			}
			if tc.pre != "" && string(ac[0].val(i)) != tc.pre || tc.suf != "" && string(ac[len(ac)-1].val(i)) != tc.suf {
				t.Errorf("%s: row %d: affixes %q, %q, want %q, %q", tc.name, i, ac[0].val(i), ac[len(ac)-1].val(i), tc.pre, tc.suf)
			}
		}
	}
}

// joinedPieces is row i of a column cut into parts, its pieces joined.
func joinedPieces(parts []column, i int) string {
	var b []byte
	for _, p := range parts {
		b = append(b, p.val(i)...)
	}
	return string(b)
}

// mustCut is cutColumn(col), which must give n pieces (what they are)
// that join to each value.
func mustCut(t *testing.T, col column, n int, what string) []column {
	t.Helper()
	parts := cutColumn(col)
	if len(parts) != n {
		t.Fatalf("%d pieces, want %d (%s)", len(parts), n, what)
	}
	for i := 0; i < col.len(); i++ {
		if got := joinedPieces(parts, i); got != string(col.val(i)) {
			t.Fatalf("row %d: pieces give %q, want %q", i, got, col.val(i))
		}
	}
	return parts
}
