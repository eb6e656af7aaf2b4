package at1

import (
	"bytes"
	"slices"
)

// The encoder's view of delimited text: physical '\n' lines split into
// fields. The decoders never parse fields, they only join values with the
// delimiter (quoting some), so any split whose join gives the line back
// round-trips; quoting only decides which fields share a column type.

// lines splits src at '\n'. trailing is true when src ends with '\n' (the
// empty piece after it is not a line). Empty input has no lines.
func lines(src []byte) (ls [][]byte, trailing bool) {
	if len(src) == 0 {
		return nil, false
	}
	ls = bytes.Split(src, []byte{'\n'})
	if len(ls[len(ls)-1]) == 0 {
		return ls[:len(ls)-1], true
	}
	return ls, false
}

// field is one field of a line as splitFields finds it: its value,
// whether it was quoted, and where the value starts in the line (-1: a
// quoted value whose doubled quotes were made single, a copy).
type field struct {
	val    []byte
	quoted bool
	off    int
}

// cell is a field as a table keeps it, in 8 bytes (a field's slice
// header and flag took 32, for values of a few bytes): its value's
// offset in its column's bytes and its length<<1 | quoted.
type cell struct{ off, n uint32 }

// column is a column of a table: cells whose values lie in src (the
// input, or bytes a layout made) or, at offsets from len(src) on, in
// arena (the table's unquoted values that had doubled quotes). Encoding
// units are at most 1 GiB (WithChunkSize), and an arena holds less than
// the input, so offsets fit in 32 bits and lengths in 31. small is
// whether the table's input is small (estSmall): its columns' candidates
// are ranked at estLevelSmall, and every column made from one of them
// inherits it, so that a table's estimates all come from one level.
type column struct {
	src, arena []byte
	cells      []cell
	small      bool
}

// len is the number of values.
func (c column) len() int { return len(c.cells) }

// val is value i (not to be written to).
func (c column) val(i int) []byte {
	x := c.cells[i]
	o, n := int(x.off), int(x.n>>1)
	if o >= len(c.src) {
		o -= len(c.src)
		return c.arena[o : o+n : o+n]
	}
	return c.src[o : o+n : o+n]
}

// quoted reports whether value i was quoted.
func (c column) quoted(i int) bool { return c.cells[i].n&1 != 0 }

// field is value i as a field.
func (c column) field(i int) field { return field{val: c.val(i), quoted: c.quoted(i)} }

// slice is the column of values lo..hi-1.
func (c column) slice(lo, hi int) column {
	return column{c.src, c.arena, c.cells[lo:hi:hi], c.small}
}

// piece is the cell of value i's bytes lo..hi-1, unquoted.
func (c column) piece(i, lo, hi int) cell {
	return cell{c.cells[i].off + uint32(lo), uint32(hi-lo) << 1}
}

// mkCell is the cell of n bytes at off, quoted or not.
func mkCell(off, n int, quoted bool) cell {
	x := cell{uint32(off), uint32(n) << 1}
	if quoted {
		x.n |= 1
	}
	return x
}

// constColumnOf is a column of n values v, of a table whose input is
// small or not (see column).
func constColumnOf(v []byte, n int, small bool) column {
	cs := make([]cell, n)
	for i := range cs {
		cs[i] = cell{0, uint32(len(v)) << 1}
	}
	return column{src: v, cells: cs, small: small}
}

// splitFields appends the fields of line to fs. A field that starts with
// '"' and is a well-formed RFC-4180 quoted field (doubled inner quotes,
// closing quote followed by the delimiter or the end) is unquoted; any
// other field is its raw text up to the next delimiter. Joining the
// fields (requoting the quoted ones) gives line back exactly. An empty
// line has no fields.
func splitFields(fs []field, line []byte, delim byte) []field {
	if len(line) == 0 {
		return fs
	}
	p := 0
	for {
		if p < len(line) && line[p] == '"' {
			if v, end, ok := quotedField(line, p, delim); ok {
				off := p + 1
				if len(v) != end-p-2 {
					off = -1 // doubled quotes made single: a copy
				}
				fs = append(fs, field{val: v, quoted: true, off: off})
				if end == len(line) {
					return fs
				}
				p = end + 1
				continue
			}
			// A quoted last field of a CRLF line (RFC 4180's own line
			// end) is followed by the '\r', which a quoted value cannot
			// carry (the decoder writes its closing quote last): it is
			// kept as raw text, quotes and '\r' included, rather than
			// split at the delimiters inside it.
			if n := len(line); n >= p+3 && line[n-1] == '\r' && line[n-2] == '"' {
				if _, end, ok := quotedField(line[:n-1], p, delim); ok && end == n-1 {
					return append(fs, field{val: line[p:], off: p})
				}
			}
		}
		i := bytes.IndexByte(line[p:], delim)
		if i < 0 {
			return append(fs, field{val: line[p:], off: p})
		}
		fs = append(fs, field{val: line[p : p+i], off: p})
		p += i + 1
	}
}

// quotedField parses a quoted field starting at line[p] == '"'. It returns
// the unquoted value (a subslice when there are no doubled quotes) and the
// index just after the closing quote.
func quotedField(line []byte, p int, delim byte) (val []byte, end int, ok bool) {
	i := p + 1
	doubled := false
	for {
		j := bytes.IndexByte(line[i:], '"')
		if j < 0 {
			return nil, 0, false
		}
		j += i
		if j+1 < len(line) && line[j+1] == '"' {
			doubled = true
			i = j + 2
			continue
		}
		if j+1 != len(line) && line[j+1] != delim {
			return nil, 0, false
		}
		inner := line[p+1 : j]
		if doubled {
			inner = bytes.ReplaceAll(inner, []byte(`""`), []byte(`"`))
		}
		return inner, j + 1, true
	}
}

// table is delimited text split into rows and ragged columns.
type table struct {
	src       []byte
	delim     byte
	noDelim   bool // a token table: the delimiter is empty (delim_len 0)
	trailing  bool
	hasHeader bool
	header    []byte
	rowModes  []byte // per row: 0 verbatim, 1 structured
	counts    []int  // fields per structured row
	verbatim  [][]byte
	cols      []column
}

// countFields is the number of fields splitFields finds, without
// allocating.
func countFields(line []byte, delim byte) int {
	var buf [64]field
	return len(splitFields(buf[:0], line, delim))
}

// buildTable splits src into a table with delimiter delim. Rows with more
// fields than the most common count become verbatim rows.
func buildTable(src []byte, delim byte, header bool) *table {
	ls, trailing := lines(src)
	t := &table{src: src, delim: delim, trailing: trailing}
	if header && len(ls) > 0 {
		t.hasHeader, t.header, ls = true, ls[0], ls[1:]
	}
	// The column count: the most common field count (ties: the larger).
	hist := map[int]int{}
	var fs []field
	for i, l := range ls {
		if i >= 4096 {
			break
		}
		hist[countFields(l, delim)]++
	}
	ncols, best := 0, 0
	for n, k := range hist {
		if k > best || k == best && n > ncols {
			ncols, best = n, k
		}
	}
	// Each column's cells sized once: growing by doubling would leave
	// as much garbage as the columns themselves. Values in src are
	// cells into it; unquoted values that had doubled quotes go to the
	// arena, which every column shares.
	cells := make([][]cell, ncols)
	for k := range cells {
		cells[k] = make([]cell, 0, len(ls))
	}
	var arena []byte
	t.rowModes = make([]byte, len(ls))
	t.counts = make([]int, 0, len(ls))
	off := 0 // of the line in src
	if t.hasHeader {
		off = len(t.header) + 1
	}
	for i, l := range ls {
		lineOff := off
		off += len(l) + 1
		fs = splitFields(fs[:0], l, delim)
		if len(fs) > ncols {
			t.verbatim = append(t.verbatim, l)
			continue
		}
		t.rowModes[i] = 1
		t.counts = append(t.counts, len(fs))
		for k, f := range fs {
			o := lineOff + f.off
			if f.off < 0 {
				o = len(src) + len(arena)
				arena = append(arena, f.val...)
			}
			cells[k] = append(cells[k], mkCell(o, len(f.val), f.quoted))
		}
	}
	t.cols = make([]column, ncols)
	for k := range t.cols {
		t.cols[k] = column{src: src, arena: arena, cells: cells[k], small: estSmall(len(src))}
	}
	return t
}

// looksNumeric reports whether a value reads as a number (for header and
// delimiter detection only).
func looksNumeric(v []byte) bool {
	if len(v) == 0 {
		return false
	}
	digits := 0
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '-' || c == '.' || c == '+' || c == 'e' || c == 'E':
		default:
			return false
		}
	}
	return digits > 0
}

// detectDelim picks the delimiter (comma, semicolon, tab, pipe) that
// splits the sample's lines into the most consistent number (> 1) of
// fields; else the better of a secondary delimiter and a space; ok is
// false when none does for most lines.
//
// A space delimits logs and other space-separated records
// ("2025-06-24 14:36:25 status installed libc-bin:amd64 2.36-9"): fields
// that appear in the same place on most lines (lines with fewer fields
// are ragged rows, those with more verbatim rows). Split there, a
// dpkg.log of 359 KB was 0.69x xz -9e instead of 0.99x as RAW. It counts
// when one field count covers half the lines, like the primary
// delimiters, and loses to a secondary delimiter that splits the lines
// into more fields.
func detectDelim(sample [][]byte) (delim byte, ok bool) {
	if d, _, ok := detectDelimIn(sample, []byte{',', '\t', ';', '|'}, 0.5); ok {
		return d, true
	}
	d, score, ok := detectDelimIn(sample, secondaryDelims, 0.9)
	if aligned(sample) {
		return d, ok
	}
	if sd, sscore, sok := detectDelimIn(sample, []byte{' '}, 0.5); sok && (!ok || sscore > score) {
		return sd, true
	}
	return d, ok
}

// aligned reports whether more than one sample line in ten is indented
// or aligned with spaces (starts with one, or has two in a row): XML,
// code and configuration, which split on spaces into empty fields that
// never beat RAW (on 38 such files from /usr/share the split cost 25%
// more encode CPU and saved nothing).
func aligned(sample [][]byte) bool {
	n, k := 0, 0
	for _, l := range sample {
		if len(l) == 0 {
			continue
		}
		n++
		if l[0] == ' ' || bytes.Contains(l, []byte("  ")) {
			k++
		}
	}
	return k*10 > n
}

// secondaryDelims split one-column text whose lines share a separator
// ("Customer#000107979", "user@host", "key=value"): its parts then go to
// columns of their own (the host to a dictionary, say), 3-5% smaller
// than xz of the lines on such text. They count only when one field count
// covers nine lines in ten; the encoder keeps the split only if it beats
// RAW.
var secondaryDelims = []byte{'#', '@', ':', '='}

// detectDelimIn picks among candidates the delimiter that splits the
// sample most consistently, and its score (the share of lines with the
// commonest field count times that count, up to 8): the commonest count
// (at least 2) must cover at least share of the non-empty lines.
func detectDelimIn(sample [][]byte, candidates []byte, share float64) (delim byte, bestScore float64, ok bool) {
	for _, d := range candidates {
		hist := map[int]int{}
		n := 0
		for _, l := range sample {
			if len(l) == 0 {
				continue
			}
			hist[countFields(l, d)]++
			n++
		}
		mode, cnt := 0, 0
		for k, v := range hist {
			if v > cnt || v == cnt && k > mode {
				mode, cnt = k, v
			}
		}
		if mode < 2 || n == 0 || float64(cnt) < share*float64(n) {
			continue
		}
		score := float64(cnt) / float64(n) * float64(min(mode, 8))
		if score > bestScore {
			bestScore, delim, ok = score, d, true
		}
	}
	return delim, bestScore, ok
}

// detectHeader reports whether the first line is a header: it has no
// numeric field, while some column below it is mostly numeric, or its
// fields are distinct names that do not recur in the next line.
func detectHeader(sample [][]byte, delim byte) bool {
	if len(sample) < 2 {
		return false
	}
	first := splitFields(nil, sample[0], delim)
	if len(first) == 0 {
		return false
	}
	for _, f := range first {
		if looksNumeric(f.val) {
			return false
		}
	}
	numeric := make([]int, len(first))
	rows := 0
	var fs []field
	for _, l := range sample[1:] {
		fs = splitFields(fs[:0], l, delim)
		rows++
		for k, f := range fs {
			if k < len(numeric) && looksNumeric(f.val) {
				numeric[k]++
			}
		}
	}
	if slices.ContainsFunc(numeric, func(n int) bool { return n*2 > rows }) {
		return true
	}
	second := splitFields(nil, sample[1], delim)
	for k, f := range first {
		if len(f.val) == 0 || k < len(second) && bytes.Equal(second[k].val, f.val) {
			return false
		}
	}
	return true
}
