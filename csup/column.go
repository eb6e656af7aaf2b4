package csup

import (
	"encoding/binary"
	"math"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// nodeKind is the shape of a column, common to every generation.
type nodeKind uint8

const (
	nodePrim    nodeKind = iota // counted bodies of typ (primitives, and whole enum/error/map values)
	nodeRecord                  // fields
	nodeArray                   // lengths + elem (arrays and sets)
	nodeMap                     // lengths + elem (keys) + val
	nodeUnion                   // tags + members
	nodeNulls                   // presence runs + elem (present values only)
	nodeAllNull                 // no data: every value is a null of typ
	nodeDict                    // one index byte per value into dict (VNG v4)
	nodeConst                   // count copies of cval (VNG v4)
)

// node is a column as the reassembly metadata describes it. It holds no
// read state, so one File can serve many readers.
type node struct {
	kind    nodeKind
	typ     *bsup.Type // type of the values this column yields
	path    string
	segs    []Segment // prim data, lengths, tags or runs
	names   []string  // record field names
	fields  []*node   // record fields, in type order
	elem    *node
	val     *node
	members []*node
	dict    []bsup.Value // nodeDict entries
	cval    bsup.Value   // nodeConst value
	count   int64        // nodeConst count
	// VNG v4 Primitive statistics.
	min, max bsup.Value
	hasStats bool
}

func (n *node) kindName() string {
	return [...]string{"primitive", "record", "array", "map", "union", "nulls", "all-null", "dict", "const"}[n.kind]
}

// cursor is the read state of a node; a projection prunes record fields.
type cursor struct {
	n       *node
	typ     *bsup.Type
	st      *stream
	fields  []*cursor
	elem    *cursor
	val     *cursor
	members []*cursor
	// presence runs
	started bool
	present bool
	left    int64
	maxElem int64
	pk      bsup.Kind // payload kind of a primitive column's type
	slab    *slab     // element storage shared by a Reader's cursors
}

// slab hands out element slices carved from large blocks, so building a
// value tree costs a few large allocations instead of one per container.
// A block stays alive while any value uses part of it.
type slab struct {
	free []bsup.Value
	mem  *budget
}

// budget is the memory limit of one read (WithMemoryLimit): the elements
// of the value being built (reset at each Read) plus the decoded segment
// bytes the read's streams hold at the moment.
type budget struct {
	limit int64
	elems int64 // elements of the current value tree
	segs  int64 // decoded segment bytes held by the streams
}

func (b *budget) over() bool {
	return b.elems > (b.limit-b.segs)/ElementCost
}

// chargeElems charges n elements of the value being built.
func (b *budget) chargeElems(n int64, off int64, path string) error {
	if b == nil {
		return nil
	}
	b.elems += n
	if b.over() {
		return errs.At(ErrTooLarge, off, path, "the value being read needs more than the memory limit of %d bytes (%d elements at %d bytes each, %d bytes of segments)", b.limit, b.elems, ElementCost, b.segs)
	}
	return nil
}

// swapSegment replaces a held segment of old bytes by one of n bytes.
func (b *budget) swapSegment(old, n int64, off int64, path string) error {
	if b == nil {
		return nil
	}
	b.segs += n - old
	if b.segs > b.limit || b.over() {
		return errs.At(ErrTooLarge, off, path, "segments held by the read need more than the memory limit of %d bytes", b.limit)
	}
	return nil
}

const slabBlock = 4096

func (s *slab) get(n int) []bsup.Value {
	if n > slabBlock/4 {
		return make([]bsup.Value, n)
	}
	if len(s.free) < n {
		s.free = make([]bsup.Value, slabBlock)
	}
	e := s.free[:n:n]
	s.free = s.free[n:]
	return e
}

// resize returns e with length n, reusing its storage when it can.
func (c *cursor) resize(e []bsup.Value, n int) []bsup.Value { return c.slab.resize(e, n) }

func (s *slab) resize(e []bsup.Value, n int) []bsup.Value {
	if cap(e) >= n {
		return e[:n]
	}
	return s.get(n)
}

// newCursor builds the read state for n. proj, when not nil, selects the
// record fields to keep (a nil entry keeps a field whole).
func newCursor(f *fileInfo, n *node, proj *projection, sl *slab) *cursor {
	c := &cursor{n: n, typ: n.typ, maxElem: f.cfg.maxElements, pk: bsup.PayloadKind(n.typ), slab: sl}
	if n.kind == nodeConst {
		c.left = n.count
	}
	if n.kind != nodeRecord && n.kind != nodeAllNull && n.kind != nodeNulls && n.kind != nodeConst {
		c.st = newStream(f, n.segs, n.path, sl.mem)
	}
	switch n.kind {
	case nodeNulls:
		c.st = newStream(f, n.segs, n.path+"/presence", sl.mem)
		c.elem = newCursor(f, n.elem, proj, sl)
		if proj != nil && !proj.all {
			c.typ = c.elem.typ
		}
	case nodeRecord:
		if proj == nil || proj.all {
			for _, fn := range n.fields {
				c.fields = append(c.fields, newCursor(f, fn, nil, sl))
			}
			break
		}
		var fields []bsup.Field
		for i, fn := range n.fields {
			sub, ok := proj.fields[n.names[i]]
			if !ok {
				continue
			}
			fc := newCursor(f, fn, sub, sl)
			c.fields = append(c.fields, fc)
			fields = append(fields, bsup.Field{Name: n.names[i], Type: fc.typ})
		}
		c.typ = bsup.NewRecord(fields)
	case nodeArray, nodeMap:
		c.elem = newCursor(f, n.elem, nil, sl)
		if n.val != nil {
			c.val = newCursor(f, n.val, nil, sl)
		}
	case nodeUnion:
		for _, m := range n.members {
			c.members = append(c.members, newCursor(f, m, nil, sl))
		}
	}
	return c
}

// projectedFields returns how many fields a record column (possibly under
// a presence wrapper) yields, or -1 for a column that is not a record.
func (c *cursor) projectedFields() int {
	switch c.n.kind {
	case nodeNulls:
		return c.elem.projectedFields()
	case nodeRecord:
		return len(c.fields)
	}
	return -1
}

// read decodes the next value of the column into dst.
func (c *cursor) read(dst *bsup.Value) error {
	n := c.n
	switch n.kind {
	case nodePrim:
		body, null, err := c.st.value()
		if err != nil {
			return err
		}
		if null {
			*dst = bsup.Value{Type: c.typ, Null: true, Elems: dst.Elems[:0]}
			return nil
		}
		if decodePrim(dst, c.typ, c.pk, body) {
			return nil
		}
		if err := bsup.DecodeInto(dst, c.typ, body); err != nil {
			return errs.Locate(err, c.st.segOff, n.path)
		}
		return nil
	case nodeAllNull:
		*dst = bsup.Value{Type: c.typ, Null: true, Elems: dst.Elems[:0]}
		return nil
	case nodeConst:
		if c.left <= 0 {
			return errs.At(ErrCorrupt, -1, n.path, "Const of count %d has fewer values than its parent needs", n.count)
		}
		c.left--
		copyValue(dst, n.cval)
		dst.Type = c.typ
		return nil
	case nodeDict:
		ix, err := c.st.byte()
		if err != nil {
			return err
		}
		if int(ix) >= len(n.dict) {
			return errs.At(ErrCorrupt, c.st.segOff, n.path, "dictionary index %d of %d entries", ix, len(n.dict))
		}
		copyValue(dst, n.dict[ix])
		dst.Type = c.typ
		return nil
	case nodeNulls:
		for c.left == 0 {
			run, err := c.st.int()
			if err != nil {
				return err
			}
			if run < 0 {
				return errs.At(ErrCorrupt, c.st.segOff, c.st.path, "negative presence run %d", run)
			}
			if !c.started {
				c.started, c.present = true, true
			} else {
				c.present = !c.present
			}
			c.left = run
		}
		c.left--
		if !c.present {
			*dst = bsup.Value{Type: c.typ, Null: true, Elems: dst.Elems[:0]}
			return nil
		}
		return c.elem.read(dst)
	case nodeRecord:
		if err := c.slab.mem.chargeElems(int64(len(c.fields)), -1, n.path); err != nil {
			return err
		}
		setScalar(dst, c.typ)
		dst.Elems = c.resize(dst.Elems, len(c.fields))
		for i, fc := range c.fields {
			if err := fc.read(&dst.Elems[i]); err != nil {
				return err
			}
		}
		return nil
	case nodeArray, nodeMap:
		ln, err := c.st.int()
		if err != nil {
			return err
		}
		if ln < 0 || ln > c.maxElem {
			if ln > c.maxElem {
				return errs.TooLarge(ErrTooLarge, c.st.segOff, n.path+"/lengths", "container of elements", uint64(ln), c.maxElem)
			}
			return errs.At(ErrCorrupt, c.st.segOff, n.path+"/lengths", "negative length %d", ln)
		}
		cnt := ln
		if n.kind == nodeMap {
			cnt *= 2
		}
		if err := c.slab.mem.chargeElems(cnt, c.st.segOff, n.path); err != nil {
			return err
		}
		*dst = bsup.Value{Type: c.typ, Elems: c.resize(dst.Elems, int(cnt))}
		for i := int64(0); i < ln; i++ {
			if n.kind == nodeMap {
				if err := c.elem.read(&dst.Elems[2*i]); err != nil {
					return err
				}
				if err := c.val.read(&dst.Elems[2*i+1]); err != nil {
					return err
				}
				continue
			}
			if err := c.elem.read(&dst.Elems[i]); err != nil {
				return err
			}
		}
		return nil
	case nodeUnion:
		tag, err := c.st.int()
		if err != nil {
			return err
		}
		if tag < 0 || tag >= int64(len(c.members)) {
			return errs.At(ErrCorrupt, c.st.segOff, n.path+"/tags", "union tag %d out of range", tag)
		}
		if err := c.slab.mem.chargeElems(1, c.st.segOff, n.path); err != nil {
			return err
		}
		*dst = bsup.Value{Type: c.typ, Uint: uint64(tag), Elems: c.resize(dst.Elems, 1)}
		return c.members[tag].read(&dst.Elems[0])
	}
	return errs.At(ErrCorrupt, -1, n.path, "bad column kind")
}

// finished reports whether every stream under c was read to its end (a
// check Validate makes after the last row).
func (c *cursor) finished() (string, bool) {
	if c.st != nil && !c.st.done() {
		return c.st.path, false
	}
	if (c.n.kind == nodeNulls || c.n.kind == nodeConst) && c.left != 0 {
		return c.n.path, false
	}
	for _, s := range append(append(append([]*cursor{}, c.fields...), c.members...), c.elem, c.val) {
		if s == nil {
			continue
		}
		if p, ok := s.finished(); !ok {
			return p, false
		}
	}
	return "", true
}

// projection selects record fields: fields maps a name to the selection
// inside it (nil or all = the whole field).
type projection struct {
	all    bool
	fields map[string]*projection
}

// newProjection parses dotted paths such as "user.addr.zip".
func newProjection(paths []string) *projection {
	if len(paths) == 0 {
		return nil
	}
	p := &projection{fields: map[string]*projection{}}
	for _, path := range paths {
		cur := p
		parts := splitPath(path)
		for i, name := range parts {
			sub, ok := cur.fields[name]
			if !ok {
				sub = &projection{fields: map[string]*projection{}}
				cur.fields[name] = sub
			}
			if i == len(parts)-1 {
				sub.all = true
			}
			cur = sub
		}
	}
	return p
}

func splitPath(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// setScalar resets dst to a non-null value of type t, field by field (a
// whole-struct store of a Value costs more in the hot loop).
func setScalar(dst *bsup.Value, t *bsup.Type) {
	if dst.Type != t {
		dst.Type = t
	}
	dst.Null = false
	dst.Uint, dst.Int, dst.Float = 0, 0, 0
	if dst.Bytes != nil {
		dst.Bytes = nil
	}
	if len(dst.Elems) != 0 {
		dst.Elems = dst.Elems[:0]
	}
}

// decodePrim decodes the common primitive kinds (string, bytes, integers,
// float64, bool)
// without going through bsup.DecodeInto; it reports false for every other
// kind and for bodies it does not accept, which then take the exact path.
// FuzzDiffDecodePrim checks that both agree.
func decodePrim(dst *bsup.Value, t *bsup.Type, pk bsup.Kind, body []byte) bool {
	switch pk {
	case bsup.KindString, bsup.KindBytes:
		setScalar(dst, t)
		dst.Bytes = body
		return true
	case bsup.KindInt64, bsup.KindInt32, bsup.KindInt16, bsup.KindInt8, bsup.KindDuration, bsup.KindTime:
		if v, ok := bsup.DecodeInt(body); ok {
			setScalar(dst, t)
			dst.Int = v
			return true
		}
	case bsup.KindUint64, bsup.KindUint32, bsup.KindUint16, bsup.KindUint8:
		if v, ok := bsup.DecodeUint(body); ok {
			setScalar(dst, t)
			dst.Uint = v
			return true
		}
	case bsup.KindFloat64:
		if len(body) == 8 {
			setScalar(dst, t)
			dst.Float = math.Float64frombits(binary.LittleEndian.Uint64(body))
			return true
		}
	case bsup.KindBool:
		if len(body) == 1 && body[0] <= 1 {
			setScalar(dst, t)
			dst.Uint = uint64(body[0])
			return true
		}
	}
	return false
}
