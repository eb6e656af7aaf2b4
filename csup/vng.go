package csup

import (
	"strconv"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// VNG v3 reassembly: the root segmap (int64 indexes into the metadata
// values), then one metadata value per super type. Metadata values are Go
// structs marshaled by zed (Record, Field, Primitive, Array, Set, Map,
// Union, Named, Nulls, Segment); types are rebuilt from them.

func buildVNG(f *fileInfo, vals []bsup.Value) (types []*bsup.Type, root []Segment, cols []*node, err error) {
	if len(vals) == 0 {
		return nil, nil, nil, errs.At(ErrCorrupt, -1, "reassembly", "VNG reassembly section is empty")
	}
	if root, err = parseSegmap(vals[0], f, "root"); err != nil {
		return nil, nil, nil, err
	}
	b := vngBuilder{f: f}
	for i, m := range vals[1:] {
		c, err := b.node(m, "super"+strconv.Itoa(i), 0)
		if err != nil {
			return nil, nil, nil, err
		}
		types = append(types, c.typ)
		cols = append(cols, c)
	}
	return types, root, cols, nil
}

type vngBuilder struct {
	f    *fileInfo
	v4   bool  // VNG version 4: one Segment per column, Dict, Const, Variant
	base int64 // file offset of the data section (v4 segments are relative)
}

func (b *vngBuilder) segmap(v bsup.Value, name, path string) ([]Segment, error) {
	sv, ok := field(v, name)
	if !ok {
		return nil, errs.At(ErrCorrupt, -1, path, "VNG node lacks %s", name)
	}
	if b.v4 && isRecord(sv) {
		// A single Segment, its offset relative to the data section.
		wrapped := bsup.Value{Type: bsup.NewArray(sv.Type), Elems: []bsup.Value{sv}}
		segs, err := parseSegmap(wrapped, &fileInfo{dataSize: b.f.dataSize - b.base, cfg: b.f.cfg}, path)
		if err != nil {
			return nil, err
		}
		for i := range segs {
			segs[i].Offset += b.base
		}
		if len(segs) == 1 && segs[0].Length == 0 && segs[0].MemLength == 0 {
			return nil, nil
		}
		return segs, nil
	}
	return parseSegmap(sv, b.f, path)
}

func (b *vngBuilder) child(v bsup.Value, name, path string, depth int) (*node, error) {
	cv, ok := field(v, name)
	if !ok {
		return nil, errs.At(ErrCorrupt, -1, path, "VNG node lacks %s", name)
	}
	return b.node(cv, path, depth+1)
}

func (b *vngBuilder) node(v bsup.Value, path string, depth int) (*node, error) {
	if depth > 2*b.f.cfg.maxDepth+4 {
		return nil, errs.At(ErrTooLarge, -1, path, "columns nest deeper than %d", b.f.cfg.maxDepth)
	}
	v = unwrap(v)
	if v.Type == nil {
		return nil, errs.At(ErrCorrupt, -1, path, "missing VNG metadata node")
	}
	if v.Null || !isRecord(v) {
		return nil, errs.At(ErrCorrupt, -1, path, "VNG metadata node of type %s is not a record", v.Type)
	}
	switch name := typeName(v); name {
	case "Primitive":
		tv, ok := field(v, "type")
		if !ok || tv.Null || bsup.PayloadKind(tv.Type) != bsup.KindType {
			return nil, errs.At(ErrCorrupt, -1, path, "VNG Primitive lacks its Type")
		}
		t, err := bsup.DecodeTypeValue(tv.Bytes, b.f.cfg.maxDepth)
		if err != nil {
			return nil, errs.Locate(err, -1, path)
		}
		var dict []bsup.Value
		if d, ok := field(v, "dict"); ok {
			l, _ := elems(d)
			if len(l) > 0 && !b.v4 {
				return nil, errs.At(ErrUnsupported, -1, path, "VNG dictionary columns (zed v1.9+)")
			}
			if len(l) > 256 {
				return nil, errs.At(ErrCorrupt, -1, path, "dictionary of %d entries (a byte indexes it)", len(l))
			}
			for _, e := range l {
				ev, ok := rawField(unwrap(e), "Value")
				if !ok {
					return nil, errs.At(ErrCorrupt, -1, path, "dictionary entry lacks its Value")
				}
				dict = append(dict, ev)
			}
		}
		loc := "segmap"
		if b.v4 {
			loc = "location"
		}
		segs, err := b.segmap(v, loc, path)
		if err != nil {
			return nil, err
		}
		n := &node{kind: nodePrim, typ: t, path: path, segs: segs}
		if dict != nil {
			n.kind, n.dict = nodeDict, dict
		}
		if b.v4 {
			mn, ok1 := rawField(v, "Min")
			mx, ok2 := rawField(v, "Max")
			n.min, n.max, n.hasStats = mn, mx, ok1 && ok2 && !mn.Null && !mx.Null
		}
		return n, nil
	case "Const":
		if !b.v4 {
			return nil, errs.At(ErrUnsupported, -1, path, "VNG Const node (zed v1.9+)")
		}
		cv, ok := rawField(v, "Value")
		cnt, ok2 := field(v, "count")
		n, ok3 := asInt(cnt)
		if !ok || !ok2 || !ok3 || n < 0 {
			return nil, errs.At(ErrCorrupt, -1, path, "VNG Const lacks its Value or Count")
		}
		return &node{kind: nodeConst, typ: cv.Type, path: path, cval: cv, count: n}, nil
	case "Error":
		c, err := b.child(v, "values", path, depth)
		if err != nil {
			return nil, err
		}
		e := *c
		e.typ = bsup.NewError(c.typ)
		return &e, nil
	case "Record":
		fv, ok := field(v, "fields")
		list, ok2 := elems(fv)
		if !ok || !ok2 {
			return nil, errs.At(ErrCorrupt, -1, path, "VNG Record lacks Fields")
		}
		rec := &node{kind: nodeRecord, path: path}
		var tf []bsup.Field
		for _, fe := range list {
			nv, ok := field(fe, "name")
			fname, ok2 := asString(nv)
			if !ok || !ok2 {
				return nil, errs.At(ErrCorrupt, -1, path, "VNG Field lacks Name")
			}
			c, err := b.child(fe, "values", joinPath(path, fname), depth)
			if err != nil {
				return nil, err
			}
			rec.names = append(rec.names, fname)
			rec.fields = append(rec.fields, c)
			tf = append(tf, bsup.Field{Name: fname, Type: c.typ})
		}
		rec.typ = bsup.NewRecord(tf)
		return rec, nil
	case "Array", "Set":
		segs, err := b.segmap(v, "lengths", path+"/lengths")
		if err != nil {
			return nil, err
		}
		elem, err := b.child(v, "values", path+"[]", depth)
		if err != nil {
			return nil, err
		}
		t := bsup.NewArray(elem.typ)
		if name == "Set" {
			t = bsup.NewSet(elem.typ)
		}
		return &node{kind: nodeArray, typ: t, path: path, segs: segs, elem: elem}, nil
	case "Map":
		segs, err := b.segmap(v, "lengths", path+"/lengths")
		if err != nil {
			return nil, err
		}
		kc, err := b.child(v, "keys", path+"{key}", depth)
		if err != nil {
			return nil, err
		}
		vc, err := b.child(v, "values", path+"{value}", depth)
		if err != nil {
			return nil, err
		}
		return &node{kind: nodeMap, typ: bsup.NewMap(kc.typ, vc.typ), path: path, segs: segs, elem: kc, val: vc}, nil
	case "Union":
		segs, err := b.segmap(v, "tags", path+"/tags")
		if err != nil {
			return nil, err
		}
		mv, _ := field(v, "values")
		list, ok := elems(mv)
		if !ok || len(list) == 0 {
			return nil, errs.At(ErrCorrupt, -1, path, "VNG Union lacks Values")
		}
		un := &node{kind: nodeUnion, path: path, segs: segs}
		var mt []*bsup.Type
		for i, m := range list {
			c, err := b.node(m, path+"<"+strconv.Itoa(i)+">", depth+1)
			if err != nil {
				return nil, err
			}
			un.members = append(un.members, c)
			mt = append(mt, c.typ)
		}
		un.typ = bsup.NewUnion(mt)
		return un, nil
	case "Named":
		nv, ok := field(v, "name")
		tname, ok2 := asString(nv)
		if !ok || !ok2 {
			return nil, errs.At(ErrCorrupt, -1, path, "VNG Named lacks Name")
		}
		c, err := b.child(v, "values", path, depth)
		if err != nil {
			return nil, err
		}
		named := *c
		named.typ = bsup.NewNamed(tname, c.typ)
		return &named, nil
	case "Nulls":
		runs, err := b.segmap(v, "runs", path+"/presence")
		if err != nil {
			return nil, err
		}
		c, err := b.child(v, "values", path, depth)
		if err != nil {
			return nil, err
		}
		if len(runs) == 0 {
			return c, nil
		}
		return &node{kind: nodeNulls, typ: c.typ, path: path, segs: runs, elem: c}, nil
	default:
		return nil, errs.At(ErrUnsupported, -1, path, "VNG metadata node %q", name)
	}
}
