package csup

import (
	"encoding/binary"
	"io"
	"math"
	"strconv"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// VectorKind says which fields of a Vector hold its rows.
type VectorKind uint8

// Vector kinds. Each follows the node of the file it is read from.
const (
	// VecNone: rows that a projection leaves out (a top-level type with
	// none of the projected fields, or not a record); nothing is read.
	VecNone VectorKind = iota
	// VecConst: every row is Const (a Const node; a null of type null is
	// a Const null).
	VecConst
	// VecInt: Ints, one per row (every signed width, duration, time).
	VecInt
	// VecUint: Uints, one per row (every unsigned width).
	VecUint
	// VecFloat: Floats, one per row (float16 and float32 widened).
	VecFloat
	// VecBool: Bools, one per row; Nulls marks null rows.
	VecBool
	// VecBytes: row i is Bytes[Offsets[i]:Offsets[i+1]] (string, bytes,
	// and type values in their Super Binary version 0 form).
	VecBytes
	// VecPrim: row i is the Super Binary body Bytes[Offsets[i]:Offsets[i+1]]
	// of a value of Type (ip, net, enum, type values in version 0 form,
	// and any other primitive a Primitive node holds); Nulls marks nulls.
	VecPrim
	// VecRecord: Elems are the (projected) fields, in Type's order, each
	// with Len rows.
	VecRecord
	// VecArray: arrays and sets; row i holds elements Offsets[i] up to
	// Offsets[i+1] of Elems[0].
	VecArray
	// VecMap: row i holds the entries Offsets[i] up to Offsets[i+1] of
	// Elems[0] (keys) and Elems[1] (values).
	VecMap
	// VecUnion: row i is of member Tags[i]; Elems[m] holds, in order, the
	// rows of member m (as many as Tags has m).
	VecUnion
	// VecDynamic: the top level of an object that holds several types;
	// like VecUnion, with Type nil and each Elems[m] of one type.
	VecDynamic
	// VecDict: row i is entry Index[i] of Elems[0], which holds the
	// dictionary's entries (the same for every batch of an object).
	VecDict
)

var vecKindNames = [...]string{"none", "const", "int", "uint", "float", "bool", "bytes", "prim", "record", "array", "map", "union", "dynamic", "dict"}

func (k VectorKind) String() string {
	if int(k) < len(vecKindNames) {
		return vecKindNames[k]
	}
	return "VectorKind(" + itoa(int(k)) + ")"
}

// Vector holds the rows of one column of a batch as typed slices. Which
// fields are set depends on Kind; the others are nil. The slices alias
// the BatchReader's buffers and the decoded segments: they stay valid
// until the next call to Next (copy what you keep), and must not be
// modified.
type Vector struct {
	Kind VectorKind
	// Type is the type of the rows (nil for VecDynamic). A named or error
	// type is carried by the vector of its inner node.
	Type *bsup.Type
	// Len is the number of rows.
	Len int

	Ints   []int64
	Uints  []uint64
	Floats []float64
	Bools  []bool
	// Nulls is nil when no row is null (VecBool, VecPrim).
	Nulls []bool
	// Bytes and Offsets (Len+1 of them, Offsets[0] == 0) hold VecBytes and
	// VecPrim rows; Offsets alone hold the element ranges of VecArray and
	// VecMap rows.
	Bytes   []byte
	Offsets []uint32
	Tags    []uint32 // VecUnion, VecDynamic
	Index   []byte   // VecDict
	Const   bsup.Value
	Elems   []*Vector

	cur   int          // AppendValues, AppendJSON: the next row
	dict  []bsup.Value // the entries of a VecDict, materialized once
	names [][]byte     // AppendJSON: a record's field names as JSON, with ':'
	// AppendJSON: a VecConst's value or a VecDict's entries as JSON, as
	// type jsonT in jsonStyle
	jsonVals  [][]byte
	jsonT     *bsup.Type
	jsonStyle bsup.JSONStyle
}

// Batch is a run of consecutive rows of one object of a CSUP version 16
// file, as column vectors.
type Batch struct {
	// Rows is the number of rows; Root holds them (Root.Len == Rows).
	Rows int
	// Object is the index of the object the rows are from; Row the index
	// in the file of the first row.
	Object int
	Row    int64
	Root   *Vector

	maxElems int64  // elements one row may have in AppendValues, AppendJSON
	jsonBuf  []byte // WriteJSON's buffer, kept from batch to batch
}

// rowBudget counts the elements of the row being rendered.
type rowBudget struct{ n, max int64 }

// add counts k elements and reports whether the row is still in budget.
func (r *rowBudget) add(k int64) bool {
	r.n += k
	return r.n <= r.max
}

func (b *Batch) budget() *rowBudget {
	m := b.maxElems
	if m <= 0 {
		m = DefaultMemoryLimit / ElementCost
	}
	return &rowBudget{max: m}
}

// err returns the ErrTooLarge of a row past its budget.
func (r *rowBudget) err(row int64) error {
	return errs.At(ErrTooLarge, -1, "row "+strconv.FormatInt(row, 10), "the row has more than %d elements (the memory limit at %d bytes each)", r.max, ElementCost)
}

// BatchReader reads a CSUP version 16 file a batch of rows at a time into
// typed vectors, without building a value per row: integers are decoded
// from their intcomp segments straight into []int64 and []uint64, floats
// into []float64, strings are views of their (decompressed) segment with
// offsets, and lists and unions keep their offsets and tags. Vectors
// and their buffers are reused from one batch to the next within an
// object. One BatchReader is for one goroutine.
type BatchReader struct {
	rd   *v16Reader
	rows int
	root *bcur
	left int64
	row  int64
	err  error
	// where: objects whose statistics rule out a predicate are skipped.
	where   []rangePred
	skipped int
	end     int // objects from end on are not read
	started bool
}

// SkipObjects makes the reader pass over every object whose min/max
// statistics show that none of its rows satisfies all of where (as
// File.Query does); the rows of the other objects are all returned, to be
// filtered on the vectors (Batch.Row still counts the skipped rows). Call
// it before the first Next. A malformed range is ErrInvalidArgument.
func (r *BatchReader) SkipObjects(where ...Range) error {
	if r.started {
		return errs.Wrap(ErrInvalidArgument, "SkipObjects after Next")
	}
	preds, err := rangePreds(where)
	if err != nil {
		return err
	}
	r.where = preds
	return nil
}

// LimitObjects makes the reader read only the objects first up to
// first+count-1 (Batch.Object and Batch.Row still count from the start of
// the file), so that several readers can share a file's objects, one
// goroutine each. Call it before the first Next, or once Next has
// returned io.EOF to read another range with the same reader (reusing its
// buffers); a range outside the file's Objects is ErrInvalidArgument.
func (r *BatchReader) LimitObjects(first, count int) error {
	n := len(r.rd.f.v16)
	if (r.started && r.err != io.EOF) || first < 0 || count < 0 || first > n || count > n-first {
		return errs.Wrap(ErrInvalidArgument, "LimitObjects(%d, %d) of %d objects (or before the end of a read)", first, count, n)
	}
	r.row = 0
	for _, o := range r.rd.f.v16[:first] {
		r.row += o.rows
	}
	r.rd.obj = first - 1
	r.end = first + count
	r.left, r.err, r.started = 0, nil, false
	return nil
}

// Objects returns how many objects a CSUP version 16 file has (1 for other
// generations, which are one whole).
func (f *File) Objects() int {
	if f.v16 == nil {
		return 1
	}
	return len(f.v16)
}

// Skipped returns how many objects SkipObjects's ranges have passed over
// so far.
func (r *BatchReader) Skipped() int { return r.skipped }

// NewBatchReader returns a BatchReader of every column, or of the given
// fields (dotted paths, as for Project). Batches hold up to WithBatchRows
// rows (default DefaultBatchRows) and never span objects. Only CSUP
// version 16 files are read this way (other generations are
// ErrUnsupported: use NewReader). The limits of the Security section
// apply as for NewReader; no value tree is built, so the memory limit
// counts the decoded segments and the batch's buffers.
func (f *File) NewBatchReader(fields ...string) (*BatchReader, error) {
	if f.v16 == nil {
		return nil, errs.Wrap(ErrUnsupported, "batch reading needs a CSUP version 16 file, this is %s", f.Generation)
	}
	rd := &v16Reader{f: f, proj: newProjection(fields), mem: &budget{limit: f.info.cfg.memoryLimit}, slab: &slab{}}
	rd.obj = -1
	return &BatchReader{rd: rd, rows: f.info.cfg.batchRows, end: len(f.v16)}, nil
}

// Next fills b with the next batch. The vectors belong to the reader and
// are refilled by the next call (within an object the same Vectors are
// reused; each object has its own tree), so a batch is valid until then.
// It returns io.EOF after the last batch; an error is sticky.
func (r *BatchReader) Next(b *Batch) error {
	if r.err != nil {
		return r.err
	}
	r.started = true
	if err := r.next(b); err != nil {
		r.err = boundary(err)
		return r.err
	}
	return nil
}

func (r *BatchReader) next(b *Batch) error {
	rd := r.rd
	for r.left == 0 {
		rd.obj++
		if rd.obj >= r.end {
			// r.root stays, for a later LimitObjects to reuse its buffers.
			return io.EOF
		}
		o := rd.f.v16[rd.obj]
		if skipObject(o, r.where) {
			r.skipped++
			r.row += o.rows
			continue
		}
		// The previous object's segments are dropped; their buffers are
		// reused (the previous batch's vectors alias them: see Vector).
		rd.mem.segs = 0
		rd.pool = &segPool{mem: rd.mem}
		if r.root != nil {
			r.root.release(rd.pool)
			if rd.pool.spare > rd.mem.limit/2 {
				// Too much to keep spare next to a new object's segments.
				rd.mem.segs = 0
				rd.pool = &segPool{mem: rd.mem}
			}
		}
		c := rd.cursor(o, o.root, rd.proj)
		r.root = newBcur(c, rd.proj != nil, true)
		r.left = o.rows
	}
	n := min(r.left, int64(r.rows))
	if err := r.root.fill(n); err != nil {
		return err
	}
	*b = Batch{Rows: int(n), Object: rd.obj, Row: r.row, Root: r.root.v, maxElems: rd.mem.limit / ElementCost, jsonBuf: b.jsonBuf}
	r.left -= n
	r.row += n
	return nil
}

// skipObject reports whether o's statistics rule out one of preds.
func skipObject(o *v16Object, preds []rangePred) bool {
	for _, p := range preds {
		if !o.mayMatch(p) {
			return true
		}
	}
	return false
}

// bcur is the batch read state of one node: the row cursor (whose load
// decodes and checks the segments) and the vector it fills.
type bcur struct {
	c     *v16Cursor
	v     *Vector
	kids  []*bcur // projected record fields, elements, members; nil when none
	skip  bool    // VecNone: rows are passed over
	i64   []int64
	f64   []float64
	ready bool // per-object conversion done (Int, Float, Dict)
	buf   []uint32
	bytes []byte
	nulls []bool
	bools []bool
	cnt   []int64 // union: rows per member in this batch
}

// newBcur builds the batch cursors over c; proj says a projection is in
// force, top that c is the root or a root variant.
func newBcur(c *v16Cursor, proj, top bool) *bcur {
	b := &bcur{c: c}
	n := c.n
	if top && proj && n.kind != k16Dynamic && c.projectedFields() <= 0 {
		b.skip = true
		b.v = &Vector{Kind: VecNone, Type: c.typ}
		return b
	}
	switch n.kind {
	case k16Named, k16Error:
		k := newBcur(c.kids[0], false, false)
		b.kids = []*bcur{k}
		b.v = k.v
		b.v.Type = c.typ
		return b
	case k16Dynamic:
		for _, kc := range c.kids {
			b.kids = append(b.kids, newBcur(kc, proj, true))
		}
	default:
		for _, kc := range c.kids {
			if kc != nil {
				b.kids = append(b.kids, newBcur(kc, false, false))
			}
		}
	}
	v := &Vector{Type: c.typ}
	switch n.kind {
	case k16Record:
		v.Kind = VecRecord
	case k16Array, k16Set:
		v.Kind = VecArray
	case k16Map:
		v.Kind = VecMap
	case k16Union:
		v.Kind = VecUnion
	case k16Dynamic:
		v.Kind, v.Type = VecDynamic, nil
	case k16Int:
		v.Kind = VecInt
	case k16Uint:
		v.Kind = VecUint
	case k16Float:
		v.Kind = VecFloat
	case k16Bytes:
		v.Kind = VecBytes
	case k16Prim:
		v.Kind = VecPrim
		if bsup.PayloadKind(c.typ) == bsup.KindBool {
			v.Kind = VecBool
		}
	case k16Const:
		v.Kind, v.Const = VecConst, n.cval
	case k16Dict:
		v.Kind = VecDict
	}
	for _, k := range b.kids {
		v.Elems = append(v.Elems, k.v)
	}
	b.v = v
	return b
}

// release gives the decoded segments of the tree under b to p.
func (b *bcur) release(p *segPool) {
	c := b.c
	if c.loaded || b.ready {
		keep(p, &p.b, c.data, 1)
		keep(p, &p.u32, c.u32, 4)
		keep(p, &p.u64, c.u64, 8)
		c.data, c.u32, c.u64 = nil, nil, nil
	}
	keep(p, &p.i64, b.i64, 8)
	keep(p, &p.f64, b.f64, 8)
	for _, k := range b.kids {
		k.release(p)
	}
}

func (b *bcur) path() string { return nodePath(b.c.n.id) }

// growBuf returns a buffer of n elements, reusing buf, and charges what it
// adds to the memory limit.
func growBuf[T any](b *bcur, buf []T, n int64, size int64) ([]T, error) {
	if int64(cap(buf)) >= n {
		return buf[:n], nil
	}
	c := max(n, 2*int64(cap(buf)))
	if err := b.c.rd.mem.swapSegment(int64(cap(buf))*size, c*size, -1, b.path()); err != nil {
		return nil, err
	}
	return make([]T, n, c), nil
}

// take checks that the node has n more rows and advances past them,
// returning the index of the first.
func (b *bcur) take(n int64) (int64, error) {
	c := b.c
	if n > c.n.length-c.pos {
		return 0, errs.At(ErrCorrupt, -1, b.path(), "%s node has fewer values (%d) than its parents need", c.n.kind, c.n.length)
	}
	i := c.pos
	c.pos += n
	return i, nil
}

// fill reads the node's next n rows into b.v.
func (b *bcur) fill(n int64) error {
	v := b.v
	c := b.c
	nd := c.n
	if b.skip {
		v.Len = int(n)
		_, err := b.take(n)
		return err
	}
	if nd.kind == k16Named || nd.kind == k16Error {
		if err := b.kids[0].fill(n); err != nil {
			return err
		}
		v.Type = c.typ
		return nil
	}
	v.Len = int(n)
	i, err := b.take(n)
	if err != nil {
		return err
	}
	if nd.kind == k16Const {
		return nil
	}
	if n == 0 {
		// Nothing is loaded for no rows (as the row reader reads nothing).
		return b.zero()
	}
	if nd.kind == k16Dict {
		return b.fillDict(i, n)
	}
	if err := c.load(); err != nil {
		return err
	}
	switch nd.kind {
	case k16Record:
		for _, k := range b.kids {
			if err := k.fill(n); err != nil {
				return err
			}
		}
	case k16Array, k16Set, k16Map:
		offs := c.u32[i : i+n+1]
		if b.buf, err = growBuf(b, b.buf, n+1, 4); err != nil {
			return err
		}
		base := offs[0]
		maxEl := c.rd.f.info.cfg.maxElements
		for j, o := range offs {
			b.buf[j] = o - base
			if j > 0 && int64(o-offs[j-1]) > maxEl {
				return errs.TooLarge(ErrTooLarge, nd.segA.Offset, b.path(), "container of elements", uint64(o-offs[j-1]), maxEl)
			}
		}
		v.Offsets = b.buf
		return b.fillAll(int64(offs[n] - base))
	case k16Union, k16Dynamic:
		v.Tags = c.u32[i : i+n]
		if len(b.cnt) != len(b.kids) {
			b.cnt = make([]int64, len(b.kids))
		}
		clear(b.cnt)
		for _, t := range v.Tags {
			if int(t) >= len(b.kids) {
				return errs.At(ErrCorrupt, nd.segA.Offset, b.path(), "%s tag %d out of range (%d members)", nd.kind, t, len(b.kids))
			}
			b.cnt[t]++
		}
		for m, k := range b.kids {
			if err := k.fill(b.cnt[m]); err != nil {
				return err
			}
		}
	case k16Int:
		if !b.ready {
			b.ready = true
			if err := c.rd.mem.swapSegment(0, 8*int64(len(c.u64)), -1, b.path()); err != nil {
				return err
			}
			b.i64 = take(c.rd.pool, &c.rd.pool.i64, int64(len(c.u64)), 8)
			for j, x := range c.u64 {
				b.i64[j] = int64(x)
			}
		}
		v.Ints = b.i64[i : i+n]
	case k16Uint:
		v.Uints = c.u64[i : i+n]
	case k16Float:
		if !b.ready {
			b.ready = true
			if err := c.rd.mem.swapSegment(0, 8*nd.length, -1, b.path()); err != nil {
				return err
			}
			b.f64 = take(c.rd.pool, &c.rd.pool.f64, nd.length, 8)
			for j := range b.f64 {
				b.f64[j] = math.Float64frombits(binary.LittleEndian.Uint64(c.data[8*j:]))
			}
		}
		v.Floats = b.f64[i : i+n]
	case k16Bytes:
		return b.fillBytes(i, n)
	case k16Prim:
		return b.fillPrim(n)
	}
	return nil
}

// zero sets b.v to hold no rows, and its children likewise (a dictionary
// keeps its entries).
func (b *bcur) zero() error {
	v := b.v
	v.Len = 0
	v.Ints, v.Uints, v.Floats, v.Bools, v.Nulls, v.Bytes, v.Tags, v.Index = nil, nil, nil, nil, nil, nil, nil, nil
	v.Offsets = nil
	switch v.Kind {
	case VecBytes, VecPrim, VecArray, VecMap:
		var err error
		if b.buf, err = growBuf(b, b.buf, 1, 4); err != nil {
			return err
		}
		b.buf[0] = 0
		v.Offsets = b.buf
	case VecDict:
		return nil
	}
	for _, k := range b.kids {
		if err := k.fill(0); err != nil {
			return err
		}
	}
	return nil
}

// fillAll fills the single element child (maps: both) with n rows.
func (b *bcur) fillAll(n int64) error {
	for _, k := range b.kids {
		if err := k.fill(n); err != nil {
			return err
		}
	}
	return nil
}

func (b *bcur) fillBytes(i, n int64) error {
	c, v := b.c, b.v
	offs := c.u32[i : i+n+1]
	var err error
	if b.buf, err = growBuf(b, b.buf, n+1, 4); err != nil {
		return err
	}
	if bsup.PayloadKind(c.typ) != bsup.KindType {
		base := offs[0]
		for j, o := range offs {
			b.buf[j] = o - base
		}
		v.Bytes, v.Offsets = c.data[base:offs[n]], b.buf
		return nil
	}
	// Type values in a Bytes node are in their version 2 form.
	out := b.bytes[:0]
	b.buf[0] = 0
	for j := int64(0); j < n; j++ {
		t, err := typeValueV2ToV0(c.data[offs[j]:offs[j+1]])
		if err != nil {
			return errs.Locate(err, c.n.segA.Offset, b.path())
		}
		out = append(out, t...)
		if int64(len(out)) > math.MaxUint32 {
			return errs.At(ErrTooLarge, c.n.segA.Offset, b.path(), "type values of a batch exceed 4 GiB")
		}
		b.buf[j+1] = uint32(len(out))
	}
	if err := c.rd.mem.swapSegment(int64(cap(b.bytes)), int64(cap(out)), -1, b.path()); err != nil {
		return err
	}
	b.bytes = out
	v.Bytes, v.Offsets = out, b.buf
	return nil
}

func (b *bcur) fillPrim(n int64) error {
	c, v := b.c, b.v
	pk := bsup.PayloadKind(c.typ)
	// Each value takes at least its tag byte: check before allocating.
	if n > int64(len(c.data)-c.bpos) {
		return errs.At(ErrCorrupt, c.n.segA.Offset, b.path(), "%d values in the %d bytes left", n, len(c.data)-c.bpos)
	}
	var err error
	if b.nulls, err = growBuf(b, b.nulls, n, 1); err != nil {
		return err
	}
	anyNull := false
	if v.Kind == VecBool {
		if b.bools, err = growBuf(b, b.bools, n, 1); err != nil {
			return err
		}
	} else if b.buf, err = growBuf(b, b.buf, n+1, 4); err != nil {
		return err
	}
	out := b.bytes[:0]
	var scratch bsup.Value
	for j := int64(0); j < n; j++ {
		body, null, k, ok := bsup.ConsumeTagged(c.data[c.bpos:])
		if !ok {
			return errs.At(ErrCorrupt, c.n.segA.Offset, b.path(), "truncated value at byte %d", c.bpos)
		}
		c.bpos += k
		b.nulls[j] = null
		anyNull = anyNull || null
		if v.Kind == VecBool {
			if !null {
				if len(body) != 1 || body[0] > 1 {
					if err := bsup.DecodeInto(&scratch, c.typ, body); err != nil {
						return errs.Locate(err, c.n.segA.Offset, b.path())
					}
					return errs.At(ErrCorrupt, c.n.segA.Offset, b.path(), "bool body of %d bytes", len(body))
				}
				b.bools[j] = body[0] == 1
			} else {
				b.bools[j] = false
			}
			continue
		}
		if !null {
			if pk == bsup.KindType {
				t, err := typeValueV2ToV0(body)
				if err != nil {
					return errs.Locate(err, c.n.segA.Offset, b.path())
				}
				body = t
			} else if !decodePrim(&scratch, c.typ, pk, body) {
				if err := bsup.DecodeInto(&scratch, c.typ, body); err != nil {
					return errs.Locate(err, c.n.segA.Offset, b.path())
				}
			}
			out = append(out, body...)
			if int64(len(out)) > math.MaxUint32 {
				return errs.At(ErrTooLarge, c.n.segA.Offset, b.path(), "values of a batch exceed 4 GiB")
			}
		}
		b.buf[j+1] = uint32(len(out))
	}
	v.Nulls = nil
	if anyNull {
		v.Nulls = b.nulls
	}
	if v.Kind == VecBool {
		v.Bools = b.bools
		return nil
	}
	b.buf[0] = 0
	if err := c.rd.mem.swapSegment(int64(cap(b.bytes)), int64(cap(out)), -1, b.path()); err != nil {
		return err
	}
	b.bytes = out
	v.Bytes, v.Offsets = out, b.buf
	return nil
}

func (b *bcur) fillDict(i, n int64) error {
	c, v := b.c, b.v
	nd := c.n
	if !b.ready {
		b.ready = true
		c.loaded = true
		if nd.segA.MemLength != nd.length {
			return errs.At(ErrCorrupt, nd.segA.Offset, b.path(), "index of %d bytes for %d values", nd.segA.MemLength, nd.length)
		}
		var err error
		if c.data, err = c.stored(nd.segA, nd.segA.Length, nd.segA.MemLength); err != nil {
			return err
		}
		ne := c.kids[0].n.length
		if ne > 256 {
			return errs.At(ErrCorrupt, -1, b.path(), "dictionary of %d entries (a byte indexes it)", ne)
		}
		for j, x := range c.data {
			if int64(x) >= ne {
				return errs.At(ErrCorrupt, nd.segA.Offset+int64(j), b.path(), "dictionary index %d of %d entries", x, ne)
			}
		}
		if err := b.kids[0].fill(ne); err != nil {
			return err
		}
	}
	v.Index = c.data[i : i+n]
	return nil
}

// AppendValues appends the batch's rows to dst as values, exactly as
// Reader.Read returns them (rows a projection leaves out are left out).
// Their strings are copies (the vectors' buffers are reused by later
// objects). It builds a value tree per row: a convenience, not the fast
// path. A row of more elements than the memory limit allows (ElementCost
// bytes each, as for Reader) is ErrTooLarge.
func (b *Batch) AppendValues(dst []bsup.Value) ([]bsup.Value, error) {
	if b.Root == nil {
		return dst, nil
	}
	resetCur(b.Root)
	bud := b.budget()
	for j := 0; j < b.Rows; j++ {
		r := b.Root
		if r.Kind == VecDynamic {
			t := r.Tags[r.cur]
			r.cur++
			r = r.Elems[t]
		}
		if r.Kind == VecNone {
			r.cur++
			continue
		}
		bud.n = 0
		v := r.value(bud)
		if bud.n > bud.max {
			return dst, bud.err(b.Row + int64(j))
		}
		dst = append(dst, v)
	}
	return dst, nil
}

func resetCur(v *Vector) {
	v.cur = 0
	for _, e := range v.Elems {
		resetCur(e)
	}
}

// value materializes the vector's next row.
func (v *Vector) value(bud *rowBudget) bsup.Value {
	i := v.cur
	v.cur++
	out := bsup.Value{Type: v.Type}
	switch v.Kind {
	case VecConst:
		copyValue(&out, v.Const)
		out.Type = v.Type
	case VecInt:
		out.Int = v.Ints[i]
	case VecUint:
		out.Uint = v.Uints[i]
	case VecFloat:
		out.Float = v.Floats[i]
	case VecBool:
		if v.Nulls != nil && v.Nulls[i] {
			out.Null = true
		} else if v.Bools[i] {
			out.Uint = 1
		}
	case VecBytes:
		lo, hi := v.Offsets[i], v.Offsets[i+1]
		out.Bytes = append([]byte(nil), v.Bytes[lo:hi]...)
	case VecPrim:
		if v.Nulls != nil && v.Nulls[i] {
			out.Null = true
			break
		}
		// The bodies are in a buffer the next batch reuses: copy.
		body := append([]byte(nil), v.Bytes[v.Offsets[i]:v.Offsets[i+1]]...)
		pk := bsup.PayloadKind(v.Type)
		if pk == bsup.KindType {
			out.Bytes = body
		} else if !decodePrim(&out, v.Type, pk, body) {
			_ = bsup.DecodeInto(&out, v.Type, body) // checked when the batch was read
		}
	case VecRecord:
		if !bud.add(int64(len(v.Elems))) {
			return out
		}
		out.Elems = make([]bsup.Value, len(v.Elems))
		for j, e := range v.Elems {
			out.Elems[j] = e.value(bud)
		}
	case VecArray, VecMap:
		cnt := int(v.Offsets[i+1] - v.Offsets[i])
		if v.Kind == VecMap {
			cnt *= 2
		}
		if !bud.add(int64(cnt)) {
			return out
		}
		out.Elems = make([]bsup.Value, cnt)
		for j := range out.Elems {
			out.Elems[j] = v.Elems[j%len(v.Elems)].value(bud)
		}
	case VecUnion:
		t := v.Tags[i]
		out.Uint = uint64(t)
		bud.add(1)
		out.Elems = []bsup.Value{v.Elems[t].value(bud)}
	case VecDict:
		if v.dict == nil {
			e := v.Elems[0]
			e.cur = 0
			v.dict = make([]bsup.Value, e.Len)
			for j := range v.dict {
				v.dict[j] = e.value(&rowBudget{max: bud.max})
			}
		}
		copyValue(&out, v.dict[v.Index[i]])
		out.Type = v.Type
	}
	return out
}

// AppendJSON appends the batch's rows to dst as JSON lines (each ending
// in '\n'), the bytes bsup.AppendJSON gives for the values Reader.Read
// returns, written from the vectors without building the values (rows a
// projection leaves out are left out). A row of more elements than the
// memory limit allows (as for AppendValues) is ErrTooLarge. WriteJSON
// writes the same without holding the batch's whole text.
func (b *Batch) AppendJSON(dst []byte, style bsup.JSONStyle) ([]byte, error) {
	return b.appendJSON(dst, style, nil)
}

// WriteJSON writes the batch's rows to w as AppendJSON renders them,
// in pieces of about 64 KiB.
func (b *Batch) WriteJSON(w io.Writer, style bsup.JSONStyle) error {
	buf, err := b.appendJSON(b.jsonBuf[:0], style, w)
	if err == nil && len(buf) > 0 {
		_, err = w.Write(buf)
	}
	if cap(buf) <= 1<<20 {
		b.jsonBuf = buf[:0]
	}
	return err
}

func (b *Batch) appendJSON(dst []byte, style bsup.JSONStyle, w io.Writer) ([]byte, error) {
	if b.Root == nil {
		return dst, nil
	}
	resetCur(b.Root)
	bud := b.budget()
	for j := 0; j < b.Rows; j++ {
		r := b.Root
		if r.Kind == VecDynamic {
			t := r.Tags[r.cur]
			r.cur++
			r = r.Elems[t]
		}
		if r.Kind == VecNone {
			r.cur++
			continue
		}
		bud.n = 0
		dst = append(r.json(dst, r.Type, style, bud), '\n')
		if bud.n > bud.max {
			return dst, bud.err(b.Row + int64(j))
		}
		if w != nil && len(dst) >= 64<<10 {
			if _, err := w.Write(dst); err != nil {
				return dst, err
			}
			dst = dst[:0]
		}
	}
	return dst, nil
}

// scalar returns the next row of a leaf vector (not VecConst or VecDict)
// as a value of type t whose bytes may alias the vector.
func (v *Vector) scalar(t *bsup.Type) bsup.Value {
	i := v.cur
	v.cur++
	out := bsup.Value{Type: t}
	switch v.Kind {
	case VecInt:
		out.Int = v.Ints[i]
	case VecUint:
		out.Uint = v.Uints[i]
	case VecFloat:
		out.Float = v.Floats[i]
	case VecBool:
		if v.Nulls != nil && v.Nulls[i] {
			out.Null = true
		} else if v.Bools[i] {
			out.Uint = 1
		}
	case VecBytes:
		out.Bytes = v.Bytes[v.Offsets[i]:v.Offsets[i+1]]
	case VecPrim:
		if v.Nulls != nil && v.Nulls[i] {
			out.Null = true
			break
		}
		body := v.Bytes[v.Offsets[i]:v.Offsets[i+1]]
		pk := bsup.PayloadKind(t)
		if pk == bsup.KindType {
			out.Bytes = body
		} else if !decodePrim(&out, t, pk, body) {
			_ = bsup.DecodeInto(&out, t, body) // checked when the batch was read
		}
	}
	return out
}

// json appends the next row of v, rendered as type t, as JSON.
func (v *Vector) json(dst []byte, t *bsup.Type, style bsup.JSONStyle, bud *rowBudget) []byte {
	u := t
	for u.Kind == bsup.KindNamed {
		u = u.Elem
	}
	switch v.Kind {
	case VecConst, VecDict:
		// Each distinct value is rendered once per object.
		if v.jsonT != t || v.jsonStyle != style || v.jsonVals == nil {
			v.renderJSON(t, style, bud.max)
		}
		k := 0
		if v.Kind == VecDict {
			k = int(v.Index[v.cur])
		}
		v.cur++
		return append(dst, v.jsonVals[k]...)
	case VecInt:
		if t.Kind >= bsup.KindInt8 && t.Kind <= bsup.KindInt64 {
			v.cur++
			return strconv.AppendInt(dst, v.Ints[v.cur-1], 10)
		}
	case VecUint:
		if t.Kind <= bsup.KindUint64 {
			v.cur++
			return strconv.AppendUint(dst, v.Uints[v.cur-1], 10)
		}
	case VecFloat:
		switch t.Kind {
		case bsup.KindFloat64:
			v.cur++
			return bsup.AppendJSONFloat(dst, v.Floats[v.cur-1], 64)
		case bsup.KindFloat32, bsup.KindFloat16:
			v.cur++
			return bsup.AppendJSONFloat(dst, v.Floats[v.cur-1], 32)
		}
	case VecBytes:
		if t.Kind == bsup.KindString {
			i := v.cur
			v.cur++
			return bsup.AppendJSONString(dst, v.Bytes[v.Offsets[i]:v.Offsets[i+1]])
		}
	}
	switch v.Kind {
	case VecInt, VecUint, VecFloat, VecBool, VecBytes, VecPrim:
		return bsup.AppendJSON(dst, v.scalar(t), style)
	}
	if u.Kind == bsup.KindError {
		dst = append(dst, `{"error":`...)
		return append(v.json(dst, u.Elem, style, bud), '}')
	}
	i := v.cur
	switch v.Kind {
	case VecRecord:
		v.cur++
		if !bud.add(int64(len(v.Elems))) {
			return dst
		}
		if len(v.names) != len(u.Fields) {
			v.names = make([][]byte, len(u.Fields))
			for j, f := range u.Fields {
				v.names[j] = append(appendJSONName(nil, []byte(f.Name)), ':')
			}
		}
		dst = append(dst, '{')
		for j := range u.Fields {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, v.names[j]...)
			if j < len(v.Elems) {
				dst = v.Elems[j].json(dst, v.Elems[j].Type, style, bud)
			} else {
				dst = append(dst, "null"...)
			}
		}
		return append(dst, '}')
	case VecArray:
		v.cur++
		e := v.Elems[0]
		if !bud.add(int64(v.Offsets[i+1] - v.Offsets[i])) {
			return dst
		}
		dst = append(dst, '[')
		for j := v.Offsets[i]; j < v.Offsets[i+1]; j++ {
			if j > v.Offsets[i] {
				dst = append(dst, ',')
			}
			dst = e.json(dst, e.Type, style, bud)
		}
		return append(dst, ']')
	case VecMap:
		v.cur++
		k, e := v.Elems[0], v.Elems[1]
		lo, hi := v.Offsets[i], v.Offsets[i+1]
		if !bud.add(2 * int64(hi-lo)) {
			return dst
		}
		if style&bsup.JSONSuper != 0 {
			dst = append(dst, '{')
			for j := lo; j < hi; j++ {
				if j > lo {
					dst = append(dst, ',')
				}
				var key bsup.Value
				switch k.Kind {
				case VecInt, VecUint, VecFloat, VecBool, VecBytes, VecPrim:
					key = k.scalar(k.Type)
				default:
					key = k.value(bud)
				}
				if bsup.PayloadKind(key.Type) == bsup.KindString && !key.Null {
					dst = appendJSONName(dst, key.Bytes)
				} else {
					dst = appendJSONName(dst, bsup.AppendJSON(nil, key, style))
				}
				dst = append(dst, ':')
				dst = e.json(dst, e.Type, style, bud)
			}
			return append(dst, '}')
		}
		if lo == hi {
			return append(dst, "null"...)
		}
		dst = append(dst, '[')
		for j := lo; j < hi; j++ {
			if j > lo {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"key":`...)
			dst = k.json(dst, k.Type, style, bud)
			dst = append(dst, `,"value":`...)
			dst = e.json(dst, e.Type, style, bud)
			dst = append(dst, '}')
		}
		return append(dst, ']')
	case VecUnion:
		v.cur++
		m := v.Elems[v.Tags[i]]
		bud.add(1)
		return m.json(dst, m.Type, style, bud)
	}
	return append(dst, "null"...)
}

// renderJSON renders the values of a VecConst (one) or the entries of a
// VecDict as type t.
func (v *Vector) renderJSON(t *bsup.Type, style bsup.JSONStyle, maxElems int64) {
	bud := &rowBudget{max: maxElems}
	vals := []bsup.Value{v.Const}
	if v.Kind == VecDict {
		if v.dict == nil {
			e := v.Elems[0]
			e.cur = 0
			v.dict = make([]bsup.Value, e.Len)
			for j := range v.dict {
				v.dict[j] = e.value(&rowBudget{max: bud.max})
			}
		}
		vals = v.dict
	}
	v.jsonVals = make([][]byte, len(vals))
	for j, c := range vals {
		c.Type = t
		v.jsonVals[j] = bsup.AppendJSON(nil, c, style)
	}
	v.jsonT, v.jsonStyle = t, style
}

// appendJSONName appends s as a JSON string, as bsup.AppendJSON writes
// record field names and map keys.
func appendJSONName(dst []byte, s []byte) []byte {
	return bsup.AppendJSON(dst, bsup.Value{Type: bsup.TypeString, Bytes: s}, 0)
}
