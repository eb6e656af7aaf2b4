package at1

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"

	"github.com/colfmt/colfmt/internal/le"
	"github.com/colfmt/colfmt/internal/varint"
)

// colVals holds one column's values as text. Each entry is followed by a
// '\n' in buf (or by the end of buf), so a TEXT chunk is used in place:
// entry j is buf[offs[j] : offs[j+1]-1]. If idx is set (DICT, DERIVED)
// value i is entry idx.at(i), or entry rank[idx.at(i)] if rank is set (a
// DERIVED column over a DICT or DERIVED source shares the source's idx);
// otherwise value i is entry i.
//
// A lazy column (num or text set; only on the serial streaming path)
// keeps an INT or DEC chunk's deltas and formats value i when it is asked
// for, instead of holding the column's text, or walks a TEXT chunk's
// lines without an offsets array.
type colVals struct {
	buf  []byte
	offs []uint32
	idx  *idxVec
	rank []uint32
	num  *lazyNums
	text *lazyText
}

// idxVec holds a column's entry indexes at the narrowest width that holds
// every index below its entry count: none (one entry, so every index is
// 0), 1, 2 or 4 bytes. A fresh page costs more than the bytes written to
// it (a fault, about 15 us on the shared test VM), and the DICT columns
// of a token table are mostly small: 200,000 rows of a 12-entry column
// take 200 KB instead of 800.
type idxVec struct {
	b []byte
	n int
	w int // bytes per index: 0, 1, 2 or 4

	// first holds the distinct indexes in the order they first appear
	// (firstSeen), for indexes below firstBase.
	first     []uint32
	firstBase int
}

// firstSeen returns the distinct indexes, each below base, in the order
// they first appear. It reads the indexes until base distinct ones are
// seen, once: later calls with the same base return the same slice.
func (x *idxVec) firstSeen(base int) []uint32 {
	if x.first != nil && x.firstBase == base {
		return x.first
	}
	seen := make([]bool, base)
	first := make([]uint32, 0, min(base, x.n))
	switch {
	case base == 0:
	case x.w == 1:
		for _, e := range x.b[:x.n] {
			if !seen[e] {
				seen[e] = true
				if first = append(first, uint32(e)); len(first) == base {
					break
				}
			}
		}
	case x.w == 2:
		b := x.b[:2*x.n]
		for i := 0; i+1 < len(b) && len(first) < base; i += 2 {
			e := uint16(b[i]) | uint16(b[i+1])<<8
			if !seen[e] {
				seen[e] = true
				first = append(first, uint32(e))
			}
		}
	default:
		for i := 0; i < x.n && len(first) < base; i++ {
			e := x.at(i)
			if !seen[e] {
				seen[e] = true
				first = append(first, e)
			}
		}
	}
	x.first, x.firstBase = first, base
	return first
}

func newIdxVec(n, entries int) *idxVec {
	w := 4
	switch {
	case entries <= 1:
		w = 0
	case entries <= 1<<8:
		w = 1
	case entries <= 1<<16:
		w = 2
	}
	return &idxVec{b: make([]byte, n*w), n: n, w: w}
}

// set stores index j (below the entry count) at i.
func (x *idxVec) set(i int, j uint32) {
	switch x.w {
	case 1:
		x.b[i] = byte(j)
	case 2:
		binary.LittleEndian.PutUint16(x.b[2*i:], uint16(j))
	case 4:
		binary.LittleEndian.PutUint32(x.b[4*i:], j)
	}
}

func (x *idxVec) at(i int) uint32 {
	switch x.w {
	case 1:
		return uint32(x.b[i])
	case 2:
		return uint32(binary.LittleEndian.Uint16(x.b[2*i:]))
	case 4:
		return binary.LittleEndian.Uint32(x.b[4*i:])
	}
	return 0
}

// lazyNums formats a validated svarint delta chunk value by value. It is
// fast when values are asked for in order (as row writing and planRows
// do), each once or twice in a row; going back restarts from value 0.
// A SHUF chunk (planes set) is read at any value directly; a NUMEXC chunk
// (bitmap set) takes value i from the deltas or, where the bitmap's bit
// is 0, from the next of its exceptions.
type lazyNums struct {
	deltas    []byte
	bitmap    []byte // NUMEXC: bit i set if value i is a number
	exc       []byte // NUMEXC: the exceptions, length-prefixed, in order
	epos      int    // NUMEXC: offset of the next exception
	excCur    []byte // NUMEXC: value next-1, when an exception
	planes    []byte // SHUF: w byte planes of n values, most significant last
	w         int
	min       int64
	dec, n    int
	textLen   int64 // the values' text, without separators
	pos, next int   // byte offset and index of the next delta
	acc       int64
	text      [48]byte // value next-1, formatted
	tlen      int
}

func (l *lazyNums) at(i int) []byte {
	if l.bitmap != nil {
		return l.numExcAt(i)
	}
	if i != l.next-1 {
		if l.planes != nil {
			l.acc = shufVal(l.planes, l.n, l.w, l.min, i)
			l.next = i + 1
			l.tlen = numLen(l.acc, -1)
			putNum(l.text[:l.tlen], l.acc, -1)
			return l.text[:l.tlen]
		}
		if i < l.next {
			l.pos, l.next, l.acc = 0, 0, 0
		}
		for l.next <= i {
			z, k := varint.Consume(l.deltas[l.pos:])
			l.pos += k
			l.acc += varint.DecodeZigzag(z)
			l.next++
		}
		l.tlen = numLen(l.acc, l.dec)
		putNum(l.text[:l.tlen], l.acc, l.dec)
	}
	return l.text[:l.tlen]
}

// numExcAt is at for a NUMEXC chunk, whose deltas and exceptions were
// checked when it was measured.
func (l *lazyNums) numExcAt(i int) []byte {
	if i == l.next-1 {
		if l.excCur != nil {
			return l.excCur
		}
		return l.text[:l.tlen]
	}
	if i < l.next {
		l.pos, l.epos, l.next, l.acc = 0, 0, 0, 0
	}
	for l.next <= i {
		if l.bitmap[l.next>>3]>>(l.next&7)&1 == 1 {
			z, k := varint.Consume(l.deltas[l.pos:])
			l.pos += k
			l.acc += varint.DecodeZigzag(z)
			l.excCur = nil
		} else {
			l.excCur = nextLstr(l.exc, &l.epos)
		}
		l.next++
	}
	if l.excCur != nil {
		return l.excCur
	}
	l.tlen = numLen(l.acc, l.dec)
	putNum(l.text[:l.tlen], l.acc, l.dec)
	return l.text[:l.tlen]
}

// nextLstr returns the length-prefixed string at *pos in b, checked
// before, and moves *pos past it.
func nextLstr(b []byte, pos *int) []byte {
	n, k := varint.Consume(b[*pos:])
	s := b[*pos+k : *pos+k+int(n)]
	*pos += k + int(n)
	return s
}

// shufVal is value i of a SHUF chunk: w byte planes of n values each,
// the most significant plane last, added to min (wrapping, as in C).
func shufVal(planes []byte, n, w int, min int64, i int) int64 {
	var x uint64
	for j := w - 1; j >= 0; j-- {
		x = x<<8 | uint64(planes[j*n+i])
	}
	return int64(x) + min
}

// lazyText walks a TEXT chunk's lines in order instead of indexing them
// (no offsets array); like lazyNums, going back restarts from line 0.
type lazyText struct {
	b         []byte
	n         int // lines: newlines + 1
	pos, next int // byte offset and index of the next line
	cur       []byte
}

func lazyLines(b []byte) *lazyText {
	return &lazyText{b: b, n: bytes.Count(b, []byte{'\n'}) + 1}
}

func (l *lazyText) at(i int) []byte {
	if i == l.next-1 {
		return l.cur
	}
	if i < l.next {
		l.pos, l.next = 0, 0
	}
	for l.next <= i {
		rest := l.b[min(l.pos, len(l.b)):]
		j := bytes.IndexByte(rest, '\n')
		if j < 0 {
			j = len(rest)
		}
		l.cur = rest[:j]
		l.pos += j + 1
		l.next++
	}
	return l.cur
}

func (v *colVals) count() int {
	if v.num != nil {
		return v.num.n
	}
	if v.text != nil {
		return v.text.n
	}
	if v.idx != nil {
		return v.idx.n
	}
	return len(v.offs) - 1
}

func (v *colVals) entry(j int) []byte { return v.buf[v.offs[j] : v.offs[j+1]-1] }

// at returns value i; callers check i < count().
func (v *colVals) at(i int) []byte {
	if v.num != nil {
		return v.num.at(i)
	}
	if v.text != nil {
		return v.text.at(i)
	}
	if v.idx != nil {
		e := v.idx.at(i)
		if v.rank != nil {
			e = v.rank[e]
		}
		return v.entry(int(e))
	}
	return v.entry(i)
}

// splitWords is the average value length from which splitLines calls
// IndexByte per value instead of scanning words.
const splitWords = 32

// splitLines indexes b split on '\n' as Python's bytes.split does: n
// newlines give n+1 values, an empty b gives one empty value. Values
// under splitWords bytes on average (a block's or a TEXT column's
// fields, usually) are found by testing 8 bytes at a time (exact: no
// carry crosses a byte) and walking the newlines found in each word;
// longer ones by one IndexByte call per value (BenchmarkSplitLines: the
// words 2x faster at 2-6 bytes a value, IndexByte 1.2-1.7x at 48-100).
func splitLines(b []byte) colVals {
	n := bytes.Count(b, []byte{'\n'})
	offs := make([]uint32, n+2)
	k := 1
	if len(b) >= splitWords*(n+1) {
		for i := 0; ; {
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			offs[k] = uint32(i)
			k++
		}
		offs[k] = uint32(len(b) + 1)
		return colVals{buf: b, offs: offs}
	}
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := le.Uint64(b, i) ^ 0x0a0a0a0a0a0a0a0a // zero bytes: newlines
		m := ^((x&0x7f7f7f7f7f7f7f7f + 0x7f7f7f7f7f7f7f7f) | x | 0x7f7f7f7f7f7f7f7f)
		for m != 0 {
			offs[k] = uint32(i + bits.TrailingZeros64(m)>>3 + 1)
			k++
			m &= m - 1
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '\n' {
			offs[k] = uint32(i + 1)
			k++
		}
	}
	offs[k] = uint32(len(b) + 1)
	return colVals{buf: b, offs: offs}
}

// readEntries reads n length-prefixed strings (DICT entries, DERIVED
// maps) as a table. When every length but the first takes one varint byte
// (entries under 128 bytes, the usual case), each entry is followed by
// exactly one byte before the next entry's bytes, so the table is the
// chunk itself and only the offsets are allocated; otherwise the entries
// are copied, each followed by a '\n'.
func readEntries(cur *cursor, n int, what string) (colVals, error) {
	offs := make([]uint32, n+1) // n <= bytes that remain: checked by count
	begin, start, inPlace, size := cur.off, 0, true, 0
	for i := 0; i < n; i++ {
		e, err := cur.lstr(what)
		if err != nil {
			return colVals{}, err
		}
		at := cur.off - len(e)
		if i == 0 {
			start = at
		} else if at != int(offs[i]) {
			inPlace = false
		}
		offs[i+1] = uint32(cur.off + 1)
		size += len(e) + 1
	}
	if n == 0 {
		return colVals{offs: offs}, nil
	}
	if inPlace {
		for i := range offs[1:] {
			offs[i+1] -= uint32(start)
		}
		// offs[n]-1 is the end of the last entry, inside the chunk.
		return colVals{buf: cur.b[start:cur.off:cur.off], offs: offs}, nil
	}
	// Read them again, copying: every check has passed.
	again := *cur
	again.off = begin
	v := colVals{buf: make([]byte, 0, size), offs: offs}
	for i := 0; i < n; i++ {
		e, _ := again.lstr(what)
		v.buf = append(v.buf, e...)
		v.buf = append(v.buf, '\n')
		v.offs[i+1] = uint32(len(v.buf))
	}
	return v, nil
}

// appendFixed appends n as a fixed-point decimal with d fractional digits:
// the digits of |n| left-padded with zeros to d+1, a '.' before the last d.
// d = 0 gives a trailing dot ("5."), as the reference does.
func appendFixed(dst []byte, n int64, d int) []byte {
	mag := uint64(n)
	if n < 0 {
		dst = append(dst, '-')
		mag = -mag
	}
	var tmp, padded [24]byte
	s := strconv.AppendUint(tmp[:0], mag, 10)
	if len(s) < d+1 { // d <= 18, so d+1 fits in padded
		z := d + 1 - len(s)
		for i := 0; i < z; i++ {
			padded[i] = '0'
		}
		copy(padded[z:], s)
		s = padded[:d+1]
	}
	split := len(s) - d
	dst = append(dst, s[:split]...)
	dst = append(dst, '.')
	return append(dst, s[split:]...)
}

// pow10 holds 10^i for i in 0..19, for decDigits.
var pow10 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// decDigits is the number of decimal digits of u (1 for 0).
func decDigits(u uint64) int {
	t := bits.Len64(u) * 1233 >> 12 // about log10(u)
	if u >= pow10[t] {
		t++
	}
	return max(t, 1)
}

// numLen is len(appendNum(nil, n, dec)).
func numLen(n int64, dec int) int {
	mag, neg := uint64(n), 0
	if n < 0 {
		mag, neg = -mag, 1
	}
	d := decDigits(mag)
	if dec < 0 {
		return d + neg
	}
	return max(d, dec+1) + 1 + neg
}

// putNum writes appendNum(nil, n, dec) into b, whose length is
// numLen(n, dec), from the right.
func putNum(b []byte, n int64, dec int) {
	mag := uint64(n)
	if n < 0 {
		mag = -mag
		b[0] = '-'
	}
	// Two digits per division, from the right.
	i := len(b) - 1
	if dec >= 0 {
		k := 0
		for ; k+2 <= dec; k += 2 {
			q := mag / 100
			r := (mag - q*100) * 2
			b[i], b[i-1] = digitPairs[r+1], digitPairs[r]
			i -= 2
			mag = q
		}
		if k < dec {
			b[i] = byte('0' + mag%10)
			mag /= 10
			i--
		}
		b[i] = '.'
		i--
	}
	for mag >= 100 {
		q := mag / 100
		r := (mag - q*100) * 2
		b[i], b[i-1] = digitPairs[r+1], digitPairs[r]
		i -= 2
		mag = q
	}
	if mag >= 10 {
		b[i], b[i-1] = digitPairs[mag*2+1], digitPairs[mag*2]
	} else {
		b[i] = byte('0' + mag)
	}
}

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" + "60616263646566676869" +
	"70717273747576777879" + "80818283848586878889" + "90919293949596979899"

// appendNum formats a NUMEXC/INT/DEC value: integer when dec < 0.
func appendNum(dst []byte, n int64, dec int) []byte {
	if dec < 0 {
		return strconv.AppendInt(dst, n, 10)
	}
	return appendFixed(dst, n, dec)
}

// reserve grows dst's capacity by an output estimate, never past limit.
func reserve(dst []byte, est, limit int64) []byte {
	n := min(est, limit-int64(len(dst)))
	if n <= 0 || n > 1<<40 {
		return dst
	}
	return slices.Grow(dst, int(n))
}
