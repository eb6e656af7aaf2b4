package csup

import (
	"bytes"
	"iter"
	"math"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// Query selects columns and rows of a CSUP version 16 file.
type Query struct {
	// Columns to return, as dotted paths ("user.addr.zip"); none = all.
	// Predicate columns are read (and returned) as well.
	Columns []string
	// Where holds range predicates; a row must satisfy all of them.
	Where []Range
}

// Range is an inclusive range predicate on the column at Path (a dotted
// path of record fields). A nil bound is open. Integers (signed, unsigned,
// time, duration), floats, strings and bytes compare by value; a row whose
// value is null, missing or of another kind does not match.
type Range struct {
	Path     string
	Min, Max *bsup.Value
}

// QueryStats counts the work a query did.
type QueryStats struct {
	Objects        int   // objects in the file
	ObjectsSkipped int   // skipped whole because of their min/max statistics
	Rows           int64 // rows returned
}

// Rows is the result of File.Query: iterate with All, then read Stats.
type Rows struct {
	r       *Reader
	stats   QueryStats
	filter  []rangePred // generations other than CSUP v16
	skipAll bool
}

// ColumnStats are the statistics CSUP stores for the column at a path in
// one object: the minimum and maximum of the values of each leaf node the
// path reaches (for a top-level Dynamic, one per variant that has it).
type ColumnStats struct {
	Object   int        // object index
	Rows     int64      // rows of the object
	Min, Max bsup.Value // over every leaf the path reaches
	Known    bool       // false: some leaf on the path has no statistics
}

type rangePred struct {
	path   []string
	lo, hi *bsup.Value
}

// Query plans a query. Only CSUP version 16 files carry statistics; other
// generations are refused with ErrUnsupported.
func (f *File) Query(q Query) (*Rows, error) {
	preds, err := rangePreds(q.Where)
	if err != nil {
		return nil, err
	}
	cols := append([]string(nil), q.Columns...)
	if len(q.Columns) > 0 {
		for _, w := range q.Where {
			cols = append(cols, w.Path)
		}
	}
	rs := &Rows{r: f.NewReader(cols...)}
	if f.v16 == nil {
		// One object: VNG v4 statistics can rule the whole file out; other
		// generations have none. Rows are filtered by value as they come.
		rs.filter = preds
		rs.stats.Objects = 1
		for _, p := range preds {
			if !f.mayMatch(p) {
				rs.stats.ObjectsSkipped = 1
				rs.skipAll = true
			}
		}
		return rs, nil
	}
	v := rs.r.v16
	v.where, v.stats = preds, &rs.stats
	v.skip = func(o *v16Object) bool {
		for _, p := range preds {
			if !o.mayMatch(p) {
				return true
			}
		}
		return false
	}
	return rs, nil
}

// rangePreds checks the ranges of a query.
func rangePreds(where []Range) ([]rangePred, error) {
	var preds []rangePred
	for _, w := range where {
		if w.Path == "" {
			return nil, errs.Wrap(ErrInvalidArgument, "range predicate without a path")
		}
		for _, b := range []*bsup.Value{w.Min, w.Max} {
			if b != nil && (b.Null || b.Type == nil || compareClass(b.Type) == 0) {
				return nil, errs.Wrap(ErrInvalidArgument, "range bound on %s is not an integer, float, string or bytes value", w.Path)
			}
		}
		preds = append(preds, rangePred{path: splitPath(w.Path), lo: w.Min, hi: w.Max})
	}
	return preds, nil
}

// All returns the matching rows.
func (rs *Rows) All() iter.Seq2[bsup.Value, error] {
	return func(yield func(bsup.Value, error) bool) {
		if rs.skipAll {
			return
		}
		for v, err := range rs.r.All() {
			if err == nil && len(rs.filter) > 0 && !matchAll(rs.filter, &v) {
				continue
			}
			if err == nil {
				rs.stats.Rows++
			}
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}

// Stats returns the work counts so far.
func (rs *Rows) Stats() QueryStats { return rs.stats }

// Stats returns the statistics of the column at path in each object of a
// CSUP version 16 file, or in the one object of a VNG v4 file (nothing
// for objects without that column, or for generations without statistics).
func (f *File) Stats(path string) []ColumnStats {
	if f.v16 == nil {
		return f.nodeStats(path)
	}
	var out []ColumnStats
	for i, o := range f.v16 {
		var leaves []*v16Node
		o.leaves(o.root, splitPath(path), &leaves, 0)
		if len(leaves) == 0 {
			continue
		}
		cs := ColumnStats{Object: i, Rows: o.rows, Known: true}
		first := true
		for _, n := range leaves {
			mn, mx, ok := n.bounds()
			if !ok {
				cs.Known = false
				continue
			}
			if first || less(mn, cs.Min) {
				cs.Min = mn
			}
			if first || less(cs.Max, mx) {
				cs.Max = mx
			}
			first = false
		}
		if first {
			cs.Known = false
		}
		out = append(out, cs)
	}
	return out
}

func less(a, b bsup.Value) bool {
	c, ok := compareValues(a, b)
	return ok && c < 0
}

// leaves collects the nodes at path under id: through a Dynamic's
// variants, records by field name, named and error wrappers.
func (o *v16Object) leaves(id int, path []string, out *[]*v16Node, depth int) {
	if depth > 4*len(o.nodes)+8 {
		return
	}
	n := o.nodes[id]
	switch n.kind {
	case k16Dynamic:
		for _, k := range n.kids {
			o.leaves(k, path, out, depth+1)
		}
	case k16Named, k16Error:
		o.leaves(n.kids[0], path, out, depth+1)
	case k16Record:
		if len(path) == 0 {
			*out = append(*out, n)
			return
		}
		for i, name := range n.names {
			if name == path[0] {
				o.leaves(n.kids[i], path[1:], out, depth+1)
			}
		}
	default:
		if len(path) == 0 {
			*out = append(*out, n)
		}
	}
}

// bounds returns a leaf's min and max: its statistics, a Const's value, a
// Dict's entries' statistics.
func (n *v16Node) bounds() (mn, mx bsup.Value, ok bool) {
	switch {
	case n.kind == k16Const:
		return n.cval, n.cval, !n.cval.Null
	case n.hasStats:
		return n.min, n.max, !n.min.Null && !n.max.Null
	}
	return bsup.Value{}, bsup.Value{}, false
}

// mayMatch reports whether any row of o may satisfy p, from statistics
// alone: false only when every leaf the path reaches has statistics and
// none of them overlaps the range (or the path reaches nothing).
func (o *v16Object) mayMatch(p rangePred) bool {
	var leaves []*v16Node
	o.leaves(o.root, p.path, &leaves, 0)
	for _, n := range leaves {
		if n.kind == k16Dict {
			n = o.nodes[n.kids[0]]
		}
		if n.length == 0 {
			continue
		}
		if n.kind == k16Const && n.cval.Null {
			continue // nulls never match
		}
		mn, mx, ok := n.bounds()
		if !ok {
			return true
		}
		if p.lo != nil {
			if c, ok := compareValues(mx, *p.lo); !ok || c >= 0 {
				if !ok {
					return true
				}
			} else {
				continue
			}
		}
		if p.hi != nil {
			if c, ok := compareValues(mn, *p.hi); !ok || c <= 0 {
				if !ok {
					return true
				}
			} else {
				continue
			}
		}
		return true
	}
	return false
}

// match filters a row by the predicates.
func (r *v16Reader) match(v *bsup.Value) bool { return matchAll(r.where, v) }

func matchAll(preds []rangePred, v *bsup.Value) bool {
	for _, p := range preds {
		x, ok := pathValue(*v, p.path)
		if !ok || x.Null {
			return false
		}
		if p.lo != nil {
			if c, ok := compareValues(x, *p.lo); !ok || c < 0 {
				return false
			}
		}
		if p.hi != nil {
			if c, ok := compareValues(x, *p.hi); !ok || c > 0 {
				return false
			}
		}
	}
	return true
}

func pathValue(v bsup.Value, path []string) (bsup.Value, bool) {
	for _, name := range path {
		if v.Null {
			return v, false
		}
		f, ok := v.Field(name)
		if !ok {
			return v, false
		}
		v = f
	}
	for !v.Null && bsup.PayloadKind(v.Type) == bsup.KindUnion && len(v.Elems) == 1 {
		v = v.Elems[0]
	}
	return v, true
}

// compareClass: 1 signed, 2 unsigned, 3 float, 4 bytes/string, 0 other.
func compareClass(t *bsup.Type) int {
	switch bsup.PayloadKind(t) {
	case bsup.KindInt8, bsup.KindInt16, bsup.KindInt32, bsup.KindInt64, bsup.KindDuration, bsup.KindTime:
		return 1
	case bsup.KindUint8, bsup.KindUint16, bsup.KindUint32, bsup.KindUint64:
		return 2
	case bsup.KindFloat16, bsup.KindFloat32, bsup.KindFloat64:
		return 3
	case bsup.KindString, bsup.KindBytes:
		return 4
	}
	return 0
}

// compareValues orders two non-null values of comparable classes.
func compareValues(a, b bsup.Value) (int, bool) {
	if a.Null || b.Null || a.Type == nil || b.Type == nil {
		return 0, false
	}
	ca, cb := compareClass(a.Type), compareClass(b.Type)
	if ca == 0 || cb == 0 || (ca == 4) != (cb == 4) {
		return 0, false
	}
	if ca == 4 {
		return bytes.Compare(a.Bytes, b.Bytes), true
	}
	switch {
	case ca == 1 && cb == 1:
		return cmp3(a.Int < b.Int, a.Int > b.Int), true
	case ca == 2 && cb == 2:
		return cmp3(a.Uint < b.Uint, a.Uint > b.Uint), true
	case ca == 1 && cb == 2:
		if a.Int < 0 {
			return -1, true
		}
		return cmp3(uint64(a.Int) < b.Uint, uint64(a.Int) > b.Uint), true
	case ca == 2 && cb == 1:
		c, ok := compareValues(b, a)
		return -c, ok
	}
	fa, fb := asFloat(a, ca), asFloat(b, cb)
	if math.IsNaN(fa) || math.IsNaN(fb) {
		return 0, false
	}
	return cmp3(fa < fb, fa > fb), true
}

func asFloat(v bsup.Value, class int) float64 {
	switch class {
	case 1:
		return float64(v.Int)
	case 2:
		return float64(v.Uint)
	}
	return v.Float
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// v16Types returns the distinct top-level types of every object.
func (f *File) v16Types() []*bsup.Type {
	seen := map[string]bool{}
	var out []*bsup.Type
	for _, o := range f.v16 {
		root := o.nodes[o.root]
		ids := []int{o.root}
		if root.kind == k16Dynamic {
			ids = root.kids
		}
		for _, id := range ids {
			t := o.nodes[id].typ
			if k := t.Key(); !seen[k] {
				seen[k] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// nodeLeaves collects the leaf columns at path in the column trees of a
// VNG v4 (or older) file: records by field name, through nulls wrappers.
func nodeLeaves(n *node, path []string, out *[]*node, depth int) {
	if n == nil || depth > 10000 {
		return
	}
	switch n.kind {
	case nodeNulls:
		nodeLeaves(n.elem, path, out, depth+1)
	case nodeRecord:
		if len(path) == 0 {
			*out = append(*out, n)
			return
		}
		for i, name := range n.names {
			if name == path[0] {
				nodeLeaves(n.fields[i], path[1:], out, depth+1)
			}
		}
	default:
		if len(path) == 0 {
			*out = append(*out, n)
		}
	}
}

func (n *node) bounds() (mn, mx bsup.Value, ok bool) {
	switch {
	case n.kind == nodeConst:
		return n.cval, n.cval, !n.cval.Null
	case n.hasStats:
		return n.min, n.max, true
	}
	return bsup.Value{}, bsup.Value{}, false
}

func (f *File) nodeStats(path string) []ColumnStats {
	var leaves []*node
	for _, c := range f.cols {
		nodeLeaves(c, splitPath(path), &leaves, 0)
	}
	if len(leaves) == 0 || f.Generation != GenVNGv4 {
		return nil
	}
	rows, _ := f.count()
	cs := ColumnStats{Rows: rows, Known: true}
	first := true
	for _, n := range leaves {
		mn, mx, ok := n.bounds()
		if !ok {
			if n.kind == nodeAllNull || (n.kind == nodeConst && n.cval.Null) {
				continue
			}
			cs.Known = false
			continue
		}
		if first || less(mn, cs.Min) {
			cs.Min = mn
		}
		if first || less(cs.Max, mx) {
			cs.Max = mx
		}
		first = false
	}
	if first {
		cs.Known = false
	}
	return []ColumnStats{cs}
}

// mayMatch reports whether a VNG v4 file may hold a row satisfying p.
func (f *File) mayMatch(p rangePred) bool {
	if f.Generation != GenVNGv4 {
		return true
	}
	var leaves []*node
	for _, c := range f.cols {
		nodeLeaves(c, p.path, &leaves, 0)
	}
	for _, n := range leaves {
		if n.kind == nodeAllNull || (n.kind == nodeConst && n.cval.Null) {
			continue
		}
		mn, mx, ok := n.bounds()
		if !ok || rangeOverlaps(mn, mx, p) {
			return true
		}
	}
	return false
}

// rangeOverlaps reports whether [mn,mx] may meet p's range (true when the
// values do not compare).
func rangeOverlaps(mn, mx bsup.Value, p rangePred) bool {
	if p.lo != nil {
		if c, ok := compareValues(mx, *p.lo); ok && c < 0 {
			return false
		}
	}
	if p.hi != nil {
		if c, ok := compareValues(mn, *p.hi); ok && c > 0 {
			return false
		}
	}
	return true
}
