package onpair

import (
	"fmt"
	"iter"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/colfmt/colfmt/internal/errs"
)

// Column is a compressed string column: Parts plus the R+1 code offsets
// that delimit its rows (row r is the decoding of Codes[o[r]:o[r+1]]). A
// Column is validated when built and immutable after, so its row decoding
// runs without per-token checks. It is safe for concurrent readers.
type Column struct {
	parts      Parts
	rows       []uint32
	dec        fatTable // by value: one pointer hop less per row
	decodedLen int
	search     *search // the predicates' lazily built side table
	pad4       uint64  // four copies of the length-0 code n (row padding), when n < 65536
	padOK      bool
	// AppendRow's inline path takes rows below inlineRows (0 when it is
	// off) whose codes start below inlineCodes (8 codes are loaded).
	inlineRows, inlineCodes uint
	// short is the short-row table (see shortRows), built by the first
	// AppendRow unless WithRowTable(false); an unsafe.Pointer to its first
	// uint64, read and written with sync/atomic.
	short   unsafe.Pointer
	noShort bool
}

// NewColumn validates p (Validate) and the row offsets (start at 0,
// non-decreasing, end at len(p.Codes)) and returns the Column. It keeps
// references to p's slices and rowOffsets: do not modify them afterwards.
// The options' limits (WithMaxRows, WithMaxCodes, WithMaxDecodedSize) apply.
func NewColumn(p Parts, rowOffsets []uint32, opts ...Option) (*Column, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	return newColumn(p, rowOffsets, &cfg)
}

func newColumn(p Parts, rows []uint32, cfg *config) (*Column, error) {
	return newColumnWith(p, rows, cfg, nil)
}

// newColumnWith is newColumn with the dictionary's table already laid out
// (and so validated) when t is not nil.
func newColumnWith(p Parts, rows []uint32, cfg *config, t *fatTable) (*Column, error) {
	if int64(len(p.Codes)) > cfg.maxCodes {
		return nil, errs.TooLarge(ErrTooLarge, -1, "codes", "code count", uint64(len(p.Codes)), cfg.maxCodes)
	}
	if len(rows) == 0 || int64(len(rows)-1) > cfg.maxRows {
		if len(rows) == 0 {
			return nil, errs.At(ErrBadRowOffsets, -1, "code_offsets", "empty (R rows need R+1 offsets)")
		}
		return nil, errs.TooLarge(ErrTooLarge, -1, "code_offsets", "row count", uint64(len(rows)-1), cfg.maxRows)
	}
	if t == nil {
		if err := p.Validate(); err != nil {
			return nil, err
		}
	} else if err := p.checkBits(); err != nil {
		return nil, err
	}
	if err := checkRowOffsets(rows, len(p.Codes)); err != nil {
		return nil, err
	}
	d := t
	if d == nil {
		var err error
		if d, err = newFatTable(p); err != nil {
			return nil, err
		}
	}
	n, err := d.decodedLen(p.Codes, 0) // checks every code
	if err != nil {
		return nil, err
	}
	if int64(n) > cfg.maxDecodedSize {
		return nil, errs.TooLarge(ErrTooLarge, -1, "codes", "decoded size", uint64(n), cfg.maxDecodedSize)
	}
	col := &Column{parts: p, rows: rows, dec: *d, decodedLen: n, search: new(search), noShort: !cfg.rowTable}
	if nt := d.n; nt < MaxTokens {
		col.pad4, col.padOK = uint64(nt)*0x0001000100010001, true
	}
	if col.padOK && len(p.Codes) >= 8 {
		col.inlineRows, col.inlineCodes = uint(len(rows)-1), uint(len(p.Codes)-7)
	}
	if !col.padOK || d.n >= shortLong {
		col.noShort = true // no free lane value to mark long rows
	}
	return col, nil
}

// shortLong in lane 3 of a short-row table entry marks a row of more than
// four codes.
const shortLong = 0xffff

// The short-row table's flags (its entry 0): shortOn in every table, and
// shortLanes2 in columns where nine rows in ten have at most two codes
// (AppendRow then copies two tokens for those rows, a branch these columns
// predict).
const (
	shortOn     = 1
	shortLanes2 = 2
)

// shortNone is the flags of a Column without a short-row table.
var shortNone uint64

// shortRows returns the short-row table, building it on the first call:
// entry 0 holds flags (shortOn, shortLanes2), entry i+1 row i's codes in
// four 16-bit lanes, padded with the length-0 code n, or, when the row has
// more than four codes, shortLong in lane 3, its code count (at most
// 0xffff) in lane 2 and its first code's offset in the low 32 bits. It
// costs 8 bytes a row, and makes a short row one load and its tokens'
// copies, without the row offsets and the codes in between: a random row
// then waits for two cache misses, not three. Columns where fewer than
// half the rows have at most four codes get none (&shortNone), as do
// those built WithRowTable(false) or without a spare code.
func (c *Column) shortRows() *uint64 {
	if p := atomic.LoadPointer(&c.short); p != nil {
		return (*uint64)(p)
	}
	t := c.buildShortRows()
	// Concurrent first calls may each build one; the first stored wins.
	if !atomic.CompareAndSwapPointer(&c.short, nil, unsafe.Pointer(t)) {
		return (*uint64)(atomic.LoadPointer(&c.short))
	}
	return t
}

func (c *Column) buildShortRows() *uint64 {
	if c.noShort || len(c.rows) < 2 {
		return &shortNone
	}
	rows, codes := c.rows, c.parts.Codes
	// Two passes over the offsets: this one, a compare a row, decides
	// whether the table pays before its 8 bytes a row are allocated.
	short := 0
	for j := 1; j < len(rows); j++ {
		if rows[j]-rows[j-1] <= 4 {
			short++
		}
	}
	if short < (len(rows)-1)/2 {
		return &shortNone
	}
	t := make([]uint64, len(rows))
	two := 0
	for j := 1; j < len(rows); j++ {
		a, b := rows[j-1], rows[j]
		if b-a <= 2 {
			two++
		}
		if b-a > 4 {
			t[j] = shortLong<<48 | uint64(min(b-a, 0xffff))<<32 | uint64(a)
			continue
		}
		v := c.pad4
		for q := a; q < b; q++ {
			sh := 16 * (q - a)
			v = v&^(0xffff<<sh) | uint64(codes[q])<<sh
		}
		t[j] = v
	}
	t[0] = shortOn
	if two >= (len(rows)-1)/10*9 {
		t[0] |= shortLanes2
	}
	return &t[0]
}

func checkRowOffsets(rows []uint32, m int) error {
	if rows[0] != 0 {
		return errs.At(ErrBadRowOffsets, -1, "code_offsets[0]", "first offset %d, want 0", rows[0])
	}
	for i := 1; i < len(rows); i++ {
		if rows[i] < rows[i-1] {
			return errs.At(ErrBadRowOffsets, -1, fmt.Sprintf("code_offsets[%d]", i), "offset %d after %d", rows[i], rows[i-1])
		}
	}
	if last := rows[len(rows)-1]; int64(last) != int64(m) {
		return errs.At(ErrBadRowOffsets, -1, fmt.Sprintf("code_offsets[%d]", len(rows)-1), "last offset %d, want %d codes", last, m)
	}
	return nil
}

// Parts returns the column's spec buffers (shared, not copied).
func (c *Column) Parts() Parts { return c.parts }

// RowOffsets returns the R+1 code offsets (shared, not copied).
func (c *Column) RowOffsets() []uint32 { return c.rows }

// Len returns the number of rows.
func (c *Column) Len() int { return len(c.rows) - 1 }

// DecodedLen returns the total decoded size of all rows.
func (c *Column) DecodedLen() int { return c.decodedLen }

// rowScratchCodes: rows of up to this many codes are decoded with 16 bytes
// of dst capacity per code (at most 4 KiB); longer rows are measured first.
const rowScratchCodes = 256

// badRow is kept out of line so AppendRow spills nothing on its fast path.
//
//go:noinline
func (c *Column) badRow(dst []byte, i int) ([]byte, error) {
	return dst, invalidArg("row %d out of range [0, %d)", i, len(c.rows)-1)
}

// appendRowLong is AppendRow for rows of more than eight codes or when
// dst lacks 16 bytes of room per code.
func (c *Column) appendRowLong(dst []byte, codes []uint16) []byte {
	l := len(dst)
	if cap(dst)-l < MaxTokenSize*len(codes) {
		if len(codes) > rowScratchCodes {
			n, _ := c.dec.decodedLen(codes, 0) // codes were validated
			return c.dec.appendValid(dst, codes, n)
		}
		// Make room for the unchecked loop, so a reused buffer takes the
		// fast path from now on.
		dst = grow(dst, max(MaxTokenSize*len(codes), 8*MaxTokenSize+1))
	}
	return dst[:l+c.dec.gatherRoomy(dst[l:cap(dst)], codes)]
}

// Row returns row i in a new slice.
func (c *Column) Row(i int) ([]byte, error) { return c.AppendRow(nil, i) }

// AppendAll appends every row, concatenated, to dst (DecodedLen bytes).
// It may use dst's spare capacity beyond the returned length as scratch.
func (c *Column) AppendAll(dst []byte) []byte {
	return c.dec.appendValid(dst, c.parts.Codes, c.decodedLen)
}

// AppendArrow appends every row to data and the Arrow-style end offset of
// each row to offsets (the caller supplies the leading start offset, if
// wanted), and returns both.
//
// It decodes the codes as one stream, in chunks of arrowChunk codes,
// recording where each token starts, and reads each row's end from there:
// a loop over each row's codes would mispredict its exit about once a row
// (measured 2.5x slower than AppendAll on urls2).
func (c *Column) AppendArrow(data []byte, offsets []uint64) ([]byte, []uint64) {
	base := len(data)
	data = grow(data, c.decodedLen+MaxTokenSize-1)
	nr := len(c.rows) - 1
	offsets = slices.Grow(offsets, nr)
	codes, rows := c.parts.Codes, c.rows
	out := data[base:cap(data)]
	var pos [arrowChunk + 1]uint32
	w, r := 0, 0
	for c0 := 0; c0 < len(codes); c0 += arrowChunk {
		c1 := min(c0+arrowChunk, len(codes))
		w0 := w
		w = c.dec.gatherPos(out, w, codes[c0:c1], pos[:c1-c0+1])
		for r < nr && int(rows[r+1]) <= c1 {
			offsets = append(offsets, uint64(w0+int(pos[int(rows[r+1])-c0])))
			r++
		}
	}
	for ; r < nr; r++ { // empty rows after the last code
		offsets = append(offsets, uint64(w))
	}
	return data[:base+w], offsets
}

// arrowChunk is the number of codes AppendArrow decodes per chunk (its
// position table, 16 KiB, stays in L1).
const arrowChunk = 4096

// All iterates over the rows in order, yielding the row index and its
// bytes. The slice is reused between iterations: copy it to keep it.
func (c *Column) All() iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		var buf []byte
		for r := 0; r+1 < len(c.rows); r++ {
			buf, _ = c.AppendRow(buf[:0], r) // r is in range
			if !yield(r, buf) {
				return
			}
		}
	}
}
