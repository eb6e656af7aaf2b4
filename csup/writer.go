package csup

import (
	"io"
	"strconv"
	"sync"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
	"github.com/pierrec/lz4/v4"
)

// Writer writes values as a Super Columnar file in the spec layout: column
// data first, segment by segment, then the reassembly section and the
// trailer at Close. Memory use is bounded by the skew threshold plus the
// reassembly metadata.
type Writer struct {
	w        io.Writer
	cfg      config
	off      int64 // bytes written so far (= next segment's offset)
	super    *wstream
	supers   map[*bsup.Type]int
	canon    typeInterner
	keys     map[int]int // canonical type ID -> super ID
	types    []*bsup.Type
	cols     []colWriter
	streams  []*wstream
	buffered int
	comp     lz4.Compressor
	cbuf     []byte
	err      error
	closed   bool
	obj      *obj16 // CSUP v16 layout: the object being built
}

// NewWriter returns a Writer to w. Options: WithSegmentThreshold,
// WithSkewThreshold, WithCompression.
func NewWriter(w io.Writer, opts ...Option) (*Writer, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "nil writer")
	}
	wr := &Writer{w: w, cfg: cfg, supers: map[*bsup.Type]int{}, keys: map[int]int{},
		canon: typeInterner{ids: map[*bsup.Type]int{}, sigs: map[string]int{}}}
	wr.super = wr.newStream()
	if cfg.layout == LayoutCSUP16 {
		wr.obj = &obj16{keys: map[string]int{}}
	}
	return wr, nil
}

// Write adds one value. Errors wrap this package's sentinels (those that
// package bsup reports are re-wrapped).
func (w *Writer) Write(v bsup.Value) error { return boundary(w.write(v)) }

func (w *Writer) write(v bsup.Value) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errs.Wrap(ErrUnsupported, "write after close")
	}
	if v.Type == nil {
		return errs.Wrap(ErrCorrupt, "value has no type")
	}
	if w.obj != nil {
		return w.write16(v)
	}
	id, ok := w.supers[v.Type]
	if !ok {
		if v.Type.Depth() > w.cfg.maxDepth {
			return errs.Wrap(ErrTooLarge, "type nesting depth %d exceeds the limit of %d", v.Type.Depth(), w.cfg.maxDepth)
		}
		key := w.canon.id(v.Type)
		if id, ok = w.keys[key]; !ok {
			col := w.slot(v.Type)
			if w.err != nil {
				return w.err
			}
			id = len(w.types)
			w.keys[key] = id
			w.types = append(w.types, v.Type)
			w.cols = append(w.cols, col)
		}
		w.supers[v.Type] = id
	}
	w.super.appendInt(int64(id))
	if err := w.cols[id].add(v); err != nil {
		w.err = err
		return err
	}
	return w.err
}

// Close flushes every column, writes the reassembly section and the
// trailer. It does not close the underlying writer.
func (w *Writer) Close() error { return boundary(w.close()) }

func (w *Writer) close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if w.obj != nil {
		if w.obj.rows > 0 {
			w.err = w.flush16()
		}
		return w.err
	}
	// Presence streams are flushed by their column's meta, which first
	// drops runs that turn out not to be needed (no nulls, or no values).
	for _, s := range w.streams {
		if s != w.super && !s.presence {
			s.flush()
		}
	}
	// Describing a column writes its last presence run, so do it before
	// the data section ends.
	metas := make([]bsup.Value, len(w.cols))
	for i, c := range w.cols {
		metas[i] = c.meta()
	}
	w.super.flush()
	if w.err != nil {
		return w.err
	}
	dataLen := w.off
	bw, err := bsup.NewWriter(countWriter{w}, bsup.WithMaxDepth(10000))
	if err != nil {
		return err
	}
	for _, t := range w.types {
		if err := bw.Write(bsup.NewNull(t)); err != nil {
			return err
		}
	}
	if err := bw.Write(segmapValue(w.super.segs)); err != nil {
		return err
	}
	for _, m := range metas {
		if err := bw.Write(m); err != nil {
			return err
		}
	}
	if err := bw.Close(); err != nil {
		return err
	}
	reasmLen := w.off - dataLen
	// Uncompressed, so the magic is visible in the last bytes for detection.
	tw, err := bsup.NewWriter(countWriter{w}, bsup.WithCompression(false))
	if err != nil {
		return err
	}
	if err := tw.Write(trailerValue(dataLen, reasmLen, int64(w.cfg.skewThresh), int64(w.cfg.segmentThresh))); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return w.err
}

// typeInterner numbers types by structure: a type's signature is its kind,
// names and its children's numbers, so equal types get equal numbers in
// time linear in the distinct *Type values (Key would expand shared
// subtypes).
type typeInterner struct {
	ids  map[*bsup.Type]int
	sigs map[string]int
}

func (in *typeInterner) id(t *bsup.Type) int {
	if id, ok := in.ids[t]; ok {
		return id
	}
	sig := []byte{byte(t.Kind)}
	sig = strconv.AppendQuote(sig, t.Name)
	for _, f := range t.Fields {
		sig = strconv.AppendQuote(sig, f.Name)
		sig = strconv.AppendInt(append(sig, ':'), int64(in.id(f.Type)), 10)
	}
	for _, c := range append([]*bsup.Type{t.Elem, t.Val}, t.Types...) {
		if c != nil {
			sig = strconv.AppendInt(append(sig, ','), int64(in.id(c)), 10)
		}
	}
	for _, s := range t.Symbols {
		sig = strconv.AppendQuote(sig, s)
	}
	id, ok := in.sigs[string(sig)]
	if !ok {
		id = len(in.sigs)
		in.sigs[string(sig)] = id
	}
	in.ids[t] = id
	return id
}

// maxWriterStreams bounds the column streams of one file.
const maxWriterStreams = 1 << 20

type countWriter struct{ w *Writer }

func (c countWriter) Write(b []byte) (int, error) {
	if c.w.err != nil {
		return 0, c.w.err
	}
	n, err := c.w.w.Write(b)
	c.w.off += int64(n)
	if err != nil {
		c.w.err = err
	}
	return n, err
}

// The spec layout's segment, segment map and trailer types, built on first
// use rather than at package initialisation.
type specTypes struct{ segment, segmap, trailer *bsup.Type }

var specT = sync.OnceValue(func() *specTypes {
	segment := bsup.NewRecord([]bsup.Field{
		{Name: "offset", Type: bsup.TypeUint64},
		{Name: "length", Type: bsup.TypeUint32},
		{Name: "mem_length", Type: bsup.TypeUint32},
		{Name: "compression_format", Type: bsup.TypeUint8},
	})
	return &specTypes{
		segment: segment,
		segmap:  bsup.NewArray(segment),
		trailer: bsup.NewRecord([]bsup.Field{
			{Name: "magic", Type: bsup.TypeString},
			{Name: "type", Type: bsup.TypeString},
			{Name: "version", Type: bsup.TypeInt64},
			{Name: "sections", Type: bsup.NewArray(bsup.TypeInt64)},
			{Name: "meta", Type: bsup.NewRecord([]bsup.Field{
				{Name: "skew_thresh", Type: bsup.TypeInt64},
				{Name: "segment_thresh", Type: bsup.TypeInt64},
			})},
		}),
	}
})

var (
	// nullsType wraps a column whose values may be null where the spec has
	// no presence column (array elements, map entries, union members, the
	// top level). Its name tells it apart from a record_column.
	nullsName = "csup.nulls"
)

func nullsType(inner *bsup.Type) *bsup.Type {
	return bsup.NewNamed(nullsName, bsup.NewRecord([]bsup.Field{{Name: "runs", Type: specT().segmap}, {Name: "column", Type: inner}}))
}

func segmapValue(segs []Segment) bsup.Value {
	v := bsup.Value{Type: specT().segmap, Elems: make([]bsup.Value, len(segs))}
	for i, s := range segs {
		v.Elems[i] = bsup.NewRecordValue(specT().segment,
			bsup.NewUint(bsup.TypeUint64, uint64(s.Offset)),
			bsup.NewUint(bsup.TypeUint32, uint64(s.Length)),
			bsup.NewUint(bsup.TypeUint32, uint64(s.MemLength)),
			bsup.NewUint(bsup.TypeUint8, uint64(s.Compression)))
	}
	return v
}

func trailerValue(data, reasm, skew, seg int64) bsup.Value {
	return bsup.NewRecordValue(specT().trailer,
		bsup.NewString(TrailerMagic),
		bsup.NewString(SpecType),
		bsup.NewInt(bsup.TypeInt64, SpecVersion),
		bsup.Value{Type: specT().trailer.Fields[3].Type, Elems: []bsup.Value{bsup.NewInt(bsup.TypeInt64, data), bsup.NewInt(bsup.TypeInt64, reasm)}},
		bsup.NewRecordValue(specT().trailer.Fields[4].Type, bsup.NewInt(bsup.TypeInt64, skew), bsup.NewInt(bsup.TypeInt64, seg)))
}

// wstream buffers one column stream and cuts it into segments.
type wstream struct {
	w        *Writer
	buf      []byte
	segs     []Segment
	presence bool
}

func (w *Writer) newStream() *wstream {
	s := &wstream{w: w}
	w.streams = append(w.streams, s)
	return s
}

func (s *wstream) appendInt(v int64) {
	var tmp [10]byte
	s.appendBody(bsup.AppendInt(tmp[:0], v))
}

func (s *wstream) appendBody(body []byte) {
	n := len(s.buf)
	s.buf = bsup.AppendTaggedBody(s.buf, body)
	s.grew(len(s.buf) - n)
}

func (s *wstream) appendValue(v bsup.Value) error {
	n := len(s.buf)
	var err error
	if s.buf, err = bsup.AppendTagged(s.buf, v); err != nil {
		s.buf = s.buf[:n]
		return err
	}
	s.grew(len(s.buf) - n)
	return nil
}

func (s *wstream) grew(n int) {
	s.w.buffered += n
	if len(s.buf) >= s.w.cfg.segmentThresh {
		s.flush()
	}
	if s.w.buffered >= s.w.cfg.skewThresh {
		for _, o := range s.w.streams {
			o.flush()
		}
	}
}

// flush writes the buffer as one segment, LZ4-compressed when that is
// strictly smaller.
func (s *wstream) flush() {
	if len(s.buf) == 0 || s.w.err != nil {
		return
	}
	w := s.w
	seg := Segment{Offset: w.off, Length: int64(len(s.buf)), MemLength: int64(len(s.buf))}
	out := s.buf
	if w.cfg.compress {
		bound := lz4.CompressBlockBound(len(s.buf))
		if cap(w.cbuf) < bound {
			w.cbuf = make([]byte, bound)
		}
		n, err := w.comp.CompressBlock(s.buf, w.cbuf[:bound])
		if err == nil && n > 0 && n < len(s.buf) {
			out = w.cbuf[:n]
			seg.Length, seg.Compression = int64(n), CompressionLZ4
		}
	}
	if _, err := (countWriter{w}).Write(out); err != nil {
		return
	}
	s.segs = append(s.segs, seg)
	w.buffered -= len(s.buf)
	s.buf = s.buf[:0]
}

// colWriter splits values of one type into streams and describes them.
type colWriter interface {
	add(v bsup.Value) error
	meta() bsup.Value
}

// column returns the writer for non-null values of t (and, for
// primitives, nulls inline as tag 0).
func (w *Writer) column(t *bsup.Type) colWriter {
	if len(w.streams) > maxWriterStreams {
		// Column trees expand types that share subtypes; stop at a size
		// no real type reaches.
		if w.err == nil {
			w.err = errs.Wrap(ErrTooLarge, "type %s needs more than %d column streams", t, maxWriterStreams)
		}
		return &primW{t: t, st: w.super}
	}
	u := t.Underlying()
	switch u.Kind {
	case bsup.KindRecord:
		r := &recordW{t: t}
		for _, f := range u.Fields {
			r.fields = append(r.fields, &fieldW{name: f.Name, col: w.column(f.Type), pres: w.newRuns()})
		}
		return r
	case bsup.KindArray, bsup.KindSet:
		return &arrayW{t: t, lengths: w.newStream(), elem: w.slot(u.Elem)}
	case bsup.KindMap:
		return &mapW{t: t, lengths: w.newStream(), key: w.slot(u.Elem), val: w.slot(u.Val)}
	case bsup.KindUnion:
		un := &unionW{t: t, tags: w.newStream()}
		for _, m := range u.Types {
			un.members = append(un.members, w.slot(m))
		}
		return un
	}
	return &primW{t: t, st: w.newStream()}
}

// checkType reports a value whose type is not the column's: values must
// carry the types their record, array, map or union type declares.
func checkType(v bsup.Value, t *bsup.Type) error {
	if v.Type == t || bsup.SameType(v.Type, t) {
		return nil
	}
	if v.Type == nil {
		return errs.Wrap(ErrCorrupt, "value has no type where %s is expected", t)
	}
	return errs.Wrap(ErrCorrupt, "value of type %s where %s is expected", v.Type, t)
}

// slot returns the writer for values of t where the spec has no presence
// column: primitives keep nulls inline; other columns get a csup.nulls
// wrapper if a null occurs.
func (w *Writer) slot(t *bsup.Type) colWriter {
	c := w.column(t)
	if _, ok := c.(*primW); ok {
		return c
	}
	return &slotW{col: c, pres: w.newRuns()}
}

type primW struct {
	t  *bsup.Type
	st *wstream
}

func (p *primW) add(v bsup.Value) error {
	if err := checkType(v, p.t); err != nil {
		return err
	}
	return p.st.appendValue(v)
}
func (p *primW) meta() bsup.Value { return segmapValue(p.st.segs) }

// runs tracks presence as alternating runs, present first.
type runs struct {
	st      *wstream
	present bool
	n       int64
	nulls   int64
	values  int64
}

func (w *Writer) newRuns() *runs {
	st := w.newStream()
	st.presence = true
	return &runs{st: st, present: true}
}

func (r *runs) add(present bool) {
	if present {
		r.values++
	} else {
		r.nulls++
	}
	if present != r.present {
		r.st.appendInt(r.n)
		r.present, r.n = present, 0
	}
	r.n++
}

// close writes the last run; a column without nulls or without values
// needs no presence, and its buffered runs are dropped unwritten.
func (r *runs) close() []Segment {
	if r.nulls == 0 || r.values == 0 {
		r.st.w.buffered -= len(r.st.buf)
		r.st.buf = r.st.buf[:0]
		if len(r.st.segs) == 0 {
			return nil
		}
	}
	r.st.appendInt(r.n)
	r.st.flush()
	return r.st.segs
}

type fieldW struct {
	name string
	col  colWriter
	pres *runs
}

type recordW struct {
	t      *bsup.Type
	fields []*fieldW
}

func (r *recordW) add(v bsup.Value) error {
	if err := checkType(v, r.t); err != nil {
		return err
	}
	if len(v.Elems) != len(r.fields) {
		return errs.Wrap(ErrCorrupt, "record value of type %s has %d fields, want %d", v.Type, len(v.Elems), len(r.fields))
	}
	for i, f := range r.fields {
		e := v.Elems[i]
		f.pres.add(!e.Null)
		if e.Null {
			continue
		}
		if err := f.col.add(e); err != nil {
			return err
		}
	}
	return nil
}

func (r *recordW) meta() bsup.Value {
	var fields []bsup.Field
	var vals []bsup.Value
	for _, f := range r.fields {
		pres := segmapValue(f.pres.close())
		col := bsup.NewNull(bsup.TypeNull)
		if f.pres.values > 0 {
			col = f.col.meta()
		}
		ft := bsup.NewRecord([]bsup.Field{{Name: "column", Type: col.Type}, {Name: "presence", Type: specT().segmap}})
		fields = append(fields, bsup.Field{Name: f.name, Type: ft})
		vals = append(vals, bsup.NewRecordValue(ft, col, pres))
	}
	return bsup.NewRecordValue(bsup.NewRecord(fields), vals...)
}

type slotW struct {
	col  colWriter
	pres *runs
}

func (s *slotW) add(v bsup.Value) error {
	if v.Type == nil {
		return errs.Wrap(ErrCorrupt, "value has no type")
	}
	s.pres.add(!v.Null)
	if v.Null {
		return nil
	}
	return s.col.add(v)
}

func (s *slotW) meta() bsup.Value {
	segs := s.pres.close()
	switch {
	case s.pres.values == 0 && s.pres.nulls > 0:
		return bsup.NewNull(bsup.TypeNull) // every value null: no column at all
	case s.pres.nulls == 0:
		return s.col.meta()
	}
	inner := s.col.meta()
	t := nullsType(inner.Type)
	return bsup.NewRecordValue(t, segmapValue(segs), inner)
}

type arrayW struct {
	t       *bsup.Type
	lengths *wstream
	elem    colWriter
}

func (a *arrayW) add(v bsup.Value) error {
	if err := checkType(v, a.t); err != nil {
		return err
	}
	a.lengths.appendInt(int64(len(v.Elems)))
	for _, e := range v.Elems {
		if err := a.elem.add(e); err != nil {
			return err
		}
	}
	return nil
}

func (a *arrayW) meta() bsup.Value {
	vals := a.elem.meta()
	t := bsup.NewRecord([]bsup.Field{{Name: "values", Type: vals.Type}, {Name: "lengths", Type: specT().segmap}})
	return bsup.NewRecordValue(t, vals, segmapValue(a.lengths.segs))
}

type mapW struct {
	t        *bsup.Type
	lengths  *wstream
	key, val colWriter
}

func (m *mapW) add(v bsup.Value) error {
	if err := checkType(v, m.t); err != nil {
		return err
	}
	if len(v.Elems)%2 != 0 {
		return errs.Wrap(ErrCorrupt, "map value with an odd number of elements")
	}
	m.lengths.appendInt(int64(len(v.Elems) / 2))
	for i := 0; i < len(v.Elems); i += 2 {
		if err := m.key.add(v.Elems[i]); err != nil {
			return err
		}
		if err := m.val.add(v.Elems[i+1]); err != nil {
			return err
		}
	}
	return nil
}

func (m *mapW) meta() bsup.Value {
	k, v := m.key.meta(), m.val.meta()
	t := bsup.NewRecord([]bsup.Field{{Name: "key", Type: k.Type}, {Name: "value", Type: v.Type}, {Name: "lengths", Type: specT().segmap}})
	return bsup.NewRecordValue(t, k, v, segmapValue(m.lengths.segs))
}

type unionW struct {
	t       *bsup.Type
	tags    *wstream
	members []colWriter
}

func (u *unionW) add(v bsup.Value) error {
	if err := checkType(v, u.t); err != nil {
		return err
	}
	if v.Uint >= uint64(len(u.members)) || len(v.Elems) != 1 {
		return errs.Wrap(ErrCorrupt, "union value with tag %d of type %s", v.Uint, v.Type)
	}
	u.tags.appendInt(int64(v.Uint))
	return u.members[v.Uint].add(v.Elems[0])
}

func (u *unionW) meta() bsup.Value {
	metas := make([]bsup.Value, len(u.members))
	var distinct []*bsup.Type
	idx := make([]int, len(u.members))
	for i, m := range u.members {
		metas[i] = m.meta()
		idx[i] = -1
		for j, d := range distinct {
			if bsup.SameType(d, metas[i].Type) {
				idx[i] = j
			}
		}
		if idx[i] < 0 {
			idx[i] = len(distinct)
			distinct = append(distinct, metas[i].Type)
		}
	}
	// The columns array's element type is the member shape, or a union of
	// the shapes when they differ (as VNG v3 does).
	var colsType *bsup.Type
	if len(distinct) == 1 {
		colsType = bsup.NewArray(distinct[0])
	} else {
		ut := bsup.NewUnion(distinct)
		colsType = bsup.NewArray(ut)
		for i := range metas {
			metas[i] = bsup.NewUnionValue(ut, idx[i], metas[i])
		}
	}
	t := bsup.NewRecord([]bsup.Field{{Name: "columns", Type: colsType}, {Name: "tags", Type: specT().segmap}})
	return bsup.NewRecordValue(t, bsup.Value{Type: colsType, Elems: metas}, segmapValue(u.tags.segs))
}
