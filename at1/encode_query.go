package at1

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strconv"

	"github.com/colfmt/colfmt/internal/varint"
)

// The qcolumnar (7) and qjson (8) encoders: structured lines cut into row
// groups, each column of each group one block (xz or zstd, whichever is
// smaller) in a stored blocks stream, with zone maps in the index so a
// reader can skip groups and fetch blocks by range.

// qLines is the line layout shared by qcolumnar and qjson.
type qLines struct {
	nlines   int
	trailing bool
	rowModes []byte
	verbatim [][]byte
	cols     [][][]byte // raw value text per column, structured lines only
}

// splitRawFields is splitFields keeping each field's raw text (quotes and
// all): qcolumnar stores values as they appear.
func splitRawFields(fs [][]byte, line []byte, delim byte) [][]byte {
	p := 0
	for {
		if p < len(line) && line[p] == '"' {
			if _, end, ok := quotedField(line, p, delim); ok {
				fs = append(fs, line[p:end])
				if end == len(line) {
					return fs
				}
				p = end + 1
				continue
			}
		}
		i := bytes.IndexByte(line[p:], delim)
		if i < 0 {
			return append(fs, line[p:])
		}
		fs = append(fs, line[p:p+i])
		p += i + 1
	}
}

// qcolStreamsOf lays out delimited text as qcolumnar: the header and the
// lines whose field count differs from the table's are verbatim lines.
func (c *encoder) qcolStreamsOf(t *table) []namedStream {
	ls, trailing := lines(t.src)
	ncols := len(t.cols)
	if ncols == 0 {
		return nil
	}
	q := &qLines{nlines: len(ls), trailing: trailing, rowModes: make([]byte, len(ls)), cols: make([][][]byte, ncols)}
	var fs [][]byte
	for i, l := range ls {
		if i == 0 && t.hasHeader || len(l) == 0 {
			q.verbatim = append(q.verbatim, l)
			continue
		}
		fs = splitRawFields(fs[:0], l, t.delim)
		if len(fs) != ncols {
			q.verbatim = append(q.verbatim, l)
			continue
		}
		q.rowModes[i] = 1
		for k, f := range fs {
			q.cols[k] = append(q.cols[k], f)
		}
	}
	meta := varint.Append(nil, uint64(q.nlines))
	meta = append(meta, b2u(q.trailing), 1, t.delim)
	return c.qStreams(q, meta, nil, nil)
}

// qStreams writes the streams of a qcolumnar (template == nil) or qjson
// table. meta holds the codec's leading meta fields.
func (c *encoder) qStreams(q *qLines, meta, template, paths []byte) []namedStream {
	ncols := len(q.cols)
	nstruct := 0
	if ncols > 0 {
		nstruct = len(q.cols[0])
	}
	rg := c.enc.rowGroup
	if rg == 0 {
		rg = autoRowGroup(q.cols)
	}
	nrg := (nstruct + rg - 1) / rg
	types := make([]byte, ncols)
	for k, col := range q.cols {
		types[k] = qColType(col)
	}
	meta = varint.Append(meta, uint64(ncols))
	meta = varint.Append(meta, uint64(rg))
	meta = varint.Append(meta, uint64(nstruct))
	meta = varint.Append(meta, uint64(nrg))
	meta = append(meta, types...)

	// Blocks in index order: group by group, column by column.
	blocks := make([][]byte, nrg*ncols)
	parallel(c.concurrency, len(blocks), func(i int) error {
		g, k := i/ncols, i%ncols
		vals := q.cols[k][g*rg : min((g+1)*rg, nstruct)]
		raw := bytes.Join(vals, []byte{'\n'})
		z := zstdCompress([]byte{1}, raw, c.enc.level)
		x, err := xzCompress(nil, raw, c.enc.level, c.enc.xzExtreme())
		if err == nil {
			x, err = xzPolish(x, raw, c.enc.level, c.enc.xzExtreme(), xzModels[0])
		}
		if err == nil && 1+len(x) < len(z) {
			z = append([]byte{BackendXZ}, x...)
		}
		blocks[i] = z
		return nil
	})
	var index, blockData []byte
	for i, b := range blocks {
		g, k := i/ncols, i%ncols
		index = varint.Append(index, uint64(len(b)))
		vals := q.cols[k][g*rg : min((g+1)*rg, nstruct)]
		index = appendZone(index, types[k], vals)
		blockData = append(blockData, b...)
	}
	streams := []namedStream{{name: "meta", data: meta}}
	if template != nil {
		streams = append(streams, namedStream{name: "template", data: template}, namedStream{name: "paths", data: paths})
	}
	return append(streams,
		namedStream{name: "row_modes", data: q.rowModes},
		namedStream{name: "verbatim", data: bytes.Join(q.verbatim, []byte{'\n'})},
		namedStream{name: "index", data: index},
		namedStream{name: "blocks", data: blockData, stored: true})
}

// autoRowGroup sizes row groups so the narrowest column's blocks hold
// about DefaultBlockSize bytes.
func autoRowGroup(cols [][][]byte) int {
	if len(cols) == 0 || len(cols[0]) == 0 {
		return 1
	}
	n := len(cols[0])
	narrow := math.MaxInt
	for _, col := range cols {
		total := 0
		for _, v := range col {
			total += len(v) + 1
		}
		narrow = min(narrow, max(1, total/n))
	}
	return max(1, min(DefaultBlockSize/narrow, n))
}

// qColType is 1 (int) when every value is a canonical integer, 2 (dec)
// when every value is a canonical decimal or integer, else 0 (text): only
// then do zone maps describe the column.
func qColType(col [][]byte) byte {
	typ := byte(1)
	for _, v := range col {
		if _, ok := parseCanonInt(v); ok {
			continue
		}
		if _, _, ok := parseCanonDec(v); ok {
			typ = 2
			continue
		}
		return 0
	}
	return typ
}

// appendZone appends a block's zone map: sv min and max (int), f64 LE
// min and max (dec), nothing (text).
func appendZone(dst []byte, typ byte, vals [][]byte) []byte {
	switch typ {
	case 1:
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for _, v := range vals {
			n, _ := parseCanonInt(v)
			lo, hi = min(lo, n), max(hi, n)
		}
		dst = varint.AppendSigned(dst, lo)
		return varint.AppendSigned(dst, hi)
	case 2:
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range vals {
			f, _ := strconv.ParseFloat(string(v), 64)
			lo, hi = math.Min(lo, f), math.Max(hi, f)
		}
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(lo))
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(hi))
	}
	return dst
}

// jsonShape splits a JSON object line into its literal segments (keys,
// punctuation, spacing) and its top-level values (raw text). ok is false
// when the line is not a single object this splitter understands.
func jsonShape(line []byte, segs, vals [][]byte, keys [][]byte) ([][]byte, [][]byte, [][]byte, bool) {
	p := skipSpace(line, 0)
	if p >= len(line) || line[p] != '{' {
		return nil, nil, nil, false
	}
	segStart := 0
	p = skipSpace(line, p+1)
	if p < len(line) && line[p] == '}' {
		if skipSpace(line, p+1) != len(line) {
			return nil, nil, nil, false
		}
		return append(segs, line), vals, keys, true
	}
	for {
		if p >= len(line) || line[p] != '"' {
			return nil, nil, nil, false
		}
		e := stringEnd(line, p)
		if e < 0 {
			return nil, nil, nil, false
		}
		keys = append(keys, line[p+1:e-1])
		p = skipSpace(line, e)
		if p >= len(line) || line[p] != ':' {
			return nil, nil, nil, false
		}
		p = skipSpace(line, p+1)
		segs = append(segs, line[segStart:p])
		ve := valueEnd(line, p)
		if ve <= p {
			return nil, nil, nil, false
		}
		vals = append(vals, line[p:ve])
		segStart = ve
		p = skipSpace(line, ve)
		if p >= len(line) {
			return nil, nil, nil, false
		}
		if line[p] == '}' {
			if skipSpace(line, p+1) != len(line) {
				return nil, nil, nil, false
			}
			return append(segs, line[segStart:]), vals, keys, true
		}
		if line[p] != ',' {
			return nil, nil, nil, false
		}
		p = skipSpace(line, p+1)
	}
}

func skipSpace(b []byte, p int) int {
	for p < len(b) && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r') {
		p++
	}
	return p
}

// stringEnd returns the index after the JSON string starting at b[p].
func stringEnd(b []byte, p int) int {
	for i := p + 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// valueEnd returns the index after the JSON value starting at b[p]:
// strings and nested objects/arrays are matched, scalars run to the next
// ',', '}' or space.
func valueEnd(b []byte, p int) int {
	if p >= len(b) {
		return -1
	}
	switch b[p] {
	case '"':
		return stringEnd(b, p)
	case '{', '[':
		depth := 0
		for i := p; i < len(b); i++ {
			switch b[i] {
			case '"':
				e := stringEnd(b, i)
				if e < 0 {
					return -1
				}
				i = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	i := p
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ' ' && b[i] != '\t' && b[i] != '\r' {
		i++
	}
	return i
}

// qjsonStreamsOf lays out JSON Lines as qjson: the most common line shape
// (keys, order and spacing) is the template; other lines are verbatim.
func (c *encoder) qjsonStreamsOf(src []byte) []namedStream {
	if p := c.qjsonPlanOf(src); p != nil {
		return p.streams()
	}
	return nil
}

// qjsonPlan is JSON Lines split for qjson, its blocks not yet compressed.
type qjsonPlan struct {
	c                     *encoder
	q                     *qLines
	meta, template, paths []byte
}

// qjsonPlanOf splits src for qjson (nil when no line shape fits).
func (c *encoder) qjsonPlanOf(src []byte) *qjsonPlan {
	ls, trailing := lines(src)
	best := commonShape(ls)
	if best == nil {
		return nil
	}
	ncols := len(best.segs) - 1
	if ncols > maxEncodeColumns {
		return nil
	}
	q := &qLines{nlines: len(ls), trailing: trailing, rowModes: make([]byte, len(ls)), cols: make([][][]byte, ncols)}
	q.verbatim = best.scan(ls, q.rowModes, func(_ int, vals [][]byte) {
		for k, v := range vals {
			q.cols[k] = append(q.cols[k], v)
		}
	})
	if ncols == 0 {
		return nil
	}
	segs := unquoteColumns(q.cols, best.segs)
	template := varint.Append(nil, uint64(len(segs)))
	for _, s := range segs {
		template = varint.Append(template, uint64(len(s)))
		template = append(template, s...)
	}
	paths := varint.Append(nil, uint64(len(best.keys)))
	for _, k := range best.keys {
		paths = varint.Append(paths, uint64(len(k)))
		paths = append(paths, k...)
	}
	meta := varint.Append(nil, uint64(q.nlines))
	meta = append(meta, b2u(q.trailing))
	return &qjsonPlan{c, q, meta, template, paths}
}

// streams compresses the plan's blocks and lays out its streams.
func (p *qjsonPlan) streams() []namedStream {
	return p.c.qStreams(p.q, p.meta, p.template, p.paths)
}

// estimate is the plan's size under fast zstd, as estimateStreams gives
// the columnar layouts': its small streams and each column's values
// (joined, as its blocks hold them), before the blocks are compressed.
func (p *qjsonPlan) estimate() int {
	streams := []namedStream{{data: p.meta}, {data: p.template}, {data: p.paths}, {data: p.q.rowModes},
		{data: bytes.Join(p.q.verbatim, []byte{'\n'})}}
	for _, col := range p.q.cols {
		streams = append(streams, namedStream{data: bytes.Join(col, []byte{'\n'})})
	}
	return estimateStreams(streams, p.c.concurrency)
}

// unquoteColumns moves the quotes of every column whose values are all
// JSON strings into the template around it: segs (ncols+1 segments,
// not modified) with those quotes added, and the columns' values
// without them. A string of digits ("lat":"42.53176") is then an
// integer or decimal column with zone maps, so a range query on its
// path skips row groups, where with its quotes it was text and could
// not be queried at all; text columns lose two bytes a value. The
// output is the same bytes: a qjson line is its segments and values
// joined, whichever side the quotes are on.
func unquoteColumns(cols [][][]byte, segs [][]byte) [][]byte {
	out := slices.Clone(segs)
	for k, col := range cols {
		if len(col) == 0 || slices.ContainsFunc(col, func(v []byte) bool { return !isQuoted(v) }) {
			continue
		}
		for i, v := range col {
			col[i] = v[1 : len(v)-1]
		}
		out[k] = append(slices.Clip(out[k]), '"')
		out[k+1] = append([]byte{'"'}, out[k+1]...)
	}
	return out
}

// isQuoted reports whether v starts and ends with a double quote: a JSON
// string as jsonShape splits it off (ended at its closing quote), or a
// quoted CSV field as qcolumnar keeps it.
func isQuoted(v []byte) bool {
	return len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"'
}

func sameSegs(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func cloneAll(bs [][]byte) [][]byte {
	out := make([][]byte, len(bs))
	for i, b := range bs {
		out[i] = bytes.Clone(b)
	}
	return out
}
