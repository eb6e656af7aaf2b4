package lance

// The compressive encodings of Lance 2.1/2.2 in their three contexts
// (notes §10): mini-block chunk buffers, blocks (levels, dictionaries,
// constant-page levels) and per-value (full-zip). Each decoder checks
// every size against the bytes it has before it allocates, and charges
// what it allocates to the read's budget.

import (
	"encoding/binary"
	"math/bits"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/enc21pb"
)

// vals are decoded values: fixed-width (bits per innermost item; 1 = an
// LSB-first bitmap), variable (offs into data) or a packed struct (kids).
// Fixed-size lists keep their dimensions, outer first, and one item
// validity bitmap per level (nil: all valid).
type vals struct {
	n     int
	bits  int
	data  []byte
	offs  []int64 // variable: n+1 offsets into data
	dims  []int
	valid [][]byte
	kids  []*vals
	null  bool // constant null: data is zero
}

func (v *vals) variable() bool { return v.offs != nil }

// items is the number of innermost items per value.
func (v *vals) items() int {
	k := 1
	for _, d := range v.dims {
		k *= d
	}
	return k
}

// dec is the per-read decoder: limits, the memory budget and the place
// for error messages.
type dec struct {
	f    *File
	mem  *memBudget
	path string
	off  int64
}

func (d *dec) corrupt(format string, args ...any) error {
	return errs.At(ErrCorrupt, d.off, d.path, format, args...)
}

// alloc returns n zeroed bytes after checking the buffer limit and
// charging the budget.
func (d *dec) alloc(n int64, what string) ([]byte, error) {
	if n < 0 || n > d.f.cfg.maxBuffer {
		return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, what, uint64(n), d.f.cfg.maxBuffer)
	}
	if err := d.mem.charge(n, d.path, what); err != nil {
		return nil, err
	}
	return make([]byte, n), nil
}

// allocSlack is alloc of n bytes (the limit applies to n) with slack
// bytes more for stores past the end.
func (d *dec) allocSlack(n, slack int64, what string) ([]byte, error) {
	if n < 0 || n > d.f.cfg.maxBuffer {
		return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, what, uint64(n), d.f.cfg.maxBuffer)
	}
	if err := d.mem.charge(n+slack, d.path, what); err != nil {
		return nil, err
	}
	return make([]byte, n+slack), nil
}

func (d *dec) allocOffs(n int64, what string) ([]int64, error) {
	if n < 0 || n > d.f.cfg.maxBuffer/8 {
		return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, what, uint64(n)*8, d.f.cfg.maxBuffer)
	}
	if err := d.mem.charge(8*n, d.path, what); err != nil {
		return nil, err
	}
	return make([]int64, n), nil
}

// fixedBytes is the size of n values of b bits (b = 1: a bitmap).
func fixedBytes(n int, b int) (int64, bool) {
	hi, lo := bits.Mul64(uint64(n), uint64(b))
	if hi != 0 || lo > 1<<62 {
		return 0, false
	}
	return int64((lo + 7) / 8), true
}

func (d *dec) need(buf []byte, n int, b int, what string) ([]byte, error) {
	sz, ok := fixedBytes(n, b)
	if !ok || sz > int64(len(buf)) {
		return nil, errs.At(ErrBufferSize, d.off, d.path, "%s: %d bytes hold fewer than %d values of %d bits", what, len(buf), n, b)
	}
	return buf[:sz], nil
}

func (d *dec) decompress(scheme enc21pb.CompressionScheme, src []byte) ([]byte, error) {
	name := "zstd"
	if scheme == enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 {
		name = "lz4"
	}
	if len(src) == 0 {
		return src, nil
	}
	// The framing's size prefix is checked against the limits inside
	// decompress; charge what it may produce.
	var want int64
	if name == "lz4" && len(src) >= 4 {
		want = int64(binary.LittleEndian.Uint32(src))
	} else if len(src) >= 8 {
		want = int64(min(binary.LittleEndian.Uint64(src), 1<<62))
	}
	if want > d.f.cfg.maxBuffer {
		return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, name+" uncompressed length", uint64(want), d.f.cfg.maxBuffer)
	}
	if err := d.mem.charge(want, d.path, name+" output"); err != nil {
		return nil, err
	}
	return d.f.decompress(name, src, d.off, d.path)
}

// ---- mini-block context ----

func (d *dec) mini(c *cnode, bufs [][]byte, n int) (*vals, error) {
	if len(bufs) == 0 && c.kind != kConstant {
		return nil, d.corrupt("%s without a chunk buffer", c)
	}
	switch c.kind {
	case kFlat:
		if c.bits != 1 && c.bits%8 != 0 {
			return nil, d.corrupt("flat of %d bits outside bit-packing", c.bits)
		}
		b, err := d.need(bufs[0], n, int(c.bits), "flat values")
		if err != nil {
			return nil, err
		}
		return &vals{n: n, bits: int(c.bits), data: b}, nil
	case kInlineBitpack:
		return d.inlineBitpacked(bufs[0], int(c.bits), n)
	case kVariable:
		return d.miniVariable(bufs[0], int(c.bits), n)
	case kFsst:
		in, err := d.mini(c.inner, bufs, n)
		if err != nil {
			return nil, err
		}
		return d.fsstDecode(c.fsst, in)
	case kFixedSizeList:
		return d.miniFSL(c, bufs, n)
	case kRle:
		if len(bufs) < 2 {
			return nil, d.corrupt("RLE chunk with %d buffers, want 2", len(bufs))
		}
		return d.rle(bufs[0], bufs[1], int(c.inner.bits), n)
	case kByteStreamSplit:
		return d.bss(bufs[0], int(c.inner.bits), n)
	case kGeneral:
		out, err := d.decompress(c.scheme, bufs[0])
		if err != nil {
			return nil, err
		}
		nb := append([][]byte{out}, bufs[1:]...)
		return d.mini(c.inner, nb, n)
	case kPackedStruct:
		in, err := d.mini(c.inner, bufs, n)
		if err != nil {
			return nil, err
		}
		return d.unpackStruct(in, c.widths)
	case kConstant:
		return d.constant(c, n)
	}
	return nil, errs.At(ErrUnsupported, d.off, d.path, "%s in a mini-block", c)
}

func (d *dec) inlineBitpacked(buf []byte, t, n int) (*vals, error) {
	out, err := d.alloc(int64(n)*int64(t/8), "bit-unpacked values")
	if err != nil {
		return nil, err
	}
	if err := d.inlineBitpackedInto(out, nil, buf, t, n); err != nil {
		return nil, err
	}
	return &vals{n: n, bits: t, data: out}, nil
}

// inlineBitpackedInto unpacks n t-bit values into out (n*t/8 bytes);
// chunk, when not nil, is 1024*t/8 bytes of scratch for a short tail.
func (d *dec) inlineBitpackedInto(out, chunk, buf []byte, t, n int) error {
	for done := 0; done < n; done += 1024 {
		if len(buf) < t/8 {
			return errs.At(ErrBufferSize, d.off, d.path, "bit-packed chunk without its width word")
		}
		w := readWord(buf, 0, t)
		if w > uint64(t) {
			return d.corrupt("bit-packed width %d for %d-bit values", w, t)
		}
		buf = buf[t/8:]
		pb := packedChunkBytes(int(w))
		if len(buf) < pb {
			return errs.At(ErrBufferSize, d.off, d.path, "bit-packed chunk of width %d needs %d bytes, has %d", w, pb, len(buf))
		}
		k := min(1024, n-done)
		if k == 1024 {
			unpackChunk(buf[:pb], t, int(w), out[done*t/8:])
		} else {
			if chunk == nil {
				chunk = make([]byte, 1024*t/8)
			}
			unpackChunk(buf[:pb], t, int(w), chunk)
			copy(out[done*t/8:], chunk[:k*t/8])
		}
		buf = buf[pb:]
	}
	return nil
}

// miniVariable reads n+1 offsets (relative to the buffer start) then the
// bytes.
func (d *dec) miniVariable(buf []byte, b, n int) (*vals, error) {
	if _, err := d.need(buf, n+1, b, "variable offsets"); err != nil {
		return nil, err
	}
	offs, err := d.allocOffs(int64(n)+1, "offsets")
	if err != nil {
		return nil, err
	}
	for i := range offs {
		var o uint64
		if b == 32 {
			o = uint64(binary.LittleEndian.Uint32(buf[4*i:]))
		} else {
			o = binary.LittleEndian.Uint64(buf[8*i:])
		}
		if o > uint64(len(buf)) || (i > 0 && int64(o) < offs[i-1]) {
			return nil, errs.At(ErrOffsets, d.off, d.path, "variable offset %d = %d (buffer of %d bytes, previous %d)", i, o, len(buf), offs[max(i-1, 0)])
		}
		offs[i] = int64(o)
	}
	return &vals{n: n, data: buf, offs: offs}, nil
}

func (d *dec) fsstDecode(t *fsstTable, in *vals) (*vals, error) {
	if !in.variable() {
		return nil, d.corrupt("FSST over fixed-width values")
	}
	// Size the output exactly (every code checked), then decode with one
	// 8-byte store per symbol into 8 bytes of slack.
	total := int64(0)
	for i := 0; i < in.n; i++ {
		l, err := t.decodedLen(in.data[in.offs[i]:in.offs[i+1]])
		if err != nil {
			return nil, errs.Locate(err, d.off, d.path)
		}
		total += int64(l)
		if total > d.f.cfg.maxBuffer {
			return nil, errs.TooLarge(ErrTooLarge, d.off, d.path, "FSST output", uint64(total), d.f.cfg.maxBuffer)
		}
	}
	out, err := d.allocSlack(total, 8, "FSST output")
	if err != nil {
		return nil, err
	}
	offs, err := d.allocOffs(int64(in.n)+1, "offsets")
	if err != nil {
		return nil, err
	}
	at := 0
	for i := 0; i < in.n; i++ {
		at = t.decodeInto(out, at, in.data[in.offs[i]:in.offs[i+1]])
		offs[i+1] = int64(at)
	}
	return &vals{n: in.n, data: out[:at:at], offs: offs}, nil
}

// fslShape walks nested fixed-size lists down to their flat items.
func fslShape(c *cnode) (dims []int, valid []bool, item *cnode) {
	for c.kind == kFixedSizeList {
		dims = append(dims, int(c.dim))
		valid = append(valid, c.valid)
		c = c.inner
	}
	return dims, valid, c
}

func (d *dec) miniFSL(c *cnode, bufs [][]byte, n int) (*vals, error) {
	dims, valid, item := fslShape(c)
	v := &vals{n: n, dims: dims, valid: make([][]byte, len(dims))}
	cnt := n
	bi := 0
	for k, dk := range dims {
		hi, lo := bits.Mul64(uint64(cnt), uint64(dk))
		if hi != 0 || lo > 1<<40 {
			return nil, errs.At(ErrTooLarge, d.off, d.path, "fixed-size list of %d x %d items", cnt, dk)
		}
		cnt = int(lo)
		if valid[k] {
			if bi >= len(bufs) {
				return nil, d.corrupt("fixed-size list without its validity buffer")
			}
			b, err := d.need(bufs[bi], cnt, 1, "fixed-size list validity")
			if err != nil {
				return nil, err
			}
			v.valid[k] = b
			bi++
		}
	}
	if bi >= len(bufs) {
		return nil, d.corrupt("fixed-size list without its data buffer")
	}
	b, err := d.need(bufs[bi], cnt, int(item.bits), "fixed-size list items")
	if err != nil {
		return nil, err
	}
	v.bits, v.data = int(item.bits), b
	return v, nil
}

func (d *dec) rle(values, runs []byte, b, n int) (*vals, error) {
	w := b / 8
	if len(values)/w < len(runs) {
		return nil, d.corrupt("RLE with %d run lengths but %d values", len(runs), len(values)/w)
	}
	out, err := d.alloc(int64(n)*int64(w), "RLE output")
	if err != nil {
		return nil, err
	}
	pos := 0
	for i := 0; i < len(runs) && pos < n; i++ {
		k := min(int(runs[i]), n-pos) // legacy writers overrun: clamp
		v := values[i*w : i*w+w]
		for j := 0; j < k; j++ {
			copy(out[(pos+j)*w:], v)
		}
		pos += k
	}
	if pos < n {
		return nil, d.corrupt("RLE runs cover %d of %d values", pos, n)
	}
	return &vals{n: n, bits: b, data: out}, nil
}

func (d *dec) bss(buf []byte, b, n int) (*vals, error) {
	w := b / 8
	src, err := d.need(buf, n, b, "byte-stream-split values")
	if err != nil {
		return nil, err
	}
	out, err := d.alloc(int64(len(src)), "byte-stream-split output")
	if err != nil {
		return nil, err
	}
	for j := 0; j < w; j++ {
		s := src[j*n : j*n+n]
		for i, x := range s {
			out[i*w+j] = x
		}
	}
	return &vals{n: n, bits: b, data: out}, nil
}

func (d *dec) unpackStruct(in *vals, widths []uint64) (*vals, error) {
	if in.variable() || in.dims != nil {
		return nil, d.corrupt("packed struct over non-flat values")
	}
	row := in.bits / 8
	v := &vals{n: in.n, kids: make([]*vals, len(widths))}
	pos := 0
	for k, wb := range widths {
		w := int(wb / 8)
		out, err := d.alloc(int64(in.n)*int64(w), "packed struct field")
		if err != nil {
			return nil, err
		}
		for i := 0; i < in.n; i++ {
			copy(out[i*w:i*w+w], in.data[i*row+pos:])
		}
		v.kids[k] = &vals{n: in.n, bits: int(wb), data: out}
		pos += w
	}
	return v, nil
}

func (d *dec) constant(c *cnode, n int) (*vals, error) {
	if !c.hasVal {
		return &vals{n: n, null: true}, nil
	}
	out, err := d.alloc(int64(n)*int64(len(c.value)), "constant values")
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		copy(out[i*len(c.value):], c.value)
	}
	return &vals{n: n, bits: 8 * len(c.value), data: out}, nil
}

// ---- block context ----

func (d *dec) block(c *cnode, buf []byte, n int) (*vals, error) {
	switch c.kind {
	case kFlat:
		if c.bits != 1 && c.bits%8 != 0 {
			return nil, d.corrupt("flat of %d bits outside bit-packing", c.bits)
		}
		b, err := d.need(buf, n, int(c.bits), "flat values")
		if err != nil {
			return nil, err
		}
		return &vals{n: n, bits: int(c.bits), data: b}, nil
	case kInlineBitpack:
		return d.inlineBitpacked(buf, int(c.bits), n)
	case kOutOfLineBitpack:
		return d.outOfLine(buf, int(c.bits), int(c.inner.bits), n)
	case kVariable:
		return d.blockVariable(buf, n)
	case kGeneral:
		out, err := d.decompress(c.scheme, buf)
		if err != nil {
			return nil, err
		}
		return d.block(c.inner, out, n)
	case kRle:
		if len(buf) < 8 {
			return nil, errs.At(ErrBufferSize, d.off, d.path, "RLE block of %d bytes without its size", len(buf))
		}
		vs := binary.LittleEndian.Uint64(buf)
		if vs > uint64(len(buf)-8) {
			return nil, errs.At(ErrBufferSize, d.off, d.path, "RLE block values of %d bytes in %d", vs, len(buf)-8)
		}
		return d.rle(buf[8:8+vs], buf[8+vs:], int(c.inner.bits), n)
	case kConstant:
		return d.constant(c, n)
	case kFixedSizeList:
		dims, valid, item := fslShape(c)
		for _, v := range valid {
			if v {
				return nil, errs.At(ErrUnsupported, d.off, d.path, "%s with validity as a block", c)
			}
		}
		v := &vals{n: n, dims: dims, valid: make([][]byte, len(dims)), bits: int(item.bits)}
		b, err := d.need(buf, n*v.items(), v.bits, "fixed-size list items")
		if err != nil {
			return nil, err
		}
		v.data = b
		return v, nil
	}
	return nil, errs.At(ErrUnsupported, d.off, d.path, "%s as a block", c)
}

// outOfLine reads n t-bit values packed at w bits in FastLanes chunks with
// no width words; the tail is either a padded chunk or raw values.
func (d *dec) outOfLine(buf []byte, t, w, n int) (*vals, error) {
	out, err := d.alloc(int64(n)*int64(t/8), "bit-unpacked values")
	if err != nil {
		return nil, err
	}
	if err := d.outOfLineInto(out, nil, buf, t, w, n); err != nil {
		return nil, err
	}
	return &vals{n: n, bits: t, data: out}, nil
}

// outOfLineInto unpacks into out (n*t/8 bytes); chunk, when not nil, is
// 1024*t/8 bytes of scratch for a padded tail.
func (d *dec) outOfLineInto(out, chunk, buf []byte, t, w, n int) error {
	pb := packedChunkBytes(w)
	whole, tail := n/1024, n%1024
	rawLen := int64(whole)*int64(pb) + int64(tail)*int64(t/8)
	padLen := int64(whole) * int64(pb)
	if tail > 0 {
		padLen += int64(pb)
	}
	raw := tail > 0 && int64(len(buf)) == rawLen
	if !raw && int64(len(buf)) < padLen {
		return errs.At(ErrBufferSize, d.off, d.path, "out-of-line bit-packed buffer of %d bytes holds fewer than %d values of %d bits", len(buf), n, w)
	}
	for i := 0; i < whole; i++ {
		unpackChunk(buf[i*pb:(i+1)*pb], t, w, out[i*1024*t/8:])
	}
	if tail > 0 {
		rest := buf[whole*pb:]
		if raw {
			copy(out[whole*1024*t/8:], rest[:tail*t/8])
		} else {
			if chunk == nil {
				chunk = make([]byte, 1024*t/8)
			}
			unpackChunk(rest[:pb], t, w, chunk)
			copy(out[whole*1024*t/8:], chunk[:tail*t/8])
		}
	}
	return nil
}

// blockVariable reads the block form: width (32 or 64), data start, n+1
// offsets, bytes.
func (d *dec) blockVariable(buf []byte, n int) (*vals, error) {
	if len(buf) < 8 {
		return nil, errs.At(ErrBufferSize, d.off, d.path, "variable block of %d bytes", len(buf))
	}
	b := int(binary.LittleEndian.Uint32(buf))
	var start uint64
	hdr := 8
	switch b {
	case 32:
		start = uint64(binary.LittleEndian.Uint32(buf[4:]))
	case 64:
		if len(buf) < 16 {
			return nil, errs.At(ErrBufferSize, d.off, d.path, "variable block of %d bytes", len(buf))
		}
		start = binary.LittleEndian.Uint64(buf[8:])
		hdr = 16
	default:
		return nil, errs.At(ErrUnsupported, d.off, d.path, "variable block with a %d-bit offset header", b)
	}
	ob, err := d.need(buf[hdr:], n+1, b, "variable offsets")
	if err != nil {
		return nil, err
	}
	if start != uint64(hdr+len(ob)) {
		return nil, d.corrupt("variable block data starts at %d, offsets end at %d", start, hdr+len(ob))
	}
	data := buf[start:]
	offs, err := d.allocOffs(int64(n)+1, "offsets")
	if err != nil {
		return nil, err
	}
	var base uint64
	for i := range offs {
		var o uint64
		if b == 32 {
			o = uint64(binary.LittleEndian.Uint32(ob[4*i:]))
		} else {
			o = binary.LittleEndian.Uint64(ob[8*i:])
		}
		if i == 0 {
			base = o
		}
		if o < base || o-base > uint64(len(data)) || (i > 0 && int64(o-base) < offs[i-1]) {
			return nil, errs.At(ErrOffsets, d.off, d.path, "variable block offset %d = %d (base %d, %d bytes)", i, o, base, len(data))
		}
		offs[i] = int64(o - base)
	}
	return &vals{n: n, data: data, offs: offs}, nil
}

// levels decodes a block of n u16 rep or def levels.
func (d *dec) levels(c *cnode, buf []byte, n int) ([]uint16, error) {
	if c == nil {
		return rawLevels(d, buf, n)
	}
	v, err := d.block(c, buf, n)
	if err != nil {
		return nil, err
	}
	if v.null || v.variable() || v.dims != nil || (v.bits != 8 && v.bits != 16 && v.bits != 32 && v.bits != 64) {
		return nil, d.corrupt("levels decoded as %d-bit values", v.bits)
	}
	if err := d.mem.charge(2*int64(n), d.path, "levels"); err != nil {
		return nil, err
	}
	out := make([]uint16, n)
	w := v.bits / 8
	for i := range out {
		x := readWord(v.data, i, v.bits)
		if x > 0xffff {
			return nil, d.corrupt("level %d = %d", i, x)
		}
		out[i] = uint16(x)
		_ = w
	}
	return out, nil
}

func rawLevels(d *dec, buf []byte, n int) ([]uint16, error) {
	b, err := d.need(buf, n, 16, "levels")
	if err != nil {
		return nil, err
	}
	if err := d.mem.charge(2*int64(n), d.path, "levels"); err != nil {
		return nil, err
	}
	out := make([]uint16, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out, nil
}
