package csup

import (
	"errors"
	"io"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
	"github.com/pierrec/lz4/v4"
)

// Segment compression formats (VNG's numbering; the spec leaves them open).
const (
	CompressionNone = 0
	CompressionLZ4  = 1
)

// Segment is one byte range of the data section. Offset is from the start
// of the file (= the data section); Length is the stored size and
// MemLength the size after decompression.
type Segment struct {
	Offset      int64
	Length      int64
	MemLength   int64
	Compression uint8
}

// parseSegmap reads a segmap value: an array of records with offset and
// length, and optionally mem_length and compression_format (matched by
// name, so the spec's fields and VNG's Segment{Offset,...} both work). A
// null segmap is empty (VNG writes Segmap:null).
func parseSegmap(v bsup.Value, f *fileInfo, path string) ([]Segment, error) {
	v = unwrap(v)
	if v.Null {
		return nil, nil
	}
	list, ok := elems(v)
	if !ok {
		return nil, errs.At(ErrCorrupt, -1, path, "segmap is of type %s, not an array", v.Type)
	}
	segs := make([]Segment, 0, len(list))
	for _, e := range list {
		var s Segment
		off, ok1 := field(e, "offset")
		ln, ok2 := field(e, "length")
		if !ok1 || !ok2 {
			return nil, errs.At(ErrCorrupt, -1, path, "segment of type %s lacks offset or length", e.Type)
		}
		if s.Offset, ok1 = asInt(off); !ok1 || s.Offset < 0 {
			return nil, errs.At(ErrCorrupt, -1, path, "bad segment offset")
		}
		if s.Length, ok2 = asInt(ln); !ok2 || s.Length < 0 {
			return nil, errs.At(ErrCorrupt, -1, path, "bad segment length")
		}
		s.MemLength = s.Length
		if ml, ok := field(e, "memlength"); ok {
			if s.MemLength, ok = asInt(ml); !ok || s.MemLength < 0 {
				return nil, errs.At(ErrCorrupt, -1, path, "bad segment mem_length")
			}
		}
		if cf, ok := field(e, "compressionformat"); ok {
			c, ok := asInt(cf)
			if !ok || c < 0 || c > 255 {
				return nil, errs.At(ErrCorrupt, -1, path, "bad segment compression_format")
			}
			s.Compression = uint8(c)
		}
		if err := f.checkSegment(s, path); err != nil {
			return nil, err
		}
		segs = append(segs, s)
	}
	return segs, nil
}

// fileInfo is what segment checks and reads need of the file.
type fileInfo struct {
	r        io.ReaderAt
	dataSize int64
	cfg      config
}

func (f *fileInfo) checkSegment(s Segment, path string) error {
	if s.Offset > f.dataSize || s.Length > f.dataSize-s.Offset {
		return errs.At(ErrCorrupt, s.Offset, path, "segment [%d,+%d) runs past the %d-byte data section", s.Offset, s.Length, f.dataSize)
	}
	if s.Length > f.cfg.maxSegmentSize || s.MemLength > f.cfg.maxSegmentSize {
		return errs.TooLarge(ErrTooLarge, s.Offset, path, "segment", uint64(max(s.Length, s.MemLength)), f.cfg.maxSegmentSize)
	}
	switch s.Compression {
	case CompressionNone:
		if s.MemLength != s.Length {
			return errs.At(ErrCorrupt, s.Offset, path, "uncompressed segment with length %d but mem_length %d", s.Length, s.MemLength)
		}
	case CompressionLZ4:
		if s.MemLength > s.Length*255+16 {
			return errs.At(ErrCorrupt, s.Offset, path, "mem_length %d is impossible for a %d-byte LZ4 block", s.MemLength, s.Length)
		}
	default:
		return errs.At(ErrUnsupported, s.Offset, path, "segment compression format %d", s.Compression)
	}
	return nil
}

// readSegment returns the decompressed bytes of s, reusing buf and scratch.
func (f *fileInfo) readSegment(s Segment, buf, scratch []byte, path string) ([]byte, []byte, error) {
	raw := grow(scratch, int(s.Length))
	if s.Compression == CompressionNone {
		raw = grow(buf, int(s.Length))
	}
	if _, err := f.r.ReadAt(raw, s.Offset); err != nil && !(errors.Is(err, io.EOF) && len(raw) == 0) {
		if errors.Is(err, io.EOF) {
			return buf, scratch, errs.At(ErrCorrupt, s.Offset, path, "segment runs past the end of the file")
		}
		return buf, scratch, err
	}
	if s.Compression == CompressionNone {
		return raw, scratch, nil
	}
	out := grow(buf, int(s.MemLength))
	n, err := lz4.UncompressBlock(raw, out)
	if err != nil || n != len(out) {
		return buf, raw, errs.At(ErrCorrupt, s.Offset, path, "LZ4 segment does not decompress to its mem_length %d", s.MemLength)
	}
	return out, raw, nil
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// stream reads the counted values of a column: its segments, concatenated,
// loaded one at a time as the reader gets to them. Values do not straddle
// segments.
type stream struct {
	f       *fileInfo
	segs    []Segment
	path    string
	next    int // next segment to load
	buf     []byte
	scratch []byte
	pos     int
	segOff  int64 // file offset of the loaded segment
	loads   int
	mem     *budget
}

func newStream(f *fileInfo, segs []Segment, path string, mem *budget) *stream {
	return &stream{f: f, segs: segs, path: path, mem: mem}
}

// value returns the next body (null=true for tag 0).
func (s *stream) value() (body []byte, null bool, err error) {
	for s.pos >= len(s.buf) {
		if s.next >= len(s.segs) {
			return nil, false, errs.At(ErrCorrupt, -1, s.path, "column has fewer values than its parent needs")
		}
		seg := s.segs[s.next]
		s.next++
		if err := s.mem.swapSegment(int64(len(s.buf)), seg.MemLength, seg.Offset, s.path); err != nil {
			return nil, false, err
		}
		// A fresh buffer per segment: values handed out alias it.
		s.buf, s.scratch, err = s.f.readSegment(seg, nil, s.scratch, s.path)
		if err != nil {
			return nil, false, err
		}
		s.pos, s.segOff = 0, seg.Offset
		s.loads++
	}
	body, null, n, ok := bsup.ConsumeTagged(s.buf[s.pos:])
	if !ok {
		return nil, false, errs.At(ErrCorrupt, s.segOff, s.path, "truncated value at byte %d of a segment", s.pos)
	}
	s.pos += n
	return body, null, nil
}

// byte reads the next raw byte (VNG v4 dictionary indexes).
func (s *stream) byte() (byte, error) {
	for s.pos >= len(s.buf) {
		if s.next >= len(s.segs) {
			return 0, errs.At(ErrCorrupt, -1, s.path, "column has fewer values than its parent needs")
		}
		seg := s.segs[s.next]
		s.next++
		if err := s.mem.swapSegment(int64(len(s.buf)), seg.MemLength, seg.Offset, s.path); err != nil {
			return 0, err
		}
		var err error
		if s.buf, s.scratch, err = s.f.readSegment(seg, nil, s.scratch, s.path); err != nil {
			return 0, err
		}
		s.pos, s.segOff = 0, seg.Offset
		s.loads++
	}
	b := s.buf[s.pos]
	s.pos++
	return b, nil
}

// int reads the next value as a tag-encoded signed integer (super IDs,
// presence runs, lengths and tags are all of this form).
func (s *stream) int() (int64, error) {
	body, null, err := s.value()
	if err != nil {
		return 0, err
	}
	v, ok := bsup.DecodeInt(body)
	if null || !ok {
		return 0, errs.At(ErrCorrupt, s.segOff, s.path, "bad integer")
	}
	return v, nil
}

// done reports whether every value of the stream has been read.
func (s *stream) done() bool {
	if s.pos < len(s.buf) {
		return false
	}
	for _, seg := range s.segs[s.next:] {
		if seg.MemLength > 0 {
			return false
		}
	}
	return true
}
