package at1

import (
	"bytes"
	"slices"
)

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
