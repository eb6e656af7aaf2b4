package at1

import (
	"bytes"
	"errors"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/hugepage"
	"github.com/colfmt/colfmt/internal/xz"
)

// Backend ids: the byte that precedes compressed data in a stream set,
// after RAW's codec byte and after a framed raw frame's method byte.
const (
	BackendXZ     = 0
	BackendZstd   = 1
	BackendStored = 2
)

// BackendName names a backend id.
func BackendName(b byte) string {
	switch b {
	case BackendXZ:
		return "xz"
	case BackendZstd:
		return "zstd"
	case BackendStored:
		return "stored"
	}
	return "unknown"
}

var xzMagic = []byte{0xFD, '7', 'z', 'X', 'Z', 0x00}

// decompress decodes src with backend into a new buffer of at most limit
// bytes. off and path locate src in the input for errors.
func (dc *decoder) decompress(backend byte, src []byte, limit int64, off int64, path string) ([]byte, error) {
	return dc.decompressProgress(backend, src, limit, off, path, nil)
}

// decompressInto is decompress that decodes into buf's array when it is
// large enough (buf's length is ignored), so a caller decoding one frame
// after another reuses one buffer. Stored data is copied into it.
func (dc *decoder) decompressInto(buf []byte, backend byte, src []byte, limit int64, off int64, path string) ([]byte, error) {
	n, ok := declaredSize(backend, src)
	if !ok || n > uint64(cap(buf)) || n > uint64(limit) {
		if backend == BackendStored {
			buf = nil
		} else {
			return dc.decompress(backend, src, limit, off, path)
		}
	}
	switch backend {
	case BackendStored:
		if int64(len(src)) > limit {
			return nil, errs.TooLarge(ErrTooLarge, off, path, "stored data", uint64(len(src)), limit)
		}
		return append(buf[:0], src...), nil
	case BackendZstd:
		return unzstdInto(buf[:0], src, limit, off, path)
	}
	return dc.unxz(buf[:0:n], src, limit, off, path, nil)
}

// decompressBuf is decompressProgress that decodes xz and zstd into
// buf's array when buf is not nil (empty, capped at the declared size;
// see scratch).
func (dc *decoder) decompressBuf(buf []byte, backend byte, src []byte, limit int64, off int64, path string, progress func([]byte)) ([]byte, error) {
	switch {
	case buf == nil:
	case backend == BackendXZ:
		return dc.unxz(buf, src, limit, off, path, progress)
	case backend == BackendZstd:
		return unzstdInto(buf, src, limit, off, path)
	}
	return dc.decompressProgress(backend, src, limit, off, path, progress)
}

// decompressProgress is decompress that, for xz, shows the output to
// progress as it grows (see unxzProgress).
func (dc *decoder) decompressProgress(backend byte, src []byte, limit int64, off int64, path string, progress func([]byte)) ([]byte, error) {
	switch backend {
	case BackendStored:
		if int64(len(src)) > limit {
			return nil, errs.TooLarge(ErrTooLarge, off, path, "stored data", uint64(len(src)), limit)
		}
		return src, nil
	case BackendXZ:
		return dc.unxz(nil, src, limit, off, path, progress)
	case BackendZstd:
		return unzstdInto(nil, src, limit, off, path)
	}
	// The reference decodes unknown ids as xz; its encoder never writes
	// them, so we reject (vector raw_backend_7).
	return nil, errs.At(ErrCorrupt, off, path, "unknown backend id %d", backend)
}

// progressChunk: a values stream that decodes to less than twice this is
// not worth pipelining (see startValues).
const progressChunk = 128 << 10

// unxz decodes the first xz stream in src with internal/xz, into buf
// when it is not nil (empty, with the capacity of the stream's declared
// size), at most limit bytes. Bytes after the stream are ignored, as the
// reference does (vector raw_xz_trailing_garbage). When progress is not
// nil it sees the output so far after every LZMA2 chunk, so a consumer
// can work on the prefix while the rest decodes; the slices it sees stay
// valid (a regrown buffer is a new array, the old one is not written).
// The output is the decoder's dictionary, so nothing else is allocated.
func (dc *decoder) unxz(buf, src []byte, limit int64, off int64, path string, progress func([]byte)) ([]byte, error) {
	if !bytes.HasPrefix(src, xzMagic) {
		return nil, errs.At(ErrCorrupt, off, path, "xz: missing stream header")
	}
	// The dictionary is not allocated (the output is the window), but a
	// declared size over the limit is refused as before, so the limit
	// means the same whatever the decoder.
	if d, ok := xzDictSize(src); ok && d > uint64(dc.maxDict) {
		return nil, errs.TooLarge(ErrTooLarge, off, path, "xz dictionary", d, int64(dc.maxDict))
	}
	if buf == nil {
		// The stream's index gives the exact size when the stream ends
		// the data (the caller charged it to the memory budget).
		if n, ok := xzIndexSize(src); ok {
			if n > uint64(limit) {
				return nil, errs.TooLarge(ErrTooLarge, off, path, "decoded xz stream", n, limit)
			}
			buf = hugepage.Make(int(n))
			defer hugepage.Done(buf)
		}
	}
	opts := []xz.Option{xz.WithMaxDecodedSize(limit)}
	if dc.concurrency > 1 && !dc.safe {
		// A stream of several blocks (a large values stream) decodes
		// them at once, each into its own part of buf.
		opts = append(opts, xz.WithConcurrency(min(dc.concurrency, xz.MaxConcurrency)))
	}
	if progress != nil {
		opts = append(opts, xz.WithProgress(progress))
	}
	out, _, err := xz.AppendDecodeStream(buf, src, opts...)
	if err != nil {
		return nil, xzErr(err, off, path)
	}
	return out, nil
}

// xzErr re-wraps an internal/xz error as this package's, located in the
// input (off is where the xz stream starts).
func xzErr(err error, off int64, path string) error {
	sentinel := ErrCorrupt
	switch {
	case errors.Is(err, xz.ErrTooLarge):
		sentinel = ErrTooLarge
	case errors.Is(err, xz.ErrUnsupported):
		sentinel = ErrUnsupported
	}
	msg := err.Error()
	var ce *errs.CorruptError
	if errors.As(err, &ce) {
		if ce.Offset >= 0 {
			off += ce.Offset
		}
		msg = ce.Err.Error()
	}
	return errs.At(sentinel, off, path, "%s", msg)
}

// xzIndexSize sums the uncompressed sizes in the index of an xz stream
// that ends exactly at the end of src. ok is false when the footer is not
// there (trailing bytes, damage); the decoder checks the index anyway.
func xzIndexSize(src []byte) (uint64, bool) {
	n, _, ok := xzIndex(src)
	return n, ok
}

// xzIndex is xzIndexSize that also reports whether src is exactly one
// stream: header, the blocks the index lists, index and footer. When it
// is not (streams concatenated), the index read is the last stream's.
func xzIndex(src []byte) (uint64, bool, bool) {
	if len(src) < 32 || src[len(src)-2] != 'Y' || src[len(src)-1] != 'Z' {
		return 0, false, false
	}
	foot := src[len(src)-12:]
	bsize := (uint64(foot[4]) | uint64(foot[5])<<8 | uint64(foot[6])<<16 | uint64(foot[7])<<24 + 1) * 4
	// An index holds at least its indicator, record count and CRC32,
	// padded to 8 bytes.
	if bsize < 8 || bsize > uint64(len(src)-24) {
		return 0, false, false
	}
	idx := src[len(src)-12-int(bsize) : len(src)-12]
	if idx[0] != 0 {
		return 0, false, false
	}
	cur := &cursor{b: idx[:len(idx)-4], off: 1}
	n, err := cur.uv("records")
	if err != nil || n > uint64(len(idx)) {
		return 0, false, false
	}
	var total, blocks uint64
	for i := uint64(0); i < n; i++ {
		up, err := cur.uv("unpadded")
		if err != nil {
			return 0, false, false
		}
		u, err := cur.uv("uncompressed")
		if err != nil || total+u < total {
			return 0, false, false
		}
		total += u
		blocks += (min(up, uint64(len(src))) + 3) &^ 3 // no overflow
	}
	return total, 12+blocks+bsize+12 == uint64(len(src)), true
}

// xzDictSize reads the LZMA2 dictionary size of the first block, so a
// declared size beyond the limit fails before the decoder allocates it.
func xzDictSize(src []byte) (uint64, bool) {
	d, _, ok := xzDictProps(src)
	return d, ok
}

// xzDictProps is xzDictSize that also returns the offset in src of the
// LZMA2 properties byte.
func xzDictProps(src []byte) (uint64, int, bool) {
	// Stream header (12 bytes), then a block header: size byte, flags,
	// optional compressed and uncompressed sizes, then filter flags.
	if len(src) < 14 || src[12] == 0 {
		return 0, 0, false
	}
	hdr := src[12:]
	flags := hdr[1]
	p := 2
	skipVarint := func() bool {
		for i := 0; i < 9; i++ {
			if p >= len(hdr) {
				return false
			}
			c := hdr[p]
			p++
			if c < 0x80 {
				return true
			}
		}
		return false
	}
	if flags&0x40 != 0 && !skipVarint() {
		return 0, 0, false
	}
	if flags&0x80 != 0 && !skipVarint() {
		return 0, 0, false
	}
	nf := int(flags&3) + 1
	for i := 0; i < nf; i++ {
		if p >= len(hdr) {
			return 0, 0, false
		}
		id := hdr[p]
		p++
		if p >= len(hdr) {
			return 0, 0, false
		}
		psize := int(hdr[p])
		p++
		if p+psize > len(hdr) {
			return 0, 0, false
		}
		if id == 0x21 && psize == 1 {
			props := hdr[p]
			if props > 40 {
				return 0, 0, false
			}
			if props == 40 {
				return 1<<32 - 1, 12 + p, true
			}
			return uint64(2|props&1) << (props/2 + 11), 12 + p, true
		}
		p += psize
	}
	return 0, 0, false
}

// zstdSharedMax is the largest frame the shared zstd decoders decode.
// Each of them (one per CPU) keeps buffers the size of the largest frame
// it decoded for as long as the process runs: 3 MB each after 3 MB
// frames, 48 MB with 16 CPUs, when this was 4 MiB. A decoder of its own
// costs a larger frame about 20 µs and its buffers, 1-2% of decoding it.
const zstdSharedMax = 256 << 10

var (
	zstdOnce sync.Once
	zstdDec  *zstd.Decoder
)

func zstdDecoder() *zstd.Decoder {
	zstdOnce.Do(func() {
		// Sizes are checked against the frame's content size before
		// decoding; the decoder's own cap is a backstop.
		zstdDec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(maxStreamLimit), zstd.WithDecoderMaxWindow(1<<31))
	})
	return zstdDec
}

// zstdHeaderLen returns where the content size starts in a frame whose
// descriptor byte is fhd, and its length (a single-segment frame's flag 0
// means one byte).
func zstdHeaderLen(fhd byte) (fcsAt, fcsLen int) {
	fcsAt = 5 + [4]int{0, 1, 2, 4}[fhd&3]
	if fhd>>5&1 == 0 {
		fcsAt++ // window descriptor
	}
	fcsLen = [4]int{0, 2, 4, 8}[fhd>>6]
	if fhd>>6 == 0 && fhd>>5&1 == 1 {
		fcsLen = 1
	}
	return fcsAt, fcsLen
}

// zstdFrame parses one frame's layout: its content size and total length.
func zstdFrame(src []byte) (size uint64, frameLen int, err string) {
	if len(src) < 5 || src[0] != 0x28 || src[1] != 0xB5 || src[2] != 0x2F || src[3] != 0xFD {
		return 0, 0, "missing frame magic"
	}
	fhd := src[4]
	fcsFlag := fhd >> 6
	single := fhd>>5&1 == 1
	if fhd&0x08 != 0 {
		return 0, 0, "reserved frame header bit set"
	}
	if fcsFlag == 0 && !single {
		return 0, 0, "frame header has no content size"
	}
	p, fcsLen := zstdHeaderLen(fhd)
	if p+fcsLen > len(src) {
		return 0, 0, "truncated frame header"
	}
	for i := fcsLen - 1; i >= 0; i-- {
		size = size<<8 | uint64(src[p+i])
	}
	if fcsLen == 2 {
		size += 256
	}
	p += fcsLen
	for {
		if p+3 > len(src) {
			return 0, 0, "truncated block header"
		}
		bh := uint32(src[p]) | uint32(src[p+1])<<8 | uint32(src[p+2])<<16
		p += 3
		bsize := int(bh >> 3)
		switch bh >> 1 & 3 {
		case 1: // RLE: one byte on the wire
			bsize = 1
		case 3:
			return 0, 0, "reserved block type"
		}
		if bsize > len(src)-p {
			return 0, 0, "truncated block"
		}
		p += bsize
		if bh&1 == 1 {
			break
		}
	}
	if fhd&0x04 != 0 {
		p += 4
		if p > len(src) {
			return 0, 0, "truncated checksum"
		}
	}
	return size, p, ""
}

// appendRLEFrame appends the content of a frame (one zstdFrame has
// checked, declaring size bytes) made only of RLE blocks: the encoder
// writes a run of one byte (row_modes, fieldcounts: a byte a row, often
// all the same) as such a frame of a few bytes, and filling the runs
// spares the zstd decoder and its buffers. It reports false, leaving the
// frame to the decoder, for anything else: another block type, a content
// checksum (which the decoder verifies), a frame that is not
// single-segment, a block the format does not allow (empty, or over
// min(size, 128 KiB)), or blocks that do not add up to size.
func appendRLEFrame(dst, src []byte, size uint64) ([]byte, bool) {
	fhd := src[4]
	if fhd&0x04 != 0 || fhd>>5&1 == 0 || size == 0 {
		return dst, false
	}
	p, fcsLen := zstdHeaderLen(fhd)
	p += fcsLen
	maxBlock := min(size, 128<<10)
	start := len(dst)
	for {
		bh := uint32(src[p]) | uint32(src[p+1])<<8 | uint32(src[p+2])<<16
		n := uint64(bh >> 3)
		if bh>>1&3 != 1 || n == 0 || n > maxBlock || n > size-uint64(len(dst)-start) {
			return dst[:start], false
		}
		at := len(dst)
		dst = slices.Grow(dst, int(n))[:at+int(n)]
		dst[at] = src[p+3]
		for k := at + 1; k < len(dst); {
			k += copy(dst[k:], dst[at:k])
		}
		p += 4
		if bh&1 == 1 {
			break
		}
	}
	if uint64(len(dst)-start) != size {
		return dst[:start], false
	}
	return dst, true
}

// unzstdInto decodes the one zstd frame in src into buf's array when it
// is large enough.
func unzstdInto(buf, src []byte, limit int64, off int64, path string) ([]byte, error) {
	size, n, msg := zstdFrame(src)
	if msg != "" {
		return nil, errs.At(ErrCorrupt, off, path, "zstd: %s", msg)
	}
	if n != len(src) {
		return nil, errs.At(ErrCorrupt, off+int64(n), path, "zstd: %d bytes after the frame", len(src)-n)
	}
	if size > uint64(limit) {
		return nil, errs.TooLarge(ErrTooLarge, off, path, "zstd content size", size, limit)
	}
	if uint64(cap(buf)) < size {
		buf = hugepage.Make(int(size))
		defer hugepage.Done(buf)
	}
	// Capped at the declared size: klauspost's decoder takes another path
	// when the destination has room to spare, and on corrupt input that
	// path names another fault, so a reused scratch buffer would change
	// the error.
	buf = buf[:0:size]
	if out, ok := appendRLEFrame(buf, src, size); ok {
		return out, nil
	}
	dec := zstdDecoder()
	if size > zstdSharedMax {
		// See zstdSharedMax.
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxStreamLimit), zstd.WithDecoderMaxWindow(1<<31))
		if err != nil {
			return nil, errs.At(ErrCorrupt, off, path, "zstd: %v", err)
		}
		defer d.Close()
		dec = d
	}
	out, err := dec.DecodeAll(src, buf)
	if err != nil {
		return nil, errs.At(ErrCorrupt, off, path, "zstd: %v", err)
	}
	if uint64(len(out)) != size {
		return nil, errs.At(ErrCorrupt, off, path, "zstd: decoded %d bytes, frame declares %d", len(out), size)
	}
	return out, nil
}
