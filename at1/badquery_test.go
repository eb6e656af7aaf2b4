package at1

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// restreamed re-packs a whole-file vector with every stream stored after
// edit has changed the decoded streams (by name).
func restreamed(t *testing.T, src []byte, edit func(streams map[string][]byte)) []byte {
	t.Helper()
	c, _ := newConfig(nil)
	ss, err := c.decoder().parseStreamSet(src[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	var names []string
	for i, s := range ss.streams {
		d, err := c.decoder().decompress(s.Backend, ss.data[i], 1<<20, 0, s.Name)
		if err != nil {
			t.Fatal(err)
		}
		m[s.Name] = d
		names = append(names, s.Name)
	}
	edit(m)
	var streams []tstream
	for _, n := range names {
		streams = append(streams, tstream{n, BackendStored, m[n]})
	}
	return wholeFile(Codec(src[4]), packSet(t, streams...))
}

// qcolRows is a qcolumnar file of n structured rows (INT, TEXT) in row
// groups of 4, each block holding exactly its group's values.
func qcolRows(t *testing.T, n int) []byte {
	var lines []qLine
	for i := 0; i < n; i++ {
		lines = append(lines, qLine{row: []string{strconv.Itoa(10 * i), "r" + strconv.Itoa(i)}})
	}
	return qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QText}, 4, lines, true, tagZstd)
}

// qcolMeta is the meta stream of a (",", INT, TEXT, rg 4) qcolumnar file.
func qcolMeta(nlines, nStruct, nrg uint64) []byte {
	return []byte(uvs(nlines) + "\x01\x01," + uvs(2, 4, nStruct, nrg) + string([]byte{QInt, QText}))
}

// badQueries decode (the full decode follows row_modes and ignores the
// meta's n_struct and nrg, as the reference's serial path does) but must
// fail Strict decoding and every query with ErrCorrupt: a query sizes row
// groups from those counts, so trusting them would return other rows
// than the full decode.
var badQueries = []struct {
	name  string
	where string // the stream the error must name
	build func(t *testing.T) []byte
}{
	// 5 rows; the meta says 4, so a query would drop row 4.
	{"bad_query_nstruct_low", "meta", func(t *testing.T) []byte {
		return restreamed(t, qcolRows(t, 5), func(s map[string][]byte) { s["meta"] = qcolMeta(5, 4, 2) })
	}},
	// 6 rows written, the last line turned verbatim (an empty line): the
	// meta still says 6 and the last block still holds 2 values, so a
	// query would return a row the full decode does not write.
	{"bad_query_nstruct_high", "meta", func(t *testing.T) []byte {
		return restreamed(t, qcolRows(t, 6), func(s map[string][]byte) { s["row_modes"][5] = 0 })
	}},
	// 5 rows in groups of 4 need 2 groups; the meta and the index say 3
	// (an extra group of values the full decode never reads).
	{"bad_query_index_extra_group", "index", func(t *testing.T) []byte {
		src := qcolRows(t, 9)
		return restreamed(t, src, func(s map[string][]byte) {
			for i := range s["row_modes"][5:] {
				s["row_modes"][5+i] = 0
			}
			s["meta"] = qcolMeta(9, 5, 3)
		})
	}},
	// nrg 3 for 5 rows in groups of 4.
	{"bad_query_nrg", "meta", func(t *testing.T) []byte {
		return restreamed(t, qcolRows(t, 5), func(s map[string][]byte) { s["meta"] = qcolMeta(5, 5, 3) })
	}},
}

func TestBadQuery(t *testing.T) {
	for _, b := range badQueries {
		t.Run(b.name, func(t *testing.T) {
			path := filepath.Join("testdata", b.name+".at1")
			if *update {
				must(t, os.WriteFile(path, b.build(t), 0o644))
			}
			src := readVector(t, b.name+".at1")
			if _, err := Decode(src); err != nil {
				t.Fatalf("Decode (default policy): %v", err)
			}
			if _, err := Decode(src, WithStrict()); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Decode Strict: %v, want ErrCorrupt", err)
			}
			f, err := Open(bytes.NewReader(src), int64(len(src)))
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []Query{{}, {Columns: []int{1}, Where: []Range{{Column: 0, Min: "0"}}}} {
				_, err := f.Query(q)
				var ce *CorruptError
				if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.Path != "stream \""+b.where+"\"" || ce.Offset <= 0 {
					t.Fatalf("Query: %v, want ErrCorrupt located in stream %q", err, b.where)
				}
			}
		})
	}
}
