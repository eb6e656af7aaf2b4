package at1

import (
	"bytes"
	"iter"
	"math"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
)

// Query selects columns and rows of a qcolumnar or qjson file.
type Query struct {
	// Columns to return, by index. Paths adds qjson columns by field name.
	// With neither, every column is returned, in order.
	Columns []int
	Paths   []string
	// Where holds range predicates; a row must satisfy all of them.
	Where []Range
}

// Range is an inclusive range predicate on a column, chosen by Column, or
// by Path (qjson) when Path is set; an empty bound is open.
//
// When its bounds are decimal text ("-3", "12.50") it compares numbers,
// exactly: on an integer or decimal column the zone maps skip row groups,
// and on a text column values that are not decimal numbers (null, names)
// never match. A bound that is not a decimal number makes it a text range
// (Min == Max: equality), compared byte by byte with the values of a text
// column; such bounds on an integer or decimal column are an
// ErrInvalidArgument, unless the column is text in another frame of a
// framed file (each frame has its own types: there the numeric frames'
// raw text is compared). Text columns have no zone maps, so their predicates
// skip no row group by themselves (a group none of whose rows match is
// still not read further). A quoted value ("AD" in a qjson or CSV field
// that keeps its quotes) is compared by what is inside its quotes,
// escapes as written; a qjson null matches no predicate.
type Range struct {
	Column   int
	Path     string
	Min, Max string
}

// Row is one structured row of a query result.
type Row struct {
	// Index is the row's number among the structured lines (0-based).
	Index int64
	// Values are the selected columns' raw field text, in query order.
	// They stay valid after the iteration moves on.
	Values [][]byte
}

// QueryStats counts the work a query did.
type QueryStats struct {
	Groups        int   // row groups in the file
	GroupsSkipped int   // skipped by zone maps or because no row matched
	BlocksRead    int   // blocks read from the file and decoded
	BlocksSkipped int   // blocks a full scan of the selected columns would have read
	BytesRead     int64 // block bytes read
	Rows          int64 // rows returned
}

// Rows is the result of File.Query: iterate with All, then read Stats.
type Rows struct {
	f     *File
	cols  []int
	preds []pred
	need  []int // distinct columns to read: predicate columns first
	npred int   // how many of need are predicate columns
	stats QueryStats
	subs  []*Rows // one per frame of a framed file
}

type pred struct {
	col      int
	lo, hi   decimal
	hasLo    bool
	hasHi    bool
	loF, hiF float64
	text     bool   // a text range: loT, hiT compared byte by byte
	loT, hiT []byte // the bounds of a text range
	json     bool   // a qjson column: null matches nothing
}

// Query plans a query. It fails for codecs other than qcolumnar/qjson,
// unknown columns or paths, text bounds on integer or decimal columns,
// and with ErrCorrupt when the meta's n_struct or nrg disagrees with
// row_modes or the index (a full decode ignores both; a query could not).
func (f *File) Query(q Query) (*Rows, error) {
	if f.parts != nil {
		return f.queryFrames(q)
	}
	return f.query(q, nil)
}

// query is Query on one table; mixed marks the columns that are text in
// another frame of the file (a text bound compares their raw text here).
func (f *File) query(q Query, mixed []bool) (*Rows, error) {
	if f.t == nil {
		return nil, errs.Wrap(ErrUnsupported, "query needs a qcolumnar or qjson file (framed: every frame structured), not %s; encode with WithCodec(CodecQColumnar) or WithCodec(CodecQJSON) and WithKeepCodec(true) (colfmt pack --codec qcolumnar|qjson --keep-codec) for a queryable file", f.kind())
	}
	t := f.t
	if err := f.checkCounts(); err != nil {
		return nil, err
	}
	rs := &Rows{f: f}
	for _, c := range q.Columns {
		if c < 0 || c >= t.ncols {
			return nil, invalidArg("query: column %d out of range (%d columns)", c, t.ncols)
		}
		rs.cols = append(rs.cols, c)
	}
	for _, p := range q.Paths {
		c, err := f.columnByPath(p)
		if err != nil {
			return nil, err
		}
		rs.cols = append(rs.cols, c)
	}
	if len(q.Columns) == 0 && len(q.Paths) == 0 {
		for c := 0; c < t.ncols; c++ {
			rs.cols = append(rs.cols, c)
		}
	}
	for _, w := range q.Where {
		c := w.Column
		if w.Path != "" {
			var err error
			if c, err = f.columnByPath(w.Path); err != nil {
				return nil, err
			}
		}
		if c < 0 || c >= t.ncols {
			return nil, invalidArg("query: predicate column %d out of range (%d columns)", c, t.ncols)
		}
		p, err := planRange(w, c, t.coltypes[c], c < len(mixed) && mixed[c])
		if err != nil {
			return nil, err
		}
		p.json = t.segs != nil
		rs.preds = append(rs.preds, p)
	}
	seen := map[int]bool{}
	for _, p := range rs.preds {
		if !seen[p.col] {
			seen[p.col] = true
			rs.need = append(rs.need, p.col)
		}
	}
	rs.npred = len(rs.need)
	for _, c := range rs.cols {
		if !seen[c] {
			seen[c] = true
			rs.need = append(rs.need, c)
		}
	}
	return rs, nil
}

// planRange is the predicate of w on column c of type typ: numeric when
// its bounds are decimal numbers, else a text range (text columns, and
// numeric ones that are text in another frame: mixed).
func planRange(w Range, c int, typ byte, mixed bool) (pred, error) {
	p := pred{col: c, loF: math.Inf(-1), hiF: math.Inf(1), hasLo: w.Min != "", hasHi: w.Max != ""}
	var loOK, hiOK bool
	p.lo, loOK = parseDecimal([]byte(w.Min))
	p.hi, hiOK = parseDecimal([]byte(w.Max))
	if (!p.hasLo || loOK) && (!p.hasHi || hiOK) {
		if p.hasLo {
			p.loF, _ = strconv.ParseFloat(w.Min, 64)
		}
		if p.hasHi {
			p.hiF, _ = strconv.ParseFloat(w.Max, 64)
		}
		return p, nil
	}
	if typ != QText && !mixed {
		bad := w.Min
		if loOK || !p.hasLo {
			bad = w.Max
		}
		return pred{}, invalidArg("query: bound %q on %s column %d is not a decimal number", bad, qTypeName(typ), c)
	}
	p.text, p.loT, p.hiT = true, []byte(w.Min), []byte(w.Max)
	return p, nil
}

// qTypeName names a qcolumnar/qjson column type.
func qTypeName(typ byte) string {
	switch typ {
	case QInt:
		return "integer"
	case QDecimal:
		return "decimal"
	}
	return "text"
}

func (f *File) kind() string {
	if f.Framed {
		return "a framed " + f.Codec.String() + " file"
	}
	return f.Codec.String()
}

func (f *File) columnByPath(p string) (int, error) {
	for i, name := range f.t.paths {
		if name == p && i < f.t.ncols {
			return i, nil
		}
	}
	if f.Codec != CodecQJSON {
		return 0, invalidArg("query: columns by path need a qjson file")
	}
	return 0, invalidArg("query: no column with path %q", p)
}

// Stats returns the counts so far (final once All has finished).
func (rs *Rows) Stats() QueryStats { return rs.stats }

// zoneSkips reports whether block b's zone map proves no row of the group
// can satisfy p. Decimal zones are f64: widened by one ulp, never trusted
// when NaN.
func (p *pred) zoneSkips(typ byte, b *Block) bool {
	if !b.HasZone || p.text || typ == QText {
		return false
	}
	if typ == QInt {
		mn, _ := parseDecimal(strconv.AppendInt(nil, b.IntMin, 10))
		mx, _ := parseDecimal(strconv.AppendInt(nil, b.IntMax, 10))
		return (p.hasLo && cmpDecimal(mx, p.lo) < 0) || (p.hasHi && cmpDecimal(mn, p.hi) > 0)
	}
	if math.IsNaN(b.DecMin) || math.IsNaN(b.DecMax) {
		return false
	}
	return (p.hasLo && math.Nextafter(b.DecMax, math.Inf(1)) < p.loF) ||
		(p.hasHi && math.Nextafter(b.DecMin, math.Inf(-1)) > p.hiF)
}

func (p *pred) match(v []byte) bool {
	if p.json && string(v) == "null" {
		return false
	}
	if isQuoted(v) { // compared by what is inside the quotes
		v = v[1 : len(v)-1]
	}
	if p.text {
		return (!p.hasLo || bytes.Compare(v, p.loT) >= 0) && (!p.hasHi || bytes.Compare(v, p.hiT) <= 0)
	}
	d, ok := parseDecimal(v)
	if !ok {
		return false
	}
	return (!p.hasLo || cmpDecimal(d, p.lo) >= 0) && (!p.hasHi || cmpDecimal(d, p.hi) <= 0)
}

// groupRows is the number of structured rows of group g, from n_struct.
func (t *qTable) groupRows(g int) int {
	start := uint64(g) * uint64(t.rg)
	if t.nStruct <= start {
		return 0
	}
	return int(min(uint64(t.rg), t.nStruct-start))
}

// readBlocks reads and decodes the blocks of group g for cols, in parallel.
func (rs *Rows) readBlocks(g int, cols []int, into map[int]*colVals) error {
	f := rs.f
	out := make([]colVals, len(cols))
	raws := make([][]byte, len(cols))
	for i, c := range cols {
		b := f.t.groups[g][c]
		if b.Size > f.dec.maxStream+1<<16 {
			return errs.TooLarge(ErrTooLarge, b.Offset, "block ("+strconv.Itoa(g)+","+strconv.Itoa(c)+")", "block", uint64(b.Size), f.dec.maxStream)
		}
		if f.blocksOff >= 0 {
			raws[i] = make([]byte, b.Size)
			if err := f.readAt(raws[i], f.blocksOff+b.Offset, "block ("+strconv.Itoa(g)+","+strconv.Itoa(c)+")"); err != nil {
				return err
			}
		} else {
			raws[i] = f.blocks[b.Offset : b.Offset+b.Size]
		}
		rs.stats.BlocksRead++
		rs.stats.BytesRead += b.Size
	}
	base := max(f.blocksOff, 0)
	err := parallel(f.dec.concurrency, len(cols), func(i int) error {
		b := f.t.groups[g][cols[i]]
		v, err := f.dec.decodeBlock(raws[i], base+b.Offset, g, cols[i], nil, false)
		out[i] = v
		return err
	})
	if err != nil {
		return err
	}
	n := f.t.groupRows(g)
	for i, c := range cols {
		if out[i].count() < n {
			return errs.At(ErrCorrupt, base+f.t.groups[g][c].Offset, "block ("+strconv.Itoa(g)+","+strconv.Itoa(c)+")", "block has %d values, the group has %d rows", out[i].count(), n)
		}
		into[c] = &out[i]
	}
	return nil
}

// All runs the query and yields the matching rows in file order. Row
// groups whose zone maps exclude a predicate are not read; in the others
// the predicate columns are read first and the remaining columns only if
// a row matches. Iteration stops at the first error, which it yields.
func (rs *Rows) All() iter.Seq2[Row, error] {
	if rs.subs != nil {
		return rs.allFrames()
	}
	return func(yield func(Row, error) bool) {
		t := rs.f.t
		rs.stats = QueryStats{Groups: len(t.groups)}
		if t.ncols == 0 {
			// No columns, no blocks: each structured line is a row of no
			// values (n_struct was checked against row_modes).
			for i := uint64(0); i < t.nStruct; i++ {
				rs.stats.Rows++
				if !yield(Row{Index: int64(i), Values: [][]byte{}}, nil) {
					return
				}
			}
			return
		}
		npred := rs.npred
		for g := range t.groups {
			nrows := t.groupRows(g)
			skip := nrows == 0
			for i := range rs.preds {
				p := &rs.preds[i]
				if p.zoneSkips(t.coltypes[p.col], &t.groups[g][p.col]) {
					skip = true
				}
			}
			if skip {
				rs.stats.GroupsSkipped++
				rs.stats.BlocksSkipped += len(rs.need)
				continue
			}
			vals := make(map[int]*colVals, len(rs.need))
			if err := rs.readBlocks(g, rs.need[:npred], vals); err != nil {
				yield(Row{}, err)
				return
			}
			match := make([]bool, nrows)
			any := false
			for r := range match {
				ok := true
				for i := range rs.preds {
					p := &rs.preds[i]
					if !p.match(vals[p.col].at(r)) {
						ok = false
						break
					}
				}
				match[r] = ok
				any = any || ok
			}
			if !any {
				rs.stats.GroupsSkipped++
				rs.stats.BlocksSkipped += len(rs.need) - npred
				continue
			}
			if err := rs.readBlocks(g, rs.need[npred:], vals); err != nil {
				yield(Row{}, err)
				return
			}
			for r, ok := range match {
				if !ok {
					continue
				}
				row := Row{Index: int64(g)*int64(t.rg) + int64(r), Values: make([][]byte, len(rs.cols))}
				for i, c := range rs.cols {
					row.Values[i] = vals[c].at(r)
				}
				rs.stats.Rows++
				if !yield(row, nil) {
					return
				}
			}
		}
	}
}
