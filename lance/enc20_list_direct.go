package lance

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/colfmt/colfmt/internal/errs"
)

// The common list column (every offsets page a plain u64 Flat, planned by
// planList20) is read in one pass per page: the page's offsets into reused
// scratch, then checked and written rebased straight into the output
// offsets, validity built a word at a time. Other offsets (compressed or
// narrower) are planned for the general list decoder, which the fuzz
// targets compare this with.

// u64Scratch returns n reusable u64 slots and their bytes.
func (r *reader) u64Scratch(n int64) ([]uint64, []byte) {
	if int64(cap(r.scratch)) < n {
		r.scratch = make([]uint64, n)
	}
	s := r.scratch[:n]
	return s, arrow.Uint64Traits.CastToBytes(s)
}

// listDirect reads rows [a, b) of a list field (item nil: a 0.13 string
// stored as a list of u8) whose offsets pages the plan found all plain
// (planList20). When a page's items do not follow the previous page's
// (a gap), the items are read run by run and joined.
func (r *reader) listDirect(n, item *fieldNode, dt arrow.DataType, a, b int64, depth int) (arrow.Array, error) {
	f := r.f
	col := f.columns[n.col]
	rows := b - a
	large := dt.ID() == arrow.LARGE_LIST || (item == nil && isLarge(dt))
	if err := f.checkAlloc(rows+1, 64, &where{path: col.path}, "offsets"); err != nil {
		return nil, err
	}
	if err := r.mem.charge(8*(rows+1)+(rows+7)/8, col.path, "list offsets"); err != nil {
		return nil, err
	}
	var o32 []int32
	var o64 []int64
	if large {
		o64 = make([]int64, rows+1)
	} else {
		o32 = make([]int32, rows+1)
	}
	words := make([]uint64, (rows+63)/64)
	type run struct{ ia, ib int64 } // global item ranges, in output order
	var runs []run
	at := int64(0)     // output rows written
	var shift int64    // output offset = global item + shift
	var pageBase int64 // items of the column's earlier offsets pages
	for pi, p := range col.pages {
		le := p.enc.GetList()
		if le == nil {
			return nil, errs.At(ErrCorrupt, col.metaOff, col.path, "page %d is not of the planned List layout", pi)
		}
		pb := pageBase
		pageBase += int64(le.NumItems)
		if p.rowStart >= b {
			break
		}
		if p.rowStart+p.length <= a || p.length == 0 {
			continue
		}
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		w := &where{col: col, pg: p, path: fmt.Sprintf("%s page %d", col.path, pi), budget: &r.mem}
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		if err := f.checkAlloc(p.length, 64, w, "offsets"); err != nil {
			return nil, err
		}
		fl := plainFlat(le.GetOffsets(), 64)
		if fl == nil {
			return nil, errs.At(ErrCorrupt, col.metaOff, w.path, "offsets are not of the planned plain layout")
		}
		br, _ := f.bufferRange(col, p, fl.Buffer)
		if br.size < p.length*8 {
			return nil, errs.At(ErrBufferSize, br.off, w.path, "Flat buffer of %d bytes holds fewer than %d values of %d bits", br.size, p.length, 64)
		}
		offs, raw := r.u64Scratch(hi)
		if err := f.readAt(raw, br.off, w.path); err != nil {
			return nil, err
		}
		adj, num := le.NullOffsetAdjustment, le.NumItems
		lim := endLimit(adj, num)
		// Rows before lo are checked too, as the general decoder does:
		// they give lo its start.
		prev, bad := checkEnds(offs[:lo], adj, 0, lim)
		if bad < 0 {
			start := pb + int64(prev)
			switch {
			case len(runs) == 0:
				runs = append(runs, run{start, start})
				shift = -start
			case start != runs[len(runs)-1].ib:
				// A gap: a new run of items, placed after the items so far.
				last := runs[len(runs)-1]
				shift += last.ib - start
				runs = append(runs, run{start, start})
			}
			rebase := pb + shift // output offset = rebase + page-local end
			if large {
				prev, bad = rebaseEnds(offs[lo:hi], adj, prev, lim, rebase, o64[at+1:], words, at)
			} else {
				prev, bad = rebaseEnds(offs[lo:hi], adj, prev, lim, rebase, o32[at+1:], words, at)
			}
			if bad >= 0 {
				bad += int(lo)
			}
		}
		if bad >= 0 {
			pv := uint64(0)
			if bad > 0 {
				pv = storedEnd(offs[bad-1], adj)
			}
			return nil, errs.At(ErrOffsets, -1, w.path, "list %d ends at item %d after %d (adjustment %d, %d items)", bad, storedEnd(offs[bad], adj), pv, adj, num)
		}
		runs[len(runs)-1].ib = pb + int64(prev)
		at += hi - lo
	}
	if len(runs) == 0 || at != rows {
		return nil, errs.At(ErrLength, col.metaOff, col.path, "list pages hold %d of rows %d..%d", at, a, b)
	}
	var total int64
	for _, rn := range runs {
		total += rn.ib - rn.ia
	}
	if !large && total > math.MaxInt32 {
		return nil, errs.At(ErrTooLarge, -1, col.path, "%d list items need a large_list", total)
	}
	nulls := int(rows) - popcount(words)
	var vb []byte
	if nulls > 0 {
		vb = arrow.Uint64Traits.CastToBytes(words)[:bitutil.BytesForBits(rows)]
	}
	w := &where{col: col, path: col.path}
	if item == nil {
		var data []byte
		for _, rn := range runs {
			u8, err := r.leaf(f.columns[n.col+1], arrow.PrimitiveTypes.Uint8, rn.ia, rn.ib)
			if err != nil {
				return nil, err
			}
			if len(runs) == 1 {
				data = u8.(*array.Uint8).Uint8Values()
			} else {
				data = append(data, u8.(*array.Uint8).Uint8Values()...)
			}
			u8.Release()
		}
		return f.varBinaryOffsets(w, dt, o32, o64, data, vb, nulls)
	}
	items, err := r.items(item, runs[0].ia, runs[0].ib, depth)
	if err != nil {
		return nil, err
	}
	if len(runs) > 1 {
		parts := []arrow.Array{items}
		defer func() {
			for _, p := range parts {
				p.Release()
			}
		}()
		budget := joinBudget{f: f, path: col.path}
		if err := budget.add(items); err != nil {
			return nil, err
		}
		for _, rn := range runs[1:] {
			it, err := r.items(item, rn.ia, rn.ib, depth)
			if err != nil {
				return nil, err
			}
			parts = append(parts, it)
			if err := budget.add(it); err != nil {
				return nil, err
			}
		}
		items, err = array.Concatenate(parts, f.cfg.mem)
		if err != nil {
			return nil, errs.At(ErrCorrupt, -1, col.path, "joining list items: %v", err)
		}
	}
	defer items.Release()
	return listArrayOffsets(dt, o32, o64, items, vb, nulls)
}

// items reads the items [ia, ib) of a list.
func (r *reader) items(item *fieldNode, ia, ib int64, depth int) (arrow.Array, error) {
	return r.field(item, ia, ib, depth+1)
}

func popcount(words []uint64) int {
	n := 0
	for _, w := range words {
		n += bits.OnesCount64(w)
	}
	return n
}
