package at1

import (
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
)

// maxTemplates is the most templates a qjson2 file may declare.
const maxTemplates = 64

// decodeQJSON2 reconstructs codec 11: a line_map routes each line to the
// outer verbatim lines (0) or to the next line of template k (k+1); each
// template is a qjson table whose streams are named "t{k}:<name>".
//
// No reference vector pins down how a template's own row_modes interact
// with line_map. We read a template as a complete qjson table: its lines
// follow its own row_modes (all structured when that stream is absent),
// and line_map takes them in order.
func (dc *decoder) decodeQJSON2(dst []byte, ss *streamSet, limit int64) ([]byte, error) {
	if err := ss.load("meta", "line_map", "verbatim"); err != nil {
		return nil, err
	}
	cur := &cursor{b: ss.get("meta"), path: "stream \"meta\""}
	nlines, err := cur.uv("nlines")
	if err != nil {
		return nil, err
	}
	tr, err := cur.u8("trailing")
	if err != nil {
		return nil, err
	}
	nt, err := cur.uv("ntemplates")
	if err != nil {
		return nil, err
	}
	if nt > maxTemplates {
		return nil, cur.errf("%d templates, at most %d", nt, maxTemplates)
	}
	lm := &cursor{b: ss.get("line_map"), path: "stream \"line_map\""}
	if nlines > uint64(lm.rest()) {
		return nil, lm.errf("line_map has %d bytes for %d lines", lm.rest(), nlines)
	}
	// First pass: count each template's lines, to bound its tables.
	routes := make([]uint64, nlines)
	want := make([]int, nt)
	for i := range routes {
		if routes[i], err = lm.uv("line_map entry"); err != nil {
			return nil, err
		}
		if routes[i] > nt {
			return nil, lm.errf("line %d maps to template %d of %d", i, routes[i]-1, nt)
		}
		if routes[i] > 0 {
			want[routes[i]-1]++
		}
	}
	next := make([]func([]byte) ([]byte, error), nt)
	left := make([]int, nt)
	budget := limit - int64(len(dst))
	for k := range next {
		if want[k] == 0 {
			continue
		}
		prefix := "t" + strconv.Itoa(k) + ":"
		t, blocks, boff, err := dc.loadQTable(CodecQJSON, ss, prefix)
		if err != nil {
			return nil, err
		}
		if t.nlines > want[k] {
			t.nlines = want[k]
		}
		if len(t.rowModes) == 0 {
			t.rowModes = make([]byte, t.nlines)
			for i := range t.rowModes {
				t.rowModes[i] = 1
			}
		}
		if len(t.rowModes) < t.nlines {
			return nil, errs.At(ErrCorrupt, int64(len(t.rowModes)), "stream \""+prefix+"row_modes\"", "%d row modes for %d lines", len(t.rowModes), t.nlines)
		}
		if next[k], _, err = dc.qLines(t, blocks, max(boff, 0), budget); err != nil {
			return nil, err
		}
		left[k] = t.nlines
	}
	verbatim := ss.get("verbatim")
	vpos := 0
	for i, r := range routes {
		if i > 0 {
			dst = append(dst, '\n')
		}
		if r == 0 {
			v, ok := nextVerbatim(verbatim, &vpos)
			if !ok && dc.strict {
				return nil, errs.At(ErrCorrupt, int64(len(verbatim)), "stream \"verbatim\"", "verbatim lines run out at line %d", i)
			}
			dst = append(dst, v...)
		} else {
			k := r - 1
			if left[k] == 0 {
				return nil, errs.At(ErrCorrupt, -1, "template "+strconv.Itoa(int(k)), "template lines run out at line %d", i)
			}
			left[k]--
			if dst, err = next[k](dst); err != nil {
				return nil, err
			}
		}
		if int64(len(dst)) > limit {
			return nil, errs.At(ErrTooLarge, -1, "line "+strconv.Itoa(i), "decoded output exceeds the limit of %d bytes", dc.maxDecoded)
		}
	}
	if tr != 0 && nlines > 0 {
		dst = append(dst, '\n')
	}
	return dst, nil
}
