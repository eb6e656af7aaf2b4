package lance

// Rebuilding Arrow arrays from repetition and definition levels (notes
// §5.4). A page of one leaf column becomes a "path array": the nested
// arrays along the leaf's path, top level first, with one child per
// struct. mergePaths (read21.go) then joins the leaves of a field.

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
)

func isListType(dt arrow.DataType) bool {
	switch dt.(type) {
	case *arrow.ListType, *arrow.LargeListType, *arrow.MapType:
		return true
	}
	return false
}

// assemble turns one decoded page into the path array of its leaf (path
// is the field path, top level first).
func (d *dec) assemble(pd *pageData, path []*fieldNode, layers []layer) (arrow.ArrayData, error) {
	L := len(layers)
	if L != len(path) {
		return nil, d.corrupt("page has %d rep/def layers for a field path of %d nodes", L, len(path))
	}
	for j, l := range layers {
		if l.isList() != isListType(path[L-1-j].dt) || (j == 0 && l.isList()) {
			return nil, d.corrupt("rep/def layer %d is %s for a %s field", j, l, path[L-1-j].dt)
		}
	}
	first := make([]uint16, L)
	vis := make([]uint16, L)
	need := make([]uint16, L)
	var running uint16 = 1
	var lists uint16
	for j, l := range layers {
		first[j] = running
		running += l.codes()
		if l.isList() {
			lists++
		}
		need[j] = lists
	}
	maxDef, maxRep := running-1, lists
	for j := range layers {
		m := j + 1
		for m < L && !layers[m].isList() {
			m++
		}
		var s uint16
		for k := 0; k < m && k < L; k++ {
			s += layers[k].codes()
		}
		vis[j] = s
	}
	n := pd.entries
	rep, def := pd.rep, pd.def
	if rep != nil && len(rep) != n || def != nil && len(def) != n {
		return nil, d.corrupt("page has %d entries but %d rep and %d def levels", n, len(rep), len(def))
	}
	if rep == nil && maxRep > 0 && n > 0 {
		if err := d.mem.charge(2*int64(n), d.path, "levels"); err != nil {
			return nil, err
		}
		rep = make([]uint16, n)
		for k := range rep {
			rep[k] = maxRep
		}
	}
	for k := 0; k < n; k++ {
		if def != nil && def[k] > maxDef {
			return nil, d.corrupt("definition level %d = %d, at most %d", k, def[k], maxDef)
		}
		if rep != nil && rep[k] > maxRep {
			return nil, d.corrupt("repetition level %d = %d, at most %d", k, rep[k], maxRep)
		}
	}
	if maxRep > 0 && n > 0 && rep[0] != maxRep {
		return nil, d.corrupt("page starts with repetition level %d, not a row start (%d)", rep[0], maxRep)
	}
	// Without lists every entry is a slot of every layer (def <= maxDef
	// was checked above): skip the per-entry tests.
	allIn := rep == nil
	// slot validity bitmaps, built for every layer
	bitmap := func(j int) ([]byte, int, int, error) {
		cnt := n
		if !allIn {
			cnt = 0
			for k := 0; k < n; k++ {
				if slotIn(rep, def, k, vis[j], need[j]) {
					cnt++
				}
			}
		}
		if def == nil || maxDef == 0 {
			return nil, cnt, 0, nil
		}
		if err := d.mem.charge(int64(cnt+7)/8, d.path, "validity"); err != nil {
			return nil, 0, 0, err
		}
		bm := make([]byte, (cnt+7)/8)
		s, nulls := 0, 0
		emptyCode := uint16(0)
		if layers[j] == emptyableList {
			emptyCode = first[j]
		} else if layers[j] == nullAndEmptyList {
			emptyCode = first[j] + 1
		}
		if allIn && emptyCode == 0 {
			lim := first[j]
			for k, x := range def {
				if x < lim {
					bm[k>>3] |= 1 << (k & 7)
				} else {
					nulls++
				}
			}
			if nulls == 0 {
				return nil, cnt, 0, nil
			}
			return bm, cnt, nulls, nil
		}
		for k := 0; k < n; k++ {
			if !slotIn(rep, def, k, vis[j], need[j]) {
				continue
			}
			x := def[k]
			if x < first[j] || (emptyCode != 0 && x == emptyCode) {
				bm[s/8] |= 1 << (s % 8)
			} else {
				nulls++
			}
			s++
		}
		if nulls == 0 {
			return nil, cnt, 0, nil
		}
		return bm, cnt, nulls, nil
	}
	leafNode := path[L-1]
	vb, cnt, nulls, err := bitmap(0)
	if err != nil {
		return nil, err
	}
	if !pd.v.null && pd.v.n != cnt {
		return nil, d.corrupt("page has %d visible values for %d leaf slots", pd.v.n, cnt)
	}
	if pd.v.null {
		pd.v.n = cnt
	}
	cur, err := d.leafArray(leafNode, leafNode.dt, pd.v, vb, nulls)
	if err != nil {
		return nil, err
	}
	for j := 1; j < L; j++ {
		node := path[L-1-j]
		child := path[L-j]
		vb, cnt, nulls, err := bitmap(j)
		if err != nil {
			cur.Release()
			return nil, err
		}
		cf := arrow.Field{Name: child.name, Type: cur.DataType(), Nullable: childNullable(node.dt, child.name)}
		var bufs []*memory.Buffer
		var dt arrow.DataType
		var vbuf *memory.Buffer
		if vb != nil {
			vbuf = memory.NewBufferBytes(vb)
		}
		if !layers[j].isList() {
			if cnt != cur.Len() {
				cur.Release()
				return nil, d.corrupt("struct layer %d has %d slots, its child %d", j, cnt, cur.Len())
			}
			dt = arrow.StructOf(cf)
			bufs = []*memory.Buffer{vbuf}
		} else {
			large := false
			if _, ok := node.dt.(*arrow.LargeListType); ok {
				large = true
			}
			if err := d.mem.charge(8*int64(cnt+1), d.path, "list offsets"); err != nil {
				cur.Release()
				return nil, err
			}
			o64 := make([]int64, 0, cnt+1)
			c := int64(0)
			started := false
			for k := 0; k < n; k++ {
				if slotIn(rep, def, k, vis[j], need[j]) {
					o64 = append(o64, c)
					started = true
				}
				if slotIn(rep, def, k, vis[j-1], need[j-1]) {
					if !started {
						cur.Release()
						return nil, d.corrupt("list items before the first list at entry %d", k)
					}
					c++
				}
			}
			o64 = append(o64, c)
			if c != int64(cur.Len()) {
				cur.Release()
				return nil, d.corrupt("list layer %d owns %d items, its child has %d", j, c, cur.Len())
			}
			if large {
				dt = arrow.LargeListOfField(cf)
				bufs = []*memory.Buffer{vbuf, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(o64))}
			} else {
				if c > math.MaxInt32 {
					cur.Release()
					return nil, errs.At(ErrTooLarge, d.off, d.path, "%d list items need a large list", c)
				}
				o32 := make([]int32, len(o64))
				for i, x := range o64 {
					o32[i] = int32(x)
				}
				dt = arrow.ListOfField(cf)
				bufs = []*memory.Buffer{vbuf, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(o32))}
			}
		}
		nd := array.NewData(dt, cnt, bufs, []arrow.ArrayData{cur}, nulls, 0)
		cur.Release()
		cur = nd
	}
	if cur.Len() != pd.rows {
		cur.Release()
		return nil, d.corrupt("page assembles to %d rows, its length is %d", cur.Len(), pd.rows)
	}
	return cur, nil
}

// slotIn reports whether entry k opens a slot of a layer with visibility
// bound vis and list level need (small enough to inline).
func slotIn(rep, def []uint16, k int, vis, need uint16) bool {
	return (def == nil || def[k] <= vis) && (rep == nil || rep[k] >= need)
}

// leafArray builds the leaf's Arrow array from its slot values and slot
// validity (nil: all valid).
func (d *dec) leafArray(node *fieldNode, dt arrow.DataType, v *vals, vb []byte, nulls int) (arrow.ArrayData, error) {
	n := v.n
	var vbuf *memory.Buffer
	if vb != nil {
		vbuf = memory.NewBufferBytes(vb)
	}
	if v.null {
		nulls = n
		if n > 0 {
			var err error
			if vb, err = d.alloc(int64(n+7)/8, "validity"); err != nil {
				return nil, err
			}
			vbuf = memory.NewBufferBytes(vb)
		}
	}
	switch t := dt.(type) {
	case *arrow.NullType:
		return array.NewData(dt, n, []*memory.Buffer{nil}, nil, n, 0), nil
	case *arrow.BooleanType:
		var bm []byte
		switch {
		case v.null:
			bm = vb
		case v.bits == 1 && !v.variable() && v.dims == nil:
			bm = v.data
		case v.bits == 8 && !v.variable() && v.dims == nil:
			var err error
			if bm, err = d.alloc(int64(n+7)/8, "bool values"); err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				if v.data[i]&1 == 1 {
					bm[i/8] |= 1 << (i % 8)
				}
			}
		default:
			return nil, d.corrupt("bool column decoded as %d-bit values", v.bits)
		}
		return array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(bm)}, nil, nulls, 0), nil
	case *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType:
		large := dt.ID() == arrow.LARGE_STRING || dt.ID() == arrow.LARGE_BINARY
		var data []byte
		var ob []byte
		if v.null {
			w := int64(4)
			if large {
				w = 8
			}
			var err error
			if ob, err = d.alloc(w*int64(n+1), "offsets"); err != nil {
				return nil, err
			}
		} else {
			if !v.variable() {
				return nil, d.corrupt("%s column decoded as %d-bit values", dt, v.bits)
			}
			base := v.offs[0]
			data = v.data[base:v.offs[n]]
			if err := d.mem.charge(8*int64(n+1), d.path, "offsets"); err != nil {
				return nil, err
			}
			if large {
				o := make([]int64, n+1)
				for i := range o {
					o[i] = v.offs[i] - base
				}
				ob = arrow.Int64Traits.CastToBytes(o)
			} else {
				if v.offs[n]-base > math.MaxInt32 {
					return nil, errs.At(ErrTooLarge, d.off, d.path, "%d bytes of %s in one page", v.offs[n]-base, dt)
				}
				o := make([]int32, n+1)
				for i := range o {
					o[i] = int32(v.offs[i] - base)
				}
				ob = arrow.Int32Traits.CastToBytes(o)
			}
		}
		return array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(ob), memory.NewBufferBytes(data)}, nil, nulls, 0), nil
	case *arrow.FixedSizeListType:
		return d.fslArray(t, v, n, vbuf, nulls, 0)
	case *arrow.StructType:
		if !node.packed {
			return nil, d.corrupt("struct leaf that is not packed")
		}
		kids := make([]arrow.ArrayData, t.NumFields())
		if !v.null && len(v.kids) != t.NumFields() {
			return nil, d.corrupt("packed struct of %d fields decoded as %d", t.NumFields(), len(v.kids))
		}
		for i := range kids {
			kv := &vals{n: n, null: true}
			if !v.null {
				kv = v.kids[i]
			}
			k, err := d.leafArray(node.children[i], t.Field(i).Type, kv, nil, 0)
			if err != nil {
				for _, x := range kids[:i] {
					x.Release()
				}
				return nil, err
			}
			kids[i] = k
		}
		out := array.NewData(dt, n, []*memory.Buffer{vbuf}, kids, nulls, 0)
		for _, k := range kids {
			k.Release()
		}
		return out, nil
	case arrow.FixedWidthDataType:
		bw := t.BitWidth()
		if bw%8 != 0 || dt.ID() == arrow.DICTIONARY {
			return nil, errs.At(ErrUnsupported, d.off, d.path, "leaf type %s", dt)
		}
		data := v.data
		if v.null {
			var err error
			if data, err = d.alloc(int64(n)*int64(bw/8), "null values"); err != nil {
				return nil, err
			}
		} else if v.bits != bw || v.variable() || v.dims != nil || v.kids != nil {
			return nil, d.corrupt("%s column decoded as %d-bit values", dt, v.bits)
		} else {
			data = data[:n*bw/8]
		}
		return array.NewData(dt, n, []*memory.Buffer{vbuf, memory.NewBufferBytes(data)}, nil, nulls, 0), nil
	}
	return nil, errs.At(ErrUnsupported, d.off, d.path, "leaf type %s", dt)
}

// fslArray builds fixed-size list level k of v (n lists).
func (d *dec) fslArray(t *arrow.FixedSizeListType, v *vals, n int, vbuf *memory.Buffer, nulls int, k int) (arrow.ArrayData, error) {
	dim := int(t.Len())
	cn := n * dim
	var child arrow.ArrayData
	var cvb []byte
	cnulls := 0
	if !v.null {
		if k >= len(v.dims) || v.dims[k] != dim {
			return nil, d.corrupt("fixed-size list of %d decoded with dimensions %v", dim, v.dims)
		}
		cvb = v.valid[k]
		if cvb != nil {
			cnulls = cn - bitutil.CountSetBits(cvb, 0, cn)
			if cnulls == 0 {
				cvb = nil
			}
		}
	}
	var cbuf *memory.Buffer
	if cvb != nil {
		cbuf = memory.NewBufferBytes(cvb)
	}
	var err error
	if et, ok := t.Elem().(*arrow.FixedSizeListType); ok {
		child, err = d.fslArray(et, v, cn, cbuf, cnulls, k+1)
	} else {
		if !v.null && k != len(v.dims)-1 {
			return nil, d.corrupt("fixed-size list decoded with dimensions %v", v.dims)
		}
		iv := &vals{n: cn, bits: v.bits, data: v.data, null: v.null}
		child, err = d.leafArray(nil, t.Elem(), iv, cvb, cnulls)
	}
	if err != nil {
		return nil, err
	}
	defer child.Release()
	return array.NewData(t, n, []*memory.Buffer{vbuf}, []arrow.ArrayData{child}, nulls, 0), nil
}

// childNullable is the nullability the schema gives child in parent (list
// items, struct members), so pages assembled here have the same type as
// the direct decoders' (which build from the schema) and join with them.
func childNullable(parent arrow.DataType, name string) bool {
	switch t := parent.(type) {
	case arrow.ListLikeType:
		return t.ElemField().Nullable
	case *arrow.StructType:
		if i, ok := t.FieldIdx(name); ok {
			return t.Field(i).Nullable
		}
	}
	return true
}
