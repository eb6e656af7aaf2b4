package csup

import (
	"bytes"
	"errors"
	"io"
	"iter"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// File is an open Super Columnar file. Open reads the trailer and the
// reassembly section; column data is read only when values are. A File
// may serve several Readers at once (from different goroutines, if the
// io.ReaderAt allows parallel reads, as files and bytes.Reader do); one
// Reader is for one goroutine.
type File struct {
	info       fileInfo
	size       int64
	Trailer    Trailer
	Generation Generation
	types      []*bsup.Type
	super      []Segment // super column (int32 super IDs, or VNG int64 indexes)
	cols       []*node
	v16        []*v16Object // CSUP version 16 objects
	rootRows   int64        // VNG v4 without a Variant: rows of the single column; else -1
}

// Open reads the structure of a Super Columnar file of size bytes. It
// recognises the generation from the bytes: CSUP version 16 and VNG
// version 4 by their header, the spec layout, ZST v2 and VNG v3 by their
// trailer. Other versions are refused with ErrUnsupported naming the
// version; a nil r or a negative size is ErrInvalidArgument.
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	f, err := open(r, size, opts)
	return f, boundary(err)
}

func open(r io.ReaderAt, size int64, opts []Option) (*File, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "nil reader")
	}
	if size < 0 {
		return nil, errs.Wrap(ErrInvalidArgument, "negative size %d", size)
	}
	if gen, ok, err := checkMagic(r, size); err != nil {
		return nil, err
	} else if ok {
		f := &File{info: fileInfo{r: r, dataSize: size, cfg: cfg}, size: size, Generation: gen, rootRows: -1}
		if gen == GenVNGv4 {
			err = openVNG4(f, r, size, cfg)
		} else {
			err = openV16(f, r, size, cfg)
		}
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	tr, err := readTrailer(r, size, cfg)
	if err != nil {
		return nil, err
	}
	gen, err := tr.generation()
	if err != nil {
		return nil, err
	}
	if len(tr.Sections) != 2 {
		return nil, errs.At(ErrCorrupt, tr.Offset, "trailer", "%d sections, want 2", len(tr.Sections))
	}
	data, reasm := tr.Sections[0], tr.Sections[1]
	if data > size || reasm > size-data || data+reasm != tr.Offset {
		return nil, errs.At(ErrCorrupt, tr.Offset, "trailer", "sections [%d,%d] do not end where the %d-byte trailer starts at %d", data, reasm, tr.Length, tr.Offset)
	}
	if reasm > cfg.maxReassemblySize {
		return nil, errs.TooLarge(ErrTooLarge, data, "reassembly", "reassembly section", uint64(reasm), cfg.maxReassemblySize)
	}
	f := &File{info: fileInfo{r: r, dataSize: data, cfg: cfg}, size: size, Trailer: *tr, Generation: gen, rootRows: -1}
	buf := make([]byte, reasm)
	if _, err := r.ReadAt(buf, data); err != nil && !(errors.Is(err, io.EOF) && reasm == 0) {
		if errors.Is(err, io.EOF) {
			return nil, errs.At(ErrCorrupt, data, "reassembly", "the file ends inside the reassembly section (is the size right?)")
		}
		return nil, err
	}
	vals, err := readStream(buf, data, cfg)
	if err != nil {
		return nil, err
	}
	if gen == GenVNGv3 {
		f.types, f.super, f.cols, err = buildVNG(&f.info, vals)
	} else {
		f.types, f.super, f.cols, err = buildSpec(&f.info, gen, vals)
	}
	if err != nil {
		return nil, errs.Locate(err, data, "reassembly")
	}
	return f, nil
}

// readStream decodes a whole Super Binary stream that must end with one
// end-of-stream marker at its last byte.
func readStream(b []byte, base int64, cfg config) ([]bsup.Value, error) {
	rd, err := bsup.NewReader(bytes.NewReader(b), cfg.bsupOptions()...)
	if err != nil {
		return nil, err
	}
	var vals []bsup.Value
	for {
		v, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var ce *CorruptError
			if errors.As(err, &ce) && ce.Offset >= 0 {
				ce.Offset += base
			}
			return nil, errs.Locate(err, base, "reassembly")
		}
		if rd.EndsOfStream() > 0 {
			return nil, errs.At(ErrCorrupt, base+rd.Offset(), "reassembly", "reassembly section holds more than one stream")
		}
		vals = append(vals, v)
	}
	if rd.EndsOfStream() != 1 {
		return nil, errs.At(ErrCorrupt, base, "reassembly", "reassembly section does not end with one end-of-stream marker")
	}
	return vals, nil
}

// SuperTypes returns the top-level types in super-ID order.
func (f *File) SuperTypes() []*bsup.Type {
	if f.v16 != nil {
		return f.v16Types()
	}
	return f.types
}

// Size returns the file size given to Open.
func (f *File) Size() int64 { return f.size }

// Values returns every value in file order. The sequence stops at the
// first error, which it yields.
func (f *File) Values() iter.Seq2[bsup.Value, error] { return f.NewReader().All() }

// Project returns the values with only the named record fields, in the
// super type's field order (dotted paths select inside nested records, as
// "user.addr.zip"). Only the segments of those columns (and the super
// column) are read. Values whose type has none of the fields, and
// non-record values, are left out.
func (f *File) Project(fields ...string) iter.Seq2[bsup.Value, error] {
	return f.NewReader(fields...).All()
}

// Count returns the number of values in the file, reading only the super
// column, and checks each super ID against the super types.
func (f *File) Count() (int64, error) {
	n, err := f.count()
	return n, boundary(err)
}

func (f *File) count() (int64, error) {
	if f.v16 != nil {
		var n int64
		for _, o := range f.v16 {
			n += o.rows
		}
		return n, nil
	}
	if f.rootRows >= 0 {
		return f.rootRows, nil
	}
	st := newStream(&f.info, f.super, "super", &budget{limit: f.info.cfg.memoryLimit})
	var n int64
	for !st.done() {
		id, err := st.int()
		if err != nil {
			return n, err
		}
		if id < 0 || id >= int64(len(f.cols)) {
			return n, errs.At(ErrCorrupt, st.segOff, "super", "row %d: super ID %d out of range (%d super types)", n, id, len(f.cols))
		}
		n++
	}
	return n, nil
}

// Reader reads the values of a File one at a time.
type Reader struct {
	f       *File
	proj    *projection
	super   *stream
	cursors []*cursor
	row     int64
	err     error
	slab    slab
	mem     budget
	v16     *v16Reader
}

// NewReader returns a Reader of all values, or of the given fields (see
// Project) when fields are named.
func (f *File) NewReader(fields ...string) *Reader {
	r := &Reader{f: f, proj: newProjection(fields), cursors: make([]*cursor, len(f.cols))}
	r.mem.limit = f.info.cfg.memoryLimit
	r.slab.mem = &r.mem
	r.super = newStream(&f.info, f.super, "super", &r.mem)
	if f.v16 != nil {
		r.v16 = &v16Reader{f: f, proj: r.proj, mem: &r.mem, slab: &r.slab}
	}
	return r
}

// Read returns the next value, or io.EOF after the last. Its element
// slices are carved from blocks shared with neighbouring values (a few
// allocations per thousands of values), and its strings alias the segment
// they were read from: keeping one value keeps those alive. It has the
// shape of bsup.Reader.Read.
func (r *Reader) Read() (bsup.Value, error) {
	var v bsup.Value
	err := r.ReadInto(&v)
	return v, err
}

// ReadInto reads the next value into dst, reusing the element storage dst
// already has, so a scan that reads into one Value allocates next to
// nothing: a value read earlier into the same dst is overwritten (copy what
// you keep). It returns io.EOF after the last value. It has the shape of
// bsup.Reader.ReadInto.
func (r *Reader) ReadInto(dst *bsup.Value) error {
	for r.err == nil {
		r.mem.elems = 0
		skip, err := r.next(dst)
		if err != nil {
			r.err = boundary(err)
			break
		}
		if !skip {
			return nil
		}
	}
	return r.err
}

func (r *Reader) next(v *bsup.Value) (skip bool, err error) {
	if r.v16 != nil {
		return r.v16.next(v)
	}
	var id int64
	if r.f.rootRows >= 0 {
		if r.row >= r.f.rootRows {
			return false, io.EOF
		}
	} else {
		if r.super.done() {
			return false, io.EOF
		}
		var err error
		if id, err = r.super.int(); err != nil {
			return false, errs.Locate(err, -1, "super")
		}
	}
	if id < 0 || id >= int64(len(r.cursors)) {
		return false, errs.At(ErrCorrupt, r.super.segOff, "super", "row %d: super ID %d out of range (%d super types)", r.row, id, len(r.cursors))
	}
	r.row++
	c := r.cursors[id]
	if c == nil {
		c = newCursor(&r.f.info, r.f.cols[id], r.proj, &r.slab)
		r.cursors[id] = c
	}
	if r.proj != nil && c.projectedFields() <= 0 {
		// Nothing to read: the type has none of the projected fields.
		return true, nil
	}
	return false, c.read(v)
}

// All returns the rest of the values as an iterator.
func (r *Reader) All() iter.Seq2[bsup.Value, error] {
	return func(yield func(bsup.Value, error) bool) {
		for {
			v, err := r.Read()
			if err == io.EOF {
				return
			}
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}

// Validate reads every value and checks that every column was used up
// exactly: no values, lengths or presence runs left over.
func (f *File) Validate() error { return boundary(f.validate()) }

func (f *File) validate() error {
	r := f.NewReader()
	if r.v16 != nil {
		r.v16.validate = true
	}
	var v bsup.Value
	for {
		err := r.ReadInto(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if r.v16 != nil {
		if r.v16.root == nil || r.v16.root.n == nil {
			return nil
		}
		if p, ok := r.v16.root.finished(); !ok {
			return errs.At(ErrCorrupt, -1, p, "node has values left over after the last row")
		}
		return nil
	}
	for i, c := range r.cursors {
		if c == nil {
			// A super type no row uses must have no values either.
			c = newCursor(&f.info, f.cols[i], nil, &r.slab)
		}
		if p, ok := c.finished(); !ok {
			return errs.At(ErrCorrupt, -1, p, "super type %d: column has values left over after the last row", i)
		}
	}
	return nil
}
