package lance

// Mini-block pages (notes §6): chunks of at most 4,096 visible values
// (powers of two except the last), each with its slice of the levels and
// values; a u16 (2.1) or u32 (2.2) metadata word per chunk; and for list
// columns a repetition index of (rows ending in the chunk, entries left
// over) per chunk.

import (
	"bytes"
	"encoding/binary"
	"errors"

	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/colfmt/colfmt/lance/internal/enc21pb"
	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// errTooDense: levels too many for mini-block chunks (e.g. thousands of
// empty lists between two values); the page goes full-zip instead.
var errTooDense = errors.New("lance: levels too dense for mini-block")

func columnEncodingValues() *encpb.ColumnEncoding {
	return &encpb.ColumnEncoding{ColumnEncoding: &encpb.ColumnEncoding_Values{Values: &emptypb.Empty{}}}
}

// miniChunk is one chunk's level range and value range.
type miniChunk struct {
	v0, n  int // visible values [v0, v0+n)
	e0, e1 int // entries [e0, e1)
}

// errNeedSmallChunks: a bit-packed page whose levels need chunks under
// 1,024 values; it is written without bit-packing.
var errNeedSmallChunks = errors.New("lance: bit-packed page needs small chunks")

func (c *leaf21) miniBlock(nw narrowed) (*page21, error) {
	pg, err := c.dictPage(nw)
	if err != nil && err != errNeedSmallChunks {
		return nil, err
	}
	if pg != nil {
		if c.rlePays() {
			// Long runs of few values: RLE when it beats the dictionary.
			if rpg, err := c.rlePage(nw); err != nil {
				return nil, err
			} else if rpg != nil && pageBytes(rpg) < pageBytes(pg) {
				return rpg, nil
			}
		}
		return pg, nil
	}
	return c.withFsst(func() (*page21, error) { return c.miniBlockBest(nw) })
}

// rlePage is the run-length-encoded mini-block page; nil when its levels
// are too dense for mini-block chunks.
func (c *leaf21) rlePage(nw narrowed) (*page21, error) {
	c.rle = true
	pg, err := c.miniBlockWith(nw, false)
	c.rle = false
	if err == errTooDense {
		return nil, nil
	}
	return pg, err
}

// miniBlockBest is the mini-block page with or without bit-packing and
// general compression, whichever applies and is smaller.
func (c *leaf21) miniBlockBest(nw narrowed) (*page21, error) {
	if c.rlePays() {
		if pg, err := c.rlePage(nw); pg != nil || err != nil {
			return pg, err
		}
	}
	bitpack := c.bitpackPays()
	pg, err := c.miniBlockWith(nw, bitpack)
	if err == errNeedSmallChunks {
		bitpack = false
		pg, err = c.miniBlockWith(nw, false)
	}
	if err != nil || c.w.cfg.write.compression == "" {
		return pg, err
	}
	// WithCompression: the general-compressed page, when it is smaller.
	c.general = true
	zpg, zerr := c.miniBlockWith(nw, bitpack)
	if zerr == nil && pageBytes(zpg) < pageBytes(pg) {
		pg = zpg
	}
	if c.float {
		// Floats: byte-stream-split under the general compression, as
		// lance 12 writes them when compression is asked for.
		c.bss = true
		bpg, berr := c.miniBlockWith(nw, false)
		c.bss = false
		if berr == nil && pageBytes(bpg) < pageBytes(pg) {
			pg = bpg
		}
	}
	c.general = false
	return pg, nil
}

// bssChunk splits the n w-byte values of b into w streams of n bytes:
// byte j of value i goes to j*n+i (lance's byte_stream_split).
func bssChunk(b []byte, w, n int) []byte {
	out := make([]byte, w*n)
	for i := 0; i < n; i++ {
		for j := 0; j < w; j++ {
			out[j*n+i] = b[i*w+j]
		}
	}
	return out
}

func pageBytes(pg *page21) int {
	n := 0
	for _, b := range pg.bufs {
		n += len(b)
	}
	return n
}

// bitpackPays: integer-like values whose FastLanes chunks (with the
// metadata word and header of each 1,024-value chunk) come out smaller
// than their flat size, as lance 12 chooses (it bit-packs random 31-bit
// values too).
func (c *leaf21) bitpackPays() bool {
	if c.kind != vFixed {
		return false
	}
	switch c.width {
	case 1, 2, 4, 8:
	default:
		return false
	}
	n := c.pg.nVis
	return c.bitpackedBytes()+12*((n+1023)/1024) < n*c.width
}

// bitpackedBytes is the size of the page's fixed-width values in FastLanes
// chunks of 1,024 (a width word each).
func (c *leaf21) bitpackedBytes() int {
	p := &c.pg
	t := 8 * c.width
	packed := 0
	for v := 0; v < p.nVis; v += 1024 {
		n := min(1024, p.nVis-v)
		packed += c.width + 128*orWidth(p.fixed[v*c.width:], n, t)
	}
	return packed
}

// rlePays: fixed-width values whose runs (of at most 255, u8 lengths)
// take less room, run values and lengths, than the bit-packed or flat
// values, as lance 12 weighs RLE (it run-length encodes 64-bit values of
// six distinct values, runs of 1.2 values on average).
func (c *leaf21) rlePays() bool {
	if c.kind != vFixed {
		return false
	}
	switch c.width {
	case 1, 2, 4, 8:
	default:
		return false
	}
	p := &c.pg
	w := c.width
	runs := rleRuns(p.fixed[:p.nVis*w], w, miniMaxValues)
	other := p.nVis * w
	if c.bitpackPays() {
		other = c.bitpackedBytes()
	}
	return runs*(w+1)+8*(p.nVis/miniMaxValues+1) < other
}

// rleRuns counts the runs of the w-byte values of b, runs cut at 255
// values and at every chunk of chunk values.
func rleRuns(b []byte, w, chunk int) int {
	n := len(b) / w
	runs := 0
	for v := 0; v < n; {
		end := min(n, (v/chunk+1)*chunk)
		k := 1
		for v+k < end && k < 255 && bytes.Equal(b[(v+k)*w:(v+k+1)*w], b[v*w:(v+1)*w]) {
			k++
		}
		runs++
		v += k
	}
	return runs
}

// rleChunk run-length encodes the n w-byte values of b: the run values
// and their u8 lengths, lance's mini-block RLE buffers.
func rleChunk(b []byte, w, n int) (vals, lens []byte) {
	for v := 0; v < n; {
		k := 1
		for v+k < n && k < 255 && bytes.Equal(b[(v+k)*w:(v+k+1)*w], b[v*w:(v+1)*w]) {
			k++
		}
		vals = append(vals, b[v*w:(v+1)*w]...)
		lens = append(lens, byte(k))
		v += k
	}
	return vals, lens
}

func (c *leaf21) miniBlockWith(nw narrowed, bitpack bool) (*page21, error) {
	p := &c.pg
	v22 := c.w.cfg.write.minor >= 2
	hasLevels := p.rep != nil || nw.def != nil
	var visEntry []int32
	if hasLevels && nw.def != nil {
		visEntry = make([]int32, 0, p.nVis)
		for k, d := range nw.def {
			if d <= nw.maxVisDef {
				visEntry = append(visEntry, int32(k))
			}
		}
	}
	entryOf := func(v int) int {
		if visEntry == nil {
			return v // no def levels: every entry is visible
		}
		return int(visEntry[v])
	}
	// Value encoding and the number of chunk buffers.
	var valEnc *enc21pb.CompressiveEncoding
	nbuf := 1
	switch c.kind {
	case vFixed:
		valEnc = ceFlat(uint64(8 * c.width))
		if c.rle {
			valEnc = &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_Rle{Rle: &enc21pb.Rle{
				Values: valEnc, RunLengths: ceFlat(8)}}}
			nbuf = 2
		}
		if c.bss {
			valEnc = &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_ByteStreamSplit{
				ByteStreamSplit: &enc21pb.ByteStreamSplit{Values: valEnc}}}
		}
		if bitpack {
			valEnc = &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_InlineBitpacking{
				InlineBitpacking: &enc21pb.InlineBitpacking{UncompressedBitsPerValue: uint64(8 * c.width)}}}
		}
	case vBool:
		valEnc = ceFlat(1)
	case vVar:
		valEnc = ceVariable(32)
		if c.fsst != nil {
			valEnc = c.ceFsst()
		}
		if p.offs64 != nil {
			return nil, errTooDense
		}
	case vFSL:
		valEnc = c.ceFSL(ceFlat(uint64(8 * c.itemW)))
		for _, n := range p.fslNull {
			if n {
				nbuf++
			}
		}
	}
	wRep, wDef := 0, 0
	if p.rep != nil {
		wRep = int(levelBits(uint64(c.maxRep)))
	}
	if nw.def != nil {
		wDef = int(levelBits(uint64(nw.maxDef)))
	}
	repRLE := v22 && p.rep != nil && levelRLEPays(p.rep, wRep)
	defRLE := v22 && nw.def != nil && levelRLEPays(nw.def, wDef)
	var meta, chunks, repIdx []byte
	var vbufs [][]byte
	var rb, db []byte
	for v0 := 0; v0 < p.nVis; {
		n := c.chunkValues(v0)
		if bitpack {
			n = 1024
		}
		if c.rle {
			n = miniMaxValues
		}
		if c.bss {
			n = 4096 / c.width // lance: 1,024 float32 or 512 float64 values
		}
		for {
			last := v0+n >= p.nVis
			cnt := n
			if last {
				cnt = p.nVis - v0
			}
			ch := miniChunk{v0: v0, n: cnt}
			if v0 > 0 {
				ch.e0 = entryOf(v0)
			}
			if last {
				ch.e1 = p.entries
			} else {
				ch.e1 = entryOf(v0 + cnt)
			}
			if hasLevels && ch.e1-ch.e0 > miniMaxLevels {
				if bitpack {
					return nil, errNeedSmallChunks
				}
				if n == 1 {
					return nil, errTooDense
				}
				n = halvePow2(n, p.nVis-v0)
				continue
			}
			if bitpack {
				vbufs = append(vbufs[:0], inlinePack(p.fixed[ch.v0*c.width:], ch.n, 8*c.width))
			} else if c.bss {
				vbufs = append(vbufs[:0], bssChunk(p.fixed[ch.v0*c.width:], c.width, ch.n))
			} else if c.rle {
				rv, rl := rleChunk(p.fixed[ch.v0*c.width:], c.width, ch.n)
				vbufs = append(vbufs[:0], rv, rl)
			} else {
				vbufs = c.chunkBuffers(vbufs[:0], ch)
			}
			if c.general {
				vbufs[0] = c.w.compressor().frame(vbufs[0])
			}
			rb, db = nil, nil
			if p.rep != nil {
				rb = levelBlockWith(p.rep[ch.e0:ch.e1], wRep, repRLE)
			}
			if nw.def != nil {
				db = levelBlockWith(nw.def[ch.e0:ch.e1], wDef, defRLE)
			}
			size := c.chunkHeaderLen(nw, len(vbufs), v22) + pad8len(len(rb)) + pad8len(len(db))
			for _, b := range vbufs {
				size += pad8len(len(b))
			}
			if size > miniMaxChunkBytes && n > 1 && !bitpack {
				n = halvePow2(n, p.nVis-v0)
				continue
			}
			if size > miniMaxChunkBytes && !v22 {
				return nil, errTooDense
			}
			chunks = c.appendChunk(chunks, ch, nw, rb, db, vbufs, v22)
			word := uint32((size/8-1)<<4) | uint32(log2(cnt))
			if last {
				word = uint32((size/8 - 1) << 4)
			}
			if v22 {
				meta = binary.LittleEndian.AppendUint32(meta, word)
			} else {
				meta = binary.LittleEndian.AppendUint16(meta, uint16(word))
			}
			if c.maxRep > 0 {
				repIdx = c.appendRepIndex(repIdx, ch, last)
			}
			v0 += cnt
			break
		}
	}
	if c.general {
		valEnc = c.w.compressor().ceGeneral(valEnc)
	}
	m := &enc21pb.MiniBlockLayout{ValueCompression: valEnc, Layers: nw.layers, NumBuffers: uint64(nbuf),
		NumItems: uint64(p.nVis), HasLargeChunk: v22}
	if p.rep != nil {
		m.RepCompression = ceLevelsWith(wRep, repRLE)
	}
	if nw.def != nil {
		m.DefCompression = ceLevelsWith(wDef, defRLE)
	}
	bufs := [][]byte{meta, chunks}
	if c.maxRep > 0 {
		m.RepetitionIndexDepth = 1
		bufs = append(bufs, repIdx)
	}
	return &page21{bufs: bufs, layout: &enc21pb.PageLayout{Layout: &enc21pb.PageLayout_MiniBlockLayout{MiniBlockLayout: m}}}, nil
}

// halvePow2 halves a chunk's value count n, keeping it a power of two
// smaller than the values that remain.
func halvePow2(n, remain int) int {
	n /= 2
	for n >= remain && n > 1 {
		n /= 2
	}
	return max(n, 1)
}

func log2(n int) int {
	l := 0
	for 1<<(l+1) <= n {
		l++
	}
	return l
}

// chunkValues is the first guess of a chunk's value count from v0: a
// power of two whose values fit the chunk budget.
func (c *leaf21) chunkValues(v0 int) int {
	p := &c.pg
	n := miniMaxValues
	switch c.kind {
	case vFixed, vFSL:
		for n > 1 && n*c.width > miniTargetBytes {
			n /= 2
		}
	case vVar:
		for n > 1 {
			end := min(v0+n, p.nVis)
			if c.varEnd(end-1)-c.varStart(v0)+4*(end-v0+1) <= miniVarTarget {
				break
			}
			n /= 2
		}
	}
	return n
}

func (c *leaf21) varStart(v int) int {
	if v == 0 {
		return 0
	}
	return int(c.pg.offs[v-1])
}

func (c *leaf21) varEnd(v int) int { return int(c.pg.offs[v]) }

// chunkBuffers appends the value buffers of a chunk to dst.
func (c *leaf21) chunkBuffers(dst [][]byte, ch miniChunk) [][]byte {
	p := &c.pg
	switch c.kind {
	case vFixed:
		return append(dst, p.fixed[ch.v0*c.width:(ch.v0+ch.n)*c.width])
	case vBool:
		return append(dst, extractBits(p.bits, ch.v0, ch.n))
	case vVar:
		s, e := c.varStart(ch.v0), c.varEnd(ch.v0+ch.n-1)
		base := 4 * (ch.n + 1)
		b := make([]byte, 0, base+e-s+3)
		for i := 0; i <= ch.n; i++ {
			o := base
			if i > 0 {
				o += c.varEnd(ch.v0+i-1) - s
			}
			b = binary.LittleEndian.AppendUint32(b, uint32(o))
		}
		b = append(b, p.data[s:e]...)
		for len(b)%4 != 0 {
			b = append(b, 0x48)
		}
		return append(dst, b)
	case vFSL:
		cum := 1
		for l, d := range c.dims {
			cum *= d
			if p.fslNull[l] {
				dst = append(dst, extractBits(p.fslValid[l], ch.v0*cum, ch.n*cum))
			}
		}
		return append(dst, p.fixed[ch.v0*c.width:(ch.v0+ch.n)*c.width])
	}
	return dst
}

// extractBits copies n bits from bit at of src into a new buffer.
func extractBits(src []byte, at, n int) []byte {
	if at%8 == 0 {
		return src[at/8 : (at+n+7)/8]
	}
	out := make([]byte, (n+7)/8)
	for i := 0; i < n; i++ {
		b := at + i
		if src[b/8]&(1<<(b%8)) != 0 {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

func pad8len(n int) int { return (n + 7) &^ 7 }

func (c *leaf21) chunkHeaderLen(nw narrowed, nbuf int, v22 bool) int {
	h := 2
	if c.pg.rep != nil {
		h += 2
	}
	if nw.def != nil {
		h += 2
	}
	if v22 {
		h += 4 * nbuf
	} else {
		h += 2 * nbuf
	}
	return pad8len(h)
}

func padTo8(b []byte, start int, pad byte) []byte {
	for (len(b)-start)%8 != 0 {
		b = append(b, pad)
	}
	return b
}

// ceLevels is the block encoding of levels: out-of-line bit-packing of
// u16 levels at w bits.
func ceLevels(w int) *enc21pb.CompressiveEncoding {
	return &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &enc21pb.OutOfLineBitpacking{UncompressedBitsPerValue: 16, Values: ceFlat(uint64(w))}}}
}

// levelRLEPays: (2.2) the page's levels in runs (of at most 255) take
// at most 80% of their w-bit packing, the chunk size words aside: lance
// 12 run-length encodes such levels (rle{flat{16}, flat{8}}).
func levelRLEPays(levels []uint16, w int) bool {
	runs := 0
	for i := 0; i < len(levels); {
		k := 1
		for i+k < len(levels) && k < 255 && levels[i+k] == levels[i] {
			k++
		}
		runs++
		i += k
	}
	chunks := len(levels)/miniMaxValues + 1
	return (3*runs+8*chunks)*10 <= (len(levels)*w/8)*8
}

// levelBlockWith is a chunk's levels as a block: RLE (u64 size of the run
// values, u16 run values, u8 run lengths) or bit-packed at w bits.
func levelBlockWith(levels []uint16, w int, rle bool) []byte {
	if !rle {
		return levelBlock(levels, w)
	}
	var vals, lens []byte
	for i := 0; i < len(levels); {
		k := 1
		for i+k < len(levels) && k < 255 && levels[i+k] == levels[i] {
			k++
		}
		vals = binary.LittleEndian.AppendUint16(vals, levels[i])
		lens = append(lens, byte(k))
		i += k
	}
	out := binary.LittleEndian.AppendUint64(make([]byte, 0, 8+len(vals)+len(lens)), uint64(len(vals)))
	return append(append(out, vals...), lens...)
}

// ceLevelsWith is the level encoding of levelBlockWith.
func ceLevelsWith(w int, rle bool) *enc21pb.CompressiveEncoding {
	if !rle {
		return ceLevels(w)
	}
	return &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_Rle{Rle: &enc21pb.Rle{
		Values: ceFlat(16), RunLengths: ceFlat(8)}}}
}

func (c *leaf21) appendChunk(out []byte, ch miniChunk, nw narrowed, rb, db []byte, vbufs [][]byte, v22 bool) []byte {
	start := len(out)
	nlev := 0
	if c.pg.rep != nil || nw.def != nil {
		nlev = ch.e1 - ch.e0
	}
	out = binary.LittleEndian.AppendUint16(out, uint16(nlev))
	if c.pg.rep != nil {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(rb)))
	}
	if nw.def != nil {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(db)))
	}
	for _, b := range vbufs {
		if v22 {
			out = binary.LittleEndian.AppendUint32(out, uint32(len(b)))
		} else {
			out = binary.LittleEndian.AppendUint16(out, uint16(len(b)))
		}
	}
	out = padTo8(out, start, 0xFE)
	if c.pg.rep != nil {
		out = append(out, rb...)
		out = padTo8(out, start, 0xFE)
	}
	if nw.def != nil {
		out = append(out, db...)
		out = padTo8(out, start, 0xFE)
	}
	for _, b := range vbufs {
		out = append(out, b...)
		out = padTo8(out, start, 0xFE)
	}
	return out
}

// appendRepIndex appends a chunk's repetition index entry: the rows that
// end in it (a row whose first entry opens the next chunk ends here; the
// last chunk ends its last row) and the entries of a row that continues
// into the next chunk.
func (c *leaf21) appendRepIndex(out []byte, ch miniChunk, last bool) []byte {
	rep := c.pg.rep
	top := c.maxRep
	ends, lastStart := 0, -1
	if rep[ch.e0] == top {
		lastStart = ch.e0
	}
	for k := ch.e0 + 1; k < ch.e1; k++ {
		if rep[k] == top {
			ends++
			lastStart = k
		}
	}
	leftover := 0
	switch {
	case last || rep[ch.e1] == top:
		ends++
	case lastStart < 0:
		leftover = ch.e1 - ch.e0
	default:
		leftover = ch.e1 - lastStart
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(ends))
	return binary.LittleEndian.AppendUint64(out, uint64(leftover))
}
