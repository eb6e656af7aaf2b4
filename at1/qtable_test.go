package at1

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// tradesLines builds n structured lines (id, price, symbol) with a header
// verbatim line first.
func tradesLines(n int) ([]qLine, string) {
	lines := []qLine{{verbatim: "id,price,sym"}}
	out := []string{"id,price,sym"}
	for i := 0; i < n; i++ {
		row := []string{strconv.Itoa(1000 + i*3), fmt.Sprintf("%d.%02d", 10+i%50, i%100), []string{"AAA", "\"B,B\"", ""}[i%3]}
		lines = append(lines, qLine{row: row})
		out = append(out, strings.Join(row, ","))
	}
	return lines, strings.Join(out, "\n") + "\n"
}

func TestQColumnarBuilt(t *testing.T) {
	lines, want := tradesLines(1000)
	for _, tag := range []byte{tagXZ, tagZstd} {
		src := qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, 64, lines, true, tag)
		for _, conc := range []int{1, 2, 8} {
			got, err := Decode(src, WithConcurrency(conc), WithStrict())
			if err != nil || string(got) != want {
				t.Fatalf("tag %d conc %d: %v (len %d/%d)", tag, conc, err, len(got), len(want))
			}
		}
		f, err := Open(bytes.NewReader(src), int64(len(src)))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.RowGroups()) != 16 {
			t.Fatalf("%d groups", len(f.RowGroups()))
		}
		// ids 1000+3i in [1300, 1330] -> i in 100..110: groups 1 only.
		rs, err := f.Query(Query{Columns: []int{0, 2}, Where: []Range{{Column: 0, Min: "1300", Max: "1330"}}})
		if err != nil {
			t.Fatal(err)
		}
		got := collect(t, rs)
		if len(got) != 11 || got[0] != "1300|\"B,B\"" || got[10] != "1330|" {
			t.Fatalf("rows %q", got)
		}
		st := rs.Stats()
		if st.GroupsSkipped != 15 || st.BlocksRead != 2 || st.BlocksSkipped != 30 || st.Rows != 11 {
			t.Fatalf("stats %+v", st)
		}
		// Decimal predicate, open lower bound; exact at the boundary.
		rs, _ = f.Query(Query{Columns: []int{1}, Where: []Range{{Column: 1, Max: "10.00"}}})
		if got := collect(t, rs); len(got) != 10 || got[0] != "10.00" {
			t.Fatalf("decimal rows %q", got)
		}
		// Stopping early is fine.
		rs, _ = f.Query(Query{})
		for range rs.All() {
			break
		}
	}
}

func TestQJSONBuilt(t *testing.T) {
	segs := []string{`{"id":`, `,"px":`, `,"name":`, `}`}
	var lines []qLine
	var out []string
	for i := 0; i < 300; i++ {
		if i%50 == 7 {
			lines = append(lines, qLine{verbatim: `{"odd": true}`})
			out = append(out, `{"odd": true}`)
		}
		row := []string{strconv.Itoa(i), fmt.Sprintf("%d.5", i%7), []string{`"x"`, `null`}[i%2]}
		lines = append(lines, qLine{row: row})
		out = append(out, segs[0]+row[0]+segs[1]+row[1]+segs[2]+row[2]+segs[3])
	}
	want := strings.Join(out, "\n")
	src := qFile(t, CodecQJSON, "", segs, []string{"id", "px", "name"}, []byte{QInt, QDecimal, QText}, 32, lines, false, tagZstd)
	got, err := Decode(src, WithStrict())
	if err != nil || string(got) != want {
		t.Fatalf("decode: %v", err)
	}
	f, err := Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := f.Query(Query{Paths: []string{"name", "id"}, Where: []Range{{Path: "id", Min: "290"}, {Path: "px", Min: "3.5", Max: "3.5"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, rs); strings.Join(got, " ") != `"x"|290 null|297` {
		t.Fatalf("rows %q", got)
	}
}

func TestQTableErrors(t *testing.T) {
	lines, _ := tradesLines(10)
	good := qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, 4, lines, true, tagXZ)
	if _, err := Decode(good); err != nil {
		t.Fatal(err)
	}
	// Rebuild with a broken piece each time, by editing streams.
	ss, err := (&config{maxStreams: 256, maxDecoded: 1 << 20, maxStream: 1 << 20, memoryLimit: 1 << 30, maxDict: 1 << 26}).decoder().parseStreamSet(good[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := ss.load("meta", "row_modes", "verbatim", "index", "blocks"); err != nil {
		t.Fatal(err)
	}
	rebuild := func(change map[string][]byte) []byte {
		return replaceStreams(t, good, CodecQColumnar, change)
	}
	meta := ss.get("meta")
	blocks := ss.get("blocks")
	badTag := append([]byte{}, blocks...)
	badTag[0] = 2
	cases := []struct {
		name   string
		change map[string][]byte
		want   string
		strict bool
	}{
		{"rg 0", map[string][]byte{"meta": bytes.Replace(meta, []byte{3, 4, 10, 3}, []byte{3, 0, 10, 3}, 1)}, "row group size 0", false},
		{"block tag 2", map[string][]byte{"blocks": badTag}, "unknown block tag 2", false},
		{"blocks short", map[string][]byte{"blocks": blocks[:len(blocks)-1]}, "runs past the blocks stream", false},
		{"index short", map[string][]byte{"index": ss.get("index")[:8]}, "", false},
		{"row_modes short", map[string][]byte{"row_modes": []byte{0, 1}}, "row modes for 11 lines", false},
		{"n_struct wrong (strict)", map[string][]byte{"meta": bytes.Replace(meta, []byte{3, 4, 10, 3}, []byte{3, 4, 9, 3}, 1)}, "n_struct 9", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := rebuild(tc.change)
			var opts []Option
			if tc.strict {
				opts = append(opts, WithStrict())
				if _, err := Decode(src); err != nil {
					t.Fatalf("default mode rejects: %v", err)
				}
			}
			_, err := Decode(src, opts...)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	// qjson with a template of the wrong length.
	segs := []string{"{", ",", "}"}
	q := qFile(t, CodecQJSON, "", segs[:2], nil, []byte{QInt, QInt}, 2, []qLine{{row: []string{"1", "2"}}}, false, tagZstd)
	if _, err := Decode(q); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "segments") {
		t.Fatalf("nseg: %v", err)
	}
}

// TestQColumnarParallelLines covers the parallel line assembly: enough
// lines for several parts, verbatim lines among them, same bytes as the
// serial path and the checked twin.
func TestQColumnarParallelLines(t *testing.T) {
	var lines []qLine
	var want []string
	for i := 0; i < 70000; i++ {
		if i%997 == 3 {
			l := "# note " + strconv.Itoa(i)
			lines = append(lines, qLine{verbatim: l})
			want = append(want, l)
			continue
		}
		row := []string{strconv.Itoa(i), strconv.Itoa(i%50) + ".5", []string{"x", "", "\"q,q\""}[i%3]}
		lines = append(lines, qLine{row: row})
		want = append(want, strings.Join(row, ","))
	}
	src := qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, 4096, lines, true, tagZstd)
	for _, opt := range []Option{WithConcurrency(1), WithConcurrency(2), WithConcurrency(3), withSafe(), WithStrict()} {
		got, err := Decode(src, opt)
		if err != nil || string(got) != strings.Join(want, "\n")+"\n" {
			t.Fatalf("%v (%d bytes)", err, len(got))
		}
	}
	if _, err := Decode(src, WithConcurrency(2), WithMaxDecodedSize(int64(len(strings.Join(want, "\n"))-10))); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("limit: %v", err)
	}
}

// TestQParallelLinesInPlace covers the measured parts of decodeQuery:
// qjson and qcolumnar tables of three parts and more, with verbatim
// lines, empty values and long ones (past the 16-byte move), no final
// newline, behind a prefix (AppendDecode); the same bytes at every
// concurrency and from the checked twin.
func TestQParallelLinesInPlace(t *testing.T) {
	n := 3*assemblePart + 77
	var lines []qLine
	var csv, jsonl []string
	segs := []string{`{"id":`, `,"v":`, `,"s":"`, `"}`}
	for i := 0; i < n; i++ {
		if i%811 == 9 {
			l := "# verbatim " + strconv.Itoa(i)
			lines = append(lines, qLine{verbatim: l})
			csv, jsonl = append(csv, l), append(jsonl, l)
			continue
		}
		s := []string{"", "ab", "a rather longer value than sixteen bytes " + strconv.Itoa(i)}[i%3]
		row := []string{strconv.Itoa(i), strconv.Itoa(i%97) + ".25", s}
		lines = append(lines, qLine{row: row})
		csv = append(csv, strings.Join(row, ";"))
		jsonl = append(jsonl, segs[0]+row[0]+segs[1]+row[1]+segs[2]+row[2]+segs[3])
	}
	types := []byte{QInt, QDecimal, QText}
	for _, tc := range []struct {
		src  []byte
		want string
	}{
		{qFile(t, CodecQColumnar, ";", nil, nil, types, 3000, lines, false, tagZstd), strings.Join(csv, "\n")},
		{qFile(t, CodecQJSON, "", segs, []string{"id", "v", "s"}, types, 5000, lines, true, tagZstd), strings.Join(jsonl, "\n") + "\n"},
	} {
		for _, opt := range []Option{WithConcurrency(1), WithConcurrency(2), WithConcurrency(3), WithConcurrency(4), withSafe()} {
			got, err := AppendDecode([]byte("prefix"), tc.src, opt)
			if err != nil || string(got) != "prefix"+tc.want {
				t.Fatalf("%v (%d bytes, want %d)", err, len(got), len(tc.want)+6)
			}
		}
	}
}
