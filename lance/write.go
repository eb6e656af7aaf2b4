package lance

// The data-file writer: NewWriter takes Arrow record batches and writes a
// Lance file of format 2.2 (default), 2.1 or 2.0. Each column buffers
// about one page (WithPageBytes) of shredded values and levels; a full
// page is encoded and written at once, so memory stays bounded by the
// columns' pages, not the file. Buffers are 64-byte aligned (0x48
// padding, as lance writes them). Close writes the column metadata, the
// schema (global buffer 0), the offset tables and the footer.

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
	"github.com/colfmt/colfmt/lance/internal/pb/file2pb"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

// Writer writes one Lance data file. It is not safe for concurrent use.
type Writer struct {
	out    io.Writer
	cfg    config
	schema *arrow.Schema
	fields []*filepb.Field
	cols   []colWriter
	roots  []colWriter // 2.0: the column trees of the top-level fields
	// ids and column indices of the fields that own a column, for a
	// manifest's DataFile.
	fieldIDs []int32
	colIdx   []int32
	nextFld  int // pre-order index into fields while planning

	pos    int64 // bytes written so far
	rows   int64
	err    error // sticky: after a failed write the Writer refuses more
	closed bool
	pad    [64]byte
	comp   *compressor // WithCompression, made on first use
}

// colWriter is one column's writer: write appends rows (the top-level
// array of the column's field) and writes the pages that fill up; finish
// writes the last page. meta is the column's metadata after finish.
type colWriter interface {
	top() int // index of the column's top-level field in the record
	write(arr arrow.Array) error
	finish() error
	meta() *file2pb.ColumnMetadata
}

// NewWriter starts a Lance data file on w for records of schema. Options:
// WithFormatVersion, WithPageBytes, WithCompression (and WithMaxDepth,
// which bounds the schema's nesting). Nothing is written until the first
// page fills or Close. The file is complete only after Close.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	if w == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "NewWriter: nil writer")
	}
	fields, _, err := lanceFields(schema, 0)
	if err != nil {
		return nil, err
	}
	return newWriterWithFieldIDs(w, schema, fields, opts...)
}

// newWriterWithFieldIDs is NewWriter with the Lance fields given: a table
// writer passes its manifest's fields (ids included) so that the data
// file's schema and DataFile.fields agree with the table. fields must be
// what lanceFields(schema, ...) returns, up to the ids.
func newWriterWithFieldIDs(w io.Writer, schema *arrow.Schema, fields []*filepb.Field, opts ...Option) (*Writer, error) {
	if w == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "NewWriter: nil writer")
	}
	if schema == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "NewWriter: nil schema")
	}
	cfg := defaultConfig()
	if err := opt.Apply(&cfg, opts); err != nil {
		return nil, err
	}
	want, _, err := lanceFields(schema, 0)
	if err != nil {
		return nil, err
	}
	if len(want) != len(fields) {
		return nil, errs.Wrap(ErrInvalidArgument, "NewWriter: %d Lance fields for a schema of %d", len(fields), len(want))
	}
	for i, f := range fields {
		if f == nil || f.Name != want[i].Name || f.LogicalType != want[i].LogicalType {
			return nil, errs.Wrap(ErrInvalidArgument, "NewWriter: Lance field %d does not match the schema's %s", i, errs.Quote(want[i].Name))
		}
	}
	wr := &Writer{out: w, cfg: cfg, schema: schema, fields: fields}
	for i := range wr.pad {
		wr.pad[i] = 0x48
	}
	if err := wr.plan(); err != nil {
		return nil, err
	}
	return wr, nil
}

// v2 reports whether the writer writes 2.0 (the encoding-tree format).
func (w *Writer) v20() bool { return w.cfg.write.major == 0 }

// plan builds the column writers: a depth-first walk of the schema, one
// column per leaf (2.1/2.2) or per field (2.0).
func (w *Writer) plan() error {
	next := 0
	for i, f := range w.schema.Fields() {
		var err error
		if w.v20() {
			err = w.plan20(f, i, &next)
		} else {
			err = w.plan21(f, i, &next)
		}
		if err != nil {
			return err
		}
	}
	if len(w.cols) > w.cfg.maxColumns {
		return errs.Wrap(ErrTooLarge, "NewWriter: %d columns, more than WithMaxColumns %d", len(w.cols), w.cfg.maxColumns)
	}
	return nil
}

// Write appends the rows of rec, whose schema must equal the writer's
// (field names, types and nullability). A batch of 0 rows is fine.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errs.Wrap(ErrInvalidArgument, "Writer.Write: writer closed")
	}
	if rec == nil {
		return errs.Wrap(ErrInvalidArgument, "Writer.Write: nil record")
	}
	if !sameFields(rec.Schema(), w.schema) {
		return errs.Wrap(ErrInvalidArgument, "Writer.Write: record schema %s differs from the writer's %s", rec.Schema(), w.schema)
	}
	if err := w.writeColumns(rec); err != nil {
		w.err = err
		return err
	}
	w.rows += rec.NumRows()
	return nil
}

func sameFields(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Nullable != fb.Nullable || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

// NumRows returns the rows written so far.
func (w *Writer) NumRows() int64 { return w.rows }

// Close writes the pages still buffered, the column metadata, the schema,
// the offset tables and the footer. It does not close the underlying
// io.Writer. Close after Close is a no-op.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	w.closed = true
	if err := w.finish(); err != nil {
		w.err = err
		return err
	}
	return nil
}

func (w *Writer) finish() error {
	cols := w.cols
	if w.v20() {
		cols = w.roots
	}
	for _, c := range cols {
		if err := c.finish(); err != nil {
			return err
		}
	}
	desc := &filepb.FileDescriptor{Schema: &filepb.Schema{Fields: w.fields}, Length: uint64(w.rows)}
	if md := w.schema.Metadata(); md.Len() > 0 {
		desc.Schema.Metadata = map[string][]byte{}
		for i, k := range md.Keys() {
			desc.Schema.Metadata[k] = []byte(md.Values()[i])
		}
	}
	b, err := marshalDet(desc)
	if err != nil {
		return err
	}
	schemaOff, schemaLen, err := w.putBuffer(b)
	if err != nil {
		return err
	}
	colStart := uint64(w.pos)
	cmo := make([]byte, 0, 16*len(w.cols))
	for _, c := range w.cols {
		m, err := marshalDet(c.meta())
		if err != nil {
			return err
		}
		cmo = binary.LittleEndian.AppendUint64(cmo, uint64(w.pos))
		cmo = binary.LittleEndian.AppendUint64(cmo, uint64(len(m)))
		if err := w.put(m); err != nil {
			return err
		}
	}
	cmoStart := uint64(w.pos)
	if err := w.put(cmo); err != nil {
		return err
	}
	gboStart := uint64(w.pos)
	tail := make([]byte, 0, 16+footerLen)
	tail = binary.LittleEndian.AppendUint64(tail, schemaOff)
	tail = binary.LittleEndian.AppendUint64(tail, schemaLen)
	tail = binary.LittleEndian.AppendUint64(tail, colStart)
	tail = binary.LittleEndian.AppendUint64(tail, cmoStart)
	tail = binary.LittleEndian.AppendUint64(tail, gboStart)
	tail = binary.LittleEndian.AppendUint32(tail, 1)
	tail = binary.LittleEndian.AppendUint32(tail, uint32(len(w.cols)))
	tail = binary.LittleEndian.AppendUint16(tail, w.cfg.write.major)
	tail = binary.LittleEndian.AppendUint16(tail, w.cfg.write.minor)
	tail = append(tail, magic...)
	return w.put(tail)
}

// put writes b as is.
func (w *Writer) put(b []byte) error {
	n, err := w.out.Write(b)
	w.pos += int64(n)
	if err != nil {
		return fmt.Errorf("lance: write: %w", err)
	}
	return nil
}

// putBuffer writes a page or global buffer followed by 0x48 padding up to
// a multiple of 64 and returns its position and size.
func (w *Writer) putBuffer(b []byte) (off, size uint64, err error) {
	off = uint64(w.pos)
	if err := w.put(b); err != nil {
		return 0, 0, err
	}
	if p := int(w.pos % 64); p != 0 {
		if err := w.put(w.pad[:64-p]); err != nil {
			return 0, 0, err
		}
	}
	return off, uint64(len(b)), nil
}

// putPage writes a page's buffers and returns its metadata entry.
func (w *Writer) putPage(bufs [][]byte, rows uint64, enc *file2pb.Encoding) (*file2pb.ColumnMetadata_Page, error) {
	pg := &file2pb.ColumnMetadata_Page{Length: rows, Encoding: enc}
	for _, b := range bufs {
		o, s, err := w.putBuffer(b)
		if err != nil {
			return nil, err
		}
		pg.BufferOffsets = append(pg.BufferOffsets, o)
		pg.BufferSizes = append(pg.BufferSizes, s)
	}
	return pg, nil
}

func marshalDet(m proto.Message) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, errs.Wrap(ErrInvalidArgument, "marshal %T: %v", m, err)
	}
	return b, nil
}

// directEncoding wraps m as lance writes page and column encodings:
// Encoding{direct{Any{typeURL, m}}}.
func directEncoding(typeURL string, m proto.Message) (*file2pb.Encoding, error) {
	v, err := marshalDet(m)
	if err != nil {
		return nil, err
	}
	a, err := marshalDet(&anypb.Any{TypeUrl: typeURL, Value: v})
	if err != nil {
		return nil, err
	}
	return &file2pb.Encoding{Location: &file2pb.Encoding_Direct{Direct: &file2pb.DirectEncoding{Encoding: a}}}, nil
}

// dataFileInfo gives what a manifest's DataFile records about the file
// after Close: the ids of the fields that own a column with their column
// indices (every field in 2.0; leaf fields in 2.1/2.2), the version for
// file_major_version/file_minor_version ((2, 0), (2, 1), (2, 2)) and the
// file size.
func (w *Writer) dataFileInfo() (fieldIDs []int32, columnIndices []int32, major, minor uint32, size int64) {
	major, minor = uint32(w.cfg.write.major), uint32(w.cfg.write.minor)
	if major == 0 {
		major, minor = 2, 0
	}
	return append([]int32(nil), w.fieldIDs...), append([]int32(nil), w.colIdx...), major, minor, w.pos
}

// writeColumns hands every column its top-level array.
func (w *Writer) writeColumns(rec arrow.RecordBatch) error {
	cols := w.cols
	if w.v20() {
		cols = w.roots
	}
	for _, c := range cols {
		if err := c.write(rec.Column(c.top())); err != nil {
			return err
		}
	}
	return nil
}
