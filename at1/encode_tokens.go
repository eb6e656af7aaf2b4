package at1

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
//
// This file builds token tables from a split table; encode_cuts.go cuts
// a column into pieces, encode_joins.go aligns and joins neighbouring
// columns, and encode_tokens_json.go lays out JSON Lines.

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
