package xz

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"hash/crc64"
	"math"
	"sync"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
)

// DefaultMaxDecodedSize is the default output limit of one decode call
// (WithMaxDecodedSize).
const DefaultMaxDecodedSize = 1 << 30

// CheckSHA256 is the SHA-256 check (the decoder verifies it; the encoder
// does not write it).
const CheckSHA256 Check = 0x0A

// WithMaxDecodedSize limits the bytes one AppendDecode or
// AppendDecodeStream call appends (default DefaultMaxDecodedSize): a
// stream that decodes to more fails with ErrTooLarge before the output
// grows past it. The encoder ignores it.
func WithMaxDecodedSize(n int64) Option {
	return func(c *config) error {
		if n < 0 {
			return opt.Invalid(ErrInvalidOption, "WithMaxDecodedSize", n, "must not be negative")
		}
		c.maxDecoded = n
		return nil
	}
}

// WithProgress makes the decoder call f with the output so far (from the
// start of the call's own output, not dst's) after every LZMA2 chunk, so a
// consumer can work on the prefix while the rest is being decoded. The
// slices f sees stay valid and are not written again: when the output
// grows into a new array, the old one is left as it was.
func WithProgress(f func(out []byte)) Option {
	return func(c *config) error {
		c.progress = f
		return nil
	}
}

// Decode decodes src, one or more concatenated .xz streams with optional
// stream padding between and after them (as xz -d reads a file).
func Decode(src []byte, opts ...Option) ([]byte, error) {
	return AppendDecode(nil, src, opts...)
}

// AppendDecode appends the decoding of src, one or more concatenated .xz
// streams with optional stream padding (as xz -d reads a file), to dst.
// On error it returns dst unchanged (its spare capacity may have been
// written).
func AppendDecode(dst, src []byte, opts ...Option) ([]byte, error) {
	c, err := newDecodeConfig(opts)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	c.origin = start
	out := dst
	p := 0
	for first := true; ; first = false {
		if !first {
			// Stream padding: zeros in multiples of four bytes.
			q := p
			for q < len(src) && src[q] == 0 {
				q++
			}
			if (q-p)%4 != 0 {
				return dst, errs.At(ErrCorrupt, int64(q), "", "stream padding is not a multiple of four bytes")
			}
			p = q
			if p == len(src) {
				return out, nil
			}
		}
		var n int
		out, n, err = appendStream(out, src[p:], int64(p), c, c.maxDecoded-int64(len(out)-start))
		if err != nil {
			return dst, err
		}
		p += n
	}
}

// AppendDecodeStream appends the decoding of the first .xz stream in src
// to dst and returns the number of bytes of src that stream takes; bytes
// after it are not read. On error it returns dst unchanged.
func AppendDecodeStream(dst, src []byte, opts ...Option) ([]byte, int, error) {
	c, err := newDecodeConfig(opts)
	if err != nil {
		return dst, 0, err
	}
	c.origin = len(dst)
	out, n, err := appendStream(dst, src, 0, c, c.maxDecoded)
	if err != nil {
		return dst, 0, err
	}
	return out, n, nil
}

func newDecodeConfig(opts []Option) (*config, error) {
	c := &config{maxDecoded: DefaultMaxDecodedSize, concurrency: 1}
	if len(opts) == 0 {
		return c, nil
	}
	return c, opt.Apply(c, opts)
}

// decoders keeps LZMA models (about 30 KiB each) for reuse.
var decoders = sync.Pool{New: func() any { return new(lzmaDec) }}

// streamIndexSize reads the total uncompressed size from the index of a
// stream that ends exactly at the end of src (footer last). It is only a
// capacity hint: the index is verified after decoding.
func streamIndexSize(src []byte) (uint64, bool) {
	if len(src) < 2*streamHeaderLen+8 || !bytes.Equal(src[len(src)-2:], footerMagic) {
		return 0, false
	}
	foot := src[len(src)-streamHeaderLen:]
	isize := (uint64(binary.LittleEndian.Uint32(foot[4:8])) + 1) * 4
	if isize > uint64(len(src)-2*streamHeaderLen) {
		return 0, false
	}
	idx := src[len(src)-streamHeaderLen-int(isize) : len(src)-streamHeaderLen]
	if idx[0] != 0 {
		return 0, false
	}
	p := 1
	n, ok := readVarint(idx, &p)
	if !ok || n > uint64(len(idx)) {
		return 0, false
	}
	var total uint64
	for i := uint64(0); i < n; i++ {
		if _, ok := readVarint(idx, &p); !ok {
			return 0, false
		}
		u, ok := readVarint(idx, &p)
		if !ok || total+u < total {
			return 0, false
		}
		total += u
	}
	return total, true
}

// readVarint reads an .xz multibyte integer (at most 9 bytes, no
// redundant trailing zero byte) at *p.
func readVarint(b []byte, p *int) (uint64, bool) {
	var v uint64
	for i := 0; i < 9; i++ {
		if *p >= len(b) {
			return 0, false
		}
		c := b[*p]
		*p++
		v |= uint64(c&0x7F) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 {
				return 0, false
			}
			return v, true
		}
	}
	return 0, false
}

func checkSize(id byte) int {
	switch {
	case id == 0:
		return 0
	case id <= 15:
		return 4 << ((id - 1) / 3)
	}
	return -1
}

// grow makes room for n more bytes in out, within budget bytes past base
// (the length out had when the stream started).
func grow(out []byte, n int, base int, budget int64) ([]byte, bool) {
	if int64(len(out)-base)+int64(n) > budget {
		return out, false
	}
	if cap(out)-len(out) >= n {
		return out, true
	}
	c := max(2*int64(cap(out)), int64(len(out))+int64(n))
	// No overflow: budget may be up to MaxInt64, int 32 bits wide.
	c = min(c, int64(base)+min(budget, math.MaxInt-int64(base)))
	if c < int64(len(out))+int64(n) {
		return out, false
	}
	nb := make([]byte, len(out), int(c))
	copy(nb, out)
	return nb, true
}

// appendStream decodes the .xz stream at the start of src (at offset
// base in the input, for errors) and appends its output to out, at most
// budget bytes. It returns the stream's length in src.
func appendStream(out, src []byte, base int64, c *config, budget int64) ([]byte, int, error) {
	corrupt := func(at int, format string, args ...any) error {
		return errs.At(ErrCorrupt, base+int64(at), "", format, args...)
	}
	if len(src) < streamHeaderLen || !bytes.Equal(src[:6], headerMagic) {
		return out, 0, corrupt(0, "missing stream header")
	}
	flags := src[6:8]
	if crc32.ChecksumIEEE(flags) != binary.LittleEndian.Uint32(src[8:12]) {
		return out, 0, corrupt(8, "stream header CRC32 mismatch")
	}
	if flags[0] != 0 || flags[1] > 0x0F {
		return out, 0, errs.At(ErrUnsupported, base+6, "", "unknown stream flags %#02x %#02x", flags[0], flags[1])
	}
	check := Check(flags[1])
	csize := checkSize(byte(check))
	switch check {
	case CheckNone, CheckCRC32, CheckCRC64, CheckSHA256:
	default:
		return out, 0, errs.At(ErrUnsupported, base+7, "", "check type %d", check)
	}
	if c.concurrency > 1 {
		o, n, tried, ok := appendStreamParallel(out, src, base, c, budget, check)
		if ok {
			return o, n, nil
		}
		out = o // the serial path reuses the reserved output
		if tried && c.progress != nil {
			// The serial path decodes again only to find the error: the
			// prefix was reported already.
			cc := *c
			cc.progress = nil
			c = &cc
		}
	}
	// Reserve the whole output up front when the index says how large it
	// is (and the claim is plausible for the input's size: a hostile
	// index cannot make us allocate far more than the data delivers).
	start := len(out)
	if n, ok := streamIndexSize(src); ok && int64(n) >= 0 && int64(n) <= budget &&
		n <= uint64(len(src))*1024+1<<20 && n <= uint64(math.MaxInt-len(out)) && uint64(cap(out)-len(out)) < n {
		nb := make([]byte, len(out), len(out)+int(n))
		copy(nb, out)
		out = nb
	}
	d := decoders.Get().(*lzmaDec)
	defer decoders.Put(d)
	type record struct{ unpadded, uncompressed uint64 }
	var recs []record
	p := streamHeaderLen
	for {
		if p >= len(src) {
			return out, 0, corrupt(p, "truncated stream")
		}
		if src[p] == 0 {
			break // the index
		}
		bh, err := parseBlockHeader(src, p, base)
		if err != nil {
			return out, 0, err
		}
		hsize, declComp, declUncomp, dict := bh.size, bh.comp, bh.uncomp, bh.dict
		p += hsize
		// LZMA2 data.
		bstart := len(out)
		var n int
		out, n, err = d.decodeLZMA2(out, src[p:], dict, start, budget, base+int64(p), c)
		if err != nil {
			return out[:start], 0, err
		}
		usize := len(out) - bstart
		if declComp >= 0 && declComp != int64(n) {
			return out[:start], 0, corrupt(p, "block holds %d compressed bytes, its header says %d", n, declComp)
		}
		if declUncomp >= 0 && declUncomp != int64(usize) {
			return out[:start], 0, corrupt(p, "block decodes to %d bytes, its header says %d", usize, declUncomp)
		}
		p += n
		for pad := (hsize + n) % 4; pad != 0 && pad < 4; pad++ {
			if p >= len(src) || src[p] != 0 {
				return out[:start], 0, corrupt(p, "bad block padding")
			}
			p++
		}
		if csize > len(src)-p {
			return out[:start], 0, corrupt(p, "truncated block check")
		}
		if !verify(check, out[bstart:], src[p:p+csize]) {
			return out[:start], 0, errs.At(ErrCorrupt, base+int64(p), "", "block check (%s) mismatch", checkName(check))
		}
		p += csize
		recs = append(recs, record{uint64(hsize + n + csize), uint64(usize)})
	}
	// Index: indicator, record count, records, padding, CRC32.
	istart := p
	q := p + 1
	nrec, ok := readVarint(src, &q)
	if !ok || nrec != uint64(len(recs)) {
		return out[:start], 0, corrupt(q, "index lists %d blocks, the stream has %d", nrec, len(recs))
	}
	for _, r := range recs {
		up, ok1 := readVarint(src, &q)
		un, ok2 := readVarint(src, &q)
		if !ok1 || !ok2 || up != r.unpadded || un != r.uncompressed {
			return out[:start], 0, corrupt(q, "index does not match the blocks")
		}
	}
	for (q-istart)%4 != 0 {
		if q >= len(src) || src[q] != 0 {
			return out[:start], 0, corrupt(q, "bad index padding")
		}
		q++
	}
	if q+4 > len(src) || crc32.ChecksumIEEE(src[istart:q]) != binary.LittleEndian.Uint32(src[q:]) {
		return out[:start], 0, corrupt(q, "index CRC32 mismatch")
	}
	q += 4
	isize := q - istart
	// Footer: CRC32, backward size, flags, magic.
	if q+streamHeaderLen > len(src) {
		return out[:start], 0, corrupt(q, "truncated stream footer")
	}
	f := src[q : q+streamHeaderLen]
	if crc32.ChecksumIEEE(f[4:10]) != binary.LittleEndian.Uint32(f[:4]) {
		return out[:start], 0, corrupt(q, "stream footer CRC32 mismatch")
	}
	if (uint64(binary.LittleEndian.Uint32(f[4:8]))+1)*4 != uint64(isize) {
		return out[:start], 0, corrupt(q+4, "stream footer backward size does not match the index")
	}
	if f[8] != flags[0] || f[9] != flags[1] {
		return out[:start], 0, corrupt(q+8, "stream footer flags differ from the header")
	}
	if !bytes.Equal(f[10:], footerMagic) {
		return out[:start], 0, corrupt(q+10, "missing stream footer magic")
	}
	return out, q + streamHeaderLen, nil
}

// blockHeader is a parsed block header.
type blockHeader struct {
	size         int   // the header's length in bytes
	comp, uncomp int64 // the sizes it declares, -1 when absent
	dict         uint32
}

// parseBlockHeader reads the block header at src[p] (src[p] != 0), the
// stream starting at offset base in the input (for errors).
func parseBlockHeader(src []byte, p int, base int64) (blockHeader, error) {
	corrupt := func(at int, format string, args ...any) error {
		return errs.At(ErrCorrupt, base+int64(at), "", format, args...)
	}
	hsize := (int(src[p]) + 1) * 4
	if hsize > len(src)-p {
		return blockHeader{}, corrupt(p, "truncated block header")
	}
	h := src[p : p+hsize]
	if crc32.ChecksumIEEE(h[:hsize-4]) != binary.LittleEndian.Uint32(h[hsize-4:]) {
		return blockHeader{}, corrupt(p, "block header CRC32 mismatch")
	}
	h = h[:hsize-4]
	bf := h[1]
	if bf&0x3C != 0 {
		return blockHeader{}, errs.At(ErrUnsupported, base+int64(p+1), "", "reserved block flags %#02x", bf)
	}
	q := 2
	declComp, declUncomp := int64(-1), int64(-1)
	if bf&0x40 != 0 {
		v, ok := readVarint(h, &q)
		if !ok || v == 0 || v > 1<<62 {
			return blockHeader{}, corrupt(p+q, "bad compressed size in block header")
		}
		declComp = int64(v)
	}
	if bf&0x80 != 0 {
		v, ok := readVarint(h, &q)
		if !ok || v > 1<<62 {
			return blockHeader{}, corrupt(p+q, "bad uncompressed size in block header")
		}
		declUncomp = int64(v)
	}
	if bf&3 != 0 {
		return blockHeader{}, errs.At(ErrUnsupported, base+int64(p+1), "", "filter chain of %d filters (only a lone LZMA2 is supported; BCJ and delta are not)", bf&3+1)
	}
	id, ok1 := readVarint(h, &q)
	psize, ok2 := readVarint(h, &q)
	if !ok1 || !ok2 {
		return blockHeader{}, corrupt(p+q, "bad filter flags")
	}
	if id != filterLZMA2 {
		return blockHeader{}, errs.At(ErrUnsupported, base+int64(p+q), "", "filter %#x (only LZMA2 is supported)", id)
	}
	if psize != 1 || q >= len(h) {
		return blockHeader{}, corrupt(p+q, "bad LZMA2 filter properties")
	}
	dprops := h[q]
	q++
	if dprops > 40 {
		return blockHeader{}, corrupt(p+q-1, "bad LZMA2 dictionary size")
	}
	dict := uint32(0xFFFFFFFF)
	if dprops < 40 {
		dict = uint32(2|dprops&1) << (dprops/2 + 11)
	}
	for ; q < len(h); q++ {
		if h[q] != 0 {
			return blockHeader{}, errs.At(ErrUnsupported, base+int64(p+q), "", "nonzero block header padding")
		}
	}
	return blockHeader{hsize, declComp, declUncomp, dict}, nil
}

func checkName(c Check) string {
	switch c {
	case CheckCRC32:
		return "CRC32"
	case CheckCRC64:
		return "CRC64"
	case CheckSHA256:
		return "SHA-256"
	}
	return "none"
}

// verify compares the check of data with want.
func verify(c Check, data, want []byte) bool {
	switch c {
	case CheckCRC32:
		return crc32.ChecksumIEEE(data) == binary.LittleEndian.Uint32(want)
	case CheckCRC64:
		return crc64.Checksum(data, crc64Tab()) == binary.LittleEndian.Uint64(want)
	case CheckSHA256:
		h := sha256.Sum256(data)
		return bytes.Equal(h[:], want)
	}
	return true
}

// decodeLZMA2 decodes the LZMA2 data at the start of src (at offset base
// in the input) with dictionary size dict, appending to out (at most
// budget bytes past start), and returns the number of bytes it takes
// (through the end marker).
func (d *lzmaDec) decodeLZMA2(out, src []byte, dict uint32, start int, budget int64, base int64, c *config) ([]byte, int, error) {
	corrupt := func(at int, format string, args ...any) error {
		return errs.At(ErrCorrupt, base+int64(at), "", format, args...)
	}
	tooLarge := func(at int) error {
		return errs.At(ErrTooLarge, base+int64(at), "", "decoded size exceeds the limit of %d bytes", budget)
	}
	dictStart := len(out)
	needDictReset, needProps := true, true
	p := 0
	for {
		if p >= len(src) {
			return out, 0, corrupt(p, "truncated LZMA2 data")
		}
		ctrl := src[p]
		if ctrl == 0 {
			return out, p + 1, nil
		}
		if ctrl >= 0xE0 || ctrl == 1 {
			needProps, needDictReset = true, false
			dictStart = len(out)
		} else if needDictReset {
			return out, 0, corrupt(p, "LZMA2 data does not start with a dictionary reset")
		}
		if ctrl < 0x80 {
			if ctrl > 2 {
				return out, 0, corrupt(p, "bad LZMA2 control byte %#02x", ctrl)
			}
			if len(src)-p < 3 {
				return out, 0, corrupt(p, "truncated LZMA2 chunk header")
			}
			n := int(src[p+1])<<8 | int(src[p+2]) + 1
			p += 3
			if n > len(src)-p {
				return out, 0, corrupt(p, "truncated LZMA2 stored chunk")
			}
			var ok bool
			if out, ok = grow(out, n, start, budget); !ok {
				return out, 0, tooLarge(p)
			}
			out = append(out, src[p:p+n]...)
			p += n
			if c.progress != nil {
				c.progress(out[c.origin:])
			}
			continue
		}
		if len(src)-p < 5 {
			return out, 0, corrupt(p, "truncated LZMA2 chunk header")
		}
		usize := int(ctrl&0x1F)<<16 | int(src[p+1])<<8 | int(src[p+2]) + 1
		csize := int(src[p+3])<<8 | int(src[p+4]) + 1
		hp := p
		p += 5
		switch {
		case ctrl >= 0xC0:
			if p >= len(src) || !d.setProps(src[p]) {
				return out, 0, corrupt(p, "bad LZMA properties")
			}
			p++
			needProps = false
			d.reset()
		case needProps:
			return out, 0, corrupt(hp, "LZMA2 chunk without properties after a dictionary reset")
		case ctrl >= 0xA0:
			d.reset()
		}
		if csize > len(src)-p {
			return out, 0, corrupt(p, "truncated LZMA2 chunk")
		}
		var ok bool
		if out, ok = grow(out, usize, start, budget); !ok {
			return out, 0, tooLarge(hp)
		}
		in := src[p:]
		if len(in) < csize+chunkPad {
			d.pad = append(d.pad[:0], src[p:p+csize]...)
			d.pad = append(d.pad, make([]byte, chunkPad)...)
			in = d.pad
		}
		pos := len(out)
		res, at := d.decodeChunk(out[:cap(out)], pos, pos+usize, dictStart, in, csize, dict)
		switch res {
		case chunkTrunc:
			return out, 0, corrupt(p, "LZMA chunk data ends early")
		case chunkDistance:
			return out, 0, corrupt(p, "LZMA match distance beyond the dictionary (output position %d)", at-start)
		case chunkOverrun:
			return out, 0, corrupt(p, "LZMA match runs past the chunk end")
		case chunkInit:
			return out, 0, corrupt(p, "LZMA chunk's first range coder byte is not 0")
		case chunkTail:
			return out, 0, corrupt(p, "LZMA chunk does not end where its header says")
		}
		out = out[:pos+usize]
		p += csize
		if c.progress != nil {
			c.progress(out[c.origin:])
		}
	}
}
