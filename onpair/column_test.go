package onpair

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func exampleColumn(t *testing.T) *Column {
	p, rows := workedExample()
	c, err := NewColumn(p, rows)
	require.NoError(t, err)
	return c
}

func collectRows(t *testing.T, c *Column) []string {
	var out []string
	for i, row := range c.All() {
		require.Equal(t, len(out), i)
		out = append(out, string(row))
	}
	return out
}

func TestColumnRows(t *testing.T) {
	c := exampleColumn(t)
	want := []string{"hello", "world", "hello world"}
	require.Equal(t, 3, c.Len())
	require.Equal(t, 21, c.DecodedLen())
	require.Equal(t, want, collectRows(t, c))
	// A reused, dirty buffer: scratch bytes must never leak into rows.
	buf := bytes.Repeat([]byte{'#'}, 64)[:0]
	for _, i := range []int{2, 0, 1, 2, 1, 0} {
		var err error
		buf, err = c.AppendRow(buf[:0], i)
		require.NoError(t, err)
		require.Equal(t, want[i], string(buf))
	}
	row, err := c.AppendRow([]byte("x="), 1)
	require.NoError(t, err)
	require.Equal(t, "x=world", string(row))
	// Exact-capacity dst takes the measuring path.
	row, err = c.AppendRow(make([]byte, 0, 5), 0)
	require.NoError(t, err)
	require.Equal(t, "hello", string(row))
	_, err = c.Row(3)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = c.Row(-1)
	require.ErrorIs(t, err, ErrInvalidArgument)

	require.Equal(t, "helloworldhello world", string(c.AppendAll(nil)))
	data, offs := c.AppendArrow(nil, []uint64{0})
	require.Equal(t, "helloworldhello world", string(data))
	require.Equal(t, []uint64{0, 5, 10, 21}, offs)

	// Stopping the iterator early.
	n := 0
	for range c.All() {
		n++
		break
	}
	require.Equal(t, 1, n)
}

// TestTokenAcrossRowBoundary: the spec allows a writer to let a token span
// a row boundary; rows are then defined by their code ranges. Input rows
// "hello" and "world" encoded as tokens "hel" "low" "orld", with the row
// boundary placed after the code of "hel": row 0 decodes to "hel", row 1 to
// "loworld", and the whole column to "helloworld".
func TestTokenAcrossRowBoundary(t *testing.T) {
	dict := append([]byte("helloworld"), make([]byte, 16)...)
	p := Parts{DictBytes: dict, DictOffsets: []uint32{0, 3, 6, 10}, Codes: []uint16{0, 1, 2}, Bits: 9}
	c, err := NewColumn(p, []uint32{0, 1, 3})
	require.NoError(t, err)
	require.Equal(t, []string{"hel", "loworld"}, collectRows(t, c))
	require.Equal(t, "helloworld", string(c.AppendAll(nil)))
	// One token holding two whole rows "ab"+"cd": row 1 has no codes.
	p = Parts{DictBytes: append([]byte("abcd"), make([]byte, 16)...), DictOffsets: []uint32{0, 4}, Codes: []uint16{0}, Bits: 9}
	c, err = NewColumn(p, []uint32{0, 1, 1})
	require.NoError(t, err)
	require.Equal(t, []string{"abcd", ""}, collectRows(t, c))
}

func TestEmptyRowsAndEmptyColumn(t *testing.T) {
	p, _ := workedExample()
	c, err := NewColumn(p, []uint32{0, 0, 2, 2, 3, 7, 7})
	require.NoError(t, err)
	require.Equal(t, []string{"", "hello", "", "world", "hello world", ""}, collectRows(t, c))

	empty, err := NewColumn(Parts{DictOffsets: []uint32{0}, Bits: 9}, []uint32{0})
	require.NoError(t, err)
	require.Equal(t, 0, empty.Len())
	require.Empty(t, empty.AppendAll(nil))
	b, err := empty.MarshalBinary()
	require.NoError(t, err)
	back, err := ParseColumn(b)
	require.NoError(t, err)
	require.Equal(t, 0, back.Len())
}

func TestBadRowOffsets(t *testing.T) {
	p, _ := workedExample()
	for _, rows := range [][]uint32{nil, {1, 7}, {0, 3, 2, 7}, {0, 2, 6}, {0, 2, 8}} {
		_, err := NewColumn(p, rows)
		require.ErrorIs(t, err, ErrBadRowOffsets, "%v", rows)
	}
	_, err := NewColumn(p, []uint32{0, 2, 3, 7}, WithMaxRows(2))
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = NewColumn(p, []uint32{0, 2, 3, 7}, WithMaxCodes(6))
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = NewColumn(p, []uint32{0, 2, 3, 7}, WithMaxDecodedSize(20))
	require.ErrorIs(t, err, ErrTooLarge)
}

// goldenExample is the framing of the worked example, written out by hand
// from the layout in doc.go.
const goldenExample = "4f50434f4c" + "01" + "09" + "00" + // "OPCOL", version 1, bits 9, flags 0
	"04" + "00000000" + "02000000" + "05000000" + "06000000" + "0b000000" + // N=4, offsets
	"16" + "68656c6c6f20776f726c64" + "0000000000000000000000" + // 22 dict bytes
	"07" + "00020c001040c000" + // M=7, codes at 9 bits
	"03" + "020104" // R=3, row code counts 2, 1, 4

func goldenBytes(t *testing.T) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(goldenExample, " ", ""))
	require.NoError(t, err)
	return b
}

func TestMarshalGolden(t *testing.T) {
	want := goldenBytes(t)
	got, err := exampleColumn(t).MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, want, got)
	disk, err := os.ReadFile(filepath.Join("testdata", "worked_example.opcol"))
	require.NoError(t, err)
	require.Equal(t, want, disk)

	var c Column
	require.NoError(t, c.UnmarshalBinary(want))
	require.Equal(t, []string{"hello", "world", "hello world"}, collectRows(t, &c))

	// Over-allocated padding in memory is written as the minimum.
	p, rows := workedExample()
	p.DictBytes = append(p.DictBytes, make([]byte, 15)...)
	c2, err := NewColumn(p, rows)
	require.NoError(t, err)
	got, err = c2.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, want, got)
}

func TestParseColumnErrors(t *testing.T) {
	good := goldenBytes(t)
	// Every strict prefix fails cleanly: bad magic before 5 bytes, then
	// truncated (or, cut inside the row counts, rows that miss codes).
	for i := 0; i < len(good); i++ {
		_, err := ParseColumn(good[:i])
		require.Error(t, err, "prefix %d", i)
		require.ErrorIs(t, err, ErrCorrupt, "prefix %d: %v", i, err)
		switch {
		case i < 5:
			require.ErrorIs(t, err, ErrBadMagic)
		case i < len(good)-3:
			require.ErrorIs(t, err, ErrTruncated, "prefix %d: %v", i, err)
		default:
			require.True(t, errors.Is(err, ErrTruncated) || errors.Is(err, ErrBadRowOffsets), "prefix %d: %v", i, err)
		}
		var ce *CorruptError
		require.ErrorAs(t, err, &ce)
	}
	mod := func(at int, v byte) []byte {
		b := append([]byte(nil), good...)
		b[at] = v
		return b
	}
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"magic", mod(0, 'X'), ErrBadMagic},
		{"version", mod(5, 2), ErrUnsupported},
		{"bits 17", mod(6, 17), ErrBadBits},
		{"bits 7", mod(6, 7), ErrBadBits},
		{"flags", mod(7, 1), ErrUnsupported},
		{"trailing", append(append([]byte(nil), good...), 0), ErrTrailingBytes},
		{"first offset", mod(9, 1), ErrFirstOffsetNotZero},
		{"token too large", mod(13, 18), ErrTokenTooLarge},
		{"code out of range", mod(len(good)-5, 0x01), ErrCodeOutOfRange}, // last code 3 -> 7
		{"row counts", mod(len(good)-1, 5), ErrBadRowOffsets},
		{"huge token count", append(good[:8:8], 0x81, 0x80, 0x04), ErrTooManyTokens},
		{"claims 65536 tokens", append(good[:8:8], 0x80, 0x80, 0x04), ErrTruncated},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseColumn(tc.b)
			require.ErrorIs(t, err, tc.want)
			var ce *CorruptError
			require.ErrorAs(t, err, &ce)
			require.GreaterOrEqual(t, ce.Offset, int64(0), "%v", err)
		})
	}
	_, err := ParseColumn(good, WithMaxRows(2))
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = ParseColumn(good, WithMaxCodes(6))
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = ParseColumn(good, WithMaxDecodedSize(20))
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = ParseColumn(good, WithMaxRows(-1))
	require.ErrorIs(t, err, ErrInvalidArgument)
}

// TestBadFiles: every testdata/bad_* file must fail with the error its
// name gives after "bad_" (see testdata/README.md).
func TestBadFiles(t *testing.T) {
	named := map[string]error{
		"magic": ErrBadMagic, "version": ErrUnsupported, "bits": ErrBadBits,
		"padding": ErrMissingDecoderPadding, "code": ErrCodeOutOfRange,
		"rows": ErrBadRowOffsets, "truncated": ErrTruncated, "tokens": ErrTooManyTokens,
		"emptytoken": ErrNonIncreasingOffsets,
	}
	files, err := filepath.Glob(filepath.Join("testdata", "bad_*.opcol"))
	require.NoError(t, err)
	require.Len(t, files, len(named))
	for _, f := range files {
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "bad_"), ".opcol")
		want, ok := named[key]
		require.True(t, ok, f)
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		_, err = ParseColumn(b)
		require.ErrorIs(t, err, want, f)
	}
}

// AppendRow's loop-free paths for rows of up to 8 and of 9..16 codes pad
// the lanes past the row with the length-0 code N: rows of every length 0..20, at the end
// of the codes (where the 8-byte loads would pass the end), with a reused,
// a nil and an exactly full buffer, and with a 65536-token dictionary,
// which has no spare code; with and without the short-row table, and
// with rows mostly of 0..2 codes (the table's two-token path), of 0..8
// (its entries of four codes and of longer rows) or of 0..20 (no table).
func TestAppendRowEveryLength(t *testing.T) {
	for _, shape := range []struct {
		table bool
		mod   int // rows have r % mod codes, except every 21st: 20
	}{{true, 21}, {false, 21}, {true, 3}, {false, 3}, {true, 9}, {false, 9}} {
		t.Run(fmt.Sprintf("table=%v,mod=%d", shape.table, shape.mod), func(t *testing.T) {
			testAppendRowEveryLength(t, shape.table, shape.mod)
		})
	}
}

func testAppendRowEveryLength(t *testing.T, table bool, mod int) {
	for _, n := range []int{1, 300, 4096, 65534, 65535, 65536} {
		toks := make([]string, n)
		for i := range toks {
			toks[i] = string([]byte{byte(i), byte(i >> 8), 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'})[:1+i%16]
		}
		var codes []uint16
		offs := []uint32{0}
		var want [][]byte
		for r := 0; r < 84; r++ {
			k := r % mod
			if r%21 == 20 {
				k = 20
			}
			row := []byte{}
			for j := 0; j < k; j++ {
				c := uint16((r*131 + j*7919) % n)
				codes = append(codes, c)
				row = append(row, toks[c]...)
			}
			offs = append(offs, uint32(len(codes)))
			want = append(want, row)
		}
		p := dictOf(toks, codes)
		col, err := NewColumn(p, offs, WithRowTable(table))
		require.NoError(t, err)
		buf := make([]byte, 0, 4096)
		for r := range want {
			buf, err = col.AppendRow(buf[:0], r)
			require.NoError(t, err)
			require.Equal(t, want[r], buf, "n=%d row %d", n, r)
			got, err := col.AppendRow([]byte("x"), r)
			require.NoError(t, err)
			require.Equal(t, append([]byte("x"), want[r]...), got)
			full := make([]byte, 3)
			got, err = col.AppendRow(full, r)
			require.NoError(t, err)
			require.Equal(t, append(make([]byte, 3), want[r]...), got)
		}
		if n < 65535 && table && mod <= 9 {
			// Most rows have at most four codes: a table, with the
			// two-token flag when nine in ten have at most two.
			flags := *col.shortRows()
			require.Equal(t, uint64(shortOn), flags&shortOn, "n=%d mod=%d", n, mod)
			require.Equal(t, mod == 3, flags&shortLanes2 != 0, "n=%d mod=%d", n, mod)
		}
		if n >= 65535 || !table || mod > 9 {
			require.Same(t, &shortNone, col.shortRows(), "n=%d table=%v", n, table)
		}
	}
}

// Concurrent first AppendRow calls each may build the short-row table;
// every reader gets correct rows (run with -race).
func TestAppendRowConcurrentFirstCall(t *testing.T) {
	toks := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	var codes []uint16
	offs := []uint32{0}
	var want []string
	for r := 0; r < 1000; r++ {
		row := ""
		for j := 0; j < r%7; j++ {
			c := uint16((r + j) % len(toks))
			codes = append(codes, c)
			row += toks[c]
		}
		offs = append(offs, uint32(len(codes)))
		want = append(want, row)
	}
	col, err := NewColumn(dictOf(toks, codes), offs)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errc := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 256)
			for r := range want {
				buf, _ = col.AppendRow(buf[:0], (r+g*97)%len(want))
				if string(buf) != want[(r+g*97)%len(want)] {
					errc <- fmt.Sprintf("goroutine %d row %d: %q", g, r, buf)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for e := range errc {
		t.Error(e)
	}
}

// AppendArrow decodes in chunks of arrowChunk codes and reads row ends
// from recorded token starts: rows crossing chunk boundaries, empty rows
// (first, at a boundary, last) and a prefix in data must all come out as
// AppendRow has them.
func TestAppendArrowChunks(t *testing.T) {
	toks := make([]string, 300)
	for i := range toks {
		toks[i] = string([]byte{byte(i), byte(i >> 8), 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'})[:1+i%16]
	}
	var codes []uint16
	offs := []uint32{0, 0} // an empty first row
	for r := 0; len(codes) < 3*arrowChunk+100; r++ {
		for j := 0; j < (r*7)%23; j++ {
			codes = append(codes, uint16((r*131+j*17)%len(toks)))
		}
		offs = append(offs, uint32(len(codes)))
		if len(codes) == arrowChunk {
			offs = append(offs, uint32(len(codes))) // empty row at a boundary
		}
	}
	offs = append(offs, uint32(len(codes)), uint32(len(codes))) // empty last rows
	col, err := NewColumn(dictOf(toks, codes), offs)
	require.NoError(t, err)
	data, ends := col.AppendArrow([]byte("pre"), []uint64{7})
	require.Equal(t, col.Len()+1, len(ends))
	require.Equal(t, col.DecodedLen()+3, len(data))
	start := uint64(0)
	for r := 0; r < col.Len(); r++ {
		row, err := col.Row(r)
		require.NoError(t, err)
		end := ends[r+1]
		require.Equal(t, string(row), string(data[3+start:3+end]), "row %d", r)
		start = end
	}
}
