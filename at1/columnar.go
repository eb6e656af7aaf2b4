package at1

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// Column types of the columnar codec (4).
const (
	colText    = 0
	colInt     = 1
	colDec     = 2
	colNumExc  = 3
	colDerived = 4
	colDict    = 5 // not in the spec text; read by the reference
	colShuf    = 6 // not in the spec text; read by the reference
)

// maxScale is the largest number of fractional digits (DEC, NUMEXC).
const maxScale = 18

var columnarStreams = []string{"meta", "row_modes", "fieldcounts", "coltypes", "col_index",
	"values", "quotemodes", "quotebits", "verbatim", "header"}

// columnarMeta is the meta stream of codec 4.
type columnarMeta struct {
	nrows     int
	trailing  bool
	hasHeader bool
	delim     []byte
	ncols     int
}

func parseColumnarMeta(meta []byte) (columnarMeta, error) {
	var m columnarMeta
	cur := &cursor{b: meta, path: "stream \"meta\""}
	n, err := cur.uv("nrows")
	if err != nil {
		return m, err
	}
	t, err := cur.u8("trailing_nl")
	if err != nil {
		return m, err
	}
	h, err := cur.u8("has_header")
	if err != nil {
		return m, err
	}
	if m.delim, err = cur.lstr("delim"); err != nil {
		return m, err
	}
	nc, err := cur.uv("ncols")
	if err != nil {
		return m, err
	}
	// Each row needs a row_modes byte and each column a coltypes byte, so
	// the checks against those streams come before any allocation; here
	// only keep the numbers in int range.
	if n > 1<<40 || nc > 1<<40 {
		return m, cur.errf("nrows %d / ncols %d implausibly large", n, nc)
	}
	m.nrows, m.trailing, m.hasHeader, m.ncols = int(n), t != 0, h != 0, int(nc)
	return m, nil
}

// decodeColumnar reconstructs a columnar (codec 4) stream set onto dst.
func (dc *decoder) decodeColumnar(dst []byte, ss *streamSet, limit int64, cw *chunkWriter) ([]byte, error) {
	values := dc.startValues(ss)
	if values == nil {
		if err := ss.load(columnarStreams...); err != nil {
			return nil, err
		}
		return dc.decodeColumnarFrom(dst, ss, limit, nil, cw)
	}
	// The values stream decodes in the background; the columns follow it.
	var others []string
	for _, n := range columnarStreams {
		if n != "values" {
			others = append(others, n)
		}
	}
	var out []byte
	err := ss.load(others...)
	if err == nil {
		out, err = dc.decodeColumnarFrom(dst, ss, limit, values, cw)
	}
	// The stream's own error (damage, the xz check) comes first: the
	// serial path would have found it before any column.
	if _, verr := values.wait(); verr != nil {
		return nil, verr
	}
	return out, err
}

func (dc *decoder) decodeColumnarFrom(dst []byte, ss *streamSet, limit int64, values *progressive, cw *chunkWriter) ([]byte, error) {
	m, err := parseColumnarMeta(ss.get("meta"))
	if err != nil {
		return nil, err
	}
	rowModes := ss.get("row_modes")
	if len(rowModes) < m.nrows {
		return nil, errs.At(ErrCorrupt, int64(len(rowModes)), "stream \"row_modes\"", "%d row modes for %d rows", len(rowModes), m.nrows)
	}
	coltypes := ss.get("coltypes")
	if len(coltypes) < m.ncols {
		return nil, errs.At(ErrCorrupt, int64(len(coltypes)), "stream \"coltypes\"", "%d column types for %d columns", len(coltypes), m.ncols)
	}
	quotemodes := ss.get("quotemodes")
	if len(quotemodes) < m.ncols {
		return nil, errs.At(ErrCorrupt, int64(len(quotemodes)), "stream \"quotemodes\"", "%d quote modes for %d columns", len(quotemodes), m.ncols)
	}
	// Column text is capped by the output limit and, for uint32 offsets,
	// by maxStreamLimit in total.
	upTo := func(int) []byte { return ss.get("values") }
	if values != nil {
		upTo = values.upTo
	}
	cols, err := dc.decodeColumns(m.ncols, coltypes, ss.get("col_index"), upTo, min(limit-int64(len(dst)), maxStreamLimit), cw != nil)
	if err != nil {
		return nil, err
	}
	quotes, err := quoteFlags(cols, quotemodes, ss.get("quotebits"))
	if err != nil {
		return nil, err
	}
	rows := &columnarRows{m: m, rowModes: rowModes, fieldcounts: ss.get("fieldcounts"), verbatim: ss.get("verbatim"),
		header: ss.get("header"), cols: cols, quotes: quotes}
	if cw != nil {
		return dst, dc.streamRows(cw, rows, limit)
	}
	return dc.assembleRows(dst, rows, limit)
}

// decodeColumns decodes every column of the values stream. upTo(n)
// returns the values stream, or (while it is still being decoded) a
// prefix of at least n bytes if it has that many. budget caps the text
// the columns may produce in total.
func (dc *decoder) decodeColumns(ncols int, coltypes, colIndex []byte, upTo func(n int) []byte, budget int64, lazy bool) ([]colVals, error) {
	idx := &cursor{b: colIndex, path: "stream \"col_index\""}
	vals := &cursor{path: "stream \"values\""}
	cols := make([]colVals, ncols)
	ranks := make(map[uint64]sourceRanks)
	for k := 0; k < ncols; k++ {
		clen, err := idx.uv("column " + strconv.Itoa(k) + " length")
		if err != nil {
			return nil, err
		}
		start := vals.off
		vals.b = upTo(int(min(uint64(start)+min(clen, math.MaxInt32), math.MaxInt32)))
		chunk, err := vals.take(clen, "column "+strconv.Itoa(k)+" chunk")
		if err != nil {
			return nil, err
		}
		cc := &cursor{b: chunk, base: int64(start), path: "stream \"values\" column " + strconv.Itoa(k)}
		cols[k], err = dc.decodeColumn(coltypes[k], cc, cols[:k], ranks, &budget, lazy)
		if err != nil {
			return nil, err
		}
	}
	return cols, nil
}

func (dc *decoder) decodeColumn(typ byte, cur *cursor, prev []colVals, ranks map[uint64]sourceRanks, budget *int64, lazy bool) (colVals, error) {
	switch typ {
	case colText:
		if lazy {
			return colVals{text: lazyLines(cur.b)}, nil
		}
		return splitLines(cur.b), nil
	case colInt:
		return numColumn(cur, -1, budget, lazy)
	case colDec:
		if len(cur.b) == 0 {
			return colVals{}, cur.errf("empty DEC chunk")
		}
		d, err := scale(cur)
		if err != nil {
			return colVals{}, err
		}
		return numColumn(cur, d, budget, lazy)
	case colNumExc:
		return dc.numExcColumn(cur, budget, lazy)
	case colDerived:
		return dc.derivedColumn(cur, prev, ranks)
	case colDict:
		return dictColumn(cur)
	case colShuf:
		return shufColumn(cur, budget, lazy)
	}
	return colVals{}, cur.errf("unknown column type %d", typ)
}

func scale(cur *cursor) (int, error) {
	d, err := cur.u8("decimal scale")
	if err != nil {
		return 0, err
	}
	if d > maxScale {
		cur.off--
		return 0, cur.errf("decimal scale out of range: %d > %d", d, maxScale)
	}
	return int(d), nil
}

// spend takes n bytes of text from the budget.
func spend(cur *cursor, budget *int64, n int) error {
	*budget -= int64(n)
	if *budget < 0 {
		return errs.At(ErrTooLarge, cur.base+int64(cur.off), cur.path, "column text exceeds the decoded size limit")
	}
	return nil
}

// numColumn decodes svarint deltas to the end of the chunk (INT when
// dec < 0, DEC with dec fractional digits otherwise).
func numColumn(cur *cursor, dec int, budget *int64, lazy bool) (colVals, error) {
	rest := cur.b[cur.off:]
	// Every value ends in the one byte below 0x80 of its varint: size the
	// offsets exactly. A first pass sums the text's exact length (and
	// stops where it would pass the budget), so the second formats each
	// value in place into a buffer that never grows.
	n := 0
	for _, b := range rest {
		if b < 0x80 {
			n++
		}
	}
	var acc, total int64
	for p := 0; p < len(rest); {
		z, k := varint.Consume(rest[p:])
		if k <= 0 {
			cur.off += p
			_, err := cur.sv("delta") // the located error
			return colVals{}, err
		}
		p += k
		acc += varint.DecodeZigzag(z) // wrapping, where C would be undefined
		total += int64(numLen(acc, dec)) + 1
		if total > *budget {
			cur.off += p
			return colVals{}, spend(cur, budget, int(total))
		}
	}
	if lazy {
		// The deltas are valid and the text fits the budget: format
		// each value when the rows ask for it.
		cur.off = len(cur.b)
		return colVals{num: &lazyNums{deltas: rest, dec: dec, n: n, textLen: total - int64(n)}}, spend(cur, budget, int(total))
	}
	v := colVals{buf: make([]byte, total), offs: make([]uint32, n+1)}
	acc = 0
	at := 0
	for i, p := 0, 0; p < len(rest); i++ {
		z, k := varint.Consume(rest[p:])
		p += k
		acc += varint.DecodeZigzag(z)
		end := at + numLen(acc, dec)
		putNum(v.buf[at:end], acc, dec)
		v.buf[end] = '\n'
		at = end + 1
		v.offs[i+1] = uint32(at)
	}
	cur.off = len(cur.b)
	return v, spend(cur, budget, len(v.buf))
}

func (dc *decoder) numExcColumn(cur *cursor, budget *int64, lazy bool) (colVals, error) {
	sub, err := cur.u8("NUMEXC subtype")
	if err != nil {
		return colVals{}, err
	}
	dec := -1
	if sub != 0 {
		if sub > 1 && dc.strict {
			cur.off--
			return colVals{}, cur.errf("NUMEXC subtype %d", sub)
		}
		if dec, err = scale(cur); err != nil {
			return colVals{}, err
		}
	}
	at := cur.off
	count, err := cur.uv("NUMEXC count")
	if err != nil {
		return colVals{}, err
	}
	if count > uint64(cur.rest())*8 {
		cur.off = at
		return colVals{}, cur.errf("NUMEXC count %d needs a bitmap longer than the %d bytes that remain", count, cur.rest())
	}
	bitmap, err := cur.take((count+7)/8, "NUMEXC bitmap")
	if err != nil {
		return colVals{}, err
	}
	nexc, err := cur.count("NUMEXC exception count", 1)
	if err != nil {
		return colVals{}, err
	}
	// The exceptions are checked here and then walked in order (no list).
	excStart := cur.off
	for range nexc {
		if _, err := cur.lstr("NUMEXC exception"); err != nil {
			return colVals{}, err
		}
	}
	exc := cur.b[excStart:cur.off]
	n := int(count)
	// A first pass checks the deltas and sums the text's exact length
	// (stopping where it would pass the budget), so the buffer is
	// allocated once and never grows (each growth a copy into fresh pages).
	deltas := cur.off
	var acc, total int64
	used, epos := 0, 0
	for i := 0; i < n; i++ {
		if bitmap[i>>3]>>(i&7)&1 == 1 {
			d, err := cur.sv("NUMEXC delta")
			if err != nil {
				return colVals{}, err
			}
			acc += d
			total += int64(numLen(acc, dec)) + 1
		} else {
			if used >= nexc {
				return colVals{}, cur.errf("NUMEXC exceptions run out at entry %d of %d", i, n)
			}
			total += int64(len(nextLstr(exc, &epos))) + 1
			used++
		}
		if total > *budget {
			return colVals{}, spend(cur, budget, int(total))
		}
	}
	if dc.strict && used != nexc {
		return colVals{}, cur.errf("NUMEXC has %d exceptions, the bitmap uses %d", nexc, used)
	}
	if lazy {
		// Checked and measured: format the numbers and walk the
		// exceptions when the rows ask for them.
		return colVals{num: &lazyNums{bitmap: bitmap, exc: exc, deltas: cur.b[deltas:cur.off], dec: dec, n: n, textLen: total - int64(n)}}, spend(cur, budget, int(total))
	}
	end := cur.off
	cur.off = deltas
	v := colVals{buf: make([]byte, 0, total), offs: make([]uint32, 1, n+1)}
	acc, epos = 0, 0
	for i := 0; i < n; i++ {
		if bitmap[i>>3]>>(i&7)&1 == 1 {
			d, _ := cur.sv("NUMEXC delta") // checked by the first pass
			acc += d                       // the accumulator chains across numeric entries only
			v.buf = appendNum(v.buf, acc, dec)
		} else {
			v.buf = append(v.buf, nextLstr(exc, &epos)...)
		}
		v.buf = append(v.buf, '\n')
		v.offs = append(v.offs, uint32(len(v.buf)))
	}
	cur.off = end
	return v, spend(cur, budget, len(v.buf))
}

func (dc *decoder) derivedColumn(cur *cursor, prev []colVals, ranks map[uint64]sourceRanks) (colVals, error) {
	a, err := cur.uv("DERIVED source column")
	if err != nil {
		return colVals{}, err
	}
	if a >= uint64(len(prev)) {
		return colVals{}, cur.errf("DERIVED source column %d is not before column %d", a, len(prev))
	}
	nmap, err := cur.count("DERIVED map size", 1)
	if err != nil {
		return colVals{}, err
	}
	v, err := readEntries(cur, nmap, "DERIVED map value")
	if err != nil {
		return colVals{}, err
	}
	src := &prev[a]
	n := src.count()
	if src.idx != nil && src.num == nil && src.text == nil && !dc.safe {
		// (config.safe, set by the fuzz targets, keeps the value-hashing
		// twin below for every source.) A DICT or DERIVED source (constant columns of token tables
		// derive from one, often the same one): rank its entries, not
		// its n values, so no value is hashed, once per source column,
		// and share its indexes: nothing is stored per value.
		r, ok := ranks[a]
		if !ok {
			r = rankEntries(src)
			ranks[a] = r
		}
		if r.distinct > nmap {
			return colVals{}, cur.errf("DERIVED map has %d values, source column %d has more distinct values", nmap, a)
		}
		v.idx, v.rank = src.idx, r.rank // shared, read-only
		return v, nil
	}
	v.idx = newIdxVec(n, nmap)
	seen := make(map[string]uint32)
	for i := 0; i < n; i++ {
		s := src.at(i)
		j, ok := seen[string(s)]
		if !ok {
			j = uint32(len(seen))
			if int(j) >= nmap {
				return colVals{}, cur.errf("DERIVED map has %d values, source column %d has more distinct values", nmap, a)
			}
			seen[string(s)] = j
		}
		v.idx.set(i, j)
	}
	return v, nil
}

// sourceRanks map a DERIVED source column's indexes to first-appearance
// ranks among its distinct values: value i of the source has rank
// rank[src.idx.at(i)]. distinct is the number of distinct values.
type sourceRanks struct {
	rank     []uint32
	distinct int
}

// rankEntries ranks the values of src, a column whose values are indexes
// into its entries (through src.rank, if set); entries with equal bytes
// share a rank. It reads src's indexes until every index has been seen,
// and writes nothing per value: the indexes in the order they first
// appear, computed once for every column that shares them (token
// tables derive several constant columns from one DICT).
func rankEntries(src *colVals) sourceRanks {
	nent := len(src.offs) - 1
	class := make([]uint32, nent) // entry -> first entry with its bytes
	first := make(map[string]uint32, nent)
	for e := 0; e < nent; e++ {
		b := src.entry(e)
		c, ok := first[string(b)]
		if !ok {
			c = uint32(e)
			first[string(b)] = c
		}
		class[e] = c
	}
	const unseen = ^uint32(0)
	rank := make([]uint32, nent) // class -> rank
	for i := range rank {
		rank[i] = unseen
	}
	base := nent // the range of src.idx
	if src.rank != nil {
		base = len(src.rank)
	}
	out := sourceRanks{rank: make([]uint32, base)}
	for i := range out.rank {
		out.rank[i] = unseen
	}
	for _, e := range src.idx.firstSeen(base) {
		s := e
		if src.rank != nil {
			s = src.rank[e]
		}
		c := class[s]
		r := rank[c]
		if r == unseen {
			r = uint32(out.distinct)
			rank[c] = r
			out.distinct++
		}
		out.rank[e] = r
	}
	return out
}

func dictColumn(cur *cursor) (colVals, error) {
	nvals, err := cur.count("DICT value count", 1)
	if err != nil {
		return colVals{}, err
	}
	ndict, err := cur.count("DICT size", 1)
	if err != nil {
		return colVals{}, err
	}
	v, err := readEntries(cur, ndict, "DICT entry")
	if err != nil {
		return colVals{}, err
	}
	if nvals > cur.rest() {
		return colVals{}, cur.errf("DICT value count %d needs more than the %d bytes that remain", nvals, cur.rest())
	}
	if ndict >= 1 && ndict <= 0x80 && dictInPlace(cur.b[cur.off:cur.off+nvals], ndict) {
		// Every index is one varint byte below the entry count: the
		// chunk's bytes are the indexes (1-byte idxVec), used in place.
		v.idx = &idxVec{n: nvals, w: 1}
		if ndict > 1 {
			v.idx.b = cur.b[cur.off : cur.off+nvals : cur.off+nvals]
		} else {
			v.idx.w = 0
		}
		cur.off += nvals
		return v, nil
	}
	v.idx = newIdxVec(nvals, ndict)
	x, b, off := v.idx, cur.b, cur.off
	for i := range nvals {
		// One- and two-byte varints inline; longer ones (and the
		// errors) through the cursor.
		var j uint64
		if off < len(b) && b[off] < 0x80 {
			j = uint64(b[off])
			off++
		} else if off+1 < len(b) && b[off+1] < 0x80 {
			j = uint64(b[off]&0x7f) | uint64(b[off+1])<<7
			off += 2
		} else {
			cur.off = off
			var err error
			if j, err = cur.uv("DICT index"); err != nil {
				return colVals{}, err
			}
			off = cur.off
		}
		if j >= uint64(ndict) {
			cur.off = off
			return colVals{}, cur.errf("DICT index %d out of range (%d entries)", j, ndict)
		}
		switch x.w {
		case 1:
			x.b[i] = byte(j)
		case 2:
			x.b[2*i], x.b[2*i+1] = byte(j), byte(j>>8)
		case 4:
			binary.LittleEndian.PutUint32(x.b[4*i:], uint32(j))
		}
	}
	cur.off = off
	return v, nil
}

// dictInPlace reports whether every byte of b is below ndict (1 to
// 0x80, so each byte is a whole varint).
func dictInPlace(b []byte, ndict int) bool {
	lim := byte(ndict - 1) // ndict >= 1: checked by the caller
	for _, x := range b {
		if x > lim {
			return false
		}
	}
	return true
}

func shufColumn(cur *cursor, budget *int64, lazy bool) (colVals, error) {
	cnt, err := cur.count("SHUF count", 1)
	if err != nil {
		return colVals{}, err
	}
	mn, err := cur.sv("SHUF min")
	if err != nil {
		return colVals{}, err
	}
	w, err := cur.u8("SHUF width")
	if err != nil {
		return colVals{}, err
	}
	if w < 1 || w > 8 {
		cur.off--
		return colVals{}, cur.errf("SHUF width %d outside 1..8", w)
	}
	planes, err := cur.take(uint64(cnt)*uint64(w), "SHUF byte planes")
	if err != nil {
		return colVals{}, err
	}
	// As numColumn: a first pass sums the text's exact length (stopping
	// where it would pass the budget), so the buffer never grows.
	val := func(i int) int64 { return shufVal(planes, cnt, int(w), mn, i) }
	var total int64
	for i := 0; i < cnt; i++ {
		total += int64(numLen(val(i), -1)) + 1
		if total > *budget {
			return colVals{}, spend(cur, budget, int(total))
		}
	}
	if lazy {
		// As numColumn's lazy case: format each value when the rows ask
		// for it; the planes stay where they are.
		return colVals{num: &lazyNums{planes: planes, w: int(w), min: mn, n: cnt, textLen: total - int64(cnt)}}, spend(cur, budget, int(total))
	}
	v := colVals{buf: make([]byte, total), offs: make([]uint32, cnt+1)}
	at := 0
	for i := 0; i < cnt; i++ {
		x := val(i)
		end := at + numLen(x, -1)
		putNum(v.buf[at:end], x, -1)
		v.buf[end] = '\n'
		at = end + 1
		v.offs[i+1] = uint32(at)
	}
	return v, spend(cur, budget, len(v.buf))
}

// quoting of one column: mode 0 none, 1 all, otherwise a bitmap.
type quoting struct {
	mode byte
	bits []byte
}

func (q *quoting) quoted(i int) bool {
	switch q.mode {
	case 0:
		return false
	case 1:
		return true
	}
	return q.bits[i>>3]>>(i&7)&1 == 1
}

func quoteFlags(cols []colVals, modes, bits []byte) ([]quoting, error) {
	qs := make([]quoting, len(cols))
	cur := &cursor{b: bits, path: "stream \"quotebits\""}
	for k := range cols {
		qs[k].mode = modes[k]
		if modes[k] > 1 {
			n := uint64(cols[k].count())
			b, err := cur.take((n+7)/8, "quote bitmap of column "+strconv.Itoa(k))
			if err != nil {
				return nil, err
			}
			qs[k].bits = b
		}
	}
	return qs, nil
}

// appendQuoted writes v as an RFC-4180 quoted field.
func appendQuoted(dst, v []byte) []byte {
	dst = append(dst, '"')
	for {
		i := bytes.IndexByte(v, '"')
		if i < 0 {
			break
		}
		dst = append(dst, v[:i+1]...)
		dst = append(dst, '"')
		v = v[i+1:]
	}
	dst = append(dst, v...)
	return append(dst, '"')
}

// assembleRows validates the row structure once (field counts, column
// value counts, verbatim lines) and computes the exact output size, then
// writes the rows without per-item checks. assembleRowsSafe is its
// checked twin, used when config.safe is set; the fuzz target compares
// the two.
func (dc *decoder) assembleRows(dst []byte, rows *columnarRows, limit int64) ([]byte, error) {
	if dc.safe && assembleRowsChecked != nil {
		return assembleRowsChecked(dc, dst, rows, limit)
	}
	size, err := dc.planRows(rows)
	if err != nil {
		return nil, err
	}
	m, header := rows.m, rows.header
	if size > limit-int64(len(dst)) {
		return nil, errs.At(ErrTooLarge, -1, "", "decoded output of %d bytes exceeds the limit of %d bytes", size, dc.maxDecoded)
	}
	dst = slices.Grow(dst, int(size))
	start := len(dst)
	if m.hasHeader {
		dst = append(dst, header...)
	}
	// Rows are written in parts, in parallel: part k starts at row
	// bounds[k] with the column positions and verbatim offset that the
	// rows before it leave; parts after the first go to their own buffers.
	parts := min(dc.concurrency, m.nrows/assemblePart)
	if parts <= 1 {
		at := rowCursor{next: make([]int, len(rows.cols))}
		dst = rows.write(dst, 0, m.nrows, &at)
	} else {
		// Each part but the last first measures its rows, then all
		// write them in place, at their offsets in dst: no buffer per
		// part and no copy after. The last part's size is what the plan
		// leaves (the exact size less the other parts, the header and
		// the final newline), so its rows are not measured: with two
		// parts that halves the measuring, at the same wall time (part
		// 0's measure was the longer pole anyway).
		ats := make([]rowCursor, parts)
		sizes := make([]int, parts)
		bound := func(k int) int { return m.nrows * k / parts }
		_ = parallel(parts, parts, func(k int) error {
			ats[k] = rows.cursorAt(bound(k))
			if k < parts-1 {
				sizes[k] = rows.sizeRange(bound(k), bound(k+1), ats[k])
			}
			return nil
		})
		last := int(size) - (len(dst) - start)
		if m.trailing {
			last--
		}
		for _, n := range sizes[:parts-1] {
			last -= n
		}
		if last < 0 {
			return nil, fmt.Errorf("at1: internal error: rows measure more than the %d bytes planned", size)
		}
		sizes[parts-1] = last
		offs := make([]int, parts+1)
		offs[0] = len(dst)
		for k, n := range sizes {
			offs[k+1] = offs[k] + n
		}
		if offs[parts] > cap(dst) {
			return nil, fmt.Errorf("at1: internal error: rows measure %d bytes, %d planned", offs[parts]-start, size)
		}
		dst = dst[:offs[parts]]
		bad := make([]bool, parts)
		_ = parallel(parts, parts, func(k int) error {
			part := dst[offs[k]:offs[k]:offs[k+1]]
			got := rows.write(part, bound(k), bound(k+1), &ats[k])
			// A part that outgrew its measure would have moved to a
			// new array: a bug, never an input problem.
			bad[k] = len(got) != sizes[k] || (len(got) > 0 && &got[0] != &dst[offs[k]])
			return nil
		})
		if slices.Contains(bad, true) {
			return nil, fmt.Errorf("at1: internal error: a row part does not match its measured size")
		}
	}
	if m.trailing {
		dst = append(dst, '\n')
	}
	if int64(len(dst)-start) != size {
		// planRows and this loop disagree: a bug, never an input problem.
		return nil, fmt.Errorf("at1: internal error: planned %d output bytes, wrote %d", size, len(dst)-start)
	}
	return dst, nil
}

// assembleRowsChecked is assembleRows' checked twin, which writes the rows
// checking each step as it goes. It lives in reference_test.go; the tests
// install it, and config.safe (set only by tests) selects it.
var assembleRowsChecked func(dc *decoder, dst []byte, rs *columnarRows, limit int64) ([]byte, error)

// assemblePart is the fewest rows worth a goroutine of their own.
const assemblePart = 32 << 10

// columnarRows is the row structure of a columnar stream set: what row
// assembly reads. nfs (each structured row's field count) is filled in
// by planRows.
type columnarRows struct {
	m                                       columnarMeta
	rowModes, fieldcounts, verbatim, header []byte
	cols                                    []colVals
	quotes                                  []quoting
	nfs                                     *idxVec
	ws                                      []colWriter // by column, set by planRows
}

// rowCursor is where row writing resumes: the structured rows before it,
// the offset of the next verbatim line and each column's next value.
type rowCursor struct {
	s, vpos int
	next    []int
	ws      []colWriter // a copy of rs.ws: the writers' sequential state
}

// cursorAt returns the cursor for row r0.
func (rs *columnarRows) cursorAt(r0 int) rowCursor {
	rowModes, verbatim, nfs, ncols := rs.rowModes, rs.verbatim, rs.nfs, len(rs.cols)
	var s0, vpos int
	for r := 0; r < r0; r++ {
		if rowModes[r] != 0 {
			s0++
		} else {
			nextVerbatim(verbatim, &vpos)
		}
	}
	hist := make([]int, ncols+1)
	for s := 0; s < s0; s++ {
		hist[nfs.at(s)]++
	}
	next := make([]int, ncols)
	above := 0
	for i := ncols - 1; i >= 0; i-- {
		above += hist[i+1]
		next[i] = above
	}
	return rowCursor{s: s0, vpos: vpos, next: next, ws: slices.Clone(rs.ws)}
}

// sizeRange is the number of bytes write(dst, r0, r1, at) appends; at is
// not changed. It walks the rows once for the separators, the verbatim
// lines and each row's field count, then sizes each column's run of
// values at once (column i gives one value to every row with more than
// i fields): from its offsets or its value table, value by value only
// for quoted, numeric and lazy columns.
func (rs *columnarRows) sizeRange(r0, r1 int, at rowCursor) int {
	m, rowModes, verbatim, nfs := rs.m, rs.rowModes, rs.verbatim, rs.nfs
	s, vpos := at.s, at.vpos
	hist := make([]int, len(rs.cols)+1) // rows by field count
	n := 0
	for r := r0; r < r1; r++ {
		if r > 0 || m.hasHeader {
			n++
		}
		if rowModes[r] == 0 {
			if line, ok := nextVerbatim(verbatim, &vpos); ok {
				n += len(line)
			}
			continue
		}
		nf := int(nfs.at(s))
		s++
		hist[nf]++
		if nf > 1 {
			n += (nf - 1) * len(m.delim)
		}
	}
	count := 0
	for i := len(rs.cols) - 1; i >= 0; i-- {
		count += hist[i+1]
		n += rs.colSize(i, at.next[i], at.next[i]+count)
	}
	return n
}

// colSize is the text of values a..b-1 of column i as the rows write it.
func (rs *columnarRows) colSize(i, a, b int) int {
	w, col, q := &rs.ws[i], &rs.cols[i], &rs.quotes[i]
	if q.mode == 0 {
		n := 0
		switch w.kind {
		case wConst:
			return (b - a) * len(w.one)
		case wTab1:
			for _, e := range w.idx[a:b] {
				n += len(w.tab[e])
			}
			return n
		case wTab2, wOffs2:
			for j := a; j < b; j++ {
				n += w.valLen(j)
			}
			return n
		case wEntries:
			return int(col.offs[b]-col.offs[a]) - (b - a)
		}
	}
	n := 0
	for j := a; j < b; j++ {
		v := col.at(j)
		n += len(v)
		if q.quoted(j) {
			n += 2 + bytes.Count(v, []byte{'"'})
		}
	}
	return n
}

// write writes rows r0..r1-1 (validated by planRows) from cursor at,
// the state cursorAt gives for r0, and leaves at at row r1.
func (rs *columnarRows) write(dst []byte, r0, r1 int, at *rowCursor) []byte {
	m, rowModes, verbatim, nfs := rs.m, rs.rowModes, rs.verbatim, rs.nfs
	if at.ws == nil {
		at.ws = slices.Clone(rs.ws)
	}
	s, next, vpos, ws := at.s, at.next, at.vpos, at.ws
	delim := m.delim
	for r := r0; r < r1; r++ {
		if r > 0 || m.hasHeader {
			dst = append(dst, '\n')
		}
		if rowModes[r] == 0 {
			if line, ok := nextVerbatim(verbatim, &vpos); ok {
				dst = append(dst, line...)
			}
			continue
		}
		nf := int(nfs.at(s))
		s++
		for i := 0; i < nf; i++ {
			if i > 0 {
				switch len(delim) {
				case 0:
				case 1:
					dst = append(dst, delim[0])
				default:
					dst = append(dst, delim...)
				}
			}
			j := next[i]
			next[i]++
			dst = ws[i].put(dst, j)
		}
	}
	at.s, at.vpos = s, vpos
	return dst
}

// planRows checks everything assembleRows relies on, records the field
// count of each structured row and returns the exact output size.
func (dc *decoder) planRows(rs *columnarRows) (int64, error) {
	m, rowModes, fieldcounts, verbatim, header := rs.m, rs.rowModes, rs.fieldcounts, rs.verbatim, rs.header
	cols, quotes := rs.cols, rs.quotes
	var size int64
	if m.hasHeader {
		size += int64(len(header))
	}
	if m.nrows > 0 {
		size += int64(m.nrows)
		if !m.hasHeader {
			size--
		}
	}
	if m.trailing {
		size++
	}
	var nfs *idxVec                  // 1 byte a row for up to 255 columns
	hist := make([]int, len(cols)+1) // rows by field count
	nstruct := m.nrows - bytes.Count(rowModes[:m.nrows], []byte{0})
	if fast := nstruct > 0 && len(fieldcounts) >= nstruct && len(cols) < 0x80; fast {
		// Every field count takes one varint byte (below 0x80): the
		// stream itself is the counts, one byte a structured row.
		fcb := fieldcounts[:nstruct]
		for _, b := range fcb {
			if int(b) > len(cols) {
				fast = false // a longer varint, or an error the loop below reports
				break
			}
			hist[b]++
		}
		if fast {
			nfs = &idxVec{b: fcb, n: nstruct, w: 1}
			for nf := 2; nf < len(hist); nf++ {
				size += int64(hist[nf]) * int64(nf-1) * int64(len(m.delim))
			}
			if nstruct < m.nrows {
				vpos := 0
				for r := 0; r < m.nrows; r++ {
					if rowModes[r] != 0 {
						continue
					}
					line, ok := nextVerbatim(verbatim, &vpos)
					if !ok && dc.strict {
						return 0, errs.At(ErrCorrupt, int64(len(verbatim)), "stream \"verbatim\"", "verbatim lines run out at row %d", r)
					}
					size += int64(len(line))
				}
			}
		} else {
			clear(hist)
		}
	}
	if nfs == nil {
		var err error
		if nfs, err = dc.fieldCounts(rs, hist, &size); err != nil {
			return 0, err
		}
	}
	// Column i is used by every row with more than i fields.
	tabs := make(map[*colVals]colTable)
	counts := make(map[*idxVec][]int)
	need := 0
	for i := len(cols) - 1; i >= 0; i-- {
		need += hist[i+1]
		col := &cols[i]
		if need > col.count() {
			return 0, errs.At(ErrCorrupt, -1, "column "+strconv.Itoa(i), "column runs out of values: %d rows need it, it has %d", need, col.count())
		}
		if col.num != nil && need == col.num.n && quotes[i].mode == 0 {
			size += col.num.textLen // numbers carry no quotes
			continue
		}
		if col.text != nil && need == col.text.n && quotes[i].mode == 0 {
			size += int64(len(col.text.b) - (col.text.n - 1)) // the lines without their newlines
			continue
		}
		if col.idx != nil && col.num == nil && col.text == nil {
			// DICT and DERIVED: values by index from a table, sized
			// from a count of each index, not value by value.
			t := valueTable(col)
			tabs[col] = t
			if t.tab != nil && quotes[i].mode == 0 {
				size += tableSize(col, t, need, counts)
				continue
			}
			if t.tab == nil && col.rank == nil && col.idx.w == 2 && quotes[i].mode == 0 {
				x, offs := col.idx.b, col.offs
				for j := 0; j < need; j++ {
					e := uint16(x[2*j]) | uint16(x[2*j+1])<<8
					size += int64(offs[e+1]-offs[e]) - 1
				}
				continue
			}
		}
		for j := 0; j < need; j++ {
			v := col.at(j)
			size += int64(len(v))
			if quotes[i].quoted(j) {
				size += 2 + int64(bytes.Count(v, []byte{'"'}))
			}
		}
	}
	rs.nfs = nfs
	rs.ws = make([]colWriter, len(cols))
	for i := range cols {
		rs.ws[i] = newColWriter(&cols[i], &quotes[i], tabs)
	}
	return size, nil
}

// fieldCounts reads the field count of every structured row (varints),
// counts rows by field count into hist and adds the separators and the
// verbatim lines to *size.
func (dc *decoder) fieldCounts(rs *columnarRows, hist []int, size *int64) (*idxVec, error) {
	m, rowModes, fieldcounts, verbatim, cols := rs.m, rs.rowModes, rs.fieldcounts, rs.verbatim, rs.cols
	fc := &cursor{b: fieldcounts, path: "stream \"fieldcounts\""}
	var nfs *idxVec // 1 byte a row for up to 255 columns
	vpos := 0
	for r := 0; r < m.nrows; r++ {
		if rowModes[r] == 0 {
			line, ok := nextVerbatim(verbatim, &vpos)
			if !ok && dc.strict {
				return nil, errs.At(ErrCorrupt, int64(len(verbatim)), "stream \"verbatim\"", "verbatim lines run out at row %d", r)
			}
			*size += int64(len(line))
			continue
		}
		nf, err := fc.uv("field count")
		if err != nil {
			return nil, err
		}
		if nf > uint64(len(cols)) {
			return nil, errs.At(ErrCorrupt, int64(fc.off), fc.path, "row %d has %d fields, more than the %d columns", r, nf, len(cols))
		}
		if nfs == nil {
			nfs = newIdxVec(min(m.nrows, len(fieldcounts)), len(cols)+1)
			nfs.n = 0
		}
		nfs.set(nfs.n, uint32(nf))
		nfs.n++
		hist[nf]++
		if nf > 1 {
			*size += int64(nf-1) * int64(len(m.delim))
		}
	}
	return nfs, nil
}
