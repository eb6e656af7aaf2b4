package at1

import (
	"bytes"
	"math"
	"slices"
)

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
	cut, cs := cutRuns(vals, text)
	ac, as := affixCut(text)
	if ac == nil {
		return cut
	}
	if cs < 0 {
		_, cs = bestCandidate(vals)
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
// leading '-' when the value starts with one) or of other bytes. The
// size is the pieces' estimate, -1 when the column is returned whole
// without one.
func cutRuns(orig, vals column) ([]column, int) {
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
			return whole, -1
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
				return whole, -1
			}
			exc[i] = true
		}
	}
	if pat == nil || len(pat) == 1 && (pairPieces(vals) == 0 || nexc > 0) {
		// One digit run, not one pairCut takes; or numbers with
		// exceptions (nulls), which as one NUMEXC column keep their
		// matches with a column they often equal (movies.jsonl's US
		// and worldwide gross), where pieces lose them.
		return whole, -1
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
		return parts, cut
	}
	_, ws := bestCandidate(orig)
	if nexc == 0 && len(pat) == 3 && pat[0] && !pat[1] && pat[2] {
		if tc, ts := tailCut(vals); tc != nil && ts < min(ws, cut) {
			alt := parts
			if ws <= cut {
				alt = whole
			}
			if xzEstimateCols(tc...) < xzEstimateCols(alt...) {
				return tc, ts
			}
		}
	}
	if ws <= cut {
		return whole, ws
	}
	if nexc > 0 && xzEstimateCols(parts...) >= xzEstimateCols(orig) {
		// zstd's estimate misjudges exceptions (movies.jsonl's
		// nulls): xz decides.
		return whole, ws
	}
	return parts, cut
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
// the column as cutRuns leaves it. The estimate codes a column alone,
// where its affixes cost more than in the values stream, in which they
// were cheap matches: world-countries.jsonl's objects without their
// braces, estimated 0.4-2.3% smaller, made the file 0.1% larger.
const affixMargin = 0.97

// affixCut cuts off the bytes every value starts and ends with, when
// they hold no digit, as constant columns of their own, and keeps the
// rest whole: the number in the last field of a CRLF line ("-0.17\r",
// which rows keep with its '\r') or a unit's sign ("12.5%"). Cut into
// runs instead, the sign, integer part and decimals of such a number go
// to three columns ("-0" | "." | "17" | "\r"), none of them a number,
// where the rest whole is one (a DEC, or a NUMEXC when some values
// print another number of decimals). It returns the pieces and their
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
		// No affix; or every value all affix (a constant column,
		// nothing to cut); or only a quoted field's quotes, which the
		// column whole is.
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
