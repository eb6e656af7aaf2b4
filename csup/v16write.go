package csup

import (
	"bytes"
	"encoding/binary"
	"math"
	"sync"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/intcomp"
	"github.com/colfmt/colfmt/internal/errs"
	"github.com/pierrec/lz4/v4"
)

// Writing CSUP version 16 as super v0.3.0 does (see the package doc): rows
// are buffered per object in column builders; at the object threshold (or
// Close) each builder becomes nodes — metadata IDs in post-order (children
// first), data in pre-order (a node's own segments before its children's)
// — and the object is written: header, BSUP v2 metadata, data.

// Metadata types, shaped like super's Go structs. They are built on first
// use (t16()), not at package initialisation: a program that links csup
// but does not write version 16 does not pay for them at start-up.
type t16Types struct {
	Segment, ID, Field, Record, Array, Set, Map, Union, Dynamic, Named, Error, Dict *bsup.Type
	Int, Uint, Float, Bytes                                                         *bsup.Type
	BytesEmpty                                                                      *bsup.Type // an empty column has no min or max: super writes them as untyped nulls
}

var t16 = sync.OnceValue(func() *t16Types {
	t := &t16Types{}
	t.Segment = bsup.NewNamed("Segment", bsup.NewRecord([]bsup.Field{
		{Name: "Offset", Type: bsup.TypeUint64}, {Name: "Length", Type: bsup.TypeUint64},
		{Name: "MemLength", Type: bsup.TypeUint64}, {Name: "CompressionFormat", Type: bsup.TypeUint8}}))
	t.ID = bsup.NewNamed("ID", bsup.TypeUint32)
	t.Field = bsup.NewNamed("Field", bsup.NewRecord([]bsup.Field{
		{Name: "Name", Type: bsup.TypeString}, {Name: "Values", Type: t.ID},
		{Name: "Opt", Type: bsup.TypeBool}, {Name: "Nones", Type: t.Segment}}))
	t.Record = bsup.NewNamed("Record", bsup.NewRecord([]bsup.Field{
		{Name: "Length", Type: bsup.TypeUint32}, {Name: "Fields", Type: bsup.NewArray(t.Field)}}))
	arrayish := func(name string) *bsup.Type {
		return bsup.NewNamed(name, bsup.NewRecord([]bsup.Field{
			{Name: "Length", Type: bsup.TypeUint32}, {Name: "Lengths", Type: t.Segment}, {Name: "Values", Type: t.ID}}))
	}
	t.Array = arrayish("Array")
	t.Set = arrayish("Set")
	t.Map = bsup.NewNamed("Map", bsup.NewRecord([]bsup.Field{
		{Name: "Length", Type: bsup.TypeUint32}, {Name: "Lengths", Type: t.Segment},
		{Name: "Keys", Type: t.ID}, {Name: "Values", Type: t.ID}}))
	t.Union = bsup.NewNamed("Union", bsup.NewRecord([]bsup.Field{
		{Name: "Length", Type: bsup.TypeUint32}, {Name: "Tags", Type: t.Segment},
		{Name: "Values", Type: bsup.NewArray(t.ID)}}))
	t.Dynamic = bsup.NewNamed("Dynamic", bsup.NewRecord([]bsup.Field{
		{Name: "Tags", Type: t.Segment}, {Name: "Values", Type: bsup.NewArray(t.ID)},
		{Name: "Length", Type: bsup.TypeUint32}}))
	t.Named = bsup.NewNamed("Named", bsup.NewRecord([]bsup.Field{
		{Name: "Name", Type: bsup.TypeString}, {Name: "Values", Type: t.ID}}))
	t.Error = bsup.NewNamed("Error", bsup.NewRecord([]bsup.Field{{Name: "Values", Type: t.ID}}))
	t.Dict = bsup.NewNamed("Dict", bsup.NewRecord([]bsup.Field{
		{Name: "Values", Type: t.ID}, {Name: "Counts", Type: t.Segment},
		{Name: "Index", Type: t.Segment}, {Name: "Length", Type: bsup.TypeUint32}}))
	bytesNode := func(mm *bsup.Type) *bsup.Type {
		return bsup.NewNamed("Bytes", bsup.NewRecord([]bsup.Field{
			{Name: "Type", Type: bsup.TypeType}, {Name: "Bytes", Type: t.Segment}, {Name: "Offsets", Type: t.Segment},
			{Name: "Min", Type: mm}, {Name: "Max", Type: mm}, {Name: "Count", Type: bsup.TypeUint32}}))
	}
	t.Int = leafNodeOf(t.Segment, "Int", bsup.TypeInt64)
	t.Uint = leafNodeOf(t.Segment, "Uint", bsup.TypeUint64)
	t.Float = leafNodeOf(t.Segment, "Float", bsup.TypeFloat64)
	t.Bytes = bytesNode(bsup.TypeBytes)
	t.BytesEmpty = bytesNode(bsup.TypeNull)
	return t
})

// leafNode returns the node type named name with Min and Max of type mm.
func leafNode(name string, mm *bsup.Type) *bsup.Type { return leafNodeOf(t16().Segment, name, mm) }

func leafNodeOf(segment *bsup.Type, name string, mm *bsup.Type) *bsup.Type {
	return bsup.NewNamed(name, bsup.NewRecord([]bsup.Field{
		{Name: "Type", Type: bsup.TypeType}, {Name: "Location", Type: segment},
		{Name: "Min", Type: mm}, {Name: "Max", Type: mm}, {Name: "Count", Type: bsup.TypeUint32}}))
}

type wkind uint8

const (
	wLeaf wkind = iota
	wRecord
	wArray
	wSet
	wMap
	wUnion
	wNamed
	wError
)

// col16 buffers one column of the current object.
type col16 struct {
	t     *bsup.Type
	kind  wkind
	path  string
	n     int64
	kids  []*col16
	offs  []uint32 // array, set, map: n+1 offsets
	tags  []uint32 // union
	leaf  *leafBuf // leaf values, stored by kind
	nulls int64    // leaf nulls
}

func newCol16(t *bsup.Type, path string) *col16 {
	c := &col16{t: t, path: path}
	switch t.Kind {
	case bsup.KindRecord:
		c.kind = wRecord
		for _, f := range t.Fields {
			c.kids = append(c.kids, newCol16(f.Type, joinPath(path, f.Name)))
		}
	case bsup.KindArray, bsup.KindSet:
		c.kind = map[bsup.Kind]wkind{bsup.KindArray: wArray, bsup.KindSet: wSet}[t.Kind]
		c.kids = []*col16{newCol16(t.Elem, path+"[]")}
		c.offs = []uint32{0}
	case bsup.KindMap:
		c.kind = wMap
		c.kids = []*col16{newCol16(t.Elem, path+"{key}"), newCol16(t.Val, path+"{value}")}
		c.offs = []uint32{0}
	case bsup.KindUnion:
		c.kind = wUnion
		for i, m := range t.Types {
			c.kids = append(c.kids, newCol16(m, path+"<"+itoa(i)+">"))
		}
	case bsup.KindNamed:
		c.kind = wNamed
		c.kids = []*col16{newCol16(t.Elem, path)}
	case bsup.KindError:
		c.kind = wError
		c.kids = []*col16{newCol16(t.Elem, path)}
	}
	return c
}

func itoa(i int) string { return string(appendInt(nil, i)) }

func appendInt(b []byte, i int) []byte {
	if i >= 10 {
		b = appendInt(b, i/10)
	}
	return append(b, byte('0'+i%10))
}

func (c *col16) push(v bsup.Value, depth int) error {
	if depth > 10000 {
		return errs.Wrap(ErrTooLarge, "value nests too deeply")
	}
	if c.kind != wLeaf && c.kind != wNamed && c.kind != wError && v.Null {
		return errs.At(ErrUnsupported, -1, c.path, "a null %s: CSUP version 16 as super v0.3.0 writes it has no encoding for typed nulls of complex types", c.t)
	}
	c.n++
	switch c.kind {
	case wLeaf:
		if v.Null {
			if c.t.Kind != bsup.KindNull {
				// Typed nulls were converted (untype); a null left in a
				// column of another type is a value at odds with its type,
				// which would be written as a typed Const null that super
				// does not hold.
				return errs.At(ErrInvalidArgument, -1, c.path, "a null in a column of type %s (a value whose type disagrees with its parent's)", c.t)
			}
			c.nulls++
			return nil
		}
		if c.leaf == nil {
			c.leaf = newLeafBuf(c.t)
		}
		if err := c.leaf.add(v); err != nil {
			return errs.Locate(err, -1, c.path)
		}
	case wRecord:
		if len(v.Elems) != len(c.kids) {
			return errs.At(ErrCorrupt, -1, c.path, "record value with %d fields for a type of %d", len(v.Elems), len(c.kids))
		}
		for i, k := range c.kids {
			if err := k.push(v.Elems[i], depth+1); err != nil {
				return err
			}
		}
	case wArray, wSet, wMap:
		last := c.offs[len(c.offs)-1]
		per := 1
		if c.kind == wMap {
			per = 2
		}
		if len(v.Elems)%per != 0 || uint64(last)+uint64(len(v.Elems)/per) > math.MaxUint32 {
			return errs.At(ErrTooLarge, -1, c.path, "container too large for uint32 offsets")
		}
		c.offs = append(c.offs, last+uint32(len(v.Elems)/per))
		for i, e := range v.Elems {
			if err := c.kids[i%per].push(e, depth+1); err != nil {
				return err
			}
		}
	case wUnion:
		if len(v.Elems) != 1 || v.Uint >= uint64(len(c.kids)) {
			return errs.At(ErrCorrupt, -1, c.path, "union value with tag %d of %d members", v.Uint, len(c.kids))
		}
		c.tags = append(c.tags, uint32(v.Uint))
		return c.kids[v.Uint].push(v.Elems[0], depth+1)
	case wNamed, wError:
		c.n--
		inner := v
		inner.Type = c.t.Elem
		return c.kids[0].push(inner, depth+1)
	}
	return nil
}

// obj16 is the object being built.
type obj16 struct {
	keys     map[string]int
	variants []*col16
	tags     []uint32
	rows     int64
	size     int64 // about the bytes buffered (see scan16)
	// spare holds the emptied column trees of earlier objects, by type key.
	spare map[string]*col16
}

// emitter turns builders into data and metadata values.
type emitter struct {
	data []byte
	meta []bsup.Value
	comp lz4.Compressor
	lz4  bool
}

func u32v(x int64) bsup.Value                      { return bsup.NewUint(bsup.TypeUint32, uint64(x)) }
func idv(x int) bsup.Value                         { return bsup.NewUint(t16().ID, uint64(x)) }
func rec(t *bsup.Type, f ...bsup.Value) bsup.Value { return bsup.NewRecordValue(t, f...) }

func segv(off, length, mem int64, comp uint8) bsup.Value {
	return rec(t16().Segment, bsup.NewUint(bsup.TypeUint64, uint64(off)), bsup.NewUint(bsup.TypeUint64, uint64(length)),
		bsup.NewUint(bsup.TypeUint64, uint64(mem)), bsup.NewUint(bsup.TypeUint8, uint64(comp)))
}

func (e *emitter) node(v bsup.Value) int {
	e.meta = append(e.meta, v)
	return len(e.meta) - 1
}

// ints32 appends an intcomp stream: Length = decoded, MemLength = stored.
func (e *emitter) ints32(vals []uint32) bsup.Value {
	off := int64(len(e.data))
	e.data = intcomp.AppendUint32(e.data, vals)
	return segv(off, int64(4*len(vals)), int64(len(e.data))-off, 0)
}

// ints64 appends the intcomp stream of an Int (signed, CompressInt64) or
// Uint (CompressUint64) column.
func (e *emitter) ints64(vals []uint64, signed bool) bsup.Value {
	off := int64(len(e.data))
	if signed {
		e.data = intcomp.AppendInt64(e.data, vals)
	} else {
		e.data = intcomp.AppendUint64(e.data, vals)
	}
	return segv(off, int64(8*len(vals)), int64(len(e.data))-off, 0)
}

// blob appends b, LZ4-compressed when that is strictly smaller: Length =
// stored, MemLength = decoded.
func (e *emitter) blob(b []byte) bsup.Value {
	off := int64(len(e.data))
	if e.lz4 && len(b) > 0 {
		buf := make([]byte, lz4.CompressBlockBound(len(b)))
		n, err := e.comp.CompressBlock(b, buf)
		if err == nil && n > 0 && n < len(b) {
			e.data = append(e.data, buf[:n]...)
			return segv(off, int64(n), int64(len(b)), CompressionLZ4)
		}
	}
	e.data = append(e.data, b...)
	return segv(off, int64(len(b)), int64(len(b)), 0)
}

// raw appends b uncompressed.
func (e *emitter) raw(b []byte) bsup.Value {
	off := int64(len(e.data))
	e.data = append(e.data, b...)
	return segv(off, int64(len(b)), int64(len(b)), 0)
}

func (e *emitter) emit(c *col16) (int, error) {
	nones := segv(0, 0, 0, 0)
	switch c.kind {
	case wRecord:
		fields := make([]bsup.Value, len(c.kids))
		for i, k := range c.kids {
			id, err := e.emit(k)
			if err != nil {
				return 0, err
			}
			fields[i] = rec(t16().Field, bsup.NewString(c.t.Fields[i].Name), idv(id), bsup.NewBool(false), nones)
		}
		return e.node(rec(t16().Record, u32v(c.n), bsup.Value{Type: t16().Record.Elem.Fields[1].Type, Elems: fields})), nil
	case wArray, wSet, wMap:
		lengths := e.ints32(c.offs)
		var ids []int
		for _, k := range c.kids {
			id, err := e.emit(k)
			if err != nil {
				return 0, err
			}
			ids = append(ids, id)
		}
		switch c.kind {
		case wMap:
			return e.node(rec(t16().Map, u32v(c.n), lengths, idv(ids[0]), idv(ids[1]))), nil
		case wSet:
			// super writes a set as an array node, then a set node over
			// the same lengths and values; only the set is referenced.
			e.node(rec(t16().Array, u32v(c.n), lengths, idv(ids[0])))
			return e.node(rec(t16().Set, u32v(c.n), lengths, idv(ids[0]))), nil
		}
		return e.node(rec(t16().Array, u32v(c.n), lengths, idv(ids[0]))), nil
	case wUnion:
		tags := e.ints32(c.tags)
		ids, err := e.emitAll(c.kids)
		if err != nil {
			return 0, err
		}
		return e.node(rec(t16().Union, u32v(c.n), tags, ids)), nil
	case wNamed:
		id, err := e.emit(c.kids[0])
		if err != nil {
			return 0, err
		}
		return e.node(rec(t16().Named, bsup.NewString(c.t.Name), idv(id))), nil
	case wError:
		id, err := e.emit(c.kids[0])
		if err != nil {
			return 0, err
		}
		return e.node(rec(t16().Error, idv(id))), nil
	}
	return e.leaf(c)
}

func (e *emitter) emitAll(cs []*col16) (bsup.Value, error) {
	ids := make([]bsup.Value, len(cs))
	for i, k := range cs {
		id, err := e.emit(k)
		if err != nil {
			return bsup.Value{}, err
		}
		ids[i] = idv(id)
	}
	return bsup.Value{Type: bsup.NewArray(t16().ID), Elems: ids}, nil
}

func (e *emitter) leaf(c *col16) (int, error) {
	t := c.t
	pk := bsup.PayloadKind(t)
	l := c.leaf
	if l == nil {
		l = newLeafBuf(t)
	}
	n := int64(l.len())
	constT := func(vt *bsup.Type) *bsup.Type {
		return bsup.NewNamed("Const", bsup.NewRecord([]bsup.Field{{Name: "Value", Type: vt}, {Name: "Count", Type: bsup.TypeUint32}}))
	}
	if c.nulls > 0 {
		if n > 0 {
			return 0, errs.At(ErrUnsupported, -1, c.path, "nulls mixed with values of type %s: CSUP version 16 as super v0.3.0 writes it has no encoding for them", t)
		}
		return e.node(rec(constT(t), bsup.NewNull(t), u32v(c.nulls))), nil
	}
	small := pk == bsup.KindInt8 || pk == bsup.KindUint8 || pk == bsup.KindBool
	if !small && n > 0 {
		distinct := map[string]int{}
		var order []int
		var key []byte
		for i := 0; i < int(n); i++ {
			key = l.key(key[:0], i)
			if _, ok := distinct[string(key)]; !ok {
				distinct[string(key)] = len(order)
				order = append(order, i)
				if len(order) > 256 {
					break
				}
			}
		}
		if len(order) == 1 {
			v, err := l.value(0)
			if err != nil {
				return 0, err
			}
			return e.node(rec(constT(t), v, u32v(n))), nil
		}
		if len(order) <= 256 && int64(len(order)) < n {
			return e.dict(l, distinct, order)
		}
	}
	return e.plain(l)
}

func (e *emitter) dict(l *leafBuf, distinct map[string]int, order []int) (int, error) {
	n := l.len()
	index := make([]byte, n)
	counts := make([]uint32, len(order))
	var key []byte
	for i := 0; i < n; i++ {
		key = l.key(key[:0], i)
		k := distinct[string(key)]
		index[i] = byte(k)
		counts[k]++
	}
	// Data in the order super's dictionary encoder emits it (every
	// version of its source agrees): the entries, the counts, the index.
	id, err := e.plain(l.subset(order))
	if err != nil {
		return 0, err
	}
	cs := e.ints32(counts)
	ix := e.raw(index)
	return e.node(rec(t16().Dict, idv(id), cs, ix, u32v(int64(n)))), nil
}

func (e *emitter) typeValue(t *bsup.Type) (bsup.Value, error) {
	b, err := bsup.AppendTypeValueV2(nil, t)
	if err != nil {
		return bsup.Value{}, errs.Locate(boundary(err), -1, "")
	}
	return bsup.Value{Type: bsup.TypeType, Bytes: b}, nil
}

// plain writes the Int, Uint, Float, Bytes or Primitive node of l.
func (e *emitter) plain(l *leafBuf) (int, error) {
	t := l.t
	tv, err := e.typeValue(t)
	if err != nil {
		return 0, err
	}
	n := int64(l.len())
	switch l.class {
	case classInt:
		u := make([]uint64, n)
		var mn, mx int64
		for i, x := range l.ints {
			u[i] = uint64(x)
			if i == 0 || x < mn {
				mn = x
			}
			if i == 0 || x > mx {
				mx = x
			}
		}
		loc := e.ints64(u, true)
		return e.node(rec(t16().Int, tv, loc, bsup.NewInt(bsup.TypeInt64, mn), bsup.NewInt(bsup.TypeInt64, mx), u32v(n))), nil
	case classUint:
		var mn, mx uint64
		for i, x := range l.uints {
			if i == 0 || x < mn {
				mn = x
			}
			if i == 0 || x > mx {
				mx = x
			}
		}
		loc := e.ints64(l.uints, false)
		return e.node(rec(t16().Uint, tv, loc, bsup.NewUint(bsup.TypeUint64, mn), bsup.NewUint(bsup.TypeUint64, mx), u32v(n))), nil
	case classFloat:
		b := make([]byte, 0, 8*n)
		var mn, mx float64
		for i, x := range l.floats {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
			if i == 0 || x < mn {
				mn = x
			}
			if i == 0 || x > mx {
				mx = x
			}
		}
		loc := e.blob(b)
		return e.node(rec(t16().Float, tv, loc, bsup.NewFloat(bsup.TypeFloat64, mn), bsup.NewFloat(bsup.TypeFloat64, mx), u32v(n))), nil
	case classBytes:
		mn, mx := bsup.NewNull(bsup.TypeNull), bsup.NewNull(bsup.TypeNull)
		nt := t16().BytesEmpty
		var offs []uint32
		if n > 0 {
			nt = t16().Bytes
			offs = append(append(offs, 0), l.ends...)
			for i := range l.ends {
				b := l.at(i)
				if i == 0 || bytes.Compare(b, mn.Bytes) < 0 {
					mn = bsup.NewBytes(b)
				}
				if i == 0 || bytes.Compare(b, mx.Bytes) > 0 {
					mx = bsup.NewBytes(b)
				}
			}
		}
		data := e.blob(l.data)
		offsets := e.ints32(offs)
		// super's Count is len(offsets)-1, 2^32-1 for an empty column.
		return e.node(rec(nt, tv, data, offsets, mn, mx, u32v(int64(uint32(len(offs)-1))))), nil
	}
	var b []byte
	mn, mx := bsup.NewNull(bsup.TypeNull), bsup.NewNull(bsup.TypeNull)
	mmt := bsup.TypeNull
	if n > 0 {
		mmt = t
	}
	for i := 0; i < int(n); i++ {
		b = bsup.AppendTaggedBody(b, l.at(i))
		v, err := l.value(i)
		if err != nil {
			return 0, err
		}
		if i == 0 || primLess(v, mn) {
			mn = v
		}
		if i == 0 || primLess(mx, v) {
			mx = v
		}
	}
	loc := e.blob(b)
	return e.node(rec(leafNode("Primitive", mmt), tv, loc, mn, mx, u32v(n))), nil
}

// primLess orders values of the Primitive node's kinds (bool, ip, net,
// enum, ...) as super's min/max statistics do.
func primLess(a, b bsup.Value) bool {
	switch bsup.PayloadKind(a.Type) {
	case bsup.KindIP:
		return a.Addr().Compare(b.Addr()) < 0
	case bsup.KindNet:
		pa, pb := a.Prefix(), b.Prefix()
		if c := pa.Addr().Compare(pb.Addr()); c != 0 {
			return c < 0
		}
		return pa.Bits() < pb.Bits()
	case bsup.KindBool, bsup.KindEnum:
		return a.Uint < b.Uint
	case bsup.KindType:
		return bytes.Compare(a.Bytes, b.Bytes) < 0
	}
	x, _ := bsup.AppendValueBody(nil, a)
	y, _ := bsup.AppendValueBody(nil, b)
	return bytes.Compare(x, y) < 0
}

// write16 adds a value to the current CSUP v16 object.
func (w *Writer) write16(v bsup.Value) error {
	o := w.obj
	typedNull, size := scan16(v)
	if typedNull {
		v = untype(v)
	}
	if v.Type.Depth() > w.cfg.maxDepth {
		return errs.Wrap(ErrTooLarge, "type nesting depth %d exceeds the limit of %d", v.Type.Depth(), w.cfg.maxDepth)
	}
	key := v.Type.Key()
	k, ok := o.keys[key]
	if !ok {
		k = len(o.variants)
		o.keys[key] = k
		c := o.spare[key]
		if c == nil || c.path != "super"+itoa(k) {
			c = newCol16(v.Type, "super"+itoa(k))
		} else {
			delete(o.spare, key)
		}
		o.variants = append(o.variants, c)
	}
	if err := o.variants[k].push(v, 0); err != nil {
		w.err = err
		return err
	}
	o.tags = append(o.tags, uint32(k))
	o.rows++
	o.size += size
	if o.rows >= int64(w.cfg.objectRows) || o.size >= w.cfg.objectSize {
		if err := w.flush16(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

// flush16 writes the current object and starts the next.
func (w *Writer) flush16() error {
	o := w.obj
	e := &emitter{lz4: w.cfg.compress}
	var root int
	if len(o.variants) == 1 {
		id, err := e.emit(o.variants[0])
		if err != nil {
			return err
		}
		root = id
	} else {
		tags := e.ints32(o.tags)
		ids, err := e.emitAll(o.variants)
		if err != nil {
			return err
		}
		root = e.node(rec(t16().Dynamic, tags, ids, u32v(o.rows)))
	}
	var meta bytes.Buffer
	bw, err := bsup.NewWriter(&meta, bsup.WithVersion(2), bsup.WithMaxDepth(10000), bsup.WithFrameThreshold(1<<30), bsup.WithCompression(w.cfg.compress))
	if err != nil {
		return err
	}
	for _, m := range e.meta {
		if err := bw.Write(m); err != nil {
			return boundary(err)
		}
	}
	if err := bw.Close(); err != nil {
		return err
	}
	var h [v16HeaderSize]byte
	copy(h[:], "CSUP")
	le := binary.LittleEndian
	le.PutUint32(h[4:], 16)
	le.PutUint64(h[8:], uint64(meta.Len()))
	le.PutUint64(h[24:], uint64(len(e.data)))
	le.PutUint32(h[32:], uint32(root))
	for _, b := range [][]byte{h[:], meta.Bytes(), e.data} {
		n, err := w.w.Write(b)
		w.off += int64(n)
		if err != nil {
			return err
		}
	}
	// The next object reuses this one's column buffers, emptied, for the
	// values of the same types (no regrowing them object after object).
	// Only the last object's trees are kept, so types that stop occurring
	// do not pile up.
	spare := make(map[string]*col16, len(o.keys))
	for key, k := range o.keys {
		o.variants[k].reset()
		spare[key] = o.variants[k]
	}
	w.obj = &obj16{keys: map[string]int{}, spare: spare}
	return nil
}

// reset empties c for the next object, keeping its storage.
func (c *col16) reset() {
	c.n, c.nulls = 0, 0
	if c.offs != nil {
		c.offs = c.offs[:1]
	}
	c.tags = c.tags[:0]
	if l := c.leaf; l != nil {
		l.ints, l.uints, l.floats, l.data, l.ends = l.ints[:0], l.uints[:0], l.floats[:0], l.data[:0], l.ends[:0]
	}
	for _, k := range c.kids {
		k.reset()
	}
}

// Leaf value classes: how a leaf column's values are stored while an
// object is built (compactly, not as bsup.Values).
const (
	classInt   = iota + 1 // int8..int64, duration, time
	classUint             // uint8..uint64
	classFloat            // float16..float64, widened
	classBytes            // string, bytes: concatenated
	classBody             // everything else: Super Binary bodies
)

type leafBuf struct {
	t      *bsup.Type
	class  int
	ints   []int64
	uints  []uint64
	floats []float64
	data   []byte   // classBytes, classBody
	ends   []uint32 // end of each value in data
}

func newLeafBuf(t *bsup.Type) *leafBuf {
	l := &leafBuf{t: t, class: classBody}
	switch bsup.PayloadKind(t) {
	case bsup.KindInt8, bsup.KindInt16, bsup.KindInt32, bsup.KindInt64, bsup.KindDuration, bsup.KindTime:
		l.class = classInt
	case bsup.KindUint8, bsup.KindUint16, bsup.KindUint32, bsup.KindUint64:
		l.class = classUint
	case bsup.KindFloat16, bsup.KindFloat32, bsup.KindFloat64:
		l.class = classFloat
	case bsup.KindString, bsup.KindBytes:
		l.class = classBytes
	case bsup.KindType:
		if typeValuesInBytes {
			l.class = classBytes
		}
	}
	return l
}

// typeValuesInBytes makes the writer put type values in Bytes nodes, as
// super's encoder does in some versions (tests of the reader set it);
// by default they go in Primitive nodes.
var typeValuesInBytes = false

func (l *leafBuf) len() int {
	switch l.class {
	case classInt:
		return len(l.ints)
	case classUint:
		return len(l.uints)
	case classFloat:
		return len(l.floats)
	}
	return len(l.ends)
}

func (l *leafBuf) at(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.data[start:l.ends[i]]
}

func (l *leafBuf) appendBody(b []byte) error {
	if uint64(len(l.data))+uint64(len(b)) > math.MaxUint32 {
		return errs.Wrap(ErrTooLarge, "more than 4 GiB of values in one column of one object")
	}
	l.data = append(l.data, b...)
	l.ends = append(l.ends, uint32(len(l.data)))
	return nil
}

// add stores a non-null value.
func (l *leafBuf) add(v bsup.Value) error {
	switch l.class {
	case classInt:
		l.ints = append(l.ints, v.Int)
	case classUint:
		l.uints = append(l.uints, v.Uint)
	case classFloat:
		l.floats = append(l.floats, v.Float)
	case classBytes:
		if bsup.PayloadKind(v.Type) != bsup.KindType {
			return l.appendBody(v.Bytes)
		}
		fallthrough
	default:
		if bsup.PayloadKind(v.Type) == bsup.KindType {
			// Type values are stored in their Super Binary version 2 form.
			tt, err := bsup.DecodeTypeValue(v.Bytes, 10000)
			if err != nil {
				return boundary(err)
			}
			b, err := bsup.AppendTypeValueV2(nil, tt)
			if err != nil {
				return boundary(err)
			}
			return l.appendBody(b)
		}
		b, err := bsup.AppendValueBody(nil, v)
		if err != nil {
			return boundary(err)
		}
		return l.appendBody(b)
	}
	return nil
}

// key appends bytes that identify value i among the column's values.
func (l *leafBuf) key(dst []byte, i int) []byte {
	switch l.class {
	case classInt:
		return binary.LittleEndian.AppendUint64(dst, uint64(l.ints[i]))
	case classUint:
		return binary.LittleEndian.AppendUint64(dst, l.uints[i])
	case classFloat:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(l.floats[i]))
	}
	return append(dst, l.at(i)...)
}

// value returns value i as a bsup.Value of the column's type.
func (l *leafBuf) value(i int) (bsup.Value, error) {
	switch l.class {
	case classInt:
		return bsup.NewInt(l.t, l.ints[i]), nil
	case classUint:
		return bsup.NewUint(l.t, l.uints[i]), nil
	case classFloat:
		return bsup.NewFloat(l.t, l.floats[i]), nil
	case classBytes:
		return bsup.Value{Type: l.t, Bytes: l.at(i)}, nil
	}
	if bsup.PayloadKind(l.t) == bsup.KindType {
		return bsup.Value{Type: l.t, Bytes: l.at(i)}, nil
	}
	v, err := bsup.DecodeBody(l.t, l.at(i))
	return v, boundary(err)
}

// subset returns the values at idx, in that order.
func (l *leafBuf) subset(idx []int) *leafBuf {
	s := &leafBuf{t: l.t, class: l.class}
	for _, i := range idx {
		switch l.class {
		case classInt:
			s.ints = append(s.ints, l.ints[i])
		case classUint:
			s.uints = append(s.uints, l.uints[i])
		case classFloat:
			s.floats = append(s.floats, l.floats[i])
		default:
			_ = s.appendBody(l.at(i))
		}
	}
	return s
}
