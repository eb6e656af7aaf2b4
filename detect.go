package colfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// headLen and tailLen are the sizes of the two ranges every detection
// reads; the walks of AT-1 stream sets and frames, OnPair sections and
// Super Binary frames add a few small reads each (at most maxWalk).
const (
	headLen = 64
	tailLen = 4096 // a Super Columnar trailer sits in the last 4096 bytes
	maxWalk = 64
)

var le = binary.LittleEndian

// Detect reports the format of the size bytes of r from their magic
// numbers, headers and footers. It reads the first 64 and the last 4096
// bytes, and follows at most 64 declared sizes (one small read each) to tell
// a complete file from a truncated one; it never decodes data.
//
// It returns ErrInvalidArgument for a nil r or a negative size;
// ErrUnknownFormat when no format matches; and, for a file of a known
// format whose declared sizes run past its end (or whose end marker is cut
// off), the Info of that format with an error wrapping ErrTruncated; when
// the header of a known format is malformed (a varint of more than 64
// bits), the Info with an error wrapping ErrCorrupt.
//
// Detection is by bytes only, not a validation: a file Detect accepts may
// still fail to open. Formats whose only marker is at the end (Lance,
// Super Columnar ZST, VNG 3 and the spec layout) cannot be recognised once
// that end is gone; Detect recognises a Lance 2.x file cut anywhere after
// its first 64 bytes by the 'H' padding lance writes after its first
// buffer, and a file cut inside its "LANC" magic.
func Detect(r io.ReaderAt, size int64) (Info, error) {
	if r == nil {
		return Info{}, fmt.Errorf("%w: nil reader", ErrInvalidArgument)
	}
	if size < 0 {
		return Info{}, fmt.Errorf("%w: negative size %d", ErrInvalidArgument, size)
	}
	d := detector{r: r, size: size}
	var err error
	if d.head, err = d.read(0, min(size, headLen)); err != nil {
		return Info{}, err
	}
	if d.tail, err = d.read(size-min(size, tailLen), min(size, tailLen)); err != nil {
		return Info{}, err
	}
	for _, f := range []func() (Info, error, bool){d.at1, d.onpair, d.csupHeader, d.lance, d.csupTrailer, d.bsup, d.lanceTruncated} {
		if info, err, ok := f(); ok {
			return info, err
		}
	}
	return Info{}, ErrUnknownFormat
}

type detector struct {
	r          io.ReaderAt
	size       int64
	head, tail []byte
}

// read returns the n bytes at off; a short read at the end of r is an
// error, as size promised them.
func (d *detector) read(off, n int64) ([]byte, error) {
	b := make([]byte, n)
	if n == 0 {
		return b, nil
	}
	got, err := d.r.ReadAt(b, off)
	if got == len(b) {
		return b, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return nil, fmt.Errorf("colfmt: reading %d bytes at offset %d: %w", n, off, err)
}

// readUpTo returns up to n bytes at off, fewer at the end of the input.
func (d *detector) readUpTo(off, n int64) ([]byte, error) {
	if off >= d.size {
		return nil, nil
	}
	return d.read(off, min(n, d.size-off))
}

// varintAt reads the uvarint at off. ok is false when the input ends
// inside it; a malformed varint is ErrCorrupt.
func (d *detector) varintAt(off int64, what string) (v uint64, n int, ok bool, err error) {
	b, err := d.readUpTo(off, varint.MaxLen)
	if err != nil {
		return 0, 0, false, err
	}
	v, n = varint.Consume(b)
	switch {
	case n == varint.Truncated:
		return 0, 0, false, nil
	case n < 0:
		return 0, 0, false, errs.At(ErrCorrupt, off, what, "malformed varint")
	}
	return v, n, true, nil
}

// fits reports whether n bytes fit in avail, which may be negative when a
// header already runs past the end.
func fits(n uint64, avail int64) bool { return avail >= 0 && n <= uint64(avail) }

func truncated(info Info, off int64, path, format string, args ...any) (Info, error, bool) {
	return info, errs.At(ErrTruncated, off, path, format, args...), true
}

// at1 recognises "AT1\x02" (whole) and "AT1\x03" (framed) and walks the
// stream set or the frames to check that every declared length fits.
func (d *detector) at1() (Info, error, bool) {
	h := d.head
	if len(h) < 3 || string(h[:3]) != "AT1" {
		return Info{}, nil, false
	}
	if len(h) < 5 {
		if len(h) == 3 || h[3] == 2 || h[3] == 3 {
			return truncated(Info{Format: AT1}, d.size, "header", "%d bytes of the 5-byte AT-1 header", len(h))
		}
		return Info{}, nil, false
	}
	info := Info{Format: AT1, Kind: at1Codec(h[4])}
	switch h[3] {
	case 2:
		info.Layout = LayoutWhole
	case 3:
		info.Layout = LayoutFramed
	default:
		return Info{}, nil, false
	}
	end := d.size
	// An integrity trailer (SHA-256 + A1 53 36 01) is not part of the body.
	if d.size >= 5+36 && bytes.HasSuffix(d.tail, []byte{0xA1, 0x53, 0x36, 0x01}) {
		end -= 36
	}
	if info.Layout == LayoutFramed {
		// varint chunk_lines, then frames: varint payload_len, payload
		// (method byte + payload_len-1 bytes) until the end.
		_, n, ok, err := d.varintAt(5, "header")
		if err != nil || !ok {
			if err != nil {
				return info, err, true
			}
			return truncated(info, d.size, "header", "the input ends inside chunk_lines")
		}
		off := int64(5 + n)
		for i := 0; i < maxWalk && off < end; i++ {
			l, n, ok, err := d.varintAt(off, "frame")
			if err != nil {
				return info, err, true
			}
			if !ok {
				return truncated(info, off, fmt.Sprintf("frame %d", i), "the input ends inside the frame length")
			}
			if !fits(l, end-off-int64(n)) {
				return truncated(info, off, fmt.Sprintf("frame %d", i), "frame of %d bytes, %d remain", l, end-off-int64(n))
			}
			off += int64(n) + int64(l)
		}
		return info, nil, true
	}
	if h[4] == 255 {
		return info, nil, true // RAW: one compressed payload, no declared length
	}
	// Packed stream set: varint count, then per stream name_len, name, a
	// backend byte (0-2; absent in the spec's literal form, where comp_len,
	// at least 32 for any xz block, follows the name directly), comp_len and
	// the data.
	count, n, ok, err := d.varintAt(5, "streams")
	if err != nil {
		return info, err, true
	}
	if !ok {
		return truncated(info, d.size, "streams", "the input ends inside the stream count")
	}
	off := int64(5 + n)
	for i := uint64(0); i < count && i < maxWalk; i++ {
		path := fmt.Sprintf("stream %d", i)
		for _, what := range []string{"name", "data"} {
			if what == "data" {
				b, err := d.readUpTo(off, 1)
				if err != nil {
					return info, err, true
				}
				if len(b) == 0 {
					return truncated(info, off, path, "the input ends before the stream's data")
				}
				if b[0] < 0x20 {
					off++ // backend byte
				}
			}
			l, n, ok, err := d.varintAt(off, path)
			if err != nil {
				return info, err, true
			}
			if !ok {
				return truncated(info, off, path, "the input ends inside the %s length", what)
			}
			if !fits(l, end-off-int64(n)) {
				return truncated(info, off, path, "%s of %d bytes, %d remain", what, l, end-off-int64(n))
			}
			off += int64(n) + int64(l)
		}
	}
	return info, nil, true
}

// at1Codecs are AT-1's codec names by id ("" for an unknown id): static
// data, so the package's initialisation builds nothing.
var at1Codecs = [256]string{
	0: "ssh", 1: "json", 2: "osm", 3: "log", 4: "columnar", 5: "vcf", 6: "jsondoc",
	7: "qcolumnar", 8: "qjson", 9: "dicom", 10: "embed", 11: "qjson2", 12: "bundle", 255: "raw",
}

func at1Codec(c byte) string {
	if s := at1Codecs[c]; s != "" {
		return s
	}
	return "codec(" + strconv.Itoa(int(c)) + ")"
}

// onpair recognises "OPCOL" and follows the section sizes: token count,
// dictionary offsets, dictionary, packed codes, row count and row lengths.
func (d *detector) onpair() (Info, error, bool) {
	const magic = "OPCOL"
	h := d.head
	if len(h) < len(magic) {
		if len(h) >= 3 && bytes.HasPrefix([]byte(magic), h) {
			return truncated(Info{Format: OnPair}, d.size, "header", "%d bytes of the OPCOL magic", len(h))
		}
		return Info{}, nil, false
	}
	if string(h[:len(magic)]) != magic {
		return Info{}, nil, false
	}
	info := Info{Format: OnPair}
	if len(h) < len(magic)+3 {
		return truncated(info, d.size, "header", "%d bytes of the 8-byte header", len(h))
	}
	info.Version = strconv.Itoa(int(h[5]))
	bits := uint64(h[6])
	off := int64(len(magic) + 3)
	step := func(path string, mul uint64, packed bool) (uint64, bool, error) {
		v, n, ok, err := d.varintAt(off, path)
		if err != nil || !ok {
			return 0, ok, err
		}
		off += int64(n)
		var need uint64
		switch {
		case packed:
			hi, lo := mulHiLo(v, bits)
			need = lo/8 + (lo%8+7)/8
			if hi != 0 {
				need = ^uint64(0)
			}
		default:
			hi, lo := mulHiLo(v, mul)
			need = lo
			if hi != 0 {
				need = ^uint64(0)
			}
		}
		if !fits(need, d.size-off) {
			return v, false, errs.At(ErrTruncated, off, path, "%d bytes declared, %d remain", need, d.size-off)
		}
		off += int64(need)
		return v, true, nil
	}
	// Token count n is followed by n+1 u32 offsets: count the extra one.
	for _, s := range []struct {
		path   string
		mul    uint64
		packed bool
	}{{"dict_offsets", 4, false}, {"dict_bytes", 1, false}, {"codes", 0, true}, {"rows", 1, false}} {
		before := off
		_, ok, err := step(s.path, s.mul, s.packed)
		if err != nil {
			return info, err, true
		}
		if !ok {
			return truncated(info, before, s.path, "the input ends inside the %s count", s.path)
		}
		if s.path == "dict_offsets" {
			if d.size-off < 4 {
				return truncated(info, off, s.path, "the last dictionary offset is cut off")
			}
			off += 4
		}
	}
	return info, nil, true
}

func mulHiLo(a, b uint64) (hi, lo uint64) {
	if a == 0 || b == 0 {
		return 0, 0
	}
	lo = a * b
	if lo/b != a {
		return 1, lo
	}
	return 0, lo
}

// csupHeader recognises the generations with a header magic: "CSUP"
// (super v0.2+) and "VNG" version 4 and later (zed v1.13+), whose header
// sizes must fit in the file.
func (d *detector) csupHeader() (Info, error, bool) {
	h := d.head
	if len(h) == 3 && (string(h) == "CSU" || string(h) == "VNG") {
		return truncated(Info{Format: CSUP}, d.size, "header", "%d bytes of a Super Columnar header", len(h))
	}
	switch {
	case len(h) >= 4 && string(h[:4]) == "CSUP":
		info := Info{Format: CSUP, Layout: LayoutCSUP}
		if len(h) < 36 {
			return truncated(info, d.size, "header", "%d bytes of the 36-byte CSUP header", len(h))
		}
		info.Version = strconv.FormatUint(uint64(le.Uint32(h[4:])), 10)
		total := uint64(36)
		for _, off := range []int{8, 16, 24} {
			total += min(le.Uint64(h[off:]), 1<<60)
		}
		if total > uint64(d.size) {
			return truncated(info, d.size, "header", "header declares %d bytes, the input has %d", total, d.size)
		}
		return info, nil, true
	case len(h) >= 4 && string(h[:4]) == "VNG\x00":
		info := Info{Format: CSUP, Layout: LayoutVNG}
		if len(h) < 16 {
			return truncated(info, d.size, "header", "%d bytes of the 16-byte VNG header", len(h))
		}
		info.Version = strconv.FormatUint(uint64(le.Uint32(h[4:])), 10)
		total := 16 + uint64(le.Uint32(h[8:])) + uint64(le.Uint32(h[12:]))
		if total > uint64(d.size) {
			return truncated(info, d.size, "header", "header declares %d bytes, the input has %d", total, d.size)
		}
		return info, nil, true
	}
	return Info{}, nil, false
}

// csupTrailer recognises the generations found from their trailer (the
// spec layout, ZST and VNG 3): a Super Binary stream at the very end whose
// record holds "ZNG Trailer", then the type string and the version.
func (d *detector) csupTrailer() (Info, error, bool) {
	t := d.tail
	if len(t) == 0 || t[len(t)-1] != 0xff {
		return Info{}, nil, false
	}
	// The trailer record's first fields are counted values: tag 12 + "ZNG
	// Trailer", tag len+1 + type, tag len+1 + version (sign-magnitude).
	i := bytes.LastIndex(t, []byte("\x0cZNG Trailer"))
	if i < 0 {
		return Info{}, nil, false
	}
	rest := t[i+12:]
	typ, n := counted(rest)
	if n <= 0 {
		return Info{}, nil, false
	}
	ver, m := counted(rest[n:])
	if m <= 0 || len(ver) > 8 {
		return Info{}, nil, false
	}
	var v uint64
	for j := len(ver) - 1; j >= 0; j-- {
		v = v<<8 | uint64(ver[j])
	}
	version := v >> 1 // sign-magnitude: abs<<1 | sign
	info := Info{Format: CSUP, Layout: string(typ), Version: strconv.FormatUint(version, 10)}
	switch info.Layout {
	case "csup":
		info.Layout = LayoutSpec
	case "zst", "vng":
	default:
		info.Layout = errs.Quote(info.Layout)
	}
	return info, nil, true
}

// counted decodes a counted value (uvarint tag = length+1, then the body).
func counted(b []byte) ([]byte, int) {
	tag, n := varint.Consume(b)
	if n <= 0 || tag == 0 || tag-1 > uint64(len(b)-n) {
		return nil, -1
	}
	return b[n : n+int(tag-1)], n + int(tag-1)
}

// lance recognises the "LANC" magic that ends every Lance data file and
// manifest, and tells a manifest from a legacy data file (both have the
// 16-byte footer of version 0.x) by the manifest's length prefix and its
// writer/data-format records.
func (d *detector) lance() (Info, error, bool) {
	t := d.tail
	if len(t) < 4 || string(t[len(t)-4:]) != "LANC" {
		return Info{}, nil, false
	}
	if len(t) < 16 {
		return truncated(Info{Format: Lance}, 0, "footer", "a %d-byte file cannot hold a Lance footer", d.size)
	}
	major, minor := le.Uint16(t[len(t)-8:]), le.Uint16(t[len(t)-6:])
	info := Info{Format: Lance, Layout: LayoutV2, Version: fmt.Sprintf("%d.%d", major, minor)}
	if major == 0 && minor == 3 {
		info.Version = "2.0" // lance writes 2.0 files with footer version 0.3
	}
	if major == 0 && minor < 3 {
		info.Layout = LayoutLegacy
		// Manifest: u64 P, and at P a u32 L with P+4+L+16 == size.
		p := le.Uint64(t[len(t)-16:])
		if fits(p, d.size-20) {
			lb, err := d.read(int64(p), 4)
			if err != nil {
				return info, err, true
			}
			if uint64(le.Uint32(lb)) == uint64(d.size)-p-20 && d.isManifest(int64(p)+4) {
				m := Info{Format: LanceManifest}
				m.Version = manifestDataVersion(t[:len(t)-16])
				return m, nil, true
			}
		}
		return info, nil, true
	}
	if d.size < 40 {
		return truncated(info, 0, "footer", "a %d-byte file cannot hold the 40-byte Lance 2.x footer", d.size)
	}
	return info, nil, true
}

// isManifest tells a lance.table.Manifest protobuf from a legacy file's
// Metadata: a manifest records its writer (field 13, {library "lance",
// version}) or its data format ({"lance", "2.x"}) near its end, which
// the legacy Metadata message has no field for.
func (d *detector) isManifest(start int64) bool {
	body := d.tail[:len(d.tail)-16]
	if from := start - (d.size - int64(len(d.tail))); from > 0 && from < int64(len(body)) {
		body = body[from:]
	}
	return bytes.Contains(body, []byte("\x0a\x05lance\x12"))
}

// manifestDataVersion finds data_format {file_format: "lance", version:
// "2.x"} (a nested message of tag 0x7a) in the manifest's last bytes.
func manifestDataVersion(b []byte) string {
	i := bytes.LastIndex(b, []byte("\x0a\x05lance\x12"))
	for i >= 2 {
		if b[i-2] == 0x7a { // field 15, length-delimited: data_format
			v, n := varint.Consume(b[i+8:])
			if n > 0 && v <= 16 && int(v) <= len(b)-i-8-n {
				if ver := b[i+8+n : i+8+n+int(v)]; isVersion(ver) {
					return string(ver)
				}
			}
		}
		i = bytes.LastIndex(b[:i], []byte("\x0a\x05lance\x12"))
	}
	return ""
}

// isVersion accepts "2.1"-like strings only: the bytes come from the input
// and end up in messages.
func isVersion(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return len(b) > 0
}

// bsup recognises a Super Binary stream: frames (a code byte with bit 7
// clear and frame type 0-2, a uvarint length) that fit in the file, the
// first a types or values frame, ending with the end-of-stream byte 0xff.
// Version 2 (CSUP metadata, super v0.2+) puts the byte 0x82 before every
// frame.
func (d *detector) bsup() (Info, error, bool) {
	h := d.head
	first := 0
	if len(h) > 0 && h[0] == 0x82 {
		first = 1
	}
	if len(h) < first+2 || h[first]&0x80 != 0 || (h[first]>>4)&3 > 1 {
		return Info{}, nil, false
	}
	info := Info{Format: SuperBinary, Version: "0"}
	if first == 1 {
		info.Version = "2"
	}
	off := int64(0)
	frames := 0
	// Every step (frame, end of stream) costs one small read: at most
	// maxWalk of them, then the end byte decides.
	for step := 0; step < maxWalk && off < d.size; step++ {
		b, err := d.readUpTo(off, 2+varint.MaxLen)
		if err != nil {
			return info, err, true
		}
		if b[0] == 0xff { // end of stream; another may follow
			off++
			continue
		}
		skip := int64(0)
		if info.Version == "2" {
			if b[0] != 0x82 || len(b) < 2 {
				return Info{}, nil, false
			}
			b, skip = b[1:], 1
		}
		if b[0]&0x80 != 0 || (b[0]>>4)&3 == 3 {
			return Info{}, nil, false
		}
		hi, n := varint.Consume(b[1:])
		if n == varint.Truncated && frames > 1 && binaryBytes(d.head) {
			return truncated(info, off, fmt.Sprintf("frame %d", frames), "the input ends inside the frame header")
		}
		if n <= 0 || hi > 1<<58 {
			return Info{}, nil, false
		}
		l := hi<<4 | uint64(b[0]&0x0f)
		if l == 0 {
			return Info{}, nil, false // writers never emit an empty frame
		}
		avail := d.size - off - skip - 1 - int64(n)
		if !fits(l, avail) {
			// Claim a truncated stream only after two whole frames of
			// binary data, so that arbitrary bytes are not taken for one.
			if frames > 1 && binaryBytes(d.head) {
				return truncated(info, off, fmt.Sprintf("frame %d", frames), "frame of %d bytes, %d remain", l, max(avail, 0))
			}
			return Info{}, nil, false
		}
		off += skip + 1 + int64(n) + int64(l)
		frames++
	}
	if frames == 0 {
		return Info{}, nil, false
	}
	if d.tail[len(d.tail)-1] != 0xff {
		if off >= d.size && frames > 1 && binaryBytes(d.head) {
			return truncated(info, d.size, "end", "the end-of-stream byte is missing")
		}
		return Info{}, nil, false
	}
	return info, nil, true
}

// lanceTruncated recognises a Lance file whose end is gone: one cut inside
// its "LANC" magic, or a 2.x file whose first buffer ends with the 'H' (72)
// padding lance writes to align the next buffer to 64 bytes.
func (d *detector) lanceTruncated() (Info, error, bool) {
	t := d.tail
	if d.size >= 40 && bytes.HasSuffix(t, []byte("LAN")) {
		return truncated(Info{Format: Lance}, d.size, "footer", "the input ends inside the LANC magic")
	}
	h := d.head
	if d.size > headLen && len(h) == headLen && h[62] == 'H' && h[63] == 'H' && binaryBytes(h) {
		return truncated(Info{Format: Lance}, d.size, "footer", "a Lance 2.x file (its first buffer is padded with 'H' to 64 bytes) without its footer")
	}
	return Info{}, nil, false
}

// binaryBytes reports whether b holds a control byte no text has (below
// tab, or 0x0e-0x1f): the weak signatures (a truncated Super Binary stream,
// Lance padding) are claimed only for such bytes, never for text files.
func binaryBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x09 || (c >= 0x0e && c < 0x20) {
			return true
		}
	}
	return false
}
