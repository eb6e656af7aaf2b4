package at1

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"slices"
	"sync"

	"github.com/colfmt/colfmt/internal/errs"
)

// File is an AT-1 file opened for inspection and queries. Open reads the
// header, the stream directory and (for qcolumnar/qjson) the small
// meta/template/paths/index streams; data streams and blocks stay on the
// io.ReaderAt until a query needs them.
type File struct {
	plan
	src *source
	dec *decoder

	t *qTable
	// parts are the frames of a framed qcolumnar/qjson file whose frames
	// are all structured, each opened as a whole-file table, for queries.
	parts     []*File
	counts    sync.Once
	countsErr error  // result of checkCounts
	blocksOff int64  // file offset of a stored blocks stream, or -1
	blocks    []byte // decoded blocks stream when it is not stored
}

// Open reads the container structure of the size-byte file r, through the
// same parser Decode and NewReader use.
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, invalidArg("Open: nil reader")
	}
	if size < 0 {
		return nil, invalidArg("Open: negative size %d", size)
	}
	src := &source{r: r, end: size}
	dc := c.decoder()
	p, err := dc.parse(src)
	if err != nil {
		return nil, err
	}
	f := &File{plan: *p, src: src, dec: dc, blocksOff: -1}
	if f.Codec == CodecQColumnar || f.Codec == CodecQJSON {
		var err error
		if f.Framed {
			err = f.openParts()
		} else {
			err = f.readQTable()
		}
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (f *File) readAt(p []byte, off int64, path string) error {
	n, err := f.src.r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return errs.At(ErrCorrupt, off+int64(n), path, "file ends %d bytes early", len(p)-n)
	}
	return err
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
	if s.Size > f.dec.maxStream*2+1<<16 {
		return nil, errs.TooLarge(ErrTooLarge, s.Offset, "stream "+quoteName([]byte(name)), "compressed stream", uint64(s.Size), f.dec.maxStream)
	}
	raw, err := f.src.read(s.Offset, s.Size, "stream "+quoteName([]byte(name)), "stream data")
	if err != nil {
		return nil, err
	}
	return f.dec.decompress(s.Backend, raw, f.dec.maxStream, s.Offset, "stream "+quoteName([]byte(name)))
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
	t, err := f.dec.parseQTable(f.Codec, func(n string) []byte { return got[n] }, "", blocksLen)
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
// In a framed file a column whose type differs between frames is QText.
func (f *File) Columns() []Column {
	t := f.t
	if t == nil && f.parts != nil {
		t = f.parts[0].t // the frames agree on their columns, not always on their types
	}
	if t == nil {
		return nil
	}
	mixed := f.mixedColumns()
	cols := make([]Column, t.ncols)
	for i := range cols {
		cols[i] = Column{Index: i, Type: t.coltypes[i]}
		if mixed != nil && mixed[i] {
			cols[i].Type = QText
		}
		if i < len(t.paths) {
			cols[i].Path = t.paths[i]
		}
	}
	return cols
}

// mixedColumns marks the columns of a framed qcolumnar/qjson file whose
// type differs between frames (nil for a whole file).
func (f *File) mixedColumns() []bool {
	if f.parts == nil {
		return nil
	}
	first := f.parts[0].t.coltypes
	mixed := make([]bool, len(first))
	for _, p := range f.parts {
		for c, typ := range p.t.coltypes {
			mixed[c] = mixed[c] || typ != first[c]
		}
	}
	return mixed
}

// RowGroups returns the blocks of a qcolumnar/qjson file, [group][column],
// with block offsets relative to the blocks stream and zone maps (nil for
// a framed file: each frame has its own blocks stream).
func (f *File) RowGroups() [][]Block {
	if f.t == nil {
		return nil
	}
	return f.t.groups
}

// RowGroupSize is the number of structured lines per row group (0 for
// other codecs).
func (f *File) RowGroupSize() int {
	if f.parts != nil {
		return f.parts[0].RowGroupSize() // of the first frame
	}
	return f.tInt(func(t *qTable) int { return t.rg })
}

// StructuredRows is the number of structured lines the meta declares
// (of a framed file: summed over its frames).
func (f *File) StructuredRows() int64 {
	if f.parts != nil {
		var n int64
		for _, p := range f.parts {
			n += p.StructuredRows()
		}
		return n
	}
	if f.t == nil {
		return 0
	}
	return int64(f.t.nStruct)
}

// Lines is the number of output lines the meta declares (of a framed
// file: summed over its frames).
func (f *File) Lines() int {
	if f.parts != nil {
		n := 0
		for _, p := range f.parts {
			n += p.Lines()
		}
		return n
	}
	return f.tInt(func(t *qTable) int { return t.nlines })
}

func (f *File) tInt(g func(*qTable) int) int {
	if f.t == nil {
		return 0
	}
	return g(f.t)
}

// Delimiter is the field delimiter of a qcolumnar file.
func (f *File) Delimiter() []byte {
	if f.parts != nil {
		return f.parts[0].Delimiter()
	}
	if f.t == nil {
		return nil
	}
	return f.t.delim
}

// BlocksOffset is the file offset of the blocks stream, or -1 when that
// stream is not stored verbatim.
func (f *File) BlocksOffset() int64 { return f.blocksOff }

// Decode decodes the whole file and verifies the trailer.
func (f *File) Decode() ([]byte, error) {
	return f.dec.decodePlan(nil, f.src, &f.plan)
}

// Validate decodes the whole file with the strict checks (WithStrict) and
// verifies the trailer, discarding the output. A framed file is decoded
// one frame at a time into one reused buffer, so memory is bounded by the
// largest frame, as for NewReader.
func (f *File) Validate() error {
	dc := f.dec.withScratch() // stream buffers reused frame to frame
	dc.strict = true
	if !f.Framed {
		_, err := dc.decodePlan(nil, f.src, &f.plan)
		return err
	}
	h := sha256.New()
	var buf []byte
	for i, fr := range f.Frames {
		out, err := dc.decodeFrame(buf[:0], f.src, f.Codec, fr, i, dc.maxDecoded, nil)
		if err != nil {
			return err
		}
		h.Write(out)
		buf = out
	}
	if f.Trailer != nil && !bytes.Equal(h.Sum(nil), f.Trailer) {
		return errs.At(ErrChecksum, f.end, "trailer", "decoded bytes do not match the embedded SHA-256")
	}
	return nil
}

// openParts opens each frame of a framed qcolumnar/qjson file as a table,
// when every frame is structured (a raw frame holds lines no index
// covers, so such a file is not queryable) and the frames agree on their
// columns.
func (f *File) openParts() error {
	for _, fr := range f.Frames {
		if fr.Method != methodStructured {
			f.parts = nil
			return nil
		}
	}
	for i, fr := range f.Frames {
		dir, err := f.dec.parseDirectory(f.src, fr.Offset+1, fr.Offset+fr.Size)
		if err != nil {
			return err
		}
		p := &File{plan: plan{Codec: f.Codec, Streams: dir, RawBackend: -1, end: fr.Offset + fr.Size}, src: f.src, dec: f.dec, blocksOff: -1}
		if err := p.readQTable(); err != nil {
			return err
		}
		if i > 0 && !sameColumns(f.parts[0].t, p.t) {
			f.parts = nil
			return nil
		}
		f.parts = append(f.parts, p)
	}
	return nil
}

// sameColumns reports whether two frames' tables have the same columns
// (count, qjson paths, delimiter). Their types may differ: a column of
// numbers in one frame is text in another that holds one "N/A", and a
// query takes each frame's types (see Range).
func sameColumns(a, b *qTable) bool {
	return a.ncols == b.ncols && slices.Equal(a.paths, b.paths) && bytes.Equal(a.delim, b.delim)
}
