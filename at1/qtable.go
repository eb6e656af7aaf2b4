package at1

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"

	"github.com/colfmt/colfmt/internal/errs"
)

// Column types of qcolumnar (7) and qjson (8).
const (
	QText    = 0
	QInt     = 1
	QDecimal = 2
)

// Block tags inside the blocks stream.
const (
	tagXZ   = 0
	tagZstd = 1
)

// Block is one (row group, column) block of a qcolumnar/qjson file.
type Block struct {
	Offset int64 // offset in the blocks stream (file offset via File)
	Size   int64 // bytes, tag included
	// Zone map: IntMin/IntMax for integer columns, DecMin/DecMax for
	// decimal columns; HasZone is false for text columns.
	HasZone        bool
	IntMin, IntMax int64
	DecMin, DecMax float64
}

// qTable is the parsed non-data part of a qcolumnar/qjson file.
type qTable struct {
	codec    Codec
	nlines   int
	trailing bool
	delim    []byte
	ncols    int
	rg       int
	nStruct  uint64
	nrg      uint64
	coltypes []byte
	segs     [][]byte // qjson template
	paths    []string // qjson column names, if present
	rowModes []byte
	verbatim []byte
	groups   [][]Block // [g][c]
	// blocksLen is the size of the blocks stream.
	blocksLen int64
}

func qStreams(codec Codec, prefix string) []string {
	names := []string{"meta", "row_modes", "verbatim", "index"}
	if codec == CodecQJSON {
		names = append(names, "template", "paths")
	}
	for i := range names {
		names[i] = prefix + names[i]
	}
	return names
}

// parseQTable parses meta, template, paths and index. rowModes and
// verbatim are attached by the caller. blocksLen bounds the blocks.
func (dc *decoder) parseQTable(codec Codec, get func(string) []byte, prefix string, blocksLen int64) (*qTable, error) {
	t := &qTable{codec: codec, blocksLen: blocksLen}
	cur := &cursor{b: get(prefix + "meta"), path: "stream \"" + prefix + "meta\""}
	n, err := cur.uv("nlines")
	if err != nil {
		return nil, err
	}
	tr, err := cur.u8("trailing")
	if err != nil {
		return nil, err
	}
	if codec == CodecQColumnar {
		if t.delim, err = cur.lstr("delim"); err != nil {
			return nil, err
		}
	}
	ncols, err := cur.uv("ncols")
	if err != nil {
		return nil, err
	}
	if ncols > uint64(cur.rest()) {
		return nil, cur.errf("ncols %d exceeds the bytes that remain for column types", ncols)
	}
	rg, err := cur.uv("rg")
	if err != nil {
		return nil, err
	}
	if rg == 0 || rg > 1<<40 {
		return nil, cur.errf("row group size %d", rg)
	}
	if t.nStruct, err = cur.uv("n_struct"); err != nil {
		return nil, err
	}
	if t.nrg, err = cur.uv("nrg"); err != nil {
		return nil, err
	}
	if t.coltypes, err = cur.take(ncols, "coltypes"); err != nil {
		return nil, err
	}
	if n > 1<<40 {
		return nil, cur.errf("nlines %d implausibly large", n)
	}
	t.nlines, t.trailing, t.ncols, t.rg = int(n), tr != 0, int(ncols), int(rg)
	for k, ct := range t.coltypes {
		if ct > QDecimal {
			return nil, errs.At(ErrCorrupt, -1, cur.path, "column %d has unknown type %d", k, ct)
		}
	}
	if codec == CodecQJSON {
		tc := &cursor{b: get(prefix + "template"), path: "stream \"" + prefix + "template\""}
		nseg, err := tc.count("nseg", 1)
		if err != nil {
			return nil, err
		}
		if uint64(nseg) != ncols+1 {
			return nil, tc.errf("template has %d segments for %d columns (want ncols+1)", nseg, ncols)
		}
		t.segs = make([][]byte, nseg)
		for i := range t.segs {
			if t.segs[i], err = tc.lstr("template segment"); err != nil {
				return nil, err
			}
		}
		t.paths = parsePaths(get(prefix + "paths"))
	}
	if err := t.parseIndex(get(prefix+"index"), prefix); err != nil {
		return nil, err
	}
	return t, nil
}

// parsePaths reads the optional column names; the decoder does not need
// them, so a damaged paths stream only loses query-by-name.
func parsePaths(b []byte) []string {
	cur := &cursor{b: b}
	n, err := cur.count("paths", 1)
	if err != nil {
		return nil
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		s, err := cur.lstr("path")
		if err != nil {
			return nil
		}
		out = append(out, string(s))
	}
	return out
}

func (t *qTable) parseIndex(index []byte, prefix string) error {
	cur := &cursor{b: index, path: "stream \"" + prefix + "index\""}
	if t.ncols == 0 {
		return nil
	}
	var off int64
	for cur.rest() > 0 {
		g := make([]Block, t.ncols)
		for c := range g {
			clen, err := cur.uv("block length")
			if err != nil {
				return err
			}
			if clen > uint64(t.blocksLen-off) {
				return cur.errf("block (%d,%d) of %d bytes runs past the blocks stream (%d bytes)", len(t.groups), c, clen, t.blocksLen)
			}
			b := Block{Offset: off, Size: int64(clen)}
			off += int64(clen)
			switch t.coltypes[c] {
			case QInt:
				b.HasZone = true
				if b.IntMin, err = cur.sv("zone min"); err != nil {
					return err
				}
				if b.IntMax, err = cur.sv("zone max"); err != nil {
					return err
				}
			case QDecimal:
				z, err := cur.take(16, "decimal zone map")
				if err != nil {
					return err
				}
				b.HasZone = true
				b.DecMin = math.Float64frombits(binary.LittleEndian.Uint64(z))
				b.DecMax = math.Float64frombits(binary.LittleEndian.Uint64(z[8:]))
			}
			g[c] = b
		}
		t.groups = append(t.groups, g)
	}
	return nil
}

// check runs the WithStrict consistency checks on n_struct and nrg.
func (t *qTable) check() error {
	var ns uint64
	for _, m := range t.rowModes[:t.nlines] {
		if m != 0 {
			ns++
		}
	}
	if ns != t.nStruct {
		return errs.At(ErrCorrupt, -1, "stream \"meta\"", "n_struct %d, row_modes has %d structured lines", t.nStruct, ns)
	}
	if want := (ns + uint64(t.rg) - 1) / uint64(t.rg); t.nrg != want || (t.ncols > 0 && uint64(len(t.groups)) != want) {
		return errs.At(ErrCorrupt, -1, "stream \"meta\"", "nrg %d, index has %d groups, %d expected", t.nrg, len(t.groups), want)
	}
	return nil
}

// blockPath names block (g, col) in errors.
func blockPath(g, col int) string {
	return "block (" + strconv.Itoa(g) + "," + strconv.Itoa(col) + ")"
}

// blockBackend reads a block's tag: the backend of the payload after it.
func blockBackend(raw []byte, off int64, path string) (byte, error) {
	if len(raw) == 0 {
		return 0, errs.At(ErrCorrupt, off, path, "empty block (no tag)")
	}
	switch raw[0] {
	case tagXZ:
		return BackendXZ, nil
	case tagZstd:
		return BackendZstd, nil
	}
	// The reference decodes any other tag as xz; its encoder writes only
	// 0 and 1.
	return 0, errs.At(ErrCorrupt, off, path, "unknown block tag %d", raw[0])
}

// decodeBlock decodes one block ([tag][payload]) into its values.
func (dc *decoder) decodeBlock(raw []byte, off int64, g, col int, budget *atomic.Int64, lazy bool) (colVals, error) {
	path := blockPath(g, col)
	backend, err := blockBackend(raw, off, path)
	if err != nil {
		return colVals{}, err
	}
	d, err := dc.decompress(backend, raw[1:], dc.maxStream, off+1, path)
	if err != nil {
		return colVals{}, err
	}
	if budget != nil && budget.Add(-int64(len(d))) < 0 {
		return colVals{}, errs.At(ErrTooLarge, off, path, "decoded blocks exceed the decoded size limit of %d bytes", dc.maxDecoded)
	}
	if lazy {
		return colVals{text: lazyLines(d)}, nil
	}
	return splitLines(d), nil
}

// nextVerbatim returns the verbatim line at *pos and advances; ok is
// false once the lines have run out.
func nextVerbatim(verbatim []byte, pos *int) ([]byte, bool) {
	if *pos > len(verbatim) {
		return nil, false
	}
	rest := verbatim[*pos:]
	end := bytes.IndexByte(rest, '\n')
	if end < 0 {
		end = len(rest)
	}
	*pos += end + 1
	return rest[:end], true
}

// appendRow writes structured row r of a group's decoded columns.
func (t *qTable) appendRow(dst []byte, cols []colVals, r int) []byte {
	if t.codec == CodecQJSON {
		dst = append(dst, t.segs[0]...)
		for c := range cols {
			dst = appendVal(dst, &cols[c], r)
			dst = append(dst, t.segs[c+1]...)
		}
		return dst
	}
	for c := range cols {
		if c > 0 {
			if len(t.delim) == 1 {
				dst = append(dst, t.delim[0])
			} else {
				dst = append(dst, t.delim...)
			}
		}
		dst = appendVal(dst, &cols[c], r)
	}
	return dst
}

// appendVal appends value r of v. A value split from a block (buf and
// offs) of at most smallVal bytes, with smallVal bytes of the block from
// its start and room for them in dst, is moved as one fixed-size copy
// (the bytes after it are overwritten by what follows, or left past
// len(dst)) instead of a memmove call.
func appendVal(dst []byte, v *colVals, r int) []byte {
	if v.num == nil && v.text == nil && v.idx == nil {
		s, e := int(v.offs[r]), int(v.offs[r+1])-1
		if n := len(dst); e-s <= smallVal && s+smallVal <= len(v.buf) && cap(dst)-n >= smallVal {
			*(*[smallVal]byte)(dst[n : n+smallVal]) = *(*[smallVal]byte)(v.buf[s : s+smallVal])
			return dst[:n+e-s]
		}
		return append(dst, v.buf[s:e]...)
	}
	return append(dst, v.at(r)...)
}

// loadQTable loads and parses everything but the blocks of a stream set.
func (dc *decoder) loadQTable(codec Codec, ss *streamSet, prefix string) (*qTable, []byte, int64, error) {
	names := append(qStreams(codec, prefix), prefix+"blocks")
	if err := ss.load(names...); err != nil {
		return nil, nil, 0, err
	}
	blocks := ss.get(prefix + "blocks")
	var boff int64 = -1
	if i := ss.find(prefix + "blocks"); i >= 0 && ss.streams[i].Backend == BackendStored {
		boff = ss.streams[i].Offset
	}
	t, err := dc.parseQTable(codec, ss.get, prefix, int64(len(blocks)))
	if err != nil {
		return nil, nil, 0, err
	}
	t.rowModes = ss.get(prefix + "row_modes")
	t.verbatim = ss.get(prefix + "verbatim")
	return t, blocks, boff, nil
}

// decodeQuery fully reconstructs a qcolumnar or qjson stream set onto
// dst, or, when cw is not nil, writes its lines to cw in chunks (dst is
// then returned as it is).
func (dc *decoder) decodeQuery(dst []byte, codec Codec, ss *streamSet, limit int64, cw *chunkWriter) ([]byte, error) {
	t, blocks, boff, err := dc.loadQTable(codec, ss, "")
	if err != nil {
		return nil, err
	}
	if len(t.rowModes) < t.nlines {
		return nil, errs.At(ErrCorrupt, int64(len(t.rowModes)), "stream \"row_modes\"", "%d row modes for %d lines", len(t.rowModes), t.nlines)
	}
	if cw != nil && !dc.safe {
		return dst, dc.streamQuery(cw, t, blocks, max(boff, 0), limit)
	}
	w, est, err := dc.qLineWriter(t, blocks, max(boff, 0), limit-int64(len(dst)), cw != nil)
	if err != nil {
		return nil, err
	}
	if cw != nil {
		return dst, streamLines(cw, t, w, limit, dc.maxDecoded)
	}
	dst = reserve(dst, est, limit)
	// Lines are written in parts, in parallel, each part from the row
	// and verbatim positions the lines before it leave. The output limit
	// is shared. Every part but the last is measured first (the counts
	// were validated above; not on the checked path), so that all parts
	// write in place in dst; the last one runs to the end of dst's
	// capacity (est is an upper bound) and is copied only if it outgrows
	// it. On the checked path parts after the first go to their own
	// buffers.
	parts := max(1, min(dc.concurrency, t.nlines/assemblePart))
	bound := func(k int) int { return t.nlines * k / parts }
	var used atomic.Int64
	used.Store(int64(len(dst)))
	bufs := make([][]byte, parts)
	var offs []int // each part's start in dst, when measured
	starts := make([]qPos, parts)
	if parts > 1 && !dc.safe {
		sizes := make([]int, parts)
		_ = parallel(parts, parts, func(k int) error {
			starts[k] = t.posAt(bound(k))
			if k < parts-1 {
				sizes[k] = w.linesSize(bound(k), bound(k+1), starts[k])
			}
			return nil
		})
		offs = make([]int, parts+1)
		offs[0] = len(dst)
		for k := 0; k < parts-1; k++ {
			offs[k+1] = offs[k] + sizes[k]
		}
		offs[parts] = cap(dst)
		if offs[parts-1] > cap(dst) {
			offs = nil // est is an upper bound: a bug, but the copy path is right
		}
	}
	err = parallel(parts, parts, func(k int) error {
		l0, l1 := bound(k), bound(k+1)
		var pos qPos
		out := dst
		switch {
		case offs != nil:
			pos, out = starts[k], dst[offs[k]:offs[k]:offs[k+1]]
		case k > 0:
			pos = t.posAt(l0)
			out = make([]byte, 0, int(min(est/int64(parts)+1024, limit)))
		default:
			pos = t.posAt(l0)
		}
		mark := len(out)
		for i := l0; i < l1; i++ {
			if i > 0 {
				out = append(out, '\n')
			}
			var err error
			if out, err = w.line(out, &pos); err != nil {
				return err
			}
			if len(out)-mark >= 64<<10 || i == l1-1 {
				if used.Add(int64(len(out)-mark)) > limit {
					return errs.At(ErrTooLarge, -1, "line "+strconv.Itoa(i), "decoded output exceeds the limit of %d bytes", dc.maxDecoded)
				}
				mark = len(out)
			}
		}
		bufs[k] = out
		return nil
	})
	if err != nil {
		return nil, err
	}
	if offs != nil {
		for k, b := range bufs {
			inPlace := len(b) == 0 || (offs[k] < cap(dst) && &b[0] == &dst[:cap(dst)][offs[k]])
			switch {
			case k < parts-1 && (len(b) != offs[k+1]-offs[k] || !inPlace):
				// A part that outgrew its measure: a bug, never an
				// input problem.
				return nil, fmt.Errorf("at1: internal error: a line part does not match its measured size")
			case k < parts-1:
			case inPlace:
				dst = dst[:offs[k]+len(b)]
			default:
				dst = append(dst[:offs[k]], b...)
			}
		}
	} else {
		dst = bufs[0]
		for _, b := range bufs[1:] {
			dst = append(dst, b...)
		}
	}
	if t.trailing {
		dst = append(dst, '\n')
	}
	return dst, nil
}

// qLines decodes every block (in parallel) and returns a function that
// appends the next line on each call, following row_modes.
func (dc *decoder) qLines(t *qTable, blocks []byte, boff int64, budget int64) (next func([]byte) ([]byte, error), estimate int64, err error) {
	w, estimate, err := dc.qLineWriter(t, blocks, boff, budget, false)
	if err != nil {
		return nil, 0, err
	}
	var pos qPos
	return func(dst []byte) ([]byte, error) { return w.line(dst, &pos) }, estimate, nil
}

// qPos is a position in the lines of a qTable: the next line, structured
// row and verbatim offset.
type qPos struct{ line, si, vpos int }

// posAt returns the position of line l.
func (t *qTable) posAt(l int) qPos {
	p := qPos{line: l}
	for _, m := range t.rowModes[:l] {
		if m != 0 {
			p.si++
		} else {
			nextVerbatim(t.verbatim, &p.vpos)
		}
	}
	return p
}

// qWriter writes the lines of a qTable from its decoded blocks.
type qWriter struct {
	c    *decoder
	t    *qTable
	vals []colVals // [g*ncols+col]
}

// lineGroups checks t's row groups against its structured lines (and,
// when strict, the whole table) and returns the structured lines and
// the groups that hold them.
func (dc *decoder) lineGroups(t *qTable) (nstruct, ngroups int, err error) {
	if dc.strict {
		if err := t.check(); err != nil {
			return 0, 0, err
		}
	}
	for _, m := range t.rowModes[:t.nlines] {
		if m != 0 {
			nstruct++
		}
	}
	if t.ncols == 0 {
		return nstruct, 0, nil
	}
	ngroups = (nstruct + t.rg - 1) / t.rg
	if ngroups > len(t.groups) {
		return 0, 0, errs.At(ErrCorrupt, -1, "stream \"index\"", "index has %d row groups, %d structured lines need %d", len(t.groups), nstruct, ngroups)
	}
	return nstruct, ngroups, nil
}

// qLineWriter decodes every block (in parallel) and validates the value
// counts. lazy (for lines written in order) walks each block's lines
// instead of indexing them.
func (dc *decoder) qLineWriter(t *qTable, blocks []byte, boff int64, budget int64, lazy bool) (w *qWriter, estimate int64, err error) {
	nstruct, ngroups, err := dc.lineGroups(t)
	if err != nil {
		return nil, 0, err
	}
	vals := make([]colVals, ngroups*t.ncols)
	var bud atomic.Int64
	bud.Store(budget + 1<<20)
	err = parallel(dc.concurrency, len(vals), func(i int) error {
		g, col := i/t.ncols, i%t.ncols
		b := t.groups[g][col]
		v, err := dc.decodeBlock(blocks[b.Offset:b.Offset+b.Size], boff+b.Offset, g, col, &bud, lazy)
		vals[i] = v
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	// Validate once: every block holds a value for each row of its group.
	if !dc.safe {
		for g := 0; g < ngroups; g++ {
			rows := min(t.rg, nstruct-g*t.rg)
			for col := 0; col < t.ncols; col++ {
				if n := vals[g*t.ncols+col].count(); n < rows {
					b := t.groups[g][col]
					return nil, 0, errs.At(ErrCorrupt, boff+b.Offset, "block ("+strconv.Itoa(g)+","+strconv.Itoa(col)+")", "block has %d values, its row group has %d rows", n, rows)
				}
			}
		}
	}
	// Output size estimate: values, separators, verbatim lines.
	estimate = int64(len(t.verbatim)) + int64(t.nlines)
	for i := range vals {
		estimate += int64(len(vals[i].buf))
		if vals[i].text != nil {
			estimate += int64(len(vals[i].text.b))
		}
	}
	sep := int64(len(t.delim)) * int64(max(t.ncols-1, 0))
	for _, s := range t.segs {
		sep += int64(len(s))
	}
	estimate += sep * int64(nstruct)
	return &qWriter{c: dc, t: t, vals: vals}, estimate, nil
}

// line appends the line at p and advances p.
func (w *qWriter) line(dst []byte, p *qPos) ([]byte, error) {
	t, c := w.t, w.c
	mode := t.rowModes[p.line]
	p.line++
	if mode == 0 {
		v, ok := nextVerbatim(t.verbatim, &p.vpos)
		if !ok && c.strict {
			return nil, errs.At(ErrCorrupt, int64(len(t.verbatim)), "stream \"verbatim\"", "verbatim lines run out at line %d", p.line-1)
		}
		return append(dst, v...), nil
	}
	g, r := p.si/t.rg, p.si%t.rg
	p.si++
	if t.ncols == 0 {
		if t.codec == CodecQJSON {
			dst = append(dst, t.segs[0]...)
		}
		return dst, nil
	}
	cols := w.vals[g*t.ncols : (g+1)*t.ncols]
	if c.safe { // the checked twin; the fast path validated counts above
		for c := range cols {
			if r >= cols[c].count() {
				return nil, errs.At(ErrCorrupt, -1, "block ("+strconv.Itoa(g)+","+strconv.Itoa(c)+")", "block has %d values, row %d needed", cols[c].count(), r)
			}
		}
	}
	return t.appendRow(dst, cols, r), nil
}

// linesSize is the number of bytes lines l0..l1-1 take in decodeQuery's
// output (each line after the first of the table preceded by its '\n'),
// from position p (of line l0); p is not changed. The value counts must
// have been validated (qLineWriter, not on the checked path).
func (w *qWriter) linesSize(l0, l1 int, p qPos) int {
	t := w.t
	n := 0
	for i := l0; i < l1; i++ {
		if i > 0 {
			n++
		}
		mode := t.rowModes[p.line]
		p.line++
		if mode == 0 {
			v, _ := nextVerbatim(t.verbatim, &p.vpos)
			n += len(v)
			continue
		}
		g, r := p.si/t.rg, p.si%t.rg
		p.si++
		if t.codec == CodecQJSON {
			n += len(t.segs[0])
		}
		if t.ncols == 0 {
			continue
		}
		cols := w.vals[g*t.ncols : (g+1)*t.ncols]
		for c := range cols {
			v := &cols[c]
			if v.num == nil && v.text == nil && v.idx == nil {
				n += int(v.offs[r+1]-v.offs[r]) - 1
			} else {
				n += len(v.at(r))
			}
			if t.codec == CodecQJSON {
				n += len(t.segs[c+1])
			} else if c > 0 {
				n += len(t.delim)
			}
		}
	}
	return n
}

// streamLines writes every line of t to cw, passing the buffer on at
// about streamChunk bytes, from blocks all decoded first: the checked
// twin (config.safe) of streamQuery.
func streamLines(cw *chunkWriter, t *qTable, w *qWriter, limit, maxDecoded int64) error {
	start := cw.n + int64(len(cw.buf))
	tooLarge := func(i int) error {
		return errs.At(ErrTooLarge, -1, "line "+strconv.Itoa(i), "decoded output exceeds the limit of %d bytes", maxDecoded)
	}
	pos := t.posAt(0)
	for i := 0; i < t.nlines; i++ {
		if i > 0 {
			cw.buf = append(cw.buf, '\n')
		}
		var err error
		if cw.buf, err = w.line(cw.buf, &pos); err != nil {
			return err
		}
		if len(cw.buf) >= streamChunk {
			if cw.n+int64(len(cw.buf))-start > limit {
				return tooLarge(i)
			}
			if err := cw.flush(); err != nil {
				return err
			}
		}
	}
	if t.trailing {
		cw.buf = append(cw.buf, '\n')
	}
	if cw.n+int64(len(cw.buf))-start > limit {
		return tooLarge(t.nlines)
	}
	return nil
}
