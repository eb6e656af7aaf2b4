package onpair

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// segmentedColumn builds a Column whose dictionary is whatever the
// segmentation gives: row r is cut into pieces of 1..16 bytes (lengths
// drawn from cuts), each piece its own token (duplicates allowed, unsorted),
// so the codes are not what a greedy parser would produce. The predicates
// must not assume a canonical parse.
func segmentedColumn(t testing.TB, rows [][]byte, cuts []byte) *Column {
	var dict []byte
	offs := []uint32{0}
	var codes []uint16
	rowOffs := []uint32{0}
	k := 0
	for _, row := range rows {
		for pos := 0; pos < len(row); {
			l := 1
			if len(cuts) > 0 {
				l = int(cuts[k%len(cuts)])%MaxTokenSize + 1
				k++
			}
			l = min(l, len(row)-pos)
			dict = append(dict, row[pos:pos+l]...)
			offs = append(offs, uint32(len(dict)))
			codes = append(codes, uint16(len(offs)-2))
			pos += l
		}
		rowOffs = append(rowOffs, uint32(len(codes)))
	}
	if n := len(offs) - 1; n > 0 {
		dict = append(dict, make([]byte, MaxTokenSize-int(offs[n]-offs[n-1]))...)
	}
	p := Parts{DictBytes: dict, DictOffsets: offs, Codes: codes, Bits: 16}
	c, err := NewColumn(p, rowOffs)
	require.NoError(t, err)
	return c
}

// checkPredicates compares the compressed-domain predicates with decoding
// every row and comparing.
func checkPredicates(t testing.TB, c *Column, needle []byte) {
	t.Helper()
	eq, pre, sub := c.Equal(needle), c.HasPrefix(needle), c.Contains(needle)
	require.Equal(t, c.Len(), eq.Len())
	var wantEq, wantPre, wantSub []int
	for r, row := range c.All() {
		if bytes.Equal(row, needle) {
			wantEq = append(wantEq, r)
		}
		if bytes.HasPrefix(row, needle) {
			wantPre = append(wantPre, r)
		}
		if bytes.Contains(row, needle) {
			wantSub = append(wantSub, r)
		}
	}
	type result struct {
		name string
		got  RowSet
		want []int
	}
	results := []result{{"Equal", eq, wantEq}, {"HasPrefix", pre, wantPre}, {"Contains", sub, wantSub}}
	// The pair scan on blocks of a few codes: rows longer than a block,
	// and switches between its sparse and dense passes.
	if len(needle) > 0 && len(needle) <= pairMax {
		for _, block := range []int{1, 5, 16, 64} {
			results = append(results, result{fmt.Sprintf("Contains/pairs block %d", block), c.containsPairs(needle, block), wantSub})
		}
	}
	// The verdicts from the candidate tokens of the indexes, whatever
	// their number.
	if len(needle) > 0 && len(needle) <= pairMax {
		saved := pairLinear
		pairLinear = 0
		results = append(results, result{"Contains/pairs index", c.containsPairs(needle, pairBlock), wantSub})
		pairLinear = saved
	}
	// Longer needles: the pair scan on a piece, then the candidates
	// confirmed, also on small blocks.
	if len(needle) > pairMax {
		for _, block := range []int{1, 16} {
			results = append(results, result{fmt.Sprintf("Contains/long block %d", block), c.containsLong(needle, block), wantSub})
		}
	}
	for _, k := range results {
		got := slices.Collect(k.got.All())
		if !slices.Equal(got, k.want) || k.got.Count() != len(k.want) {
			t.Fatalf("%s(%q): rows %v, want %v", k.name, needle, got, k.want)
		}
		for _, r := range k.want {
			require.True(t, k.got.Has(r))
		}
	}
}

func splitRows(blob []byte) [][]byte {
	if len(blob) == 0 {
		return nil
	}
	return bytes.Split(blob, []byte{'\n'})
}

func TestPredicates(t *testing.T) {
	values := []string{"hello world", "hello", "help", "", "world hello", "he", "hellohello", "xhello", "hello world!"}
	c, err := CompressStrings(values, WithBits(9))
	require.NoError(t, err)
	require.Equal(t, []int{1}, slices.Collect(c.Equal([]byte("hello")).All()))
	require.Equal(t, []int{0, 1, 6, 8}, slices.Collect(c.HasPrefix([]byte("hello")).All()))
	require.Equal(t, []int{0, 1, 4, 6, 7, 8}, slices.Collect(c.Contains([]byte("hello")).All()))
	require.Equal(t, []int{3}, slices.Collect(c.Equal(nil).All()))
	require.Equal(t, len(values), c.HasPrefix(nil).Count())
	require.Equal(t, len(values), c.Contains(nil).Count())
	rows := make([][]byte, len(values))
	for i, v := range values {
		rows[i] = []byte(v)
	}
	long := bytes.Repeat([]byte("abcdefghij"), 12) // > 64 bytes: filtered, then confirmed
	rows = append(rows, long, append([]byte("x"), long...), long[:70])
	for _, col := range []*Column{c, segmentedColumn(t, rows, []byte{3, 0, 15, 1, 7}), segmentedColumn(t, rows, nil)} {
		for _, n := range []string{"hello", "h", "o w", "lloh", "hello world!!", "\xff", "d", "!", "world hello", string(long), string(long[:65]), string(long[5:100])} {
			checkPredicates(t, col, []byte(n))
		}
	}
	empty, err := CompressStrings(nil)
	require.NoError(t, err)
	checkPredicates(t, empty, []byte("a"))
	allEmpty, err := NewColumn(Parts{DictOffsets: []uint32{0}, Bits: 9}, []uint32{0, 0, 0})
	require.NoError(t, err)
	for _, n := range []string{"", "a"} {
		checkPredicates(t, allEmpty, []byte(n))
	}
}

func TestPredicatesDBText(t *testing.T) {
	for _, name := range dbtextFiles {
		data, offs := loadDBText(t, name)
		c, err := Compress(data, offs)
		require.NoError(t, err)
		row := data[offs[7]:offs[8]]
		needles := [][]byte{row, row[:len(row)/2], row[len(row)/3 : 2*len(row)/3], []byte("com"), []byte("@"), []byte("http"), []byte("zzzzqq"), []byte("qzx")}
		for _, k := range []int{2, 3, 4, 5, 8, 9} { // around the pair scan's 4-byte (byte verdicts) and 8-byte limits
			other := data[offs[101]:offs[102]]
			if len(other) >= k {
				needles = append(needles, other[len(other)-k:], other[:k])
			}
		}
		for _, n := range needles {
			t.Run(fmt.Sprintf("%s/%q", name, n), func(t *testing.T) { checkPredicates(t, c, n) })
		}
	}
}

// FuzzDiffSearch: Equal, HasPrefix and Contains on codes == decode and
// compare, on trained columns and on arbitrarily segmented dictionaries,
// for the given needle (empty, longer than any row, bytes absent from the
// dictionary) and for needles cut from the rows (crossing token
// boundaries).
func FuzzDiffSearch(f *testing.F) {
	f.Add([]byte("hello world\nhello\nhelp\n\nworld hello"), []byte("hello"), []byte{3, 1, 4}, uint16(7))
	f.Add([]byte("aaaa\naaab\nab"), []byte("aab"), []byte{}, uint16(0))
	f.Add([]byte("x"), []byte("\xff\xfe"), []byte{15}, uint16(300))
	// The pair scan (needles of up to 8 bytes, 16-bit verdicts past 4):
	// one-byte tokens, so matches span middle tokens; needles of 6 and 7
	// bytes; the needle's last byte ending one row and its first starting
	// the next.
	f.Add([]byte("abcd\nxabcdx\nab\ncd\nzzabzzcd"), []byte("bc"), []byte{0}, uint16(0))
	f.Add([]byte("hello world foo bar\nworld hello\nlo wo"), []byte("lo wor"), []byte{1, 2, 0}, uint16(0x0305))
	f.Add([]byte("hello world foo bar\nworld hello\nllo wor"), []byte("llo wor"), []byte{4, 0, 2}, uint16(9))
	f.Add([]byte("xxab\ncdyy\nab\ncd"), []byte("bc"), []byte{1}, uint16(2))
	// Needles of 9-40 bytes (a piece through the pair scan, candidates
	// confirmed): present, present but for one byte, absent though made
	// of the column's bytes, and a piece present in rows lacking the rest.
	f.Add([]byte("the quick brown fox jumps\nquick brown fax\nover the lazy dog quick brown fox"), []byte("quick brown fox"), []byte{2, 5, 1}, uint16(0x0a04))
	f.Add([]byte("abcdefghijklmnopqrstuvwxyz0123456789ABCD\nabcdefghijklmnopqrstuvwxyz0123456789ABCE"), []byte("abcdefghijklmnopqrstuvwxyz0123456789ABCD"), []byte{7, 0, 3}, uint16(0x2801))
	f.Add([]byte("aaaaaaaaab\naaaaaaaaaa\nbaaaaaaaaa"), []byte("aaaaaaaaab"), []byte{0}, uint16(0x0900))
	f.Add([]byte("http://nl.wikipedia.org/wiki/Het\nhttp://en.wikipedia.org/wiki/Het"), []byte("gro.aidepikiw"), []byte{3, 3, 1}, uint16(0x1205))
	// CJK text: the token indexes keyed by three bytes (characters sharing
	// their first two), 16-bit verdicts and a long needle's piece.
	f.Add([]byte("あいうえおかきくけこ\nかきくけこあいう\nうえおかき\nこあい"), []byte("えおかき"), []byte{3, 0, 2, 1}, uint16(0x0603))
	f.Add([]byte("日本語のテキスト\n日本の語\nテキスト日本語"), []byte("\xac語のテ"), []byte{1, 1, 2}, uint16(0x0c02))
	f.Fuzz(func(t *testing.T, blob, needle, cuts []byte, pick uint16) {
		if len(blob) > 4096 {
			return
		}
		rows := splitRows(blob)
		values := make([]string, len(rows))
		for i, r := range rows {
			values[i] = string(r)
		}
		trained, err := CompressStrings(values, WithBits(9))
		if err != nil {
			t.Fatal(err)
		}
		needles := [][]byte{needle}
		if len(blob) > 0 {
			a := int(pick) % len(blob)
			b := a + int(pick>>8)%(len(blob)-a+1)
			needles = append(needles, blob[a:b])
			if len(rows) > 0 {
				needles = append(needles, rows[int(pick)%len(rows)])
			}
		}
		for _, c := range []*Column{trained, segmentedColumn(t, rows, cuts)} {
			for _, n := range needles {
				checkPredicates(t, c, n)
			}
		}
	})
}

// TestWClass8 checks the one-multiply classification of eight 16-bit
// verdicts against wClass run on each half, on lanes with every bit
// pattern of the fields that matter.
func TestWClass8(t *testing.T) {
	lanes := []uint64{0, 1, 0x40, 0x7f, 0x80, 0x2000, 0x3f80, 0x4000, 0x8000, 0xffff, 0x807f, 0x3f81, 0xc000}
	x := uint64(0x9E3779B97F4A7C15)
	for i := range 20000 {
		var ya, yb uint64
		for k := range 4 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			ya |= lanes[x%uint64(len(lanes))] << (16 * k)
			yb |= lanes[x>>32%uint64(len(lanes))] << (16 * k)
		}
		if i&1 == 0 { // also arbitrary words
			ya, yb = x, x*0x2545F4914F6CDD1D
		}
		ha, la := wClass(ya)
		hb, lb := wClass(yb)
		h, l := wClass8(ya, yb)
		require.Equal(t, ha|hb<<4, h, "h of %#x %#x", ya, yb)
		require.Equal(t, la|lb<<4, l, "l of %#x %#x", ya, yb)
	}
}

// TestContainsBigrams: the bigram filter returns no row for a needle with
// a pair of bytes the column lacks (every byte of it present), and keeps
// the pairs that only occur across two tokens of a row, or across rows.
func TestContainsBigrams(t *testing.T) {
	rows := [][]byte{[]byte("abcd"), []byte("xyab"), []byte("cdxy")}
	c := segmentedColumn(t, rows, []byte{1})           // tokens of two bytes: "ab" "cd" "xy"
	require.Zero(t, c.Contains([]byte("ac")).Count())  // no row has "ac"
	require.Zero(t, c.Contains([]byte("dcx")).Count()) // nor "dc"
	require.Equal(t, []int{0}, slices.Collect(c.Contains([]byte("bc")).All()))
	require.Equal(t, []int{1}, slices.Collect(c.Contains([]byte("yab")).All()))
	require.Zero(t, c.Contains([]byte("bcdxyab")).Count()) // across rows only: none
	require.Zero(t, c.Contains([]byte("bx")).Count())      // "ab"+"xy" never adjacent
	bg := c.search.bigrams
	for _, k := range []uint{'b'<<8 | 'c', 'd'<<8 | 'x', 'y'<<8 | 'a', 'a'<<8 | 'b'} {
		require.NotZero(t, bg[k>>6]&(1<<(k&63)), "bigram %q%q", byte(k>>8), byte(k))
	}
	for _, k := range []uint{'a'<<8 | 'c', 'd'<<8 | 'c', 'b'<<8 | 'x'} {
		require.Zero(t, bg[k>>6]&(1<<(k&63)), "bigram %q%q", byte(k>>8), byte(k))
	}
	for _, n := range []string{"ac", "bc", "yab", "dxy", "bcdxyab", "cdx"} {
		checkPredicates(t, c, []byte(n))
	}
}
