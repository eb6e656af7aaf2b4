package at1

import (
	"bytes"
	"math"
	"slices"
)

// Token tables: columnar with an empty delimiter. The decoder joins a
// row's fields with the delimiter, and the spec defines that join for any
// delimiter bytes, none included (delim_len 0: the fields are simply
// concatenated). The encoder is then free to cut a line wherever it
// likes, as long as every row's pieces land in the same columns:
//
//   - a CSV row f0,f1,f2 becomes f0 | "," | f1 | "," | f2, and a field
//     whose every value has the same shape of digit runs ("1438.359985",
//     "2000-01-03") may be cut further into its runs ("1438" | "." |
//     "359985"), so the integer part of a price goes to INT and its
//     fraction to DICT;
//   - a JSON Lines row of one shape becomes its literal segments
//     ({"job": , "sex": ...), each a one-value DICT column, and its
//     values, which then get INT, DEC, NUMEXC or DICT instead of
//     qjson's raw text.
//
// The constant columns cost a run of zero DICT indices each, which xz
// codes in a few bytes. Which pieces a column is cut into is chosen per
// column by the estimated size of the candidates, like column types.

// cutColumns is cutColumn of each column, on up to concurrency
// goroutines.
func cutColumns(cols []column, concurrency int) [][]column {
	cuts := make([][]column, len(cols))
	parallel(concurrency, len(cols), func(k int) error {
		cuts[k] = cutColumn(cols[k])
		return nil
	})
	return cuts
}

// cellColumns is the columns of src whose cells are cells[k].
func cellColumns(src []byte, cells [][]cell) []column {
	cols := make([]column, len(cells))
	for k, c := range cells {
		cols[k] = column{src: src, cells: c, small: estSmall(len(src))}
	}
	return cols
}

// tokenTable is t (delimited text) with every field a column of its own
// and the delimiters as constant columns between them; fields are cut
// into digit runs where that is estimated smaller. nil when that would be
// t itself (one column, not cut).
func tokenTable(t *table, concurrency int) *table {
	ncols := len(t.cols)
	if ncols == 0 {
		return nil
	}
	sep := []byte{t.delim}
	cuts := cutColumns(t.cols, concurrency)
	alignPrefixes(t.cols, cuts)
	if ncols == 1 && len(cuts[0]) == 1 {
		return nil // the same table as t: nothing to cut, no delimiter
	}
	nt := &table{src: t.src, trailing: t.trailing, hasHeader: t.hasHeader, header: t.header,
		rowModes: t.rowModes, verbatim: t.verbatim, noDelim: true}
	end := make([]int, ncols) // columns a row with k+1 fields fills
	// The separator columns are equal up to their lengths: they are
	// slices of one (nothing writes into a table's columns; chunkMemo's
	// key, the first field and the length, then names equal contents).
	// One copy per column took 32 bytes per row each: 44 of the 336 MB
	// live while packing a 16 MB six-column CSV.
	longest := 0
	for _, col := range t.cols[1:] {
		longest = max(longest, col.len())
	}
	seps := constColumnOf(sep, longest, estSmall(len(t.src)))
	for k := range cuts {
		if k > 0 {
			nt.cols = append(nt.cols, seps.slice(0, t.cols[k].len()))
		}
		nt.cols = append(nt.cols, cuts[k]...)
		end[k] = len(nt.cols)
	}
	nt.counts = make([]int, len(t.counts))
	for i, n := range t.counts {
		if n > 0 {
			nt.counts[i] = end[n-1]
		}
	}
	mergeAdjacent(nt)
	return nt
}

// jsonTokenTable lays out JSON Lines as a token table: the lines of the
// most common shape are rows of its literal segments and values (string
// values unquoted when their text holds no quote); other lines are
// verbatim. nil when no line has a shape.
func jsonTokenTable(src []byte, concurrency int) *table {
	ls, trailing := lines(src)
	best := commonShape(ls)
	if best == nil || len(best.segs) > maxEncodeColumns/2 {
		return nil
	}
	nv := len(best.segs) - 1
	t := &table{src: src, trailing: trailing, noDelim: true, rowModes: make([]byte, len(ls))}
	// The values are cells into src: a line's offset in src, plus the
	// value's in the line (a value v is a subslice l[p:] of its line,
	// so p is cap(l)-cap(v)).
	vcols := make([][]cell, nv)
	n, next, lineOff := 0, 0, 0
	t.verbatim = best.scan(ls, t.rowModes, func(i int, vals [][]byte) {
		for ; next < i; next++ {
			lineOff += len(ls[next]) + 1
		}
		l := ls[i]
		n++
		for k, v := range vals {
			x := mkCell(lineOff+cap(l)-cap(v), len(v), false)
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && bytes.IndexByte(v[1:len(v)-1], '"') < 0 {
				x = mkCell(int(x.off)+1, len(v)-2, true)
			}
			vcols[k] = append(vcols[k], x)
		}
	})
	if n == 0 {
		return nil
	}
	cuts := cutColumns(cellColumns(src, vcols), concurrency)
	for k := 0; k < nv; k++ {
		t.cols = append(t.cols, constColumnOf(best.segs[k], n, estSmall(len(src))))
		t.cols = append(t.cols, cuts[k]...)
	}
	t.cols = append(t.cols, constColumnOf(best.segs[nv], n, estSmall(len(src))))
	t.counts = make([]int, n)
	for i := range t.counts {
		t.counts[i] = len(t.cols)
	}
	mergeAdjacent(t)
	return t
}

// lineShape is one JSON line shape: its literal segments and keys.
type lineShape struct {
	segs [][]byte
	keys [][]byte
	n    int
}

// scan matches every line against the shape: a line of the shape gets
// row mode 1 and its values go to row (the slice is reused for the next
// line); the others are returned, in order, as verbatim lines.
func (s *lineShape) scan(ls [][]byte, rowModes []byte, row func(i int, vals [][]byte)) (verbatim [][]byte) {
	var segs, vals, keys [][]byte
	for i, l := range ls {
		var ok bool
		segs, vals, keys, ok = jsonShape(l, segs[:0], vals[:0], keys[:0])
		if !ok || !sameSegs(segs, s.segs) {
			verbatim = append(verbatim, l)
			continue
		}
		rowModes[i] = 1
		row(i, vals)
	}
	return verbatim
}

// commonShape is the most common shape among the first 4096 lines.
func commonShape(ls [][]byte) *lineShape {
	shapes := map[string]*lineShape{}
	var best *lineShape
	var segs, vals, keys [][]byte
	for i, l := range ls {
		if i >= 4096 {
			break
		}
		var ok bool
		segs, vals, keys, ok = jsonShape(l, segs[:0], vals[:0], keys[:0])
		if !ok {
			continue
		}
		k := string(bytes.Join(segs, []byte{0}))
		s := shapes[k]
		if s == nil {
			s = &lineShape{segs: cloneAll(segs), keys: cloneAll(keys)}
			shapes[k] = s
		}
		s.n++
		if best == nil || s.n > best.n {
			best = s
		}
	}
	return best
}

// maxRuns is the most pieces cutColumn cuts a value into: enough for a
// timestamp with fractional seconds and a zone offset
// ("2024-03-01T08:00:02.612+01:00" is 17 runs). At 9, timestamps with
// seconds (11 runs) stayed whole text: github.csv was 0.92x xz -9e
// instead of 0.73x.
const maxRuns = 24

// cutExceptions: cutColumn takes at most one value in cutExceptions of
// another pattern than the column's.
const cutExceptions = 8

// cutColumn returns the column as it is, or cut into pieces where they
// are estimated smaller: its runs (cutRuns) or its affixes (affixCut),
// of the values' text (a quoted value's with its quotes).
func cutColumn(vals column) []column {
	if vals.len() < 16 {
		return []column{vals}
	}
	text := vals
	if slices.ContainsFunc(vals.cells, func(x cell) bool { return x.n&1 != 0 }) {
		// Quoted values ("2000-01-03" in a CSV that quotes every
		// field, a JSON string): cut the fields' text, quotes
		// included, which the pieces carry.
		var ok bool
		if text, ok = fieldText(vals); !ok {
			return []column{vals}
		}
	}
	cut := cutRuns(vals, text)
	ac, as := affixCut(text)
	if ac == nil {
		return cut
	}
	cs := 0
	for _, p := range cut {
		_, s := bestCandidate(p)
		cs += s
	}
	if as < cs && float64(xzEstimateCols(ac...)) <= affixMargin*float64(xzEstimateCols(cut...)) {
		return ac
	}
	return cut
}

// cutRuns returns the column orig, whose values' text is vals, as it is,
// or cut into its runs when the values have the same run pattern, but
// for at most one value in cutExceptions, and the pieces are estimated
// smaller (or cut by tailCut). A run is a maximal run of digits (with a
// leading '-' when the value starts with one) or of other bytes.
func cutRuns(orig, vals column) []column {
	whole := []column{orig}
	var pat []bool // per run: digits?
	var runs [maxRuns][2]int
	// Values of another pattern (empty, "N/A", a date without its
	// time) are exceptions, at most one in cutExceptions: the first
	// piece takes them whole, the others are empty there.
	exc := make([]bool, vals.len())
	nexc, maxExc := 0, vals.len()/cutExceptions
	for i := range vals.cells {
		f := vals.field(i)
		if f.quoted {
			return whole
		}
		nr, ok := valueRuns(f.val, &runs)
		// The first value of digits or of several runs sets the
		// pattern (one run of other bytes is nothing to cut).
		if ok && pat == nil && (nr >= 2 || isDigitRun(f.val, runs[0])) {
			pat = make([]bool, nr)
			for r := 0; r < nr; r++ {
				pat[r] = isDigitRun(f.val, runs[r])
			}
			continue
		}
		if ok && pat != nil && nr == len(pat) {
			for r := 0; r < nr && ok; r++ {
				ok = isDigitRun(f.val, runs[r]) == pat[r]
			}
		} else {
			ok = false
		}
		if !ok {
			if nexc++; nexc > maxExc {
				return whole
			}
			exc[i] = true
		}
	}
	if pat == nil || len(pat) == 1 && (pairPieces(vals) == 0 || nexc > 0) {
		// One digit run, not one pairCut takes; or numbers with
		// exceptions (nulls), which as one NUMEXC column keep their
		// matches with a column they often equal (movies.jsonl's US
		// and worldwide gross), where pieces lose them.
		return whole
	}
	runParts := make([]column, len(pat))
	for r := range runParts {
		runParts[r] = column{vals.src, vals.arena, make([]cell, vals.len()), vals.small}
	}
	for i := range vals.cells {
		if exc[i] {
			n := len(vals.val(i))
			runParts[0].cells[i] = vals.piece(i, 0, n)
			for r := 1; r < len(runParts); r++ {
				runParts[r].cells[i] = vals.piece(i, n, n)
			}
			continue
		}
		valueRuns(vals.val(i), &runs)
		for r := range runParts {
			runParts[r].cells[i] = vals.piece(i, runs[r][0], runs[r][1])
		}
	}
	var parts []column
	cut := 0
	for r, p := range runParts {
		_, s := bestCandidate(p)
		if pat[r] {
			if pp := pairCut(p); pp != nil {
				ps := 0
				for _, q := range pp {
					_, qs := bestCandidate(q)
					ps += qs
				}
				// xz decides, unless zstd finds the pieces clearly
				// larger (the xz trial costs more than the rest).
				if float64(ps) <= 1.1*float64(s) && xzEstimateCols(pp...) < xzEstimateCols(p) {
					cut += ps
					parts = append(parts, pp...)
					continue
				}
			}
		}
		parts = append(parts, p)
		cut += s
	}
	if len(parts) == 1 {
		return parts
	}
	_, ws := bestCandidate(orig)
	if nexc == 0 && len(pat) == 3 && pat[0] && !pat[1] && pat[2] {
		if tc, ts := tailCut(vals); tc != nil && ts < min(ws, cut) {
			alt := parts
			if ws <= cut {
				alt = whole
			}
			if xzEstimateCols(tc...) < xzEstimateCols(alt...) {
				return tc
			}
		}
	}
	if ws <= cut {
		return whole
	}
	if nexc > 0 && xzEstimateCols(parts...) >= xzEstimateCols(orig) {
		// zstd's estimate misjudges exceptions (movies.jsonl's
		// nulls): xz decides.
		return whole
	}
	return parts
}

// tailCutMax is the most trailing digits tailCut cuts off.
const tailCutMax = 3

// tailCut cuts a column of fixed-point numbers that print more decimals
// than they carry ("34.397300", "59.15730": half or more end in '0')
// before its last j digits: a DEC of j fewer decimals and the j digits as
// a column of their own. A DEC chain codes the trailing digits inside
// every delta, where xz cannot tell them apart from the rest (the zeros
// alone cost about log2(10) bits a value); as their own column they are
// a few DICT entries. j is the best of 1..tailCutMax by estimate, which
// is returned with the pieces; nil unless every value has the same
// number of decimals, at least two.
func tailCut(vals column) ([]column, int) {
	n := vals.len()
	frac, zeros := -1, 0
	for i := range vals.cells {
		v := vals.val(i)
		dot := bytes.IndexByte(v, '.')
		if dot < 0 || frac >= 0 && len(v)-dot-1 != frac {
			return nil, 0
		}
		frac = len(v) - dot - 1
		if v[len(v)-1] == '0' {
			zeros++
		}
	}
	if frac < 2 || zeros*2 < n {
		return nil, 0
	}
	var best []column
	bestSize := math.MaxInt
	for j := 1; j <= min(frac-1, tailCutMax); j++ {
		a := column{vals.src, vals.arena, make([]cell, n), vals.small}
		b := column{vals.src, vals.arena, make([]cell, n), vals.small}
		for i := range vals.cells {
			l := len(vals.val(i))
			a.cells[i] = vals.piece(i, 0, l-j)
			b.cells[i] = vals.piece(i, l-j, l)
		}
		_, sa := bestCandidate(a)
		_, sb := bestCandidate(b)
		if sa+sb < bestSize {
			best, bestSize = []column{a, b}, sa+sb
		}
	}
	return best, bestSize
}

// affixMargin is how much smaller xz must find affixCut's pieces than
// the column as cutRuns leaves it: a column's constant affixes cost
// little alone, but less than that in the values stream, where they were
// matches (world-countries.jsonl's objects' braces, estimated 1-2.3%
// smaller alone, made the file 0.1% larger).
const affixMargin = 0.97

// affixCut cuts off the bytes every value starts and ends with, when
// they hold no digit, as constant columns of their own, and keeps the
// rest whole: the number in the last field of a CRLF line ("-0.17\r",
// which rows keep with its '\r') or a unit's sign ("12.5%"). Cut into
// runs instead, the sign, integer part and decimals of such a number go
// to three columns ("-0" | "." | "17" | "\r"), none of them a number,
// where the rest whole is a DEC. It returns the pieces and their
// estimated size; nil when the values share no such affix.
func affixCut(vals column) ([]column, int) {
	n := vals.len()
	pre, suf := vals.val(0), vals.val(0)
	short, long := len(pre), len(pre)
	for i := 1; i < n; i++ {
		v := vals.val(i)
		short, long = min(short, len(v)), max(long, len(v))
		k := 0
		for k < len(pre) && k < len(v) && pre[k] == v[k] {
			k++
		}
		pre = pre[:k]
		k = 0
		for k < len(suf) && k < len(v) && suf[len(suf)-1-k] == v[len(v)-1-k] {
			k++
		}
		suf = suf[len(suf)-k:]
	}
	pre = pre[:noDigitPrefix(pre)]
	suf = suf[len(suf)-noDigitSuffix(suf):]
	if len(pre)+len(suf) > short {
		// The affixes overlap in the shortest value: keep the suffix.
		pre = pre[:max(0, short-len(suf))]
	}
	if len(pre)+len(suf) == 0 || len(pre)+len(suf) == long || string(pre) == `"` && string(suf) == `"` {
		// Only a quoted field's quotes: the column whole is that.
		return nil, 0
	}
	var parts []column
	piece := func(lo, hi func(l int) int) {
		c := column{vals.src, vals.arena, make([]cell, n), vals.small}
		for i := range vals.cells {
			l := len(vals.val(i))
			c.cells[i] = vals.piece(i, lo(l), hi(l))
		}
		parts = append(parts, c)
	}
	np, ns := len(pre), len(suf)
	if np > 0 {
		piece(func(int) int { return 0 }, func(int) int { return np })
	}
	piece(func(int) int { return np }, func(l int) int { return l - ns })
	if ns > 0 {
		piece(func(l int) int { return l - ns }, func(l int) int { return l })
	}
	size := 0
	for _, p := range parts {
		_, s := bestCandidate(p)
		size += s
	}
	return parts, size
}

// noDigitPrefix is the length of v's longest prefix without a digit.
func noDigitPrefix(v []byte) int {
	i := 0
	for i < len(v) && (v[i] < '0' || v[i] > '9') {
		i++
	}
	return i
}

// noDigitSuffix is the length of v's longest suffix without a digit.
func noDigitSuffix(v []byte) int {
	i := 0
	for i < len(v) && (v[len(v)-1-i] < '0' || v[len(v)-1-i] > '9') {
		i++
	}
	return i
}

// fieldText is the column of vals' fields as their text, quotes
// included, unquoted; ok is false when a quoted value's text is not the
// value in quotes in src (it had doubled quotes).
func fieldText(vals column) (column, bool) {
	out := column{vals.src, vals.arena, make([]cell, vals.len()), vals.small}
	for i, x := range vals.cells {
		if x.n&1 == 0 {
			out.cells[i] = x
			continue
		}
		o, n := int(x.off), int(x.n>>1)
		if o < 1 || o+n >= len(vals.src) || vals.src[o-1] != '"' || vals.src[o+n] != '"' {
			return column{}, false
		}
		out.cells[i] = mkCell(o-1, n+2, false)
	}
	return out, true
}

// pairCut cuts a column of digit runs (each with an optional leading
// '-') into pieces of two digits from the left, the '-' staying with the
// first; a shorter value gives empty trailing pieces. Random-looking
// digits ("95376472", the eight decimals of a coordinate) then become
// DICT columns of at most 100 two-digit values: one index byte each,
// which xz codes near their entropy (log2(100) bits), where as text it
// spends about 15% more (matches and literals of digit strings, and the
// separators). nil when the longest run has fewer than pairCutMin or more
// than pairCutMax digits.
func pairCut(vals column) []column {
	np := pairPieces(vals)
	if np == 0 {
		return nil
	}
	pieces := make([]column, np)
	for j := range pieces {
		pieces[j] = column{vals.src, vals.arena, make([]cell, vals.len()), vals.small}
	}
	for i := range vals.cells {
		v := vals.val(i)
		sign := 0
		if len(v) > 0 && v[0] == '-' {
			sign = 1
		}
		for j := range pieces {
			lo, hi := min(sign+2*j, len(v)), min(sign+2*j+2, len(v))
			if j == 0 {
				lo = 0
			}
			pieces[j].cells[i] = vals.piece(i, lo, hi)
		}
	}
	return pieces
}

// pairPieces is the number of pieces pairCut cuts vals into, 0 for none.
func pairPieces(vals column) int {
	longest := 0
	for i := range vals.cells {
		v := vals.val(i)
		n := len(v)
		if n > 0 && v[0] == '-' {
			n--
		}
		longest = max(longest, n)
	}
	if longest < pairCutMin || longest > pairCutMax {
		return 0
	}
	return (longest + 1) / 2
}

// pairCutMin and pairCutMax bound the digit runs pairCut tries: shorter
// runs are one cheap column already, longer ones would make many columns.
const (
	pairCutMin = 4
	pairCutMax = 20
)

func isDigitRun(v []byte, r [2]int) bool {
	c := v[r[1]-1]
	return c >= '0' && c <= '9'
}

// valueRuns cuts v into runs of digits and of other bytes (a leading '-'
// joins the digit run after it); ok is false past maxRuns runs or for an
// empty value.
func valueRuns(v []byte, runs *[maxRuns][2]int) (int, bool) {
	if len(v) == 0 {
		return 0, false
	}
	n, start := 0, 0
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	i := 0
	if v[0] == '-' && len(v) > 1 && digit(v[1]) {
		i = 1
	}
	cur := digit(v[i])
	for i++; i <= len(v); i++ {
		if i < len(v) && digit(v[i]) == cur {
			continue
		}
		if n == maxRuns {
			return 0, false
		}
		runs[n] = [2]int{start, i}
		n++
		start = i
		if i < len(v) {
			cur = digit(v[i])
		}
	}
	return n, true
}

// bestCandidate is the column encoding pickChunk keeps and its estimated
// size.
func bestCandidate(vals column) (candidate, int) {
	c := pickChunk(colCandidates(vals), vals.small)
	size := len(c.chunk)
	if size >= 48 {
		size = estSize(c.chunk, estLevelOf(vals.small)) // pickChunk's size, cached
	}
	return c, size
}

// alignPrefixes cuts a text column A whose values often begin with the
// value of another column B in the same row ("Livingston Municipal" and
// "Livingston": an airport's name and its city) into two pieces, P = B's
// value where A starts with it (else A up to its last space) and R = the
// rest. xz then codes B against P with one long match at a fixed distance
// that runs on from row to row while the two agree (LZMA's rep0), instead
// of a fresh match into the middle of each A value: on airports.csv the
// names and cities take 8% less. A column is cut once, for the B with
// the most such rows (at least a quarter of them), and only when zstd of
// P, R and B together is smaller than of A and B; B and A must be carried
// by the same rows and neither cut into runs.
func alignPrefixes(cols []column, cuts [][]column) {
	if len(cols) < 2 || len(cols) > alignMaxColumns {
		return
	}
	used := make([]bool, len(cols))
	for a := range cols {
		if used[a] || len(cuts[a]) != 1 || cols[a].len() < 16 {
			continue
		}
		bestB, bestN := -1, 0
		n := min(cols[a].len(), 4096)
		for b := range cols {
			if b == a || used[b] || len(cuts[b]) != 1 || cols[b].len() != cols[a].len() {
				continue
			}
			k := 0
			for i := 0; i < n; i++ {
				if prefixOf(cols[a].field(i), cols[b].field(i)) {
					k++
				}
			}
			if k*4 >= n && k > bestN {
				bestB, bestN = b, k
			}
		}
		if bestB < 0 {
			continue
		}
		p, r := prefixCut(cols[a], cols[bestB])
		if xzEstimateCols(p, r, cols[bestB]) < xzEstimateCols(cols[a], cols[bestB]) {
			cuts[a] = []column{p, r}
			used[a], used[bestB] = true, true
		}
	}
}

// alignMaxColumns bounds the columns alignPrefixes compares pairwise.
const alignMaxColumns = 64

// prefixOf reports whether a (unquoted) starts with b's non-empty value
// and is longer.
func prefixOf(a, b field) bool {
	return !a.quoted && len(b.val) > 0 && len(b.val) < len(a.val) && bytes.HasPrefix(a.val, b.val)
}

// prefixCut cuts column a into P and R (see alignPrefixes). A quoted value
// stays whole in P (its quotes enclose the whole field).
func prefixCut(a, b column) (p, r column) {
	p = column{a.src, a.arena, make([]cell, a.len()), a.small}
	r = column{a.src, a.arena, make([]cell, a.len()), a.small}
	for i := range a.cells {
		f := a.field(i)
		cut := len(f.val)
		switch {
		case f.quoted:
		case prefixOf(f, b.field(i)):
			cut = len(b.val(i))
		default:
			if j := bytes.LastIndexByte(f.val, ' '); j > 0 {
				cut = j
			}
		}
		p.cells[i] = mkCell(int(a.cells[i].off), cut, f.quoted)
		r.cells[i] = a.piece(i, cut, len(f.val))
	}
	return p, r
}

// mergeAdjacent joins neighbouring columns of a token table into one when
// the joined column is estimated clearly smaller than the two apart:
// columns of few values that go together ("MS", ",", "USA", ",", "31": a
// state, its country and the whole degrees of a latitude) then share one
// DICT whose entries are the combinations that occur, so a row costs one
// index coded from their joint frequency rather than one per column.
// A constant column (a delimiter) is never joined on its own, as it costs
// nothing apart (DERIVED), only as the glue between two others; a step
// that does not pay alone may pay with the next one. Only columns carried
// by the same rows, with no quoted value, whose join has few distinct
// values are joined; the rows' field counts follow.
func mergeAdjacent(t *table) {
	n := len(t.cols)
	if n < 2 {
		return
	}
	cols := t.cols
	konst := make([]bool, n)
	for k, col := range cols {
		konst[k] = constColumn(col)
	}
	// step is the end of the next unit from column j: a column, or a
	// constant and the column after it; 0 when none.
	step := func(j int) int {
		switch {
		case j >= n:
			return 0
		case !konst[j]:
			return j + 1
		case j+1 < n && !konst[j+1]:
			return j + 2
		}
		return 0
	}
	merged := []column{cols[0]}
	newIdx := make([]int, n)
	memo := chunkMemo{}
	xzEstimateCols := func(cols ...column) int { return xzEstimateColsMemo(memo, cols...) }
	cur, curConst := cols[0], konst[0]
	for j := 1; j < n; {
		if !curConst {
			if e1 := step(j); e1 > 0 {
				m1, ok := joinColumns(cur, cols[j:e1]...)
				e := 0
				if ok {
					sep := xzEstimateCols(cur, cols[e1-1])
					if float64(xzEstimateCols(m1)) < mergeGain*float64(sep) {
						cur, e = m1, e1
					} else if e2 := step(e1); e2 > 0 {
						// A state and a latitude's degrees may pay
						// together where neither pays with ",USA,".
						if m2, ok := joinColumns(m1, cols[e1:e2]...); ok &&
							float64(xzEstimateCols(m2)) < mergeGain*float64(xzEstimateCols(cur, cols[e1-1], cols[e2-1])) {
							cur, e = m2, e2
						}
					}
				}
				if e > 0 {
					merged[len(merged)-1] = cur
					for k := j; k < e; k++ {
						newIdx[k] = len(merged) - 1
					}
					j = e
					continue
				}
			}
		}
		cur, curConst = cols[j], konst[j]
		merged = append(merged, cur)
		newIdx[j] = len(merged) - 1
		j++
	}
	if len(merged) == n {
		return
	}
	t.cols = merged
	for i, c := range t.counts {
		if c > 0 {
			t.counts[i] = newIdx[c-1] + 1
		}
	}
}

// mergeGain is how much smaller (estimated) a join must be than its
// columns apart: the estimate, on a sample in a stream of its own, is
// a few percent off the values stream, and a join takes away a column's
// own type (a DEC's deltas, say).
const mergeGain = 0.97

// constColumn reports whether every value of col is the same, unquoted.
func constColumn(col column) bool {
	if col.len() == 0 {
		return false
	}
	v0 := col.val(0)
	for i := range col.cells {
		if col.quoted(i) || !bytes.Equal(col.val(i), v0) {
			return false
		}
	}
	return true
}

// joinColumns is the column of a's and then each of bs's values joined
// row by row; ok is false when they may not or should not be joined (see
// mergeAdjacent).
func joinColumns(a column, bs ...column) (column, bool) {
	if a.len() < 16 {
		return column{}, false
	}
	for _, b := range bs {
		if b.len() != a.len() {
			return column{}, false
		}
	}
	limit := min(a.len()/2+16, 1<<12)
	seen := map[string]struct{}{}
	var key []byte
	size := 0
	for i := range a.cells {
		if a.quoted(i) {
			return column{}, false
		}
		key = append(key[:0], a.val(i)...)
		for _, b := range bs {
			if b.quoted(i) {
				return column{}, false
			}
			key = append(key, b.val(i)...)
		}
		size += len(key)
		if _, ok := seen[string(key)]; !ok {
			if len(seen) >= limit {
				return column{}, false
			}
			seen[string(key)] = struct{}{}
		}
	}
	// The joined values are one buffer.
	out := column{src: make([]byte, 0, size), cells: make([]cell, a.len()), small: a.small}
	for i := range a.cells {
		o := len(out.src)
		out.src = append(out.src, a.val(i)...)
		for _, b := range bs {
			out.src = append(out.src, b.val(i)...)
		}
		out.cells[i] = mkCell(o, len(out.src)-o, false)
	}
	return out, true
}

// xzEstimateCols is the size xz gives the chunks of cols (each column's
// best candidate, pickChunk's choice) one after another, over their first
// xzEstimateRows values: the columns' cost as the values stream will pay
// it, cross-column matches included. It decides the cuts and joins whose
// gain zstd's estimate misjudges (zstd undercounts xz on short repeating
// text and on byte-sized indices).
func xzEstimateCols(cols ...column) int { return xzEstimateColsMemo(nil, cols...) }

// chunkMemo holds pickChunk's choice for a column's first values (key:
// the column's first field and the number of values), for callers that
// estimate one column in several groupings (mergeAdjacent).
type chunkMemo map[chunkKey][]byte

type chunkKey struct {
	first *cell
	n     int
}

// xzEstimateColsMemo is xzEstimateCols taking each column's chunk from
// memo when it is there (memo may be nil).
func xzEstimateColsMemo(memo chunkMemo, cols ...column) int {
	rows, size := 0, 0
	for _, col := range cols {
		rows = max(rows, min(col.len(), xzEstimateRows))
	}
	for _, col := range cols {
		for _, x := range col.cells[:min(col.len(), rows)] {
			size += int(x.n>>1) + 1
		}
	}
	if size > xzEstimateBytes {
		rows = max(1, int(int64(rows)*xzEstimateBytes/int64(size)))
	}
	var buf []byte
	for _, col := range cols {
		col = col.slice(0, min(col.len(), rows))
		if col.len() == 0 || memo == nil {
			buf = append(buf, pickChunk(colCandidates(col), col.small).chunk...)
			continue
		}
		k := chunkKey{&col.cells[0], col.len()}
		ch, ok := memo[k]
		if !ok {
			ch = pickChunk(colCandidates(col), col.small).chunk
			memo[k] = ch
		}
		buf = append(buf, ch...)
	}
	x, err := xzCompress(nil, buf, 6, false)
	if err != nil {
		return math.MaxInt
	}
	return len(x)
}

// xzEstimateRows is how many values of a column xzEstimateCols looks at,
// fewer when their text passes xzEstimateBytes (so a trial of wide text
// columns stays cheap).
const (
	xzEstimateRows  = 16384
	xzEstimateBytes = 256 << 10
)

// jsonUnionTable lays out JSON Lines whose objects leave out some keys
// ("parent" on a quarter of the lines, "inverted_name" on a fifth) as
// one token table: the union of the sample's key sequences, in an order
// every one of them follows, gives each key a segment column (the text
// before its value on a line: `, "parent": `, or `{"parent": ` when it
// comes first) and a value column, both empty on the lines without the
// key, and a last column holds the text after the last value. A line
// whose keys are not a subsequence of the union (another order, a key
// twice, a key the sample did not have) is verbatim. nil when every line
// the table would take has the common shape (jsonTokenTable's table), or
// no line has a shape.
func jsonUnionTable(src []byte, concurrency int) *table {
	ls, trailing := lines(src)
	best := commonShape(ls)
	if best == nil {
		return nil
	}
	union, keep := jsonKeyUnion(ls)
	if len(union) == 0 || 2*len(union)+1 > maxEncodeColumns {
		return nil
	}
	pos := make(map[string]int, len(union))
	for j, k := range union {
		pos[string(k)] = j
	}
	nk := len(union)
	t := &table{src: src, trailing: trailing, noDelim: true, rowModes: make([]byte, len(ls))}
	// Every row of the union has a cell in every column: sized once
	// rather than grown by doubling.
	scols := make([][]cell, nk+1) // segment columns; scols[nk]: the end
	vcols := make([][]cell, nk)
	for j := range scols {
		scols[j] = make([]cell, 0, len(ls))
		if j < nk {
			vcols[j] = make([]cell, 0, len(ls))
		}
	}
	var segs, vals, keys [][]byte
	var arena []byte
	var at []int
	n, other, lineOff := 0, 0, 0
	for i, l := range ls {
		off := lineOff
		lineOff += len(l) + 1
		var ok bool
		segs, vals, keys, arena, ok = jsonFlatShape(l, segs[:0], vals[:0], keys[:0], arena, keep)
		if !ok {
			t.verbatim = append(t.verbatim, l)
			continue
		}
		at = at[:0]
		last := -1
		for _, k := range keys {
			j, found := pos[string(k)]
			if !found || j <= last {
				ok = false
				break
			}
			at = append(at, j)
			last = j
		}
		if !ok {
			t.verbatim = append(t.verbatim, l)
			continue
		}
		if !sameSegs(segs, best.segs) {
			other++
		}
		t.rowModes[i] = 1
		n++
		cellOf := func(v []byte) cell { return mkCell(off+cap(l)-cap(v), len(v), false) }
		empty := mkCell(off, 0, false)
		p := 0
		for j := 0; j < nk; j++ {
			if p < len(at) && at[p] == j {
				scols[j] = append(scols[j], cellOf(segs[p]))
				v := vals[p]
				x := cellOf(v)
				if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && bytes.IndexByte(v[1:len(v)-1], '"') < 0 {
					x = mkCell(int(x.off)+1, len(v)-2, true)
				}
				vcols[j] = append(vcols[j], x)
				p++
				continue
			}
			scols[j] = append(scols[j], empty)
			vcols[j] = append(vcols[j], empty)
		}
		scols[nk] = append(scols[nk], cellOf(segs[len(segs)-1]))
	}
	if n == 0 || other == 0 {
		return nil
	}
	cuts := cutColumns(cellColumns(src, vcols), concurrency)
	for j := 0; j < nk; j++ {
		t.cols = append(t.cols, column{src: src, cells: scols[j], small: estSmall(len(src))})
		t.cols = append(t.cols, cuts[j]...)
	}
	t.cols = append(t.cols, column{src: src, cells: scols[nk], small: estSmall(len(src))})
	t.counts = make([]int, n)
	for i := range t.counts {
		t.counts[i] = len(t.cols)
	}
	mergeAdjacent(t)
	return t
}

// jsonKeyUnion merges the key sequences of the first 4096 lines' flat
// shapes, the commonest first, into one sequence that each merged
// shape's keys are a subsequence of; a shape that repeats a key or
// orders two keys the other way than the union so far is left out.
// keep is the nested objects left whole: those used as maps, whose keys
// vary from line to line (a country's native names by language code),
// which would spread over many columns, each empty on most lines: more
// than 8 keys in all, over 4 times as many as such an object has on
// average.
func jsonKeyUnion(ls [][]byte) (union [][]byte, keep map[string]bool) {
	sample := ls[:min(len(ls), 4096)]
	var segs, vals, keys [][]byte
	var arena []byte
	type parent struct {
		keys  map[string]bool
		n     int // keys in all
		lines int
		last  int // the last line counted
	}
	parents := map[string]*parent{}
	for i, l := range sample {
		var ok bool
		segs, vals, keys, arena, ok = jsonFlatShape(l, segs[:0], vals[:0], keys[:0], arena, nil)
		if !ok {
			continue
		}
		for _, k := range keys {
			j := bytes.LastIndexByte(k, 0)
			if j < 0 {
				continue
			}
			// Every enclosing object counts its key on this line.
			for j >= 0 {
				pk, child := k[:j], k[j+1:]
				if c := bytes.IndexByte(child, 0); c >= 0 {
					child = child[:c]
				}
				pr := parents[string(pk)]
				if pr == nil {
					pr = &parent{keys: map[string]bool{}, last: -1}
					parents[string(pk)] = pr
				}
				if len(pr.keys) <= 4096 {
					pr.keys[string(child)] = true
				}
				pr.n++
				if pr.last != i {
					pr.lines, pr.last = pr.lines+1, i
				}
				j = bytes.LastIndexByte(pk, 0)
			}
		}
	}
	for pk, pr := range parents {
		if d := len(pr.keys); d > 8 && d*pr.lines > 4*pr.n {
			if keep == nil {
				keep = map[string]bool{}
			}
			keep[pk] = true
		}
	}
	type shape struct {
		keys [][]byte
		n    int
	}
	shapes := map[string]*shape{}
	var order []*shape
	for _, l := range sample {
		var ok bool
		segs, vals, keys, arena, ok = jsonFlatShape(l, segs[:0], vals[:0], keys[:0], arena, keep)
		if !ok {
			continue
		}
		k := string(bytes.Join(keys, []byte{1}))
		s := shapes[k]
		if s == nil {
			s = &shape{keys: cloneAll(keys)}
			shapes[k] = s
			order = append(order, s)
		}
		s.n++
	}
	// The commonest first; ties in order of first appearance.
	slices.SortStableFunc(order, func(a, b *shape) int { return b.n - a.n })
	for _, s := range order {
		if m, ok := mergeKeys(union, s.keys); ok && len(m) <= maxEncodeColumns/2 {
			union = m
		}
	}
	return union, keep
}

// mergeKeys is the shortest sequence with both u and ks as subsequences
// when the keys they share come in the same order in both and neither
// repeats a key; ok is false otherwise.
func mergeKeys(u, ks [][]byte) ([][]byte, bool) {
	in := make(map[string]int, len(u))
	for j, k := range u {
		in[string(k)] = j
	}
	seen := make(map[string]bool, len(ks))
	last := -1
	for _, k := range ks {
		if seen[string(k)] {
			return nil, false
		}
		seen[string(k)] = true
		if j, ok := in[string(k)]; ok {
			if j <= last {
				return nil, false
			}
			last = j
		}
	}
	// Interleave: before each shared key, u's keys before it and then
	// ks's (a key new to the union goes after those it already has
	// there: "parent" then "empty" when "empty" comes after "name").
	out := make([][]byte, 0, len(u)+len(ks))
	p, pending := 0, 0
	for i, k := range ks {
		j, ok := in[string(k)]
		if !ok {
			continue
		}
		out = append(out, u[p:j]...)
		out = append(out, ks[pending:i]...)
		out = append(out, k)
		p, pending = j+1, i+1
	}
	out = append(out, u[p:]...)
	return append(out, ks[pending:]...), true
}

// jsonFlatMaxDepth bounds how deep jsonFlatShape goes into nested
// objects; deeper ones stay values.
const jsonFlatMaxDepth = 4

// jsonFlatShape is jsonShape with the keys of non-empty nested objects
// (up to jsonFlatMaxDepth levels down) taken as keys of the line: their
// values become values, and the text between them ("}, " or `"name":
// {"common": `) segments. A nested key is its path, the keys joined by
// a 0 byte, written to arena (reset, appended to and returned). An
// object whose key (path) is in keep stays a value. A line without
// nested objects gives what jsonShape gives.
func jsonFlatShape(line []byte, segs, vals, keys [][]byte, arena []byte, keep map[string]bool) ([][]byte, [][]byte, [][]byte, []byte, bool) {
	p := skipSpace(line, 0)
	if p >= len(line) || line[p] != '{' {
		return nil, nil, nil, arena, false
	}
	p = skipSpace(line, p+1)
	if p < len(line) && line[p] == '}' {
		if skipSpace(line, p+1) != len(line) {
			return nil, nil, nil, arena, false
		}
		return append(segs, line), vals, keys, arena, true
	}
	arena = arena[:0]
	var stack [jsonFlatMaxDepth][2]int // the enclosing keys' paths in arena
	depth := 0                         // objects open below the line's
	segStart := 0
	for {
		if p >= len(line) || line[p] != '"' {
			return nil, nil, nil, arena, false
		}
		e := stringEnd(line, p)
		if e < 0 {
			return nil, nil, nil, arena, false
		}
		key := line[p+1 : e-1]
		p = skipSpace(line, e)
		if p >= len(line) || line[p] != ':' {
			return nil, nil, nil, arena, false
		}
		p = skipSpace(line, p+1)
		if depth > 0 {
			// The path: the enclosing key's path, 0, this key.
			o := len(arena)
			arena = append(arena, arena[stack[depth-1][0]:stack[depth-1][1]]...)
			arena = append(arena, 0)
			arena = append(arena, key...)
			key = arena[o:len(arena):len(arena)]
		}
		if p < len(line) && line[p] == '{' && depth < jsonFlatMaxDepth && !keep[string(key)] {
			if q := skipSpace(line, p+1); q < len(line) && line[q] == '"' {
				if depth == 0 {
					o := len(arena)
					arena = append(arena, key...)
					key = arena[o:len(arena):len(arena)]
				}
				o := len(arena) - len(key)
				stack[depth] = [2]int{o, len(arena)}
				depth++
				p = q
				continue
			}
		}
		segs = append(segs, line[segStart:p])
		keys = append(keys, key)
		ve := valueEnd(line, p)
		if ve <= p {
			return nil, nil, nil, arena, false
		}
		vals = append(vals, line[p:ve])
		segStart = ve
		p = skipSpace(line, ve)
		for depth > 0 && p < len(line) && line[p] == '}' {
			depth--
			p = skipSpace(line, p+1)
		}
		if p >= len(line) {
			return nil, nil, nil, arena, false
		}
		if line[p] == '}' && depth == 0 {
			if skipSpace(line, p+1) != len(line) {
				return nil, nil, nil, arena, false
			}
			break
		}
		if line[p] != ',' {
			return nil, nil, nil, arena, false
		}
		p = skipSpace(line, p+1)
	}
	return append(segs, line[segStart:]), vals, keys, arena, true
}
