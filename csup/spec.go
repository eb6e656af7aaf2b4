package csup

import (
	"strconv"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// Reassembly of the spec layout and of ZST v2 (they share 2N+1):
// N typed nulls, the super column segmap, N reassembly values.

func buildSpec(f *fileInfo, gen Generation, vals []bsup.Value) (types []*bsup.Type, super []Segment, cols []*node, err error) {
	n := 0
	for n < len(vals) && vals[n].Null {
		n++
	}
	if len(vals) != 2*n+1 {
		return nil, nil, nil, errs.At(ErrCorrupt, -1, "reassembly", "%d values after %d typed nulls, want 2N+1 = %d", len(vals), n, 2*n+1)
	}
	for i := 0; i < n; i++ {
		if d := vals[i].Type.Depth(); d > f.cfg.maxDepth {
			return nil, nil, nil, errs.At(ErrTooLarge, -1, "reassembly", "super type %d nests %d deep, over the limit of %d", i, d, f.cfg.maxDepth)
		}
		types = append(types, vals[i].Type)
	}
	if super, err = parseSegmap(vals[n], f, "super"); err != nil {
		return nil, nil, nil, err
	}
	b := specBuilder{f: f, gen: gen}
	for i, t := range types {
		c, err := b.column(t, vals[n+1+i], "super"+strconv.Itoa(i), 0)
		if err != nil {
			return nil, nil, nil, err
		}
		cols = append(cols, c)
	}
	return types, super, cols, nil
}

type specBuilder struct {
	f   *fileInfo
	gen Generation
}

// column builds the node for a column of type t described by meta.
func (b *specBuilder) column(t *bsup.Type, meta bsup.Value, path string, depth int) (*node, error) {
	if depth > 2*b.f.cfg.maxDepth+4 {
		return nil, errs.At(ErrTooLarge, -1, path, "columns nest deeper than %d", b.f.cfg.maxDepth)
	}
	meta = unwrap(meta)
	if meta.Type == nil {
		return nil, errs.At(ErrCorrupt, -1, path, "missing column description")
	}
	if meta.Null {
		return &node{kind: nodeAllNull, typ: t, path: path}, nil
	}
	if b.gen == GenSpec && typeName(meta) == nullsName {
		return b.nulls(t, meta, path, depth)
	}
	u := t.Underlying()
	switch u.Kind {
	case bsup.KindRecord:
		if !isRecord(meta) {
			return nil, errs.At(ErrCorrupt, -1, path, "record column of type %s is not a record", meta.Type)
		}
		rec := &node{kind: nodeRecord, typ: t, path: path}
		for _, fld := range u.Fields {
			fpath := joinPath(path, fld.Name)
			fm, ok := fieldExact(meta, fld.Name)
			if !ok {
				return nil, errs.At(ErrCorrupt, -1, fpath, "record column lacks field %q", fld.Name)
			}
			col, ok1 := field(fm, "column")
			pres, ok2 := field(fm, "presence")
			if !ok1 || !ok2 {
				return nil, errs.At(ErrCorrupt, -1, fpath, "field column lacks column or presence")
			}
			c, err := b.column(fld.Type, col, fpath, depth+1)
			if err != nil {
				return nil, err
			}
			runs, err := parseSegmap(pres, b.f, fpath+"/presence")
			if err != nil {
				return nil, err
			}
			if len(runs) > 0 && c.kind != nodeAllNull {
				c = &node{kind: nodeNulls, typ: fld.Type, path: fpath, segs: runs, elem: c}
			}
			rec.names = append(rec.names, fld.Name)
			rec.fields = append(rec.fields, c)
		}
		return rec, nil
	case bsup.KindArray, bsup.KindSet:
		vals, ok1 := field(meta, "values")
		lens, ok2 := field(meta, "lengths")
		if !ok1 || !ok2 {
			return nil, errs.At(ErrCorrupt, -1, path, "array column lacks values or lengths")
		}
		segs, err := parseSegmap(lens, b.f, path+"/lengths")
		if err != nil {
			return nil, err
		}
		elem, err := b.column(u.Elem, vals, path+"[]", depth+1)
		if err != nil {
			return nil, err
		}
		return &node{kind: nodeArray, typ: t, path: path, segs: segs, elem: elem}, nil
	case bsup.KindMap:
		if isRecord(meta) {
			keys, ok1 := field(meta, "key")
			vals, ok2 := field(meta, "value")
			lens, ok3 := field(meta, "lengths")
			if !ok1 || !ok2 || !ok3 {
				return nil, errs.At(ErrCorrupt, -1, path, "map column lacks key, value or lengths")
			}
			segs, err := parseSegmap(lens, b.f, path+"/lengths")
			if err != nil {
				return nil, err
			}
			kc, err := b.column(u.Elem, keys, path+"{key}", depth+1)
			if err != nil {
				return nil, err
			}
			vc, err := b.column(u.Val, vals, path+"{value}", depth+1)
			if err != nil {
				return nil, err
			}
			return &node{kind: nodeMap, typ: t, path: path, segs: segs, elem: kc, val: vc}, nil
		}
		return b.prim(t, meta, path) // ZST v2: whole map bodies
	case bsup.KindUnion:
		if b.gen == GenZSTv2 {
			return b.zstUnion(t, u, meta, path, depth)
		}
		cols, ok1 := field(meta, "columns")
		tags, ok2 := field(meta, "tags")
		list, ok3 := elems(cols)
		if !ok1 || !ok2 || !ok3 || len(list) != len(u.Types) {
			return nil, errs.At(ErrCorrupt, -1, path, "union column needs tags and %d columns", len(u.Types))
		}
		un := &node{kind: nodeUnion, typ: t, path: path}
		var err error
		if un.segs, err = parseSegmap(tags, b.f, path+"/tags"); err != nil {
			return nil, err
		}
		for i, m := range u.Types {
			c, err := b.column(m, list[i], path+"<"+strconv.Itoa(i)+">", depth+1)
			if err != nil {
				return nil, err
			}
			un.members = append(un.members, c)
		}
		return un, nil
	}
	return b.prim(t, meta, path)
}

// zstUnion reads ZST v2's {c0,c1,...,selector,presence}.
func (b *specBuilder) zstUnion(t, u *bsup.Type, meta bsup.Value, path string, depth int) (*node, error) {
	sel, ok := field(meta, "selector")
	if !ok {
		return nil, errs.At(ErrCorrupt, -1, path, "ZST union column lacks selector")
	}
	un := &node{kind: nodeUnion, typ: t, path: path}
	var err error
	if un.segs, err = parseSegmap(sel, b.f, path+"/selector"); err != nil {
		return nil, err
	}
	for i, m := range u.Types {
		cm, ok := field(meta, "c"+strconv.Itoa(i))
		if !ok {
			return nil, errs.At(ErrCorrupt, -1, path, "ZST union column lacks c%d", i)
		}
		c, err := b.column(m, cm, path+"<"+strconv.Itoa(i)+">", depth+1)
		if err != nil {
			return nil, err
		}
		un.members = append(un.members, c)
	}
	if pres, ok := field(meta, "presence"); ok {
		runs, err := parseSegmap(pres, b.f, path+"/presence")
		if err != nil {
			return nil, err
		}
		if len(runs) > 0 {
			return &node{kind: nodeNulls, typ: t, path: path, segs: runs, elem: un}, nil
		}
	}
	return un, nil
}

// nulls reads this package's csup.nulls wrapper: presence runs for a
// column outside a record field.
func (b *specBuilder) nulls(t *bsup.Type, meta bsup.Value, path string, depth int) (*node, error) {
	rv, ok1 := field(meta, "runs")
	cv, ok2 := field(meta, "column")
	if !ok1 || !ok2 {
		return nil, errs.At(ErrCorrupt, -1, path, "csup.nulls lacks runs or column")
	}
	runs, err := parseSegmap(rv, b.f, path+"/presence")
	if err != nil {
		return nil, err
	}
	inner, err := b.column(t, cv, path, depth+1)
	if err != nil || len(runs) == 0 || inner.kind == nodeAllNull {
		return inner, err
	}
	return &node{kind: nodeNulls, typ: t, path: path, segs: runs, elem: inner}, nil
}

func (b *specBuilder) prim(t *bsup.Type, meta bsup.Value, path string) (*node, error) {
	segs, err := parseSegmap(meta, b.f, path)
	if err != nil {
		return nil, err
	}
	return &node{kind: nodePrim, typ: t, path: path, segs: segs}, nil
}

// fieldExact finds a record field by its exact name (reassembly records
// are keyed by the user's field names).
func fieldExact(v bsup.Value, name string) (bsup.Value, bool) {
	v = unwrap(v)
	if v.Type == nil || v.Null {
		return bsup.Value{}, false
	}
	t := v.Type.Underlying()
	for i, f := range t.Fields {
		if f.Name == name && i < len(v.Elems) {
			return unwrap(v.Elems[i]), true
		}
	}
	return bsup.Value{}, false
}

// joinPath extends a column path by a field name read from the file,
// quoted (errs.Quote) when it holds bytes that must not reach a terminal.
func joinPath(parent, name string) string {
	if parent == "" {
		return errs.Quote(name)
	}
	return parent + "." + errs.Quote(name)
}
