package lance

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
	"github.com/colfmt/colfmt/lance/internal/pb/file2pb"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

const (
	footerLen = 40
	magic     = "LANC"
)

// File is an open Lance 2.0, 2.1 or 2.2 data file. Open reads only the footer, the
// offset tables, the column metadata and the schema; page buffers are read
// when a Read asks for them. A File is safe for concurrent Reads if its
// io.ReaderAt is.
type File struct {
	r    io.ReaderAt
	size int64
	cfg  config

	major, minor uint16
	numRows      int64
	globals      []bufRange
	columns      []*column
	desc         *filepb.FileDescriptor
	fields       []*fieldNode // top level
	schema       *arrow.Schema
	zstd         zstdDecoders
	byID         map[int32]*fieldNode // 2.1+
}

type bufRange struct{ off, size int64 }

type column struct {
	index   int
	metaOff int64
	metaLen int64
	path    string // set when fields are mapped
	zone    *encpb.ZoneIndex
	buffers []bufRange
	pages   []*page
	rows    int64      // sum of page lengths
	field   *fieldNode // 2.1+: the leaf field
	// decoder is the plan's decoder for a whole 2.0 list offsets column
	// (its direct decoder joins all pages' offsets; see plan20.go).
	decoder decoderKind
}

type page struct {
	index    int
	rowStart int64
	length   int64
	buffers  []bufRange
	enc      *encpb.ArrayEncoding // 2.0
	layout   *pagePlan            // 2.1/2.2: the page's validated layout
	decoder  decoderKind          // the decoder the plan runs (plan.go)
	path     string               // names the page in errors (set by plan)
}

// Version returns the footer's major and minor version: (0, 3) or (2, 0)
// for Lance 2.0 files, (2, 1) and (2, 2) for the structural formats.
func (f *File) Version() (major, minor uint16) { return f.major, f.minor }

// NumRows returns the row count recorded in the schema descriptor.
func (f *File) NumRows() int64 { return f.numRows }

// Schema returns the Arrow schema derived from the Lance logical types.
func (f *File) Schema() *arrow.Schema { return f.schema }

// NumColumns returns the number of physical columns (struct headers and
// list offsets count as columns).
func (f *File) NumColumns() int { return len(f.columns) }

// Open reads the structure of a Lance file of size bytes. It accepts file
// format 2.0 (footer version 0.3, or 2.0) and refuses legacy v1 files and
// 2.1+ with ErrUnsupported naming the version.
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	if r == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "Open: nil reader")
	}
	if size < 0 {
		return nil, errs.Wrap(ErrInvalidArgument, "Open: negative size %d", size)
	}
	cfg := defaultConfig()
	if err := opt.Apply(&cfg, opts); err != nil {
		return nil, err
	}
	return open(r, size, cfg, nil)
}

// open does the work of Open; schema, when non-nil, replaces global buffer
// 0 (zone-map files carry no schema).
func open(r io.ReaderAt, size int64, cfg config, schema *filepb.FileDescriptor) (*File, error) {
	f := &File{r: r, size: size, cfg: cfg}
	ft, full, err := readFooter(r, size)
	if err != nil {
		return nil, err
	}
	f.major, f.minor = ft.Major, ft.Minor
	switch {
	case f.major == 0 && (f.minor == 1 || f.minor == 2):
		return nil, errs.At(ErrUnsupported, size-8, "footer", "legacy Lance v1 file (footer version %d.%d); file formats 2.0, 2.1 and 2.2 are read", f.major, f.minor)
	case f.major == 0 && f.minor == 3, f.major == 2 && f.minor <= 2:
	case f.major == 2:
		return nil, errs.At(ErrUnsupported, size-8, "footer", "Lance file format version %d.%d; 2.0, 2.1 and 2.2 are read", f.major, f.minor)
	default:
		return nil, errs.At(ErrUnsupported, size-8, "footer", "unknown Lance file version %d.%d", f.major, f.minor)
	}
	if !full {
		return nil, errs.At(ErrCorrupt, 0, "footer", "file of %d bytes is too short for the 40-byte footer", size)
	}
	fo := size - footerLen
	cmoStart, gboStart := ft.CMOTableStart, ft.GBOTableStart
	numGlobal, numCols := ft.NumGlobalBuffers, ft.NumColumns
	if int64(numCols) > int64(cfg.maxColumns) {
		return nil, errs.TooLarge(ErrTooLarge, fo+28, "footer", "column count", uint64(numCols), int64(cfg.maxColumns))
	}
	if int64(numGlobal) > int64(cfg.maxColumns) {
		return nil, errs.TooLarge(ErrTooLarge, fo+24, "footer", "global buffer count", uint64(numGlobal), int64(cfg.maxColumns))
	}
	budget := cfg.maxMetadata
	cmo, err := f.readTable(cmoStart, int64(numCols), fo, &budget, "column metadata offset table")
	if err != nil {
		return nil, err
	}
	gbo, err := f.readTable(gboStart, int64(numGlobal), fo, &budget, "global buffer offset table")
	if err != nil {
		return nil, err
	}
	f.globals = gbo
	// Writers put all column metadata back to back: read it in one go when
	// the span is compact, else column by column.
	var span []byte
	var spanOff int64
	if len(cmo) > 1 {
		lo, hi, sum := cmo[0].off, cmo[0].off+cmo[0].size, int64(0)
		for _, c := range cmo {
			lo, hi, sum = min(lo, c.off), max(hi, c.off+c.size), sum+c.size
		}
		if hi-lo <= budget && hi-lo <= 2*sum+4096 {
			span = make([]byte, hi-lo)
			if err := f.readAt(span, lo, "column metadata"); err != nil {
				return nil, err
			}
			spanOff = lo
		}
	}
	for i, c := range cmo {
		path := fmt.Sprintf("column %d metadata", i)
		if c.size > budget {
			return nil, errs.TooLarge(ErrTooLarge, c.off, path, "column metadata", uint64(c.size), cfg.maxMetadata)
		}
		budget -= c.size
		var buf []byte
		if span != nil {
			buf = span[c.off-spanOff : c.off-spanOff+c.size]
		} else {
			buf = make([]byte, c.size)
			if err := f.readAt(buf, c.off, path); err != nil {
				return nil, err
			}
		}
		col, err := f.parseColumn(i, c, buf)
		if err != nil {
			return nil, err
		}
		f.columns = append(f.columns, col)
	}
	if schema == nil {
		if len(gbo) == 0 {
			return nil, errs.At(ErrCorrupt, fo+24, "footer", "no global buffers, so no schema")
		}
		g := gbo[0]
		if g.size > budget {
			return nil, errs.TooLarge(ErrTooLarge, g.off, "schema", "schema", uint64(g.size), cfg.maxMetadata)
		}
		buf := make([]byte, g.size)
		if err := f.readAt(buf, g.off, "schema"); err != nil {
			return nil, err
		}
		schema = &filepb.FileDescriptor{}
		if err := proto.Unmarshal(buf, schema); err != nil {
			return nil, errs.At(ErrProto, g.off, "schema", "FileDescriptor: %v", err)
		}
	}
	f.desc = schema
	if schema.Length > 1<<62 {
		return nil, errs.At(ErrCorrupt, -1, "schema", "row count %d is impossible", schema.Length)
	}
	f.numRows = int64(schema.Length)
	if f.structural() {
		if err := f.buildSchema21(); err != nil {
			return nil, err
		}
	} else if err := f.buildSchema(); err != nil {
		return nil, err
	}
	f.plan()
	return f, nil
}

// readAt reads exactly len(buf) bytes at off, which the caller has checked.
func (f *File) readAt(buf []byte, off int64, path string) error {
	n, err := f.r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return errs.Locate(fmt.Errorf("lance: reading %d bytes: %w", len(buf), err), off, path)
}

// checkRange validates a (position, size) pair read from the file against
// the bytes before limitEnd.
func checkRange(off, size uint64, limitEnd int64, at int64, path, what string) (bufRange, error) {
	if off > uint64(limitEnd) || size > uint64(limitEnd)-off {
		return bufRange{}, errs.At(ErrBufferRange, at, path, "%s at %d of %d bytes ends past %d", what, off, size, limitEnd)
	}
	return bufRange{int64(off), int64(size)}, nil
}

func (f *File) readTable(start uint64, n, end int64, budget *int64, what string) ([]bufRange, error) {
	sz := n * 16 // n <= maxColumns, no overflow
	if sz > *budget {
		return nil, errs.TooLarge(ErrTooLarge, int64(min(start, 1<<62)), what, what, uint64(sz), f.cfg.maxMetadata)
	}
	if _, err := checkRange(start, uint64(sz), end, end, what, what); err != nil {
		return nil, err
	}
	*budget -= sz
	buf := make([]byte, sz)
	if err := f.readAt(buf, int64(start), what); err != nil {
		return nil, err
	}
	out := make([]bufRange, n)
	for i := range out {
		r, err := checkRange(binary.LittleEndian.Uint64(buf[16*i:]), binary.LittleEndian.Uint64(buf[16*i+8:]),
			end, int64(start)+int64(16*i), fmt.Sprintf("%s entry %d", what, i), "entry")
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// anyName returns the message name of an Any's type URL: the text after
// the last '/', as prost matches it.
func anyName(a *anypb.Any) string {
	u := a.GetTypeUrl()
	return u[strings.LastIndexByte(u, '/')+1:]
}

// unpackEncoding resolves a file2 Encoding to the bytes of the message
// named want, or an error.
func unpackEncoding(e *file2pb.Encoding, want string, off int64, path string) ([]byte, error) {
	switch loc := e.GetLocation().(type) {
	case *file2pb.Encoding_Direct:
		var a anypb.Any
		if err := proto.Unmarshal(loc.Direct.GetEncoding(), &a); err != nil {
			return nil, errs.At(ErrProto, off, path, "encoding Any: %v", err)
		}
		name := anyName(&a)
		if name == pageLayoutName && want != pageLayoutName {
			return nil, errs.At(ErrUnsupported, off, path, "2.1 page layout in a 2.0 file")
		}
		if name != want {
			return nil, errs.At(ErrUnsupported, off, path, "encoding %q, want %s", a.GetTypeUrl(), want)
		}
		return a.GetValue(), nil
	case *file2pb.Encoding_Indirect:
		return nil, errs.At(ErrUnsupported, off, path, "indirect (deferred) encodings are not supported")
	case *file2pb.Encoding_None:
		return nil, nil
	default:
		return nil, errs.At(ErrProto, off, path, "encoding location missing")
	}
}

func (f *File) parseColumn(i int, c bufRange, buf []byte) (*column, error) {
	path := fmt.Sprintf("column %d", i)
	var cm file2pb.ColumnMetadata
	if err := proto.Unmarshal(buf, &cm); err != nil {
		return nil, errs.At(ErrProto, c.off, path, "ColumnMetadata: %v", err)
	}
	col := &column{index: i, metaOff: c.off, metaLen: c.size, path: path}
	end := f.size - footerLen
	if len(cm.BufferOffsets) != len(cm.BufferSizes) {
		return nil, errs.At(ErrProto, c.off, path, "%d column buffer offsets but %d sizes", len(cm.BufferOffsets), len(cm.BufferSizes))
	}
	for j := range cm.BufferOffsets {
		r, err := checkRange(cm.BufferOffsets[j], cm.BufferSizes[j], end, c.off, path, fmt.Sprintf("column buffer %d", j))
		if err != nil {
			return nil, err
		}
		col.buffers = append(col.buffers, r)
	}
	if cm.Encoding != nil {
		b, err := unpackEncoding(cm.Encoding, "lance.encodings.ColumnEncoding", c.off, path)
		if err != nil {
			return nil, err
		}
		ce := &encpb.ColumnEncoding{}
		if err := proto.Unmarshal(b, ce); err != nil {
			return nil, errs.At(ErrProto, c.off, path, "ColumnEncoding: %v", err)
		}
		// Unwrap nested zone indexes to the innermost; keep the outer one
		// for its zone maps.
		for d := 0; ; d++ {
			z := ce.GetZoneIndex()
			if z == nil {
				break
			}
			if d >= f.cfg.maxDepth {
				return nil, errs.At(ErrTooLarge, c.off, path, "zone index nesting deeper than %d", f.cfg.maxDepth)
			}
			if col.zone == nil {
				col.zone = z
			}
			if z.Inner == nil {
				break
			}
			ce = z.Inner
		}
	}
	var rows int64
	for j, p := range cm.Pages {
		ppath := fmt.Sprintf("%s page %d", path, j)
		if len(p.BufferOffsets) != len(p.BufferSizes) {
			return nil, errs.At(ErrProto, c.off, ppath, "%d buffer offsets but %d sizes", len(p.BufferOffsets), len(p.BufferSizes))
		}
		if p.Length > 1<<62 || rows+int64(p.Length) > 1<<62 {
			return nil, errs.At(ErrCorrupt, c.off, ppath, "page length %d is impossible", p.Length)
		}
		pg := &page{index: j, rowStart: rows, length: int64(p.Length)}
		rows += int64(p.Length)
		for k := range p.BufferOffsets {
			r, err := checkRange(p.BufferOffsets[k], p.BufferSizes[k], end, c.off, ppath, fmt.Sprintf("page buffer %d", k))
			if err != nil {
				return nil, err
			}
			pg.buffers = append(pg.buffers, r)
		}
		if p.Encoding == nil {
			return nil, errs.At(ErrProto, c.off, ppath, "page without encoding")
		}
		if f.structural() {
			b, err := unpackEncoding(p.Encoding, pageLayoutName, c.off, ppath)
			if err != nil {
				return nil, err
			}
			if err := f.parsePage21(col, pg, b, c.off, ppath); err != nil {
				return nil, err
			}
			col.pages = append(col.pages, pg)
			continue
		}
		b, err := unpackEncoding(p.Encoding, "lance.encodings.ArrayEncoding", c.off, ppath)
		if err != nil {
			return nil, err
		}
		pg.enc = &encpb.ArrayEncoding{}
		if err := (proto.UnmarshalOptions{RecursionLimit: 4*f.cfg.maxDepth + 8}).Unmarshal(b, pg.enc); err != nil {
			return nil, errs.At(ErrProto, c.off, ppath, "ArrayEncoding: %v", err)
		}
		col.pages = append(col.pages, pg)
	}
	col.rows = rows
	return col, nil
}
