package at1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// tokenMeta reads the meta stream of a whole-file columnar encoding:
// the delimiter and the column types.
func tokenMeta(t *testing.T, enc []byte) (delim []byte, types []byte) {
	t.Helper()
	if codecOf(enc) != CodecColumnar {
		t.Fatalf("codec %v, want columnar", codecOf(enc))
	}
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatal(err)
	}
	meta, err := f.loadStream("meta")
	if err != nil {
		t.Fatal(err)
	}
	if types, err = f.loadStream("coltypes"); err != nil {
		t.Fatal(err)
	}
	cur := &cursor{b: meta}
	for _, what := range []string{"nrows", "trailing", "header"} {
		if what == "nrows" {
			_, err = cur.uv(what)
		} else {
			_, err = cur.u8(what)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if delim, err = cur.lstr("delim"); err != nil {
		t.Fatal(err)
	}
	return delim, types
}

// pricesCSV is daily prices printed as float32 with six decimals, as
// real exports do ("1438.359985"), with a volume column.
func pricesCSV(rows int) []byte {
	r := rand.New(rand.NewPCG(7, 8))
	var b strings.Builder
	b.WriteString("date,open,high,low,close,volume\n")
	p := 1400.0
	for i := 0; i < rows; i++ {
		open := p
		p += float64(r.IntN(4001)-2000) / 100
		hi, lo := max(open, p)+float64(r.IntN(500))/100, min(open, p)-float64(r.IntN(500))/100
		f := func(x float64) string {
			return strconv.FormatFloat(float64(float32(float64(int64(x*100+0.5))/100)), 'f', 6, 32)
		}
		fmt.Fprintf(&b, "2000-%02d-%02d,%s,%s,%s,%s,%d\n", 1+i/28%12, 1+i%28, f(open), f(hi), f(lo), f(p), 900000000+r.IntN(300000000))
	}
	return []byte(b.String())
}

// Token tables (empty delimiter) cut fixed-point prices into an integer
// part and a fraction, and lay JSON Lines out as columns of typed values;
// both round-trip and beat the table split at its delimiter.
func TestEncodeTokenTables(t *testing.T) {
	src := pricesCSV(4000)
	enc := roundTrip(t, "prices", src)
	delim, types := tokenMeta(t, enc)
	if len(delim) != 0 {
		t.Errorf("prices: delimiter %q, want a token table (empty delimiter)", delim)
	}
	if bytes.IndexByte(types, colInt) < 0 && bytes.IndexByte(types, colShuf) < 0 {
		t.Errorf("prices: column types %v, want an INT or SHUF integer part", types)
	}
	c, err := testEncoder()
	if err != nil {
		t.Fatal(err)
	}
	split, err := c.packStreams(nil, c.columnarStreamsOf(c.tableOf(src)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("prices: token table %d bytes, split at ',' %d bytes (streams only)", len(enc), len(split))
	if len(enc) >= len(split) {
		t.Errorf("prices: token table %d bytes, not smaller than the split table's streams %d", len(enc), len(split))
	}

	var jl strings.Builder
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		rating := "null"
		if r.IntN(3) > 0 {
			rating = strconv.Itoa(r.IntN(100))
		}
		name := []string{`"alpha"`, `"be\"ta"`, `"g,amma"`, "null", `"\u00d6sterreich"`}[r.IntN(5)]
		fmt.Fprintf(&jl, `{"id":%d,"name":%s,"score":%d.%d,"rating":%s,"when":"2013-07-%02d"}`+"\n",
			1000+i, name, r.IntN(50)-25, r.IntN(10), rating, 1+r.IntN(28))
		if i%500 == 7 {
			jl.WriteString(`{"other":"shape"}` + "\n")
		}
	}
	jsrc := []byte(jl.String())
	auto := roundTrip(t, "json auto", jsrc)
	q := roundTrip(t, "json qjson", jsrc, WithCodec(CodecQJSON))
	t.Logf("JSON Lines: auto %d bytes (%v), qjson %d", len(auto), codecOf(auto), len(q))
	if delim, _ := tokenMeta(t, auto); len(delim) != 0 {
		t.Errorf("JSON Lines: delimiter %q, want a token table", delim)
	}
	if len(auto) >= len(q) {
		t.Errorf("JSON Lines: auto %d bytes, not smaller than qjson %d", len(auto), len(q))
	}
	// Framed: the codec is settled on the first chunk, for every frame.
	framed := roundTrip(t, "json framed", bytes.Repeat(jsrc, 3), WithChunkSize(64<<10))
	if codecOf(framed) != CodecColumnar {
		t.Errorf("framed JSON Lines: codec %v, want columnar", codecOf(framed))
	}
}

// Cutting never changes a value's text, whatever its runs look like.
func TestCutColumnRoundTrip(t *testing.T) {
	vals := []string{"-0.5", "-12.25", "3.75", "0.00", "-", "1-2", "007.1", "1e5", "12.", ".5", "-.5", "x9y8z7"}
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		var b strings.Builder
		n := 16 + r.IntN(40)
		for i := 0; i < n; i++ {
			v := vals[r.IntN(len(vals))]
			if trial%2 == 0 {
				v = strconv.Itoa(r.IntN(2000)-1000) + "." + strconv.Itoa(100+r.IntN(900))
			}
			fmt.Fprintf(&b, "%s,%s,%d\n", v, v, i)
		}
		src := []byte(b.String())
		roundTrip(t, "cut", src, WithCodec(CodecColumnar), WithKeepCodec(true))
		var runs [maxRuns][2]int
		for _, l := range bytes.Split(src, []byte{'\n'}) {
			for _, f := range bytes.Split(l, []byte{','}) {
				nr, ok := valueRuns(f, &runs)
				if !ok {
					continue
				}
				var join []byte
				for _, rr := range runs[:nr] {
					join = append(join, f[rr[0]:rr[1]]...)
				}
				if !bytes.Equal(join, f) {
					t.Fatalf("runs of %q join to %q", f, join)
				}
			}
		}
	}
}

// WithTokenTables(false) keeps the detected delimiter, and JSON Lines in
// qjson.
func TestEncodeNoTokenTables(t *testing.T) {
	enc := roundTrip(t, "prices", pricesCSV(500), WithTokenTables(false))
	if delim, _ := tokenMeta(t, enc); string(delim) != "," {
		t.Errorf("delimiter %q, want \",\"", delim)
	}
	var jl strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&jl, `{"id":%d,"v":"x%d"}`+"\n", i, i%7)
	}
	if enc := roundTrip(t, "json", []byte(jl.String()), WithTokenTables(false)); codecOf(enc) != CodecQJSON {
		t.Errorf("JSON Lines without token tables: codec %v, want qjson", codecOf(enc))
	}
}
