package at1

import (
	"bytes"

	"github.com/colfmt/colfmt/internal/varint"
)

// Row writing picks each column's value source once (a colWriter) instead
// of walking colVals.at's branch chain for every value: a DICT or DERIVED
// column reads its index and takes the value from a per-index table (the
// DERIVED rank map folded in), a column with one distinct value writes a
// constant, lazy INT/DEC and SHUF columns format straight into the
// output, lazy TEXT columns walk their lines in order. Values of at most
// 16 bytes from a table are copied as one 16-byte move when the output
// has room (the table keeps 16 readable bytes after each value).
// Quoted numbers go through colVals.at.
// The writers trust only what planRows validated: value counts, field
// counts and index ranges (checked when the column was decoded).

const (
	wGeneric = iota // colVals.at, then the column's quoting
	wConst          // one value for every row
	wTab1           // 1-byte indexes into tab
	wTab2           // 2-byte indexes into tab
	wOffs2          // 2-byte indexes into a DICT's entries (too many for a table)
	wEntries        // value j is entry j of an indexed column
	wNum            // lazy INT or DEC: svarint deltas, formatted in place
	wNumExc         // lazy NUMEXC: numbers formatted in place, exceptions in order
	wShuf           // lazy SHUF: byte planes, formatted in place
	wText           // lazy TEXT: lines walked in order
)

// smallVal is the longest table value copied as one fixed-size move.
const smallVal = 16

// maxTable is the most entries a value table has; a larger DICT is read
// through its offsets (24 bytes an entry would be fresh pages to fill).
const maxTable = 4096

// maxPadTable caps the bytes of a padded value table.
const maxPadTable = 64 << 10

type colWriter struct {
	kind  uint8
	small bool // tab and one: every value <= smallVal bytes, smallVal readable
	idx   []byte
	tab   [][]byte
	one   []byte
	col   *colVals
	q     *quoting

	// Sequential state (wNum, wShuf, wText): the next value's index.
	next int
	pos  int
	acc  int64
	dec  int
	w    int
	n    int
	min  int64
	b    []byte

	bitmap, exc []byte // wNumExc
	epos        int
}

// valueTable returns the values of an indexed column (DICT, DERIVED) by
// index, with the rank map folded in; tab is nil if the index range is
// too large for a table. When every value is short and the copy stays
// small, the values are copied with smallVal readable bytes after each.
func valueTable(v *colVals) colTable {
	base := len(v.offs) - 1
	if v.rank != nil {
		base = len(v.rank)
	}
	if v.idx == nil || v.idx.w > 2 || base <= 0 || base > maxTable {
		return colTable{}
	}
	t := colTable{tab: make([][]byte, base), small: true}
	total, oneAt := 0, 0
	for e := range t.tab {
		s := e
		if v.rank != nil {
			s = int(v.rank[e])
			if s >= len(v.offs)-1 {
				// An index the source never uses (rankEntries leaves
				// those out of range): no value.
				continue
			}
		}
		b := v.entry(s)
		t.tab[e] = b
		total += len(b)
		if len(b) > smallVal {
			t.small = false
		}
		// One distinct value when every used entry has the same bytes
		// (the constant columns of token tables).
		switch {
		case t.distinct == 0:
			t.distinct, t.one, oneAt = 1, b, e
		case t.distinct == 1 && !bytes.Equal(b, t.one):
			t.distinct = 2
		}
	}
	if v.idx.w == 0 {
		t.distinct, t.one, oneAt = 1, t.tab[0], 0
	}
	if t.distinct == 0 || !t.small || total+smallVal > maxPadTable {
		t.small = false
		return t
	}
	pad := make([]byte, 0, total+smallVal)
	for e, b := range t.tab {
		at := len(pad)
		pad = append(pad, b...)
		t.tab[e] = pad[at:len(pad):cap(pad)]
	}
	if t.distinct == 1 {
		t.one = t.tab[oneAt]
	}
	return t
}

// newColWriter chooses column v's value source.
func newColWriter(v *colVals, q *quoting, tabs map[*colVals]colTable) colWriter {
	w := colWriter{kind: wGeneric, col: v, q: q}
	switch {
	case v.num != nil && q.mode != 0:
		// Quoted numbers: rare; colVals.at and the bitmap.
	case v.num != nil && v.num.bitmap != nil:
		w.kind, w.b, w.dec, w.bitmap, w.exc = wNumExc, v.num.deltas, v.num.dec, v.num.bitmap, v.num.exc
	case v.num != nil && v.num.planes == nil:
		w.kind, w.b, w.dec = wNum, v.num.deltas, v.num.dec
	case v.num != nil:
		w.kind, w.b, w.w, w.n, w.min = wShuf, v.num.planes, v.num.w, v.num.n, v.num.min
	case v.text != nil:
		w.kind, w.b = wText, v.text.b
	case v.idx != nil:
		t, ok := tabs[v]
		if !ok || t.tab == nil {
			if v.rank == nil && v.idx.w == 2 {
				w.kind, w.idx = wOffs2, v.idx.b
			}
			return w
		}
		if t.distinct == 1 {
			w.kind, w.one, w.small = wConst, t.one, t.small
			return w
		}
		w.tab, w.small, w.idx = t.tab, t.small, v.idx.b
		switch v.idx.w {
		case 0:
			w.kind, w.one, w.small = wConst, t.tab[0], t.small
		case 1:
			w.kind = wTab1
		case 2:
			w.kind = wTab2
		default:
			w.kind = wGeneric
		}
	default:
		w.kind = wEntries
	}
	return w
}

// colTable is an indexed column's value table, built once by planRows.
type colTable struct {
	tab      [][]byte
	small    bool
	distinct int    // 1 if every used value is the same bytes
	one      []byte // that value, when distinct is 1
}

// put appends value j of the column (j below its count, as planRows
// checked).
func (w *colWriter) put(dst []byte, j int) []byte {
	var v []byte
	switch w.kind {
	case wConst:
		v = w.one
	case wTab1:
		v = w.tab[w.idx[j]]
	case wTab2:
		v = w.tab[uint16(w.idx[2*j])|uint16(w.idx[2*j+1])<<8]
	case wOffs2:
		v = w.col.entry(int(uint16(w.idx[2*j]) | uint16(w.idx[2*j+1])<<8))
	case wEntries:
		v = w.col.entry(j)
	case wNum:
		if j != w.next {
			return w.generic(dst, j)
		}
		z, k := varint.Consume(w.b[w.pos:])
		w.pos += k
		w.acc += varint.DecodeZigzag(z)
		w.next++
		return appendNumInPlace(dst, w.acc, w.dec)
	case wNumExc:
		if j != w.next {
			return w.generic(dst, j)
		}
		w.next++
		if w.bitmap[j>>3]>>(j&7)&1 == 1 {
			z, k := varint.Consume(w.b[w.pos:])
			w.pos += k
			w.acc += varint.DecodeZigzag(z)
			return appendNumInPlace(dst, w.acc, w.dec)
		}
		return append(dst, nextLstr(w.exc, &w.epos)...)
	case wShuf:
		return appendNumInPlace(dst, shufVal(w.b, w.n, w.w, w.min, j), -1)
	case wText:
		if j != w.next {
			return w.generic(dst, j)
		}
		rest := w.b[min(w.pos, len(w.b)):]
		e := bytes.IndexByte(rest, '\n')
		if e < 0 {
			e = len(rest)
		}
		w.pos += e + 1
		w.next++
		v = rest[:e]
	default:
		return w.generic(dst, j)
	}
	if w.q.mode != 0 && w.q.quoted(j) {
		return appendQuoted(dst, v)
	}
	if n := len(dst); w.small && cap(dst)-n >= smallVal {
		*(*[smallVal]byte)(dst[n : n+smallVal]) = *(*[smallVal]byte)(v[:smallVal])
		return dst[:n+len(v)]
	}
	return append(dst, v...)
}

// valLen is the length of value j as put writes it, for the writers
// whose values are read by index (no sequential state) and unquoted;
// -1 for the others (sizeRange then measures colVals.at).
func (w *colWriter) valLen(j int) int {
	if w.q.mode != 0 {
		return -1
	}
	switch w.kind {
	case wConst:
		return len(w.one)
	case wTab1:
		return len(w.tab[w.idx[j]])
	case wTab2:
		return len(w.tab[uint16(w.idx[2*j])|uint16(w.idx[2*j+1])<<8])
	case wOffs2:
		e := uint16(w.idx[2*j]) | uint16(w.idx[2*j+1])<<8
		return int(w.col.offs[e+1]-w.col.offs[e]) - 1
	case wEntries:
		return int(w.col.offs[j+1]-w.col.offs[j]) - 1
	}
	return -1
}

func (w *colWriter) generic(dst []byte, j int) []byte {
	if w.q.quoted(j) {
		return appendQuoted(dst, w.col.at(j))
	}
	return append(dst, w.col.at(j)...)
}

// appendNumInPlace is appendNum formatted straight into dst's spare
// capacity when it has room (never growing dst past what append would).
func appendNumInPlace(dst []byte, x int64, dec int) []byte {
	l := numLen(x, dec)
	n := len(dst)
	if cap(dst)-n < l {
		var tmp [48]byte
		putNum(tmp[:l], x, dec)
		return append(dst, tmp[:l]...)
	}
	dst = dst[:n+l]
	putNum(dst[n:], x, dec)
	return dst
}

// tableSize is the text of values 0..need-1 of an indexed column with
// table t, without separators, from a count of each index.
func tableSize(v *colVals, t colTable, need int, counts map[*idxVec][]int) int64 {
	if t.distinct == 1 {
		return int64(need) * int64(len(t.one))
	}
	x := v.idx
	var size int64
	switch x.w {
	case 0:
		return int64(need) * int64(len(t.tab[0]))
	case 1:
		c, ok := counts[x]
		if !ok || c[256] != need {
			c = make([]int, 257)
			for _, b := range x.b[:need] {
				c[b]++
			}
			c[256] = need
			counts[x] = c
		}
		for e, n := range c[:min(256, len(t.tab))] {
			size += int64(n) * int64(len(t.tab[e]))
		}
	default: // 2
		for j := 0; j < need; j++ {
			size += int64(len(t.tab[uint16(x.b[2*j])|uint16(x.b[2*j+1])<<8]))
		}
	}
	return size
}
