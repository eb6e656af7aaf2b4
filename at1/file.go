package at1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// File is an AT-1 file opened for inspection and queries. Open reads the
// header, the stream directory and (for qcolumnar/qjson) the small
// meta/template/paths/index streams; data streams and blocks stay on the
// io.ReaderAt until a query needs them.
type File struct {
	r    io.ReaderAt
	size int64 // without the trailer
	cfg  *config

	// Framed is true for an AT1\x03 (framed) file.
	Framed bool
	// Codec is the codec id of byte 4.
	Codec Codec
	// Trailer is the SHA-256 of the original, if the file has the
	// integrity trailer (verified only by a full decode).
	Trailer []byte
	// RawBackend is the backend of a whole-file RAW payload (-1 if the
	// payload is in the spec-literal form without a backend byte).
	RawBackend int
	// Streams is the stream directory of a whole-file container.
	Streams []StreamInfo
	// ChunkLines and Frames describe a framed container.
	ChunkLines uint64
	Frames     []FrameInfo

	t         *qTable
	counts    sync.Once
	countsErr error  // result of checkCounts
	blocksOff int64  // file offset of a stored blocks stream, or -1
	blocks    []byte // decoded blocks stream when it is not stored
}

// FrameInfo describes one frame of a framed container.
type FrameInfo struct {
	Offset int64 // file offset of the method byte
	Size   int64 // payload_len
	Method byte  // 0 structured, 1 raw
}

// Open reads the container structure of the size-byte file r.
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if size < 0 {
		return nil, fmt.Errorf("at1: Open: negative size %d", size)
	}
	f := &File{r: r, size: size, cfg: c, RawBackend: -1, blocksOff: -1}
	if size >= TrailerSize {
		tail := make([]byte, TrailerSize)
		if err := f.readAt(tail, size-TrailerSize, "trailer"); err != nil {
			return nil, err
		}
		if bytes.HasSuffix(tail, trailerMagic) {
			f.Trailer = tail[:32]
			f.size -= TrailerSize
		}
	}
	head := make([]byte, min(f.size, 16))
	if err := f.readAt(head, 0, "header"); err != nil {
		return nil, err
	}
	framed, codec, err := checkHeader(head)
	if err != nil {
		return nil, err
	}
	f.Framed, f.Codec = framed, codec
	switch {
	case framed:
		err = f.readFrames()
	case codec == CodecRaw:
		if f.size > 5 && !bytes.HasPrefix(head[5:], xzMagic) {
			f.RawBackend = int(head[5])
		}
	default:
		err = f.readDirectory()
	}
	if err != nil {
		return nil, err
	}
	if !framed && (codec == CodecQColumnar || codec == CodecQJSON) {
		if err := f.readQTable(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (f *File) readAt(p []byte, off int64, path string) error {
	n, err := f.r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return errs.At(ErrCorrupt, off+int64(n), path, "file ends %d bytes early", len(p)-n)
	}
	return err
}

// uvAt reads a varint at off.
func (f *File) uvAt(off int64, path, what string) (uint64, int64, error) {
	var buf [varint.MaxLen]byte
	n := min(int64(len(buf)), f.size-off)
	if n <= 0 {
		return 0, 0, errs.At(ErrCorrupt, off, path, "truncated varint (%s)", what)
	}
	if err := f.readAt(buf[:n], off, path); err != nil {
		return 0, 0, err
	}
	v, k := varint.Consume(buf[:n])
	if k < 0 {
		return 0, 0, errs.At(ErrCorrupt, off, path, "bad varint (%s)", what)
	}
	return v, off + int64(k), nil
}

func (f *File) readDirectory() error {
	off := int64(5)
	n, off, err := f.uvAt(off, "stream set", "n_streams")
	if err != nil {
		return err
	}
	if n > uint64(f.cfg.maxStreams) {
		return errs.TooLarge(ErrTooLarge, 5, "stream set", "stream count", n, int64(f.cfg.maxStreams))
	}
	for i := uint64(0); i < n; i++ {
		nl, o, err := f.uvAt(off, "stream set", "stream name length")
		if err != nil {
			return err
		}
		nlen, err := errs.CheckSize(nl, f.size-o, 1<<16, ErrTooLarge, ErrCorrupt, off, "stream set", "stream name")
		if err != nil {
			return err
		}
		name := make([]byte, nlen+1)
		if o+int64(nlen)+1 > f.size {
			return errs.At(ErrCorrupt, o, "stream set", "stream name runs past the end")
		}
		if err := f.readAt(name, o, "stream set"); err != nil {
			return err
		}
		si := StreamInfo{Name: string(name[:nlen])}
		off = o + int64(nlen)
		path := "stream " + quoteName(name[:nlen])
		if b := name[nlen]; b >= 0x20 {
			si.Legacy = true
		} else {
			si.Backend = b
			off++
		}
		clen, o2, err := f.uvAt(off, path, "comp_len")
		if err != nil {
			return err
		}
		if clen > uint64(f.size-o2) {
			return errs.At(ErrCorrupt, off, path, "stream of %d bytes runs past the end of the file", clen)
		}
		si.Offset, si.Size = o2, int64(clen)
		off = o2 + int64(clen)
		f.Streams = append(f.Streams, si)
	}
	return nil
}

func (f *File) readFrames() error {
	cl, off, err := f.uvAt(5, "frame header", "chunk_lines")
	if err != nil {
		return err
	}
	f.ChunkLines = cl
	for i := 0; off < f.size; i++ {
		path := "frame " + strconv.Itoa(i)
		n, o, err := f.uvAt(off, path, "payload_len")
		if err != nil {
			return err
		}
		if n == 0 || n > uint64(f.size-o) {
			return errs.At(ErrCorrupt, off, path, "payload_len %d (0 or past the end of the file)", n)
		}
		var m [1]byte
		if err := f.readAt(m[:], o, path); err != nil {
			return err
		}
		f.Frames = append(f.Frames, FrameInfo{Offset: o, Size: int64(n), Method: m[0]})
		off = o + int64(n)
	}
	return nil
}

// stream returns the index of the first stream matching name, or -1.
func (f *File) stream(name string) int {
	k := nameKey(name)
	for i, s := range f.Streams {
		if nameKey(s.Name) == k {
			return i
		}
	}
	return -1
}

// loadStream reads and decodes one stream (empty if absent).
func (f *File) loadStream(name string) ([]byte, error) {
	i := f.stream(name)
	if i < 0 {
		return nil, nil
	}
	s := f.Streams[i]
	if s.Size > f.cfg.maxStream*2+1<<16 {
		return nil, errs.TooLarge(ErrTooLarge, s.Offset, "stream "+quoteName([]byte(name)), "compressed stream", uint64(s.Size), f.cfg.maxStream)
	}
	raw := make([]byte, s.Size)
	if err := f.readAt(raw, s.Offset, "stream "+quoteName([]byte(name))); err != nil {
		return nil, err
	}
	return f.cfg.decompress(s.Backend, raw, f.cfg.maxStream, s.Offset, "stream "+quoteName([]byte(name)))
}

func (f *File) readQTable() error {
	got := map[string][]byte{}
	for _, name := range qStreams(f.Codec, "") {
		if name == "row_modes" || name == "verbatim" {
			continue // only a full decode needs them
		}
		d, err := f.loadStream(name)
		if err != nil {
			return err
		}
		got[name] = d
	}
	var blocksLen int64
	if i := f.stream("blocks"); i >= 0 {
		s := f.Streams[i]
		if s.Backend == BackendStored && !s.Legacy {
			f.blocksOff, blocksLen = s.Offset, s.Size
		} else {
			// Not range-readable: decode it once.
			d, err := f.loadStream("blocks")
			if err != nil {
				return err
			}
			f.blocks, blocksLen = d, int64(len(d))
		}
	}
	t, err := f.cfg.parseQTable(f.Codec, func(n string) []byte { return got[n] }, "", blocksLen)
	if err != nil {
		return err
	}
	f.t = t
	return nil
}

// checkCounts cross-checks the meta's counts against row_modes and the
// index before a query relies on them. A full decode takes its row count
// from row_modes (as the reference's serial path does) and ignores
// n_struct and nrg; a query cannot afford to read every block, so it sizes
// each row group from n_struct and walks the index's groups. If the three
// disagree, a query could return fewer or more rows than a full decode,
// so it fails instead. row_modes is one byte per line and compresses to
// little; it is read once per File.
func (f *File) checkCounts() error {
	f.counts.Do(func() { f.countsErr = f.checkCountsOnce() })
	return f.countsErr
}

func (f *File) checkCountsOnce() error {
	t := f.t
	modes, err := f.loadStream("row_modes")
	if err != nil {
		return err
	}
	metaOff := int64(-1)
	if i := f.stream("meta"); i >= 0 {
		metaOff = f.Streams[i].Offset
	}
	if len(modes) < t.nlines {
		return errs.At(ErrCorrupt, metaOff, "stream \"meta\"", "nlines %d, row_modes has %d bytes", t.nlines, len(modes))
	}
	var ns uint64
	for _, m := range modes[:t.nlines] {
		if m != 0 {
			ns++
		}
	}
	if ns != t.nStruct {
		return errs.At(ErrCorrupt, metaOff, "stream \"meta\"", "n_struct %d, but row_modes marks %d structured lines", t.nStruct, ns)
	}
	if t.ncols == 0 {
		return nil
	}
	want := (ns + uint64(t.rg) - 1) / uint64(t.rg)
	if uint64(len(t.groups)) != want {
		indexOff := int64(-1)
		if i := f.stream("index"); i >= 0 {
			indexOff = f.Streams[i].Offset
		}
		return errs.At(ErrCorrupt, indexOff, "stream \"index\"", "index has %d row groups, %d structured lines in groups of %d need %d", len(t.groups), ns, t.rg, want)
	}
	if t.nrg != want {
		return errs.At(ErrCorrupt, metaOff, "stream \"meta\"", "nrg %d, %d structured lines in groups of %d need %d", t.nrg, ns, t.rg, want)
	}
	return nil
}

// Column describes a column of a qcolumnar/qjson file.
type Column struct {
	Index int
	Type  byte   // QText, QInt or QDecimal
	Path  string // qjson field name, if the paths stream has it
}

// Columns returns the columns of a qcolumnar or qjson file (nil otherwise).
func (f *File) Columns() []Column {
	if f.t == nil {
		return nil
	}
	cols := make([]Column, f.t.ncols)
	for i := range cols {
		cols[i] = Column{Index: i, Type: f.t.coltypes[i]}
		if i < len(f.t.paths) {
			cols[i].Path = f.t.paths[i]
		}
	}
	return cols
}

// RowGroups returns the blocks of a qcolumnar/qjson file, [group][column],
// with block offsets relative to the blocks stream and zone maps.
func (f *File) RowGroups() [][]Block {
	if f.t == nil {
		return nil
	}
	return f.t.groups
}

// RowGroupSize is the number of structured lines per row group (0 for
// other codecs).
func (f *File) RowGroupSize() int { return f.tInt(func(t *qTable) int { return t.rg }) }

// StructuredRows is the number of structured lines the meta declares.
func (f *File) StructuredRows() int64 {
	if f.t == nil {
		return 0
	}
	return int64(f.t.nStruct)
}

// Lines is the number of output lines the meta declares.
func (f *File) Lines() int { return f.tInt(func(t *qTable) int { return t.nlines }) }

func (f *File) tInt(g func(*qTable) int) int {
	if f.t == nil {
		return 0
	}
	return g(f.t)
}

// Delimiter is the field delimiter of a qcolumnar file.
func (f *File) Delimiter() []byte {
	if f.t == nil {
		return nil
	}
	return f.t.delim
}

// BlocksOffset is the file offset of the blocks stream, or -1 when that
// stream is not stored verbatim.
func (f *File) BlocksOffset() int64 { return f.blocksOff }

// Decode decodes the whole file (reading all of it) and verifies the
// trailer.
func (f *File) Decode() ([]byte, error) {
	total := f.size
	if f.Trailer != nil {
		total += TrailerSize
	}
	src := make([]byte, total)
	if err := f.readAt(src, 0, "file"); err != nil {
		return nil, err
	}
	return f.cfg.decode(nil, src)
}
