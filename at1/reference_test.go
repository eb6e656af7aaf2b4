package at1

import (
	"bytes"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
)

func init() { assembleRowsChecked = (*decoder).assembleRowsSafe }

// assembleRowsSafe writes the rows checking each step as it goes.
func (c *decoder) assembleRowsSafe(dst []byte, rs *columnarRows, limit int64) ([]byte, error) {
	m, rowModes, fieldcounts, verbatim, header := rs.m, rs.rowModes, rs.fieldcounts, rs.verbatim, rs.header
	cols, quotes := rs.cols, rs.quotes
	// Reserve the output once: column text, separators, verbatim lines.
	est := int64(len(header)+len(verbatim)) + int64(m.nrows)*int64(1+len(m.delim)*max(len(cols)-1, 0))
	for k := range cols {
		est += int64(len(cols[k].buf))
		if cols[k].idx != nil && len(cols[k].offs) > 1 {
			est += int64(cols[k].idx.n) * int64(len(cols[k].buf)/(len(cols[k].offs)-1))
		}
	}
	dst = reserve(dst, est, limit)
	if m.hasHeader {
		dst = append(dst, header...)
	}
	fc := &cursor{b: fieldcounts, path: "stream \"fieldcounts\""}
	next := make([]int, len(cols))
	vpos := 0 // next verbatim line; len(verbatim)+1 once they have run out
	for r := 0; r < m.nrows; r++ {
		if r > 0 || m.hasHeader {
			dst = append(dst, '\n')
		}
		if rowModes[r] == 0 {
			if vpos > len(verbatim) {
				if c.strict {
					return nil, errs.At(ErrCorrupt, int64(len(verbatim)), "stream \"verbatim\"", "verbatim lines run out at row %d", r)
				}
				continue // the reference emits an empty line
			}
			end := bytes.IndexByte(verbatim[vpos:], '\n')
			if end < 0 {
				end = len(verbatim) - vpos
			}
			dst = append(dst, verbatim[vpos:vpos+end]...)
			vpos += end + 1
		} else {
			nf, err := fc.uv("field count")
			if err != nil {
				return nil, err
			}
			if nf > uint64(len(cols)) {
				return nil, errs.At(ErrCorrupt, int64(fc.off), fc.path, "row %d has %d fields, more than the %d columns", r, nf, len(cols))
			}
			for i := 0; i < int(nf); i++ {
				if i > 0 {
					dst = append(dst, m.delim...)
				}
				col := &cols[i]
				j := next[i]
				if j >= col.count() {
					return nil, errs.At(ErrCorrupt, -1, "column "+strconv.Itoa(i), "column runs out of values at row %d", r)
				}
				next[i]++
				if quotes[i].quoted(j) {
					dst = appendQuoted(dst, col.at(j))
				} else {
					dst = append(dst, col.at(j)...)
				}
			}
		}
		if int64(len(dst)) > limit {
			return nil, errs.At(ErrTooLarge, -1, "row "+strconv.Itoa(r), "decoded output exceeds the limit of %d bytes", c.maxDecoded)
		}
	}
	if m.trailing {
		dst = append(dst, '\n')
	}
	if int64(len(dst)) > limit {
		return nil, errs.At(ErrTooLarge, -1, "", "decoded output exceeds the limit of %d bytes", c.maxDecoded)
	}
	return dst, nil
}
