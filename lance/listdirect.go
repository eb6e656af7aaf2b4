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

// The common list column (every offsets page a plain u64 Flat, each page's
// items following the previous page's) is read in one pass per page: the
// page's offsets into reused scratch, then checked and written rebased
// straight into the output offsets, validity built a word at a time.
// Anything else (compressed or narrower offsets, pages whose items leave
// a gap) takes the general list decoder, which the fuzz targets compare
// this with.

// u64Scratch returns n reusable u64 slots and their bytes.
func (r *reader) u64Scratch(n int64) ([]uint64, []byte) {
	if int64(cap(r.scratch)) < n {
		r.scratch = make([]uint64, n)
	}
	s := r.scratch[:n]
	return s, arrow.Uint64Traits.CastToBytes(s)
}

// listDirect reads rows [a, b) of a list field (item nil: a 0.13 string
// stored as a list of u8); ok is false when the general path must be used.
func (r *reader) listDirect(n, item *fieldNode, dt arrow.DataType, a, b int64, depth int) (arrow.Array, bool, error) {
	f := r.f
	col := f.columns[n.col]
	rows := b - a
	large := dt.ID() == arrow.LARGE_LIST || (item == nil && isLarge(dt))
	// Pass 1, without reading: every page involved must have the plain layout.
	var base int64
	first := -1
	for pi, p := range col.pages {
		le := p.enc.GetList()
		if le == nil || le.NumItems > 1<<62 {
			return nil, false, nil
		}
		base += int64(le.NumItems)
		if base > 1<<62 {
			return nil, false, nil
		}
		if p.rowStart >= b {
			break
		}
		if p.rowStart+p.length <= a || p.length == 0 {
			continue
		}
		fl := plainFlat(le.GetOffsets(), 64)
		if fl == nil {
			return nil, false, nil
		}
		if _, ok := f.bufferRange(col, p, fl.Buffer); !ok {
			return nil, false, nil
		}
		if first < 0 {
			first = pi
		}
	}
	if first < 0 {
		return nil, false, nil
	}
	if err := f.checkAlloc(rows+1, 64, &where{path: col.path}, "offsets"); err != nil {
		return nil, false, nil // the general path reports it page by page
	}
	if err := r.mem.charge(8*(rows+1)+(rows+7)/8, col.path, "list offsets"); err != nil {
		return nil, false, err
	}
	var o32 []int32
	var o64 []int64
	if large {
		o64 = make([]int64, rows+1)
	} else {
		o32 = make([]int32, rows+1)
	}
	words := make([]uint64, (rows+63)/64)
	at := int64(0)     // output rows written
	var ia, ib int64   // global item range so far
	var pageBase int64 // items of the column's earlier offsets pages
	for pi, p := range col.pages {
		le := p.enc.GetList()
		pb := pageBase
		pageBase += int64(le.NumItems)
		if p.rowStart >= b {
			break
		}
		if p.rowStart+p.length <= a || p.length == 0 {
			continue
		}
		if err := r.ctx.Err(); err != nil {
			return nil, false, err
		}
		w := &where{col: col, pg: p, path: fmt.Sprintf("%s page %d", col.path, pi), budget: &r.mem}
		lo := max(a, p.rowStart) - p.rowStart
		hi := min(b, p.rowStart+p.length) - p.rowStart
		if err := f.checkAlloc(p.length, 64, w, "offsets"); err != nil {
			return nil, false, err
		}
		fl := plainFlat(le.GetOffsets(), 64)
		br, _ := f.bufferRange(col, p, fl.Buffer)
		if br.size > f.cfg.maxBuffer {
			return nil, false, nil // the general path reports it
		}
		if br.size < p.length*8 {
			return nil, false, errs.At(ErrBufferSize, br.off, w.path, "Flat buffer of %d bytes holds fewer than %d values of %d bits", br.size, p.length, 64)
		}
		offs, raw := r.u64Scratch(hi)
		if err := f.readAt(raw, br.off, w.path); err != nil {
			return nil, false, err
		}
		adj, num := le.NullOffsetAdjustment, le.NumItems
		lim := endLimit(adj, num)
		// Rows before lo are checked too, as the general decoder does:
		// they give lo its start.
		prev, bad := checkEnds(offs[:lo], adj, 0, lim)
		if bad < 0 {
			start := pb + int64(prev)
			if at == 0 {
				ia = start
			} else if start != ib {
				return nil, false, nil // the items leave a gap: the general path joins segments
			}
			rebase := pb - ia // output offset = rebase + page-local end
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
			return nil, false, errs.At(ErrOffsets, -1, w.path, "list %d ends at item %d after %d (adjustment %d, %d items)", bad, storedEnd(offs[bad], adj), pv, adj, num)
		}
		ib = pb + int64(prev)
		at += hi - lo
	}
	total := ib - ia
	if !large && total > math.MaxInt32 {
		return nil, false, errs.At(ErrTooLarge, -1, col.path, "%d list items need a large_list", total)
	}
	nulls := int(rows) - popcount(words)
	var vb []byte
	if nulls > 0 {
		vb = arrow.Uint64Traits.CastToBytes(words)[:bitutil.BytesForBits(rows)]
	}
	w := &where{col: col, path: col.path}
	if item == nil {
		u8, err := r.leaf(f.columns[n.col+1], arrow.PrimitiveTypes.Uint8, ia, ib)
		if err != nil {
			return nil, false, err
		}
		data := u8.(*array.Uint8).Uint8Values()
		u8.Release()
		arr, err := f.varBinaryOffsets(w, dt, o32, o64, data, vb, nulls)
		return arr, err == nil, err
	}
	items, err := r.field(item, ia, ib, depth+1)
	if err != nil {
		return nil, false, err
	}
	defer items.Release()
	arr, err := listArrayOffsets(dt, o32, o64, items, vb, nulls)
	return arr, err == nil, err
}

func popcount(words []uint64) int {
	n := 0
	for _, w := range words {
		n += bits.OnesCount64(w)
	}
	return n
}
