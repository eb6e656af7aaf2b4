package at1

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/hugepage"
	"github.com/colfmt/colfmt/internal/varint"
)

// This file is the one container parser. Decode (a byte slice), Open (an
// io.ReaderAt) and NewReader (one frame payload at a time) all read the
// header, the frames and the stream directories through it, into a plan;
// the decoders then work from the plan.

// source is the input the parser reads: bytes [base, end) of a file,
// either in memory (read without copying) or behind an io.ReaderAt.
// Offsets are file offsets, so errors locate the byte in the file.
type source struct {
	r    io.ReaderAt
	mem  []byte // bytes [base, end) when in memory
	base int64
	end  int64
}

// memSource is a byte slice that starts at file offset base.
func memSource(b []byte, base int64) *source {
	return &source{mem: b, base: base, end: base + int64(len(b))}
}

// read returns bytes [off, off+n), checking them against the end of the
// input before anything is allocated.
func (s *source) read(off, n int64, path, what string) ([]byte, error) {
	if off < s.base || n < 0 || off > s.end || n > s.end-off {
		return nil, errs.At(ErrCorrupt, off, path, "%s of %d bytes runs past the end of the input", what, n)
	}
	if n == 0 {
		return []byte{}, nil
	}
	if s.mem != nil {
		i := off - s.base
		return s.mem[i : i+n : i+n], nil
	}
	p := hugepage.Make(int(n))[:n]
	k, err := s.r.ReadAt(p, off)
	hugepage.Done(p)
	if k == len(p) {
		return p, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return nil, errs.At(ErrCorrupt, off+int64(k), path, "input ends %d bytes early", len(p)-k)
	}
	return nil, err
}

// uv reads a varint at off and returns it with the offset after it.
func (s *source) uv(off int64, path, what string) (uint64, int64, error) {
	n := min(int64(varint.MaxLen), s.end-off)
	if n <= 0 {
		return 0, 0, errs.At(ErrCorrupt, off, path, "truncated varint (%s)", what)
	}
	b, err := s.read(off, n, path, what)
	if err != nil {
		return 0, 0, err
	}
	v, k := varint.Consume(b)
	switch k {
	case varint.Truncated:
		return 0, 0, errs.At(ErrCorrupt, off, path, "truncated varint (%s)", what)
	case varint.Overflow:
		return 0, 0, errs.At(ErrCorrupt, off, path, "varint overflows 64 bits (%s)", what)
	}
	return v, off + int64(k), nil
}

// plan is the parsed structure of a file.
type plan struct {
	// Framed is true for an AT1\x03 (framed) file.
	Framed bool
	// Codec is the codec id of byte 4.
	Codec Codec
	// Trailer is the SHA-256 of the original, if the file has the
	// integrity trailer (verified by a full decode).
	Trailer []byte
	// RawBackend is the backend of a whole-file RAW payload (-1 if the
	// payload is in the spec-literal form without a backend byte).
	RawBackend int
	// Streams is the stream directory of a whole-file container.
	Streams []StreamInfo
	// ChunkLines and Frames describe a framed container.
	ChunkLines uint64
	Frames     []FrameInfo

	rawData int64 // offset of a whole-file RAW payload's data
	end     int64 // end of the body (the trailer excluded)
}

// FrameInfo describes one frame of a framed container.
type FrameInfo struct {
	Offset int64 // file offset of the method byte
	Size   int64 // payload_len
	Method byte  // 0 structured, 1 raw
}

// parse reads the structure of the file in src (which starts at offset 0).
func (dc *decoder) parse(src *source) (*plan, error) {
	p := &plan{RawBackend: -1, end: src.end}
	if src.end >= TrailerSize {
		tail, err := src.read(src.end-TrailerSize, TrailerSize, "trailer", "trailer")
		if err != nil {
			return nil, err
		}
		if bytes.HasSuffix(tail, trailerMagic) {
			p.Trailer = tail[:32:32]
			p.end -= TrailerSize
		}
	}
	head, err := src.read(0, min(p.end, 5), "header", "header")
	if err != nil {
		return nil, err
	}
	if p.Framed, p.Codec, err = checkHeader(head); err != nil {
		return nil, err
	}
	switch {
	case p.Framed:
		err = dc.parseFrames(src, p)
	case p.Codec == CodecRaw:
		var b int
		b, p.rawData, err = rawBackend(src, 5, p.end, "raw")
		p.RawBackend = b
	default:
		p.Streams, err = dc.parseDirectory(src, 5, p.end)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

func checkHeader(body []byte) (framed bool, codec Codec, err error) {
	if len(body) < 5 {
		return false, 0, errs.At(ErrCorrupt, 0, "header", "file of %d bytes is shorter than the 5-byte header", len(body))
	}
	switch {
	case bytes.Equal(body[:4], MagicWhole):
	case bytes.Equal(body[:4], MagicFramed):
		framed = true
	default:
		return false, 0, errs.At(ErrCorrupt, 0, "header", "bad magic % x", body[:4])
	}
	return framed, Codec(body[4]), nil
}

func (dc *decoder) parseFrames(src *source, p *plan) error {
	cl, off, err := src.uv(5, "frame header", "chunk_lines")
	if err != nil {
		return err
	}
	p.ChunkLines = cl
	for i := 0; off < p.end; i++ {
		path := "frame " + strconv.Itoa(i)
		n, o, err := src.uv(off, path, "payload_len")
		if err != nil {
			return err
		}
		if err := checkFrameLen(n, p.end-o, o, path); err != nil {
			return err
		}
		m, err := src.read(o, 1, path, "method")
		if err != nil {
			return err
		}
		fr := FrameInfo{Offset: o, Size: int64(n), Method: m[0]}
		if err := checkFrame(fr, p.Codec, path); err != nil {
			return err
		}
		p.Frames = append(p.Frames, fr)
		off = o + int64(n)
	}
	return nil
}

// checkFrameLen checks a frame's payload_len against the bytes that
// remain (avail < 0: unknown, as when streaming).
func checkFrameLen(n uint64, avail int64, off int64, path string) error {
	if n == 0 {
		return errs.At(ErrCorrupt, off, path, "payload_len 0")
	}
	if avail >= 0 && n > uint64(avail) {
		return errs.At(ErrCorrupt, off, path, "payload_len %d runs past the %d bytes that remain", n, avail)
	}
	return nil
}

// checkFrame checks a frame's method against the codec.
func checkFrame(fr FrameInfo, codec Codec, path string) error {
	switch fr.Method {
	case methodRaw:
		return nil
	case methodStructured:
		if codec == CodecRaw {
			return errs.At(ErrCorrupt, fr.Offset, path, "structured frame in a RAW (codec 255) file")
		}
		return nil
	}
	// The reference treats any method other than 1 as structured; its
	// encoder writes only 0 and 1.
	return errs.At(ErrCorrupt, fr.Offset, path, "unknown frame method %d", fr.Method)
}

// rawBackend reads the backend byte of a RAW payload at off: a backend id,
// or (the spec-literal form) the start of an xz stream, backend -1.
func rawBackend(src *source, off, end int64, path string) (backend int, data int64, err error) {
	head, err := src.read(off, min(end-off, int64(len(xzMagic))), path, "backend")
	if err != nil {
		return 0, 0, err
	}
	if bytes.HasPrefix(head, xzMagic) {
		return -1, off, nil
	}
	if len(head) == 0 {
		return 0, 0, errs.At(ErrCorrupt, off, path, "missing backend byte")
	}
	if head[0] > BackendStored {
		// The reference decodes unknown ids as xz; its encoder never
		// writes them (vector raw_backend_7).
		return 0, 0, errs.At(ErrCorrupt, off, path, "unknown backend id %d", head[0])
	}
	return int(head[0]), off + 1, nil
}

// parseDirectory reads the directory of a packed stream set in [off, end).
func (dc *decoder) parseDirectory(src *source, off, end int64) ([]StreamInfo, error) {
	at := off
	n, off, err := src.uv(off, "stream set", "n_streams")
	if err != nil {
		return nil, err
	}
	// Every stream takes at least two bytes (name length, comp_len).
	if n > uint64(end-off)/2 {
		return nil, errs.At(ErrCorrupt, at, "stream set", "n_streams %d needs more than the %d bytes that remain", n, end-off)
	}
	if n > uint64(dc.maxStreams) {
		return nil, errs.At(ErrTooLarge, at, "stream set", "stream count %d exceeds the limit of %d", n, dc.maxStreams)
	}
	streams := make([]StreamInfo, 0, n)
	for i := uint64(0); i < n; i++ {
		nl, o, err := src.uv(off, "stream set", "stream name length")
		if err != nil {
			return nil, err
		}
		if nl >= uint64(end-o) {
			return nil, errs.At(ErrCorrupt, off, "stream set", "stream name of %d bytes runs past the %d bytes that remain", nl, end-o)
		}
		name, err := src.read(o, int64(nl)+1, "stream set", "stream name")
		if err != nil {
			return nil, err
		}
		si := StreamInfo{Name: string(name[:nl])}
		path := "stream " + quoteName(name[:nl])
		off = o + int64(nl)
		switch b := name[nl]; {
		case b >= 0x20:
			// Spec-literal form: this byte starts comp_len, which is at
			// least 32 for any xz stream; a backend byte is 0..2.
			si.Legacy, si.Backend = true, BackendXZ
		case b > BackendStored:
			return nil, errs.At(ErrCorrupt, off, path, "unknown backend id %d", b)
		default:
			si.Backend = b
			off++
		}
		clen, o2, err := src.uv(off, path, "comp_len")
		if err != nil {
			return nil, err
		}
		if clen > uint64(end-o2) {
			return nil, errs.At(ErrCorrupt, off, path, "stream data of %d bytes runs past the %d bytes that remain", clen, end-o2)
		}
		si.Offset, si.Size = o2, int64(clen)
		off = o2 + int64(clen)
		streams = append(streams, si)
	}
	if dc.strict && off < end {
		return nil, errs.At(ErrCorrupt, off, "stream set", "%d bytes after the last stream", end-off)
	}
	return streams, nil
}

// streamSetOf reads the compressed bytes of a directory's streams (without
// copying when src is in memory) into a stream set.
func (dc *decoder) streamSetOf(src *source, streams []StreamInfo) (*streamSet, error) {
	ss := &streamSet{dec: dc, streams: streams, data: make([][]byte, len(streams))}
	ss.budget.Store(dc.memoryLimit)
	for i, s := range streams {
		d, err := src.read(s.Offset, s.Size, "stream "+quoteName([]byte(s.Name)), "stream data")
		if err != nil {
			return nil, err
		}
		ss.data[i] = d
	}
	return ss, nil
}

// parseStreamSet parses the packed stream set in b, which starts at file
// offset base.
func (dc *decoder) parseStreamSet(b []byte, base int64) (*streamSet, error) {
	src := memSource(b, base)
	dir, err := dc.parseDirectory(src, base, src.end)
	if err != nil {
		return nil, err
	}
	return dc.streamSetOf(src, dir)
}
