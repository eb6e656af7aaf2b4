package at1

import "bytes"

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
