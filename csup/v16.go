package csup

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// CSUP version 16 (super v0.3.0): a file is a sequence of objects, each a
// 36-byte header ("CSUP", version, MetaSize, TypeSize, DataSize, Root), a
// Super Binary version 2 stream of metadata nodes (node ID = position),
// a types section (empty in every file seen; refused when not) and a data
// section that the nodes' segments point into.

const v16HeaderSize = 36

type v16Kind uint8

const (
	k16Record v16Kind = iota
	k16Array
	k16Set
	k16Map
	k16Union
	k16Dynamic
	k16Int
	k16Uint
	k16Float
	k16Bytes
	k16Prim
	k16Const
	k16Dict
	k16Named
	k16Error
)

var v16KindNames = [...]string{"Record", "Array", "Set", "Map", "Union", "Dynamic", "Int", "Uint", "Float", "Bytes", "Primitive", "Const", "Dict", "Named", "Error"}

func (k v16Kind) String() string { return v16KindNames[k] }

// v16Node is one metadata node. Segments hold file offsets (the object's
// data offset added) and were checked to lie inside the data section.
type v16Node struct {
	kind     v16Kind
	id       int
	typ      *bsup.Type // type of the values; nil for Dynamic
	length   int64      // values the node yields
	names    []string   // record field names
	kids     []int      // fields, element/values, members; map: keys, values
	segA     Segment    // Location, Bytes, Lengths, Tags or Index
	segB     Segment    // Bytes offsets, Dict counts
	min, max bsup.Value // statistics (leaf nodes)
	hasStats bool
	cval     bsup.Value // Const value
	name     string     // Named
}

// v16Object is one object of a CSUP file.
type v16Object struct {
	off      int64 // file offset of the header
	dataOff  int64 // file offset of the data section
	dataSize int64
	nodes    []*v16Node
	root     int
	rows     int64
}

// v16Header parses an object header at off; size is the file size.
func v16Header(r io.ReaderAt, off, size int64) (meta, types, data int64, root int, err error) {
	var h [v16HeaderSize]byte
	if size-off < v16HeaderSize {
		return 0, 0, 0, 0, errs.At(ErrCorrupt, off, "header", "%d bytes left for a %d-byte CSUP object header", size-off, v16HeaderSize)
	}
	if _, err := r.ReadAt(h[:], off); err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, 0, 0, err
	}
	if string(h[:4]) != "CSUP" {
		return 0, 0, 0, 0, errs.At(ErrCorrupt, off, "header", "object does not start with CSUP")
	}
	le := binary.LittleEndian
	if v := le.Uint32(h[4:]); v != 16 {
		return 0, 0, 0, 0, errs.At(ErrUnsupported, off, "header", "CSUP version %d in an object of a version 16 file", v)
	}
	rem := uint64(size - off - v16HeaderSize)
	m, t, d := le.Uint64(h[8:]), le.Uint64(h[16:]), le.Uint64(h[24:])
	// Each size alone and their sum must fit in what remains (no overflow:
	// each is checked before adding).
	if m > rem || t > rem-m || d > rem-m-t {
		return 0, 0, 0, 0, errs.At(ErrCorrupt, off, "header", "object sizes meta %d + types %d + data %d exceed the %d bytes that remain", m, t, d, rem)
	}
	return int64(m), int64(t), int64(d), int(le.Uint32(h[32:])), nil
}

// openV16 reads every object's header and metadata.
func openV16(f *File, r io.ReaderAt, size int64, cfg config) error {
	var off int64
	for off < size {
		meta, types, data, root, err := v16Header(r, off, size)
		if err != nil {
			return err
		}
		if types != 0 {
			return errs.At(ErrUnsupported, off+16, "header", "object with a %d-byte types section (fusion types)", types)
		}
		if meta > cfg.maxReassemblySize {
			return errs.TooLarge(ErrTooLarge, off+8, "header", "metadata section", uint64(meta), cfg.maxReassemblySize)
		}
		buf := make([]byte, meta)
		mOff := off + v16HeaderSize
		if _, err := r.ReadAt(buf, mOff); err != nil && !(errors.Is(err, io.EOF) && meta == 0) {
			if errors.Is(err, io.EOF) {
				return errs.At(ErrCorrupt, mOff, "metadata", "the file ends inside the metadata")
			}
			return err
		}
		vals, err := readStream(buf, mOff, cfg)
		if err != nil {
			return errs.Locate(err, mOff, "metadata")
		}
		obj := &v16Object{off: off, dataOff: mOff + meta + types, dataSize: data, root: root}
		if err := obj.build(vals, cfg); err != nil {
			return errs.Locate(err, mOff, fmt.Sprintf("object %d", len(f.v16)))
		}
		f.v16 = append(f.v16, obj)
		off = obj.dataOff + data
	}
	if len(f.v16) == 0 {
		return errs.At(ErrCorrupt, 0, "header", "no CSUP object")
	}
	return nil
}

func (o *v16Object) build(vals []bsup.Value, cfg config) error {
	o.nodes = make([]*v16Node, len(vals))
	for i, v := range vals {
		n, err := o.node(i, v, cfg)
		if err != nil {
			return err
		}
		o.nodes[i] = n
	}
	if o.root < 0 || o.root >= len(o.nodes) {
		return errs.At(ErrCorrupt, o.off+32, "header", "root node %d out of range (%d nodes)", o.root, len(o.nodes))
	}
	t := typer{o: o, state: make([]uint8, len(o.nodes)), maxDepth: cfg.maxDepth, budget: 8*len(o.nodes) + 64}
	if err := t.visit(o.root, 0, true); err != nil {
		return err
	}
	o.rows = o.nodes[o.root].length
	return nil
}

func nodePath(id int) string { return fmt.Sprintf("node %d", id) }

// rawField returns record v's field name without unwrapping a union value
// (a Const's value may itself be a union).
func rawField(v bsup.Value, name string) (bsup.Value, bool) {
	t := v.Type.Underlying()
	if v.Null || t.Kind != bsup.KindRecord {
		return bsup.Value{}, false
	}
	for i, f := range t.Fields {
		if f.Name == name && i < len(v.Elems) {
			return v.Elems[i], true
		}
	}
	return bsup.Value{}, false
}

func (o *v16Object) node(id int, v bsup.Value, cfg config) (*v16Node, error) {
	path := nodePath(id)
	name := typeName(v)
	n := &v16Node{id: id}
	kinds := map[string]v16Kind{"Record": k16Record, "Array": k16Array, "Set": k16Set, "Map": k16Map, "Union": k16Union,
		"Dynamic": k16Dynamic, "Int": k16Int, "Uint": k16Uint, "Float": k16Float, "Bytes": k16Bytes, "Primitive": k16Prim,
		"Const": k16Const, "Dict": k16Dict, "Named": k16Named, "Error": k16Error}
	k, ok := kinds[name]
	if !ok || !isRecord(v) {
		if name == "Fusion" {
			return nil, errs.At(ErrUnsupported, -1, path, "Fusion node")
		}
		return nil, errs.At(ErrCorrupt, -1, path, "metadata value of type %s is not a CSUP node", errs.Quote(v.Type.String()))
	}
	n.kind = k
	u32 := func(name string) (int64, error) {
		fv, ok := rawField(v, name)
		if !ok || fv.Null || bsup.PayloadKind(fv.Type) != bsup.KindUint32 {
			return 0, errs.At(ErrCorrupt, -1, path, "%s node lacks a uint32 %s", k, name)
		}
		return int64(fv.Uint), nil
	}
	id32 := func(name string) (int, error) {
		x, err := u32(name)
		if err != nil {
			return 0, err
		}
		if x >= int64(len(o.nodes)) {
			return 0, errs.At(ErrCorrupt, -1, path, "%s refers to node %d of %d", name, x, len(o.nodes))
		}
		return int(x), nil
	}
	ids := func(name string) ([]int, error) {
		fv, ok := rawField(v, name)
		if !ok || fv.Null || bsup.PayloadKind(fv.Type) != bsup.KindArray {
			return nil, errs.At(ErrCorrupt, -1, path, "%s node lacks the array %s", k, name)
		}
		out := make([]int, len(fv.Elems))
		for i, e := range fv.Elems {
			e = unwrap(e)
			if e.Null || bsup.PayloadKind(e.Type) != bsup.KindUint32 || e.Uint >= uint64(len(o.nodes)) {
				return nil, errs.At(ErrCorrupt, -1, path, "%s[%d] is not a node ID below %d", name, i, len(o.nodes))
			}
			out[i] = int(e.Uint)
		}
		return out, nil
	}
	seg := func(name string) (Segment, error) {
		fv, ok := rawField(v, name)
		if !ok || !isRecord(fv) {
			return Segment{}, errs.At(ErrCorrupt, -1, path, "%s node lacks the segment %s", k, name)
		}
		var s Segment
		var c int64
		for _, p := range []struct {
			n string
			p *int64
		}{{"Offset", &s.Offset}, {"Length", &s.Length}, {"MemLength", &s.MemLength}, {"CompressionFormat", &c}} {
			x, ok := rawField(unwrap(fv), p.n)
			if !ok || x.Null {
				return Segment{}, errs.At(ErrCorrupt, -1, path, "segment %s lacks %s", name, p.n)
			}
			u := x.Uint
			if bsup.PayloadKind(x.Type) >= bsup.KindInt8 && bsup.PayloadKind(x.Type) <= bsup.KindInt64 {
				u = uint64(x.Int)
			}
			if u > 1<<62 {
				return Segment{}, errs.At(ErrCorrupt, -1, path, "segment %s: %s %d out of range", name, p.n, u)
			}
			*p.p = int64(u)
		}
		if c > 1 {
			return Segment{}, errs.At(ErrUnsupported, -1, path, "segment %s: compression format %d", name, c)
		}
		s.Compression = uint8(c)
		// Stored bytes are Length or MemLength depending on the kind; both
		// must lie inside the data section whichever is read.
		if s.Offset > o.dataSize {
			return Segment{}, errs.At(ErrCorrupt, -1, path, "segment %s at %d is past the %d-byte data section", name, s.Offset, o.dataSize)
		}
		if max(s.Length, s.MemLength) > cfg.maxSegmentSize {
			return Segment{}, errs.TooLarge(ErrTooLarge, -1, path, "segment "+name, uint64(max(s.Length, s.MemLength)), cfg.maxSegmentSize)
		}
		s.Offset += o.dataOff
		return s, nil
	}
	typeField := func() (*bsup.Type, error) {
		fv, ok := rawField(v, "Type")
		if !ok || fv.Null || bsup.PayloadKind(fv.Type) != bsup.KindType {
			return nil, errs.At(ErrCorrupt, -1, path, "%s node lacks its Type", k)
		}
		t, err := bsup.DecodeTypeValueV2(fv.Bytes, cfg.maxDepth)
		if err != nil {
			return nil, errs.Locate(err, -1, path)
		}
		return t, nil
	}
	stats := func() {
		mn, ok1 := rawField(v, "Min")
		mx, ok2 := rawField(v, "Max")
		if ok1 && ok2 {
			n.min, n.max, n.hasStats = mn, mx, true
		}
	}
	var err error
	switch k {
	case k16Record:
		if n.length, err = u32("Length"); err != nil {
			return nil, err
		}
		fv, ok := rawField(v, "Fields")
		if !ok || fv.Null || bsup.PayloadKind(fv.Type) != bsup.KindArray {
			return nil, errs.At(ErrCorrupt, -1, path, "Record node lacks Fields")
		}
		for i, fe := range fv.Elems {
			fe = unwrap(fe)
			nm, ok := asString(mustField(fe, "Name"))
			if !ok {
				return nil, errs.At(ErrCorrupt, -1, path, "field %d lacks a Name", i)
			}
			fp := path + "." + errs.Quote(nm)
			cv := mustField(fe, "Values")
			if cv.Null || bsup.PayloadKind(cv.Type) != bsup.KindUint32 || cv.Uint >= uint64(len(o.nodes)) {
				return nil, errs.At(ErrCorrupt, -1, fp, "field Values is not a node ID below %d", len(o.nodes))
			}
			if opt := mustField(fe, "Opt"); !opt.Null && opt.Uint != 0 {
				return nil, errs.At(ErrUnsupported, -1, fp, "optional field (Opt:true)")
			}
			if nv := mustField(fe, "Nones"); isRecord(nv) {
				if ml, ok := field(nv, "memlength"); ok && !ml.Null && (ml.Uint != 0 || ml.Int != 0) {
					return nil, errs.At(ErrUnsupported, -1, fp, "field with a Nones segment")
				}
			}
			n.names = append(n.names, nm)
			n.kids = append(n.kids, int(cv.Uint))
		}
	case k16Array, k16Set, k16Map:
		if n.length, err = u32("Length"); err != nil {
			return nil, err
		}
		if n.segA, err = seg("Lengths"); err != nil {
			return nil, err
		}
		if k == k16Map {
			kid, err := id32("Keys")
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, kid)
		}
		kid, err := id32("Values")
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, kid)
	case k16Union, k16Dynamic:
		if n.length, err = u32("Length"); err != nil {
			return nil, err
		}
		if n.segA, err = seg("Tags"); err != nil {
			return nil, err
		}
		if n.kids, err = ids("Values"); err != nil {
			return nil, err
		}
		if len(n.kids) == 0 {
			return nil, errs.At(ErrCorrupt, -1, path, "%s node with no Values", k)
		}
	case k16Int, k16Uint, k16Float, k16Prim:
		if n.typ, err = typeField(); err != nil {
			return nil, err
		}
		if n.segA, err = seg("Location"); err != nil {
			return nil, err
		}
		if n.length, err = u32("Count"); err != nil {
			return nil, err
		}
		stats()
	case k16Bytes:
		if n.typ, err = typeField(); err != nil {
			return nil, err
		}
		if n.segA, err = seg("Bytes"); err != nil {
			return nil, err
		}
		if n.segB, err = seg("Offsets"); err != nil {
			return nil, err
		}
		// Count is 2^32-1 in empty columns: the offsets say how many.
		if n.segB.Length%4 != 0 {
			return nil, errs.At(ErrCorrupt, -1, path, "offsets of %d bytes are not whole uint32s", n.segB.Length)
		}
		n.length = max(n.segB.Length/4-1, 0)
		stats()
	case k16Const:
		cv, ok := rawField(v, "Value")
		if !ok {
			return nil, errs.At(ErrCorrupt, -1, path, "Const node lacks its Value")
		}
		if n.length, err = u32("Count"); err != nil {
			return nil, err
		}
		if !cv.Null && bsup.PayloadKind(cv.Type) == bsup.KindType {
			b, err := typeValueV2ToV0(cv.Bytes)
			if err != nil {
				return nil, errs.Locate(err, -1, path)
			}
			cv.Bytes = b
		}
		n.cval, n.typ = cv, cv.Type
	case k16Dict:
		kid, err := id32("Values")
		if err != nil {
			return nil, err
		}
		n.kids = []int{kid}
		if n.segA, err = seg("Index"); err != nil {
			return nil, err
		}
		if n.segB, err = seg("Counts"); err != nil {
			return nil, err
		}
		if n.length, err = u32("Length"); err != nil {
			return nil, err
		}
	case k16Named:
		nm, ok := asString(mustField(v, "Name"))
		if !ok {
			return nil, errs.At(ErrCorrupt, -1, path, "Named node lacks its Name")
		}
		kid, err := id32("Values")
		if err != nil {
			return nil, err
		}
		n.name, n.kids = nm, []int{kid}
	case k16Error:
		kid, err := id32("Values")
		if err != nil {
			return nil, err
		}
		n.kids = []int{kid}
	}
	return n, nil
}

func mustField(v bsup.Value, name string) bsup.Value {
	fv, ok := rawField(unwrap(v), name)
	if !ok {
		return bsup.Value{Null: true, Type: bsup.TypeNull}
	}
	return unwrap(fv)
}

// typer computes the types of the nodes reachable from the root, refusing
// cycles and bounding the expanded tree (a DAG that shares nodes could
// otherwise expand exponentially).
type typer struct {
	o        *v16Object
	state    []uint8 // 0 new, 1 on the stack, 2 done
	maxDepth int
	budget   int
}

func (t *typer) visit(id int, depth int, top bool) error {
	n := t.o.nodes[id]
	path := nodePath(id)
	if depth > 2*t.maxDepth+4 {
		return errs.At(ErrTooLarge, -1, path, "nodes nest deeper than %d", 2*t.maxDepth+4)
	}
	if t.budget--; t.budget < 0 {
		return errs.At(ErrTooLarge, -1, path, "node graph expands to more than %d references", 8*len(t.o.nodes)+64)
	}
	switch t.state[id] {
	case 1:
		return errs.At(ErrCorrupt, -1, path, "node graph has a cycle through node %d", id)
	case 2:
		if n.kind == k16Dynamic && !top {
			return errs.At(ErrUnsupported, -1, path, "Dynamic node below the root")
		}
		return nil
	}
	t.state[id] = 1
	for _, k := range n.kids {
		if err := t.visit(k, depth+1, false); err != nil {
			return err
		}
	}
	t.state[id] = 2
	kt := func(i int) *bsup.Type { return t.o.nodes[n.kids[i]].typ }
	kl := func(i int) int64 { return t.o.nodes[n.kids[i]].length }
	switch n.kind {
	case k16Record:
		fields := make([]bsup.Field, len(n.kids))
		for i := range n.kids {
			fields[i] = bsup.Field{Name: n.names[i], Type: kt(i)}
		}
		n.typ = bsup.NewRecord(fields)
	case k16Array:
		n.typ = bsup.NewArray(kt(0))
	case k16Set:
		n.typ = bsup.NewSet(kt(0))
	case k16Map:
		n.typ = bsup.NewMap(kt(0), kt(1))
	case k16Union:
		ts := make([]*bsup.Type, len(n.kids))
		for i := range n.kids {
			ts[i] = kt(i)
		}
		n.typ = bsup.NewUnion(ts)
	case k16Dynamic:
		if !top {
			return errs.At(ErrUnsupported, -1, path, "Dynamic node below the root")
		}
	case k16Dict:
		n.typ = kt(0)
	case k16Named:
		n.typ, n.length = bsup.NewNamed(n.name, kt(0)), kl(0)
	case k16Error:
		n.typ, n.length = bsup.NewError(kt(0)), kl(0)
	}
	for i := range n.kids {
		if kt(i) == nil {
			return errs.At(ErrUnsupported, -1, path, "Dynamic node below the root")
		}
	}
	if n.typ != nil && n.typ.Depth() > t.maxDepth {
		return errs.At(ErrTooLarge, -1, path, "type nesting depth %d exceeds the limit of %d", n.typ.Depth(), t.maxDepth)
	}
	return nil
}
