package csup

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// TrailerMagic is the magic string of every Super Columnar trailer.
const TrailerMagic = "ZNG Trailer"

// The trailer type and version this package writes for the spec layout
// (the spec leaves them unassigned; no released tool writes them).
const (
	SpecType    = "csup"
	SpecVersion = 1
)

// Trailer is the record at the end of a file.
type Trailer struct {
	Magic         string
	Type          string // "zst", "vng" or "csup"
	Version       int64
	Sections      []int64 // data length, reassembly length
	SkewThresh    int64
	SegmentThresh int64
	// Offset and Length locate the trailer's own stream in the file.
	Offset, Length int64
}

// Generation names the layout a file was written in.
type Generation int

// Generations this package reads.
const (
	GenSpec    Generation = iota // the spec layout (this package's writer)
	GenZSTv2                     // ZST version 2, zed v1.0.0-v1.2.0
	GenVNGv3                     // VNG version 3, zed v1.4.0-v1.12
	GenCSUPv16                   // CSUP version 16, super v0.3.0
	GenVNGv4                     // VNG version 4, zed v1.13-v1.18
)

func (g Generation) String() string {
	switch g {
	case GenSpec:
		return "spec layout (csup version 1)"
	case GenZSTv2:
		return "ZST version 2 (zed v1.2)"
	case GenVNGv3:
		return "VNG version 3 (zed v1.6)"
	case GenCSUPv16:
		return "CSUP version 16 (super v0.3.0)"
	case GenVNGv4:
		return "VNG version 4 (zed v1.18)"
	}
	return "unknown"
}

const trailerScan = 4096

// checkMagic recognises the generations with a header magic (VNG v4+,
// CSUP), trusting a magic only when the header's sizes fit the file. It
// returns ok=false when the file has no such header (the trailer decides).
func checkMagic(r io.ReaderAt, size int64) (gen Generation, ok bool, err error) {
	if size < 16 {
		return 0, false, nil
	}
	var head [36]byte
	n, err := r.ReadAt(head[:min(size, 36)], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, false, err
	}
	le := binary.LittleEndian
	v := le.Uint32(head[4:])
	switch {
	case n >= 36 && bytes.Equal(head[:4], []byte("CSUP")):
		total := uint64(36)
		for _, off := range []int{8, 16, 24} {
			total += min(le.Uint64(head[off:]), 1<<62)
		}
		if v == 16 {
			// Sizes are checked object by object.
			return GenCSUPv16, true, nil
		}
		if total <= uint64(size) {
			return 0, false, errs.At(ErrUnsupported, 0, "header", "CSUP version %d is not supported; this package reads CSUP version 16 (super v0.3.0), VNG v3, ZST v2 and the spec layout", v)
		}
	case bytes.Equal(head[:4], []byte("VNG\x00")) && v == 4:
		return GenVNGv4, true, nil
	case bytes.Equal(head[:3], []byte("VNG")):
		if 16+uint64(le.Uint32(head[8:]))+uint64(le.Uint32(head[12:])) <= uint64(size) {
			return 0, false, errs.At(ErrUnsupported, 0, "header", "VNG version %d is not supported; this package reads CSUP version 16, VNG v3, ZST v2 and the spec layout", v)
		}
	}
	return 0, false, nil
}

// readTrailer finds the trailer by scanning backward from the end for a
// Super Binary stream that ends exactly at EOF and whose first value is a
// trailer record.
func readTrailer(r io.ReaderAt, size int64, cfg config) (*Trailer, error) {
	n := min(size, trailerScan)
	if n < 2 {
		return nil, errs.At(ErrCorrupt, 0, "trailer", "file of %d bytes is too short", size)
	}
	tail := make([]byte, n)
	if _, err := r.ReadAt(tail, size-n); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	var firstErr error
	for off := len(tail) - 2; off >= 0; off-- {
		if off > 0 && tail[off-1] != 0xff {
			continue
		}
		l, ok := bsup.StreamLen(tail[off:])
		if !ok || l != len(tail)-off {
			continue
		}
		tr, err := decodeTrailer(tail[off:], cfg)
		if err != nil {
			if firstErr == nil && errors.Is(err, ErrCorrupt) {
				firstErr = err
			}
			continue
		}
		tr.Offset = size - n + int64(off)
		tr.Length = int64(l)
		return tr, nil
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return nil, errs.At(ErrCorrupt, size, "trailer", "no Super Columnar trailer found in the last %d bytes", n)
}

var errNotTrailer = errors.New("not a trailer")

func decodeTrailer(b []byte, cfg config) (*Trailer, error) {
	// The trailer sits in the last 4096 bytes, so no frame is larger.
	rd, err := bsup.NewReader(bytes.NewReader(b), bsup.WithMaxFrameSize(trailerScan), bsup.WithMaxDepth(cfg.maxDepth))
	if err != nil {
		return nil, err
	}
	v, err := rd.Read()
	if err != nil {
		return nil, errNotTrailer
	}
	magic, ok1 := field(v, "magic")
	typ, ok2 := field(v, "type")
	ver, ok3 := field(v, "version")
	secs, ok4 := field(v, "sections")
	meta, ok5 := field(v, "meta")
	if !(ok1 && ok2 && ok3 && ok4 && ok5) {
		return nil, errNotTrailer
	}
	tr := &Trailer{}
	var ok bool
	if tr.Magic, ok = asString(magic); !ok || tr.Magic != TrailerMagic {
		return nil, errs.At(ErrCorrupt, -1, "trailer", "bad trailer magic %q", tr.Magic)
	}
	if tr.Type, ok = asString(typ); !ok {
		return nil, errs.At(ErrCorrupt, -1, "trailer", "trailer type is not a string")
	}
	if tr.Version, ok = asInt(ver); !ok {
		return nil, errs.At(ErrCorrupt, -1, "trailer", "trailer version is not an integer")
	}
	list, ok := elems(secs)
	if !ok {
		return nil, errs.At(ErrCorrupt, -1, "trailer", "trailer sections is not an array")
	}
	for _, s := range list {
		n, ok := asInt(s)
		if !ok || n < 0 {
			return nil, errs.At(ErrCorrupt, -1, "trailer", "bad section size")
		}
		tr.Sections = append(tr.Sections, n)
	}
	if sk, ok := field(meta, "skewthresh"); ok {
		tr.SkewThresh, _ = asInt(sk)
	}
	if sg, ok := field(meta, "segmentthresh"); ok {
		tr.SegmentThresh, _ = asInt(sg)
	}
	return tr, nil
}

// generation maps a trailer to a layout, refusing the ones not supported.
func (tr *Trailer) generation() (Generation, error) {
	switch {
	case tr.Type == "zst" && tr.Version == 2:
		return GenZSTv2, nil
	case tr.Type == "vng" && tr.Version == 3:
		return GenVNGv3, nil
	case tr.Type == SpecType && tr.Version == SpecVersion:
		return GenSpec, nil
	}
	return 0, errs.At(ErrUnsupported, tr.Offset, "trailer", "%s version %d is not supported; this package reads zst 2, vng 3 and %s %d", tr.Type, tr.Version, SpecType, SpecVersion)
}
