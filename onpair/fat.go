package onpair

import (
	"fmt"
	"io"
	"math/bits"
	"sync"

	"github.com/colfmt/colfmt/internal/bitpack"
	"github.com/colfmt/colfmt/internal/errs"
)

// fatTable is a validated dictionary laid out for the fat-read loop: token
// c occupies rows[16c:16c+16] (its bytes, then whatever followed it in
// DictBytes) and lens[c] is its length. rows has mask+1 slots, a power of
// two >= n, and lens covers every uint16 with lens[c] = 0 for c >= n, so
// the kernels may index both with any code without a bounds check and
// detect an out-of-range code afterwards by its zero length.
type fatTable struct {
	n    int
	mask uint16
	rows []byte
	lens *[MaxTokens]uint8
	// plens is lens for the packed kernels, one entry per slot, with
	// badLen (not 0) for the codes >= n: one OR a code flags them. Built
	// only for the tables of packed decoders (minSlots > 1).
	plens []uint8
	mean  int // mean token length, rounded up: an output-size estimate
}

// badLen is a packed-kernel length (plens) of a code >= N: its top bit
// flags the code, and it moves the cursor within packedRoom.
const badLen = 0x80

// tablePool recycles the tables of the one-shot packed decoder
// (DecompressPacked), whose per-call cost would otherwise include
// allocating and zeroing 64 KiB of lengths.
var tablePool sync.Pool

// newFatTable validates p's dictionary and lays it out, O(N).
func newFatTable(p Parts) (*fatTable, error) {
	if err := p.ValidateDictionary(); err != nil {
		return nil, err
	}
	t := &fatTable{lens: new([MaxTokens]uint8)}
	t.fill(p, 1)
	return t, nil
}

// acquireTable is newFatTable for use within one call, with at least
// minSlots slots; the caller hands it back with tablePool.Put.
func acquireTable(p Parts, minSlots int) (*fatTable, error) {
	if err := p.ValidateDictionary(); err != nil {
		return nil, err
	}
	t, _ := tablePool.Get().(*fatTable)
	if t == nil {
		t = &fatTable{lens: new([MaxTokens]uint8)}
	}
	t.fill(p, minSlots)
	return t, nil
}

// fill lays out p's validated dictionary in t, reusing t's storage, with
// at least minSlots (a power of two <= 65536) slots: the packed decoders ask
// for one per code the width can express, so codes need no mask there.
func (t *fatTable) fill(p Parts, minSlots int) {
	n := p.NumTokens()
	if t.n > n {
		clear(t.lens[n:t.n]) // keep lens[c] == 0 for every c >= n
	}
	slots := max(1<<bits.Len(uint(max(n, 1)-1)), minSlots)
	// One slot more than the codes can name: code n (when n < 65536) has
	// length 0 and a readable row, so the row decoder pads short rows
	// with it instead of branching on their code count.
	size := (slots + 1) * MaxTokenSize
	if cap(t.rows) >= size {
		t.rows = t.rows[:size]
		clear(t.rows[n*MaxTokenSize:])
	} else {
		t.rows = make([]byte, size)
	}
	total := 0
	for i := 0; i < n; i++ {
		// ValidateDictionary proved o[i]+16 <= o[N-1]+16 <= len(DictBytes).
		o := int(p.DictOffsets[i])
		copy(t.rows[i*MaxTokenSize:(i+1)*MaxTokenSize], p.DictBytes[o:o+MaxTokenSize])
		l := uint8(p.DictOffsets[i+1] - p.DictOffsets[i])
		t.lens[i] = l
		total += int(l)
	}
	t.n, t.mask = n, uint16(slots-1)
	if minSlots > 1 {
		if cap(t.plens) >= slots {
			t.plens = t.plens[:slots]
		} else {
			t.plens = make([]uint8, slots)
		}
		copy(t.plens, t.lens[:n])
		for c := n; c < slots; c++ {
			t.plens[c] = badLen
		}
	} else {
		t.plens = t.plens[:0]
	}
	t.mean = 1
	if n > 0 {
		t.mean = (total + n - 1) / n
	}
}

// decodedLen sums the token lengths of codes and checks every code < n;
// base is codes[0]'s index in the column, for error messages.
//
// Tokens are 1..16 bytes and lens[c] is 0 exactly when c >= n, so a code
// is out of range iff lens[c]-1 wraps to 255: OR-ing those into bad keeps
// the check off the loop's critical path. Unrolled by four.
func (t *fatTable) decodedLen(codes []uint16, base int) (int, error) {
	lens := t.lens
	_ = lens[0] // one nil check, not one per code
	total := 0
	var bad uint8
	i := 0
	for ; i+4 <= len(codes); i += 4 {
		c := (*[4]uint16)(codes[i : i+4])
		l0, l1, l2, l3 := lens[c[0]], lens[c[1]], lens[c[2]], lens[c[3]]
		total += int(l0) + int(l1) + int(l2) + int(l3)
		bad |= (l0 - 1) | (l1 - 1) | (l2 - 1) | (l3 - 1)
	}
	for _, c := range codes[i:] {
		l := lens[c]
		total += int(l)
		bad |= l - 1
	}
	if bad >= 0x80 {
		return 0, checkCodes(codes, t.n, base)
	}
	return total, nil
}

// tail decodes codes[i:] into out[w:] exactly, with checks: a 16-byte copy
// while 16 bytes of out remain, the token's exact length after, so an
// exactly sized out is never overrun. It stops at the first code that does
// not fit and returns its index (len(codes) when all fit). Out-of-range
// codes decode as nothing and set bad's top bit.
func (t *fatTable) tail(out []byte, w int, codes []uint16, i int) (int, int, uint8) {
	rows, lens, mask := t.rows, t.lens, t.mask
	var bad uint8
	for ; i < len(codes); i++ {
		c := codes[i]
		l := int(lens[c])
		s := int(c&mask) << 4
		if w+MaxTokenSize <= len(out) {
			copy(out[w:w+MaxTokenSize], rows[s:s+MaxTokenSize])
		} else if w+l <= len(out) {
			copy(out[w:w+l], rows[s:s+l])
		} else {
			break
		}
		bad |= uint8(l) - 1
		w += l
	}
	return w, i, bad
}

// decode decodes codes into out as far as out allows: the vector check
// pass and the unchecked kernel where there is one (decodeSIMD), the fused
// check otherwise (decodeFused). It returns the bytes written, the codes
// consumed and the bad flag (top bit set: some code was >= n).
func (t *fatTable) decode(out []byte, codes []uint16) (int, int, uint8) {
	if maxCodeFunc != nil {
		return t.decodeSIMD(out, codes, maxCodeFunc)
	}
	return t.decodeFused(out, codes)
}

// decodeFused is decode with the check fused into the block kernel
// (gatherFat), then the exact tail.
func (t *fatTable) decodeFused(out []byte, codes []uint16) (int, int, uint8) {
	w, i, b1 := t.gatherFat(out, 0, codes, 0)
	w, i, b2 := t.tail(out, w, codes, i)
	return w, i, b1 | b2
}

// checkChunk is how many codes decodeSIMD checks before decoding them:
// 4096 codes (8 KiB) are still in L1 when the decode loop reads them.
var checkChunk = 4096

// decodeSIMD is decode with a vector check pass (maxCode, amd64): each
// chunk of codes is checked by its maximum, then decoded by the unchecked
// kernel (gatherValid, AppendAll's), then the exact tail. A chunk holding
// a code >= n stops the decode with bad's top bit set; the caller then
// locates the code.
func (t *fatTable) decodeSIMD(out []byte, codes []uint16, maxCode func([]uint16) uint16) (int, int, uint8) {
	w, i := 0, 0
	if t.n >= MaxTokens { // every uint16 names a token
		w, i = t.gatherValid(out, 0, codes, 0)
	} else {
		for c := 0; c < len(codes); {
			e := min(c+checkChunk, len(codes))
			if int(maxCode(codes[c:e])) >= t.n {
				return w, i, 0x80
			}
			c = e
			var j int
			w, j = t.gatherValid(out, w, codes[:c], i)
			if j == i && c-i >= 16 {
				break // out has no room for a whole block: the tail finishes
			}
			i = j
		}
	}
	// The codes past the last whole block are checked by tail itself.
	w, i, bad := t.tail(out, w, codes, i)
	return w, i, bad
}

// appendValid appends the decoding of codes, which the caller has
// validated and whose decoded length is n, to dst.
func (t *fatTable) appendValid(dst []byte, codes []uint16, n int) []byte {
	l := len(dst)
	dst = grow(dst, n+MaxTokenSize-1)
	out := dst[l:cap(dst)]
	w, i := t.gatherValid(out, 0, codes, 0)
	w, _, _ = t.tail(out, w, codes, i)
	return dst[:l+w]
}

// posTail is gatherPos' exact tail: it decodes validated codes[i:] into
// out[w:], 16 bytes at a time while 16 bytes of out remain, recording each
// token's start relative to w0 in pos, and pos[len(codes)] the end.
func (t *fatTable) posTail(out []byte, w, w0 int, codes []uint16, i int, pos []uint32) int {
	rows, lens := t.rows, t.lens
	pos = pos[:len(codes)+1]
	for ; i < len(codes); i++ {
		pos[i] = uint32(w - w0)
		c := codes[i]
		l, s := int(lens[c]), int(c)<<4
		if w+MaxTokenSize <= len(out) {
			copy(out[w:w+MaxTokenSize], rows[s:s+MaxTokenSize])
		} else {
			copy(out[w:w+l], rows[s:s+l])
		}
		w += l
	}
	pos[len(codes)] = uint32(w - w0)
	return w
}

// packedTail is tail for packed codes: each code read exactly
// (bitpack.Get reads only the bytes that hold it).
func (t *fatTable) packedTail(out []byte, w int, packed []byte, width uint, m, i int) (int, int, uint8) {
	rows, lens, mask := t.rows, t.lens, t.mask
	var bad uint8
	for ; i < m; i++ {
		c := uint16(bitpack.Get(packed, width, i))
		l := int(lens[c])
		s := int(c&mask) << 4
		if w+MaxTokenSize <= len(out) {
			copy(out[w:w+MaxTokenSize], rows[s:s+MaxTokenSize])
		} else if w+l <= len(out) {
			copy(out[w:w+l], rows[s:s+l])
		} else {
			break
		}
		bad |= uint8(l) - 1
		w += l
	}
	return w, i, bad
}

// appendPacked appends the decoding of m codes packed at width bits
// (checked: 8..16, packed long enough, n <= 2^width). The output size is
// not known in advance, so dst grows by an estimate (the mean token length
// at first, then the bytes per code seen so far) and the fused kernel
// decodes as far as the room goes.
func (t *fatTable) appendPacked(dst []byte, packed []byte, width uint, m int) ([]byte, error) {
	var bad uint8
	i, start := 0, len(dst)
	for i < m {
		perCode := t.mean
		if i > 0 {
			perCode = (len(dst)-start+i-1)/i + 1
		}
		dst = grow(dst, min((m-i)*perCode, (m-i)*MaxTokenSize)+packedRoom)
		l := len(dst)
		w, j, b := t.gatherFatPacked(dst[l:cap(dst)], 0, packed, width, m, i)
		dst, i, bad = dst[:l+w], j, bad|b
		if cap(dst)-len(dst) >= packedRoom {
			break // the kernel stopped short of the end of the codes, not of room
		}
	}
	// The last codes (fewer than 8, or whose block load would pass the end
	// of packed): exact reads, room for all of them.
	dst = grow(dst, (m-i)*MaxTokenSize)
	l := len(dst)
	w, _, b := t.packedTail(dst[l:cap(dst)], 0, packed, width, m, i)
	dst, bad = dst[:l+w], bad|b
	if bad >= 0x80 {
		for k := 0; k < m; k++ {
			if c := bitpack.Get(packed, width, k); int(c) >= t.n {
				return dst, errs.At(ErrCodeOutOfRange, -1, fmt.Sprintf("codes[%d]", k), "code %d with %d tokens", c, t.n)
			}
		}
	}
	return dst, nil
}

// checkPackedWidth checks what the packed decoders need beyond checkPacked:
// every code a width-bit stream can hold must be addressable, N <= 2^bits.
func (t *fatTable) checkPackedWidth(packed []byte, bits uint32, m int) error {
	if err := checkPacked(packed, bits, m); err != nil {
		return err
	}
	if t.n > 1<<bits {
		return errs.At(ErrTooManyTokens, -1, "dict_offsets", "%d tokens do not fit %d-bit codes", t.n, bits)
	}
	return nil
}

// Decoder is a validated dictionary laid out for decoding, for callers
// that decode many columns or blocks with one dictionary: NewDecoder checks
// the dictionary and builds the 16-byte-per-token table once (at most
// 1 MiB + 64 KiB, for 65536 tokens); each call then costs only its codes.
// A Decoder is immutable and safe for concurrent use.
type Decoder struct {
	t    fatTable
	bits uint32
	dict Parts // the dictionary's spec buffers, for the columns it makes
}

// NewDecoder validates p's dictionary (ValidateDictionary) and lays it
// out. p.Codes is ignored; p.Bits is the width the packed methods read.
func NewDecoder(p Parts) (*Decoder, error) {
	if err := p.ValidateDictionary(); err != nil {
		return nil, err
	}
	t := fatTable{lens: new([MaxTokens]uint8)}
	minSlots := 1
	if p.Bits >= 8 && p.Bits <= 16 {
		minSlots = 1 << p.Bits
	}
	t.fill(p, minSlots)
	return &Decoder{t: t, bits: p.Bits, dict: Parts{DictBytes: p.DictBytes, DictOffsets: p.DictOffsets, Bits: p.Bits}}, nil
}

// NewColumn makes a Column of codes (in this Decoder's dictionary) and
// rowOffsets, as NewColumn does, but sharing the Decoder's table: the
// dictionary is neither validated nor laid out again, so holding many
// columns of one dictionary costs only their codes and rows. It checks
// Bits (8..16, N <= 2^Bits), every code, the row offsets and the options'
// limits, and keeps references to codes and rowOffsets.
func (d *Decoder) NewColumn(codes []uint16, rowOffsets []uint32, opts ...Option) (*Column, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	p := d.dict
	p.Codes = codes
	return newColumnWith(p, rowOffsets, &cfg, &d.t)
}

// NumTokens returns the dictionary's token count N.
func (d *Decoder) NumTokens() int { return d.t.n }

// DecodedLen checks every code < N and returns the decoded length.
func (d *Decoder) DecodedLen(codes []uint16) (int, error) { return d.t.decodedLen(codes, 0) }

// DecodeInto decodes codes into dst, which must hold at least their
// decoded length (exactly that many is fine: no byte of dst past the
// decoded length is touched then), and returns the bytes written. Codes
// are checked as they are decoded (on amd64, each chunk of 4096 by a
// vector pass just before it is decoded). On error dst's contents are
// unspecified.
func (d *Decoder) DecodeInto(dst []byte, codes []uint16) (int, error) {
	w, i, bad := d.t.decode(dst, codes)
	if bad >= 0x80 {
		return 0, checkCodes(codes, d.t.n, 0)
	}
	if i < len(codes) {
		n, err := d.t.decodedLen(codes, 0)
		if err != nil {
			return 0, err
		}
		return 0, shortDst("DecodeInto", n, len(dst))
	}
	return w, nil
}

// AppendDecode appends the decoding of codes to dst. It may use dst's
// spare capacity beyond the returned length as scratch.
func (d *Decoder) AppendDecode(dst []byte, codes []uint16) ([]byte, error) {
	n, err := d.t.decodedLen(codes, 0)
	if err != nil {
		return dst, err
	}
	return d.t.appendValid(dst, codes, n), nil
}

// AppendDecodePacked appends the decoding of m codes packed at the
// Decoder's Bits (8..16) bits each, reading them straight from packed in
// the decode loop (no []uint16 is built). packed must hold at least
// ceil(m*bits/8) bytes; bytes beyond are ignored. It may use dst's spare
// capacity beyond the returned length as scratch.
func (d *Decoder) AppendDecodePacked(dst []byte, packed []byte, m int) ([]byte, error) {
	if err := d.t.checkPackedWidth(packed, d.bits, m); err != nil {
		return dst, err
	}
	return d.t.appendPacked(dst, packed, uint(d.bits), m)
}

func shortDst(who string, need, have int) error {
	return fmt.Errorf("%w: %s needs %d bytes, dst has %d: %w", ErrInvalidArgument, who, need, have, io.ErrShortBuffer)
}
