package csup

import (
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/intcomp"
	"github.com/colfmt/colfmt/internal/errs"
	"github.com/pierrec/lz4/v4"
)

// v16Cursor is the read state of one node reference in one object. Data is
// loaded when the cursor first yields a value, so a projection reads only
// the segments of the columns it keeps.
type v16Cursor struct {
	n      *v16Node
	rd     *v16Reader
	typ    *bsup.Type // the node's type, or its projection
	kids   []*v16Cursor
	loaded bool
	u32    []uint32 // offsets or tags
	u64    []uint64 // Int and Uint values
	data   []byte   // Float, Bytes, Primitive bodies, Dict index
	pos    int64    // values yielded
	bpos   int      // next body (Primitive)
	dict   []bsup.Value
}

// v16Reader is the per-Reader state of a CSUP v16 file.
type v16Reader struct {
	f     *File
	proj  *projection
	obj   int   // current object
	left  int64 // rows left in it
	root  *v16Cursor
	mem   *budget
	slab  *slab
	where []rangePred // row filters of a Query
	skip  func(o *v16Object) bool
	stats *QueryStats
	// validate makes each object's cursors prove they were used up.
	validate bool
	// pool, when set (BatchReader), supplies segment buffers reused from
	// the previous object.
	pool *segPool
}

// segPool holds the decoded-segment buffers of one finished object for
// the next to reuse (a nil pool allocates). Spare buffers stay charged to
// the memory limit (spare bytes of mem.segs) until they are reused.
type segPool struct {
	mem   *budget
	spare int64
	b     [][]byte
	u32   [][]uint32
	u64   [][]uint64
	i64   [][]int64
	f64   [][]float64
}

// used uncharges a spare buffer of x bytes taken for use (its user
// charges it again).
func (p *segPool) used(x int64) {
	d := min(p.spare, x)
	p.spare -= d
	p.mem.segs -= d
}

// take returns a slice of length n of size-byte elements from list (one
// with room enough), or a new one.
func take[T any](p *segPool, list *[][]T, n, size int64) []T {
	if s := reuse(p, list, n, size); s != nil {
		return s[:n]
	}
	return make([]T, n)
}

// reuse returns an empty slice with room for n from list, or nil.
func reuse[T any](p *segPool, list *[][]T, n, size int64) []T {
	if p == nil {
		return nil
	}
	l := *list
	for i, s := range l {
		if int64(cap(s)) >= n {
			l[i] = l[len(l)-1]
			*list = l[:len(l)-1]
			p.used(int64(cap(s)) * size)
			return s[:0]
		}
	}
	return nil
}

// keep puts s in list as a spare buffer charged to the limit.
func keep[T any](p *segPool, list *[][]T, s []T, size int64) {
	if cap(s) > 0 {
		*list = append(*list, s[:0])
		x := int64(cap(s)) * size
		p.spare += x
		p.mem.segs += x
	}
}

// give returns s, whose bytes were charged already, to list for reuse.
func give[T any](p *segPool, list *[][]T, s []T) {
	if p != nil && cap(s) > 0 {
		*list = append(*list, s[:0])
	}
}

func (r *v16Reader) next(dst *bsup.Value) (skip bool, err error) {
	for r.left == 0 {
		if r.root != nil {
			if r.validate && r.root.n != nil {
				if p, ok := r.root.finished(); !ok {
					return false, errs.At(ErrCorrupt, -1, p, "object %d: node has values left over after the last row", r.obj)
				}
			}
			r.obj++
		}
		if r.obj >= len(r.f.v16) {
			return false, io.EOF
		}
		o := r.f.v16[r.obj]
		if r.stats != nil {
			r.stats.Objects++
		}
		if r.skip != nil && r.skip(o) {
			if r.stats != nil {
				r.stats.ObjectsSkipped++
			}
			r.root = &v16Cursor{}
			continue
		}
		// The previous object's buffers are dropped with its cursors.
		r.mem.segs = 0
		r.root = r.cursor(o, o.root, r.proj)
		r.left = o.rows
	}
	r.left--
	c := r.root
	if c.n.kind == k16Dynamic {
		if err := c.load(); err != nil {
			return false, err
		}
		if c.pos >= int64(len(c.u32)) {
			return false, errs.At(ErrCorrupt, c.n.segA.Offset, nodePath(c.n.id), "Dynamic node has fewer tags than rows")
		}
		tag := c.u32[c.pos]
		c.pos++
		if int(tag) >= len(c.kids) {
			return false, errs.At(ErrCorrupt, c.n.segA.Offset, nodePath(c.n.id), "Dynamic tag %d out of range (%d values)", tag, len(c.kids))
		}
		c = c.kids[tag]
	}
	if r.proj != nil && c.projectedFields() <= 0 {
		return true, c.skipOne()
	}
	if err := c.read(dst); err != nil {
		return false, err
	}
	if len(r.where) > 0 && !r.match(dst) {
		return true, nil
	}
	return false, nil
}

// cursor builds the cursor tree of node id; proj selects record fields.
func (r *v16Reader) cursor(o *v16Object, id int, proj *projection) *v16Cursor {
	n := o.nodes[id]
	c := &v16Cursor{n: n, rd: r, typ: n.typ}
	switch n.kind {
	case k16Record:
		if proj == nil || proj.all {
			for _, k := range n.kids {
				c.kids = append(c.kids, r.cursor(o, k, nil))
			}
			break
		}
		var fields []bsup.Field
		for i, k := range n.kids {
			sub, ok := proj.fields[n.names[i]]
			if !ok {
				c.kids = append(c.kids, nil)
				continue
			}
			kc := r.cursor(o, k, sub)
			c.kids = append(c.kids, kc)
			fields = append(fields, bsup.Field{Name: n.names[i], Type: kc.typ})
		}
		c.typ = bsup.NewRecord(fields)
	case k16Dynamic:
		for _, k := range n.kids {
			c.kids = append(c.kids, r.cursor(o, k, proj))
		}
	case k16Named, k16Error:
		kc := r.cursor(o, n.kids[0], proj)
		c.kids = []*v16Cursor{kc}
		if kc.typ != o.nodes[n.kids[0]].typ {
			c.typ = kc.typ // a projection drops the name
		}
	default:
		for _, k := range n.kids {
			c.kids = append(c.kids, r.cursor(o, k, nil))
		}
	}
	return c
}

// projectedFields returns how many fields a projected record yields, or
// -1 for other nodes.
func (c *v16Cursor) projectedFields() int {
	switch c.n.kind {
	case k16Named, k16Error:
		return c.kids[0].projectedFields()
	case k16Record:
		k := 0
		for _, kc := range c.kids {
			if kc != nil {
				k++
			}
		}
		return k
	}
	return -1
}

// skipOne passes over a row of a record none of whose fields is projected.
func (c *v16Cursor) skipOne() error {
	c.pos++
	if c.pos > c.n.length {
		return errs.At(ErrCorrupt, -1, nodePath(c.n.id), "%s node has fewer values than its parent needs", c.n.kind)
	}
	return nil
}

func (c *v16Cursor) path() string { return nodePath(c.n.id) }

// charge counts n elements of the value being built against the memory
// limit (the path is formatted only for the error).
func (c *v16Cursor) charge(n, off int64) error {
	m := c.rd.mem
	m.elems += n
	if m.over() {
		m.elems -= n
		return m.chargeElems(n, off, c.path())
	}
	return nil
}

// stored reads the stored bytes of s (n of them) and decompresses them to
// want bytes when s is LZ4.
func (c *v16Cursor) stored(s Segment, n, want int64) ([]byte, error) {
	o := c.rd.f.v16[c.rd.obj]
	path := c.path()
	if n < 0 || s.Offset-o.dataOff+n > o.dataSize {
		return nil, errs.At(ErrCorrupt, s.Offset, path, "segment of %d bytes runs past the %d-byte data section", n, o.dataSize)
	}
	if err := c.rd.mem.swapSegment(0, max(n, want), s.Offset, path); err != nil {
		return nil, err
	}
	pool := c.rd.pool
	var raw []byte
	if pool != nil {
		raw = take(pool, &pool.b, n, 1)
	} else {
		raw = make([]byte, n)
	}
	if _, err := c.rd.f.info.r.ReadAt(raw, s.Offset); err != nil && !(errors.Is(err, io.EOF) && n == 0) {
		if errors.Is(err, io.EOF) {
			return nil, errs.At(ErrCorrupt, s.Offset, path, "segment runs past the end of the file")
		}
		return nil, err
	}
	if s.Compression == CompressionNone {
		if want != n {
			return nil, errs.At(ErrCorrupt, s.Offset, path, "uncompressed segment of %d bytes where %d are needed", n, want)
		}
		return raw, nil
	}
	if want > n*255+16 {
		return nil, errs.At(ErrCorrupt, s.Offset, path, "%d bytes are impossible from a %d-byte LZ4 block", want, n)
	}
	var out []byte
	if pool != nil {
		out = take(pool, &pool.b, want, 1)
		defer give(pool, &pool.b, raw)
	} else {
		out = make([]byte, want)
	}
	k, err := lz4.UncompressBlock(raw, out)
	if err != nil || int64(k) != want {
		return nil, errs.At(ErrCorrupt, s.Offset, path, "LZ4 segment does not decompress to its %d bytes", want)
	}
	return out, nil
}

// ints decodes an intcomp segment of width-byte values: Length is the
// decoded size, MemLength the stored one (super v0.3.0's convention).
func (c *v16Cursor) ints(s Segment, width int64) error {
	path := c.path()
	if s.Length%width != 0 {
		return errs.At(ErrCorrupt, s.Offset, path, "integer segment of %d decoded bytes is not whole %d-byte values", s.Length, width)
	}
	count := s.Length / width
	if s.Compression != CompressionNone {
		return errs.At(ErrUnsupported, s.Offset, path, "compressed integer segment")
	}
	raw, err := c.stored(s, s.MemLength, s.MemLength)
	if err != nil {
		return err
	}
	// The decoder checks count against the stream's own words first.
	if err := c.rd.mem.swapSegment(0, s.Length, s.Offset, path); err != nil {
		return err
	}
	if p := c.rd.pool; p != nil {
		defer give(p, &p.b, raw)
		// The decoder appends to a spare buffer with room for count
		// values, else allocates once it has checked count against the
		// stream's words.
		if width == 4 {
			c.u32, err = intcomp.DecodeUint32(reuse(p, &p.u32, count, 4), raw, int(count))
		} else {
			c.u64, err = intcomp.DecodeUint64(reuse(p, &p.u64, count, 8), raw, int(count))
		}
	} else if width == 4 {
		c.u32, err = intcomp.DecodeUint32(nil, raw, int(count))
	} else {
		c.u64, err = intcomp.DecodeUint64(nil, raw, int(count))
	}
	if err != nil {
		return errs.At(ErrCorrupt, s.Offset, path, "%v", err)
	}
	return nil
}

func (c *v16Cursor) load() error {
	if c.loaded {
		return nil
	}
	c.loaded = true
	n := c.n
	path := c.path()
	switch n.kind {
	case k16Array, k16Set, k16Map:
		if err := c.ints(n.segA, 4); err != nil {
			return err
		}
		if int64(len(c.u32)) != n.length+1 && !(n.length == 0 && len(c.u32) == 0) {
			return errs.At(ErrCorrupt, n.segA.Offset, path, "%d offsets for %d values", len(c.u32), n.length)
		}
		for i := 1; i < len(c.u32); i++ {
			if c.u32[i] < c.u32[i-1] {
				return errs.At(ErrCorrupt, n.segA.Offset, path, "offset %d decreases", i)
			}
		}
	case k16Union, k16Dynamic:
		if err := c.ints(n.segA, 4); err != nil {
			return err
		}
		if int64(len(c.u32)) != n.length {
			return errs.At(ErrCorrupt, n.segA.Offset, path, "%d tags for %d values", len(c.u32), n.length)
		}
	case k16Int, k16Uint:
		if err := c.ints(n.segA, 8); err != nil {
			return err
		}
		if int64(len(c.u64)) != n.length {
			return errs.At(ErrCorrupt, n.segA.Offset, path, "%d integers where Count is %d", len(c.u64), n.length)
		}
	case k16Float:
		if n.segA.MemLength != n.length*8 {
			return errs.At(ErrCorrupt, n.segA.Offset, path, "%d float bytes where Count is %d", n.segA.MemLength, n.length)
		}
		var err error
		c.data, err = c.stored(n.segA, n.segA.Length, n.segA.MemLength)
		return err
	case k16Prim:
		var err error
		c.data, err = c.stored(n.segA, n.segA.Length, n.segA.MemLength)
		return err
	case k16Bytes:
		var err error
		if c.data, err = c.stored(n.segA, n.segA.Length, n.segA.MemLength); err != nil {
			return err
		}
		if err := c.ints(n.segB, 4); err != nil {
			return err
		}
		for i, off := range c.u32 {
			if (i > 0 && off < c.u32[i-1]) || int64(off) > int64(len(c.data)) {
				return errs.At(ErrCorrupt, n.segB.Offset, path, "offset %d (%d) is out of order or past the %d bytes", i, off, len(c.data))
			}
		}
	case k16Dict:
		if n.segA.MemLength != n.length {
			return errs.At(ErrCorrupt, n.segA.Offset, path, "index of %d bytes for %d values", n.segA.MemLength, n.length)
		}
		var err error
		if c.data, err = c.stored(n.segA, n.segA.Length, n.segA.MemLength); err != nil {
			return err
		}
		kc := c.kids[0]
		ne := kc.n.length
		if ne > 256 {
			return errs.At(ErrCorrupt, -1, path, "dictionary of %d entries (a byte indexes it)", ne)
		}
		if err := c.rd.mem.chargeElems(ne, -1, path); err != nil {
			return err
		}
		c.dict = make([]bsup.Value, ne)
		for i := range c.dict {
			if err := kc.read(&c.dict[i]); err != nil {
				return err
			}
		}
		for i, x := range c.data {
			if int64(x) >= ne {
				return errs.At(ErrCorrupt, n.segA.Offset+int64(i), path, "dictionary index %d of %d entries", x, ne)
			}
		}
	}
	return nil
}

func (c *v16Cursor) read(dst *bsup.Value) error {
	n := c.n
	if c.pos >= n.length && n.kind != k16Named && n.kind != k16Error {
		return errs.At(ErrCorrupt, -1, c.path(), "%s node has fewer values (%d) than its parents need", n.kind, n.length)
	}
	if err := c.load(); err != nil {
		return err
	}
	i := c.pos
	c.pos++
	switch n.kind {
	case k16Record:
		nk := 0
		for _, kc := range c.kids {
			if kc != nil {
				nk++
			}
		}
		if err := c.charge(int64(nk), -1); err != nil {
			return err
		}
		setScalar(dst, c.typ)
		dst.Elems = c.rd.slab.resize(dst.Elems, nk)
		j := 0
		for _, kc := range c.kids {
			if kc == nil {
				continue
			}
			if err := kc.read(&dst.Elems[j]); err != nil {
				return err
			}
			j++
		}
	case k16Array, k16Set, k16Map:
		lo, hi := c.u32[i], c.u32[i+1]
		cnt := int64(hi - lo)
		if cnt > c.rd.f.info.cfg.maxElements {
			return errs.TooLarge(ErrTooLarge, n.segA.Offset, c.path(), "container of elements", uint64(cnt), c.rd.f.info.cfg.maxElements)
		}
		if n.kind == k16Map {
			cnt *= 2
		}
		if err := c.charge(cnt, n.segA.Offset); err != nil {
			return err
		}
		setScalar(dst, c.typ)
		dst.Elems = c.rd.slab.resize(dst.Elems, int(cnt))
		for j := range dst.Elems {
			kc := c.kids[0]
			if n.kind == k16Map {
				kc = c.kids[j%2]
			}
			if err := kc.read(&dst.Elems[j]); err != nil {
				return err
			}
		}
	case k16Union:
		tag := c.u32[i]
		if int(tag) >= len(c.kids) {
			return errs.At(ErrCorrupt, n.segA.Offset, c.path(), "union tag %d out of range (%d members)", tag, len(c.kids))
		}
		if err := c.charge(1, -1); err != nil {
			return err
		}
		setScalar(dst, c.typ)
		dst.Uint = uint64(tag)
		dst.Elems = c.rd.slab.resize(dst.Elems, 1)
		return c.kids[tag].read(&dst.Elems[0])
	case k16Dynamic:
		return errs.At(ErrUnsupported, -1, c.path(), "Dynamic node below the root")
	case k16Int:
		setScalar(dst, c.typ)
		dst.Int = int64(c.u64[i])
	case k16Uint:
		setScalar(dst, c.typ)
		dst.Uint = c.u64[i]
	case k16Float:
		setScalar(dst, c.typ)
		dst.Float = math.Float64frombits(binary.LittleEndian.Uint64(c.data[8*i:]))
	case k16Bytes:
		setScalar(dst, c.typ)
		dst.Bytes = c.data[c.u32[i]:c.u32[i+1]:c.u32[i+1]]
		if k := c.typ.Kind; k != bsup.KindString && k != bsup.KindBytes && bsup.PayloadKind(c.typ) == bsup.KindType {
			// super's encoder puts type values in Bytes nodes too, in
			// their Super Binary version 2 form.
			b, err := typeValueV2ToV0(dst.Bytes)
			if err != nil {
				return errs.Locate(err, n.segA.Offset, c.path())
			}
			dst.Bytes = b
		}
	case k16Prim:
		body, null, k, ok := bsup.ConsumeTagged(c.data[c.bpos:])
		if !ok {
			return errs.At(ErrCorrupt, n.segA.Offset, c.path(), "truncated value at byte %d", c.bpos)
		}
		c.bpos += k
		if null {
			*dst = bsup.Value{Type: c.typ, Null: true, Elems: dst.Elems[:0]}
			return nil
		}
		if bsup.PayloadKind(c.typ) == bsup.KindType {
			b, err := typeValueV2ToV0(body)
			if err != nil {
				return errs.Locate(err, n.segA.Offset, c.path())
			}
			setScalar(dst, c.typ)
			dst.Bytes = b
			return nil
		}
		if decodePrim(dst, c.typ, bsup.PayloadKind(c.typ), body) {
			return nil
		}
		if err := bsup.DecodeInto(dst, c.typ, body); err != nil {
			return errs.Locate(err, n.segA.Offset, c.path())
		}
	case k16Const:
		copyValue(dst, n.cval)
	case k16Dict:
		copyValue(dst, c.dict[c.data[i]])
	case k16Named, k16Error:
		if err := c.kids[0].read(dst); err != nil {
			return err
		}
		if c.typ == n.typ {
			dst.Type = c.typ
		}
	}
	return nil
}

// copyValue stores v in dst without sharing element storage that a later
// ReadInto into dst would overwrite.
func copyValue(dst *bsup.Value, v bsup.Value) {
	elems := dst.Elems[:0]
	*dst = v
	if len(v.Elems) == 0 {
		dst.Elems = elems
		return
	}
	dst.Elems = append(elems, v.Elems...)
	for i := range dst.Elems {
		copyValue(&dst.Elems[i], v.Elems[i])
	}
}

// finished reports whether every loaded cursor under c yielded all its
// values, for Validate.
func (c *v16Cursor) finished() (string, bool) {
	if c == nil {
		return "", true
	}
	if c.n.kind != k16Named && c.n.kind != k16Error && c.n.kind != k16Dict && c.pos != c.n.length {
		return c.path(), false
	}
	if c.n.kind == k16Prim && c.loaded && c.bpos != len(c.data) {
		return c.path(), false
	}
	if c.n.kind == k16Dict {
		if c.pos != c.n.length {
			return c.path(), false
		}
		return "", true
	}
	for _, k := range c.kids {
		if p, ok := k.finished(); !ok {
			return p, false
		}
	}
	return "", true
}

// typeValueV2ToV0 re-encodes a type value of a CSUP file (Super Binary
// version 2 codes) in the version 0 form bsup.Value holds.
func typeValueV2ToV0(b []byte) ([]byte, error) {
	t, err := bsup.DecodeTypeValueV2(b, 10000)
	if err != nil {
		return nil, boundary(err)
	}
	return bsup.AppendTypeValue(nil, t), nil
}
