package at1

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/hugepage"
)

// Streaming a qcolumnar or qjson table (colfmt cat, Reader.WriteTo,
// DecodeTo): row groups are independent, so instead of decoding every
// block before the first line (holding the whole decoded table, a fresh
// page for every 4 KiB of it), the blocks are decoded a row group at a
// time into a few slots of buffers that are reused, group after group.
// With more than one goroutine allowed, workers decode the blocks of the
// current group and, with 8 groups or more, of the next ones while the
// current group's lines are written; the writer decodes blocks too while
// its group is not ready. The output, and
// the error returned for a damaged file, are those of decoding every
// block first (qLineWriter, serially): blocks are charged to the decoded
// budget in file order, and after the first error the remaining groups
// are still checked, so a damaged block later in the file is reported
// before a value count or a line error, as before. Only the bytes written
// before an error differ (the groups before it are written).

// qAheadGroups is the fewest row groups for which workers decode groups
// ahead of the one being written.
const qAheadGroups = 8

// qBlock is a decoded block of a slot: its bytes (in the slot's buffer),
// its value count (newlines+1) and its decode error.
type qBlock struct {
	b   []byte
	n   int
	err error
}

// qStreamer decodes the row groups of a qTable into slots of buffers.
type qStreamer struct {
	c       *decoder
	t       *qTable
	blocks  []byte
	boff    int64
	ngroups int
	nstruct int
	slots   int
	order   []int     // the blocks in claim order: groups in order, the larger blocks of a group first
	bufs    [][]byte  // [slot*ncols+col], reused
	res     []qBlock  // [slot*ncols+col]
	budget  int64     // decoded bytes the blocks may still take, charged in file order
	budget0 int64     // the budget at the start
	cur     []qCursor // the current group's column cursors
	segs    []qSeg    // qjson: the template's segments

	mu       sync.Mutex
	cond     sync.Cond
	next     int   // next entry of order to claim
	spent    int64 // bytes the blocks decoded so far took, in decode order
	done     []int // per slot: blocks of its group decoded
	released int   // groups before this one have given back their slot
	stop     bool
	wg       sync.WaitGroup
}

// qCursor walks a decoded block's values in order.
type qCursor struct {
	b   []byte
	pos int
}

// streamQuery writes every line of t to cw, decoding the blocks a row
// group at a time (see above). It is the fast path of streamLines.
func (dc *decoder) streamQuery(cw *chunkWriter, t *qTable, blocks []byte, boff int64, limit int64) error {
	s, err := dc.newQStreamer(t, blocks, boff, limit)
	if err != nil {
		return err
	}
	// Workers decode ahead into slots of their own only when the groups
	// are many: each slot's first group is fresh pages (about 15 us a
	// 4 KiB page here), which with a few large groups cost more CPU than
	// writing a group while the next decodes saves wall time (PyPI TSV,
	// 2 groups: 173 ms of CPU with one slot, 188 with two).
	workers, slots := 0, 1
	if total := s.ngroups * t.ncols; dc.concurrency > 1 && total > 1 {
		workers = min(dc.concurrency-1, total-1)
		if s.ngroups >= qAheadGroups {
			slots = min(s.ngroups, workers+2)
		}
	}
	s.setSlots(slots)
	for w := 0; w < workers; w++ {
		s.wg.Add(1)
		go s.work()
	}
	err = s.writeLines(cw, limit)
	s.mu.Lock()
	s.stop = true
	s.mu.Unlock()
	s.cond.Broadcast()
	s.wg.Wait()
	return err
}

// newQStreamer checks the table's groups against its structured lines
// and orders the blocks; setSlots must follow.
func (dc *decoder) newQStreamer(t *qTable, blocks []byte, boff int64, limit int64) (*qStreamer, error) {
	nstruct, ngroups, err := dc.lineGroups(t)
	if err != nil {
		return nil, err
	}
	s := &qStreamer{c: dc, t: t, blocks: blocks, boff: boff, ngroups: ngroups, nstruct: nstruct, budget: limit + 1<<20, budget0: limit + 1<<20}
	s.cond.L = &s.mu
	s.cur = make([]qCursor, t.ncols)
	for _, seg := range t.segs {
		s.segs = append(s.segs, newQSeg(seg))
	}
	s.order = make([]int, 0, ngroups*t.ncols)
	for g := 0; g < ngroups; g++ {
		k := len(s.order)
		for col := 0; col < t.ncols; col++ {
			s.order = append(s.order, g*t.ncols+col)
		}
		grp := t.groups[g]
		slices.SortStableFunc(s.order[k:], func(a, b int) int {
			return int(min(max(grp[b%t.ncols].Size-grp[a%t.ncols].Size, -1), 1))
		})
	}
	return s, nil
}

// setSlots sets the number of groups whose blocks may be decoded at once.
func (s *qStreamer) setSlots(n int) {
	s.slots = max(n, 1)
	s.bufs = make([][]byte, s.slots*s.t.ncols)
	s.res = make([]qBlock, s.slots*s.t.ncols)
	s.done = make([]int, s.slots)
}

// work decodes blocks in claim order while their group's slot is free.
func (s *qStreamer) work() {
	defer s.wg.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for !s.stop && s.next < len(s.order) && !s.claimable(-1) {
			s.cond.Wait()
		}
		if s.stop || s.next >= len(s.order) {
			return
		}
		s.claim()
	}
}

// claimable reports whether the next block in claim order may be decoded
// now (s.mu held) by the writer waiting for group g (-1: a worker): its
// group's slot is free and, once the blocks decoded so far take more
// than the decoded budget (the file will fail on it), it is group g's.
// So the memory held stays within the budget, as when every block was
// decoded first, plus the blocks being decoded.
func (s *qStreamer) claimable(g int) bool {
	if s.next >= len(s.order) {
		return false
	}
	bg := s.order[s.next] / s.t.ncols
	return bg < s.released+s.slots && (s.spent <= s.budget0 || bg == g)
}

// claim decodes the next block in claim order; s.mu is held on entry and
// on return, not while decoding.
func (s *qStreamer) claim() {
	j := s.order[s.next]
	s.next++
	g, col := j/s.t.ncols, j%s.t.ncols
	k := (g%s.slots)*s.t.ncols + col
	s.mu.Unlock()
	r, buf, spent := s.decode(g, col, s.bufs[k])
	s.mu.Lock()
	s.spent += spent
	s.bufs[k] = buf
	s.res[k] = r
	if s.done[g%s.slots]++; s.done[g%s.slots] == s.t.ncols {
		s.cond.Broadcast()
	}
}

// decode decodes block (g, col) into buf's array when it is large enough,
// as decodeBlock does (same errors), but without charging the budget. It
// returns the buffer to keep for the slot's next block, and the bytes
// the block took: its declared size (allocated for it, if the buffer was
// short) or what it decoded to, the larger.
func (s *qStreamer) decode(g, col int, buf []byte) (_ qBlock, _ []byte, spent int64) {
	c := s.c
	b := s.t.groups[g][col]
	raw, off := s.blocks[b.Offset:b.Offset+b.Size], s.boff+b.Offset
	path := blockPath(g, col)
	backend, err := blockBackend(raw, off, path)
	if err != nil {
		return qBlock{err: err}, buf, 0
	}
	// A buffer too small for the declared size is replaced by one with a
	// little room, so the next groups' blocks (of the same rows) fit.
	if n, ok := declaredSize(backend, raw[1:]); ok && n <= uint64(c.maxStream) {
		spent = int64(n)
		if size := min(n+n/8, uint64(c.maxStream), math.MaxInt); n > uint64(cap(buf)) && size >= n {
			buf = hugepage.Make(int(size))
			defer hugepage.Done(buf)
		}
	}
	d, err := c.decompressInto(buf, backend, raw[1:], c.maxStream, off+1, path)
	if err != nil {
		return qBlock{err: err}, buf, spent
	}
	if cap(d) > cap(buf) {
		buf = d[:0]
	}
	return qBlock{b: d, n: bytes.Count(d, []byte{'\n'}) + 1}, buf, max(spent, int64(len(d)))
}

// acquire waits for group g's blocks (decoding blocks not claimed yet on
// this goroutine meanwhile), charges them to the budget in file order and checks
// their value counts. decodeErr is the first block's decode (or budget)
// error; countErr, when the blocks decoded, the first short block's.
func (s *qStreamer) acquire(g int) (decodeErr, countErr error) {
	t := s.t
	slot := g % s.slots
	s.mu.Lock()
	for s.done[slot] < t.ncols {
		// While the group is not ready, decode any block a slot is free
		// for: this group's, else a later one's, rather than sleep.
		if s.claimable(g) {
			s.claim()
			continue
		}
		s.cond.Wait()
	}
	s.mu.Unlock()
	rows := min(t.rg, s.nstruct-g*t.rg)
	res := s.res[slot*t.ncols : (slot+1)*t.ncols]
	for col := range res {
		r := &res[col]
		if r.err != nil {
			return r.err, nil
		}
		if s.budget -= int64(len(r.b)); s.budget < 0 {
			b := t.groups[g][col]
			return errs.At(ErrTooLarge, s.boff+b.Offset, "block ("+strconv.Itoa(g)+","+strconv.Itoa(col)+")", "decoded blocks exceed the decoded size limit of %d bytes", s.c.maxDecoded), nil
		}
	}
	for col := range res {
		if res[col].n < rows {
			b := t.groups[g][col]
			return nil, errs.At(ErrCorrupt, s.boff+b.Offset, "block ("+strconv.Itoa(g)+","+strconv.Itoa(col)+")", "block has %d values, its row group has %d rows", res[col].n, rows)
		}
	}
	return nil, nil
}

// release gives group g's slot back for group g+slots.
func (s *qStreamer) release(g int) {
	s.mu.Lock()
	s.done[g%s.slots] = 0
	s.released = g + 1
	s.mu.Unlock()
	s.cond.Broadcast()
}

// settle returns the error to report once err stopped the lines with
// groups from g on not yet acquired: the first later block that fails to
// decode, else (when err is not itself a count error) the first short
// block, else err.
func (s *qStreamer) settle(g int, err error, isCount bool) error {
	for ; g < s.ngroups; g++ {
		dErr, cErr := s.acquire(g)
		s.release(g)
		if dErr != nil {
			return dErr
		}
		if cErr != nil && !isCount {
			err, isCount = cErr, true
		}
	}
	return err
}

// writeLines writes the lines, acquiring each group as its first row is
// reached.
func (s *qStreamer) writeLines(cw *chunkWriter, limit int64) error {
	t := s.t
	start := cw.n + int64(len(cw.buf))
	tooLarge := func(i int) error {
		return errs.At(ErrTooLarge, -1, "line "+strconv.Itoa(i), "decoded output exceeds the limit of %d bytes", s.c.maxDecoded)
	}
	// g is the group being written (-1 before the first), left its rows
	// still to write.
	g, left, vpos := -1, 0, 0
	// fail settles err: the group being written gives its slot back and
	// the groups after it are checked.
	fail := func(err error, isCount bool) error {
		if g >= 0 {
			s.release(g)
		}
		return s.settle(g+1, err, isCount)
	}
	for i := 0; i < t.nlines; i++ {
		if i > 0 {
			cw.buf = append(cw.buf, '\n')
		}
		if t.rowModes[i] == 0 {
			v, ok := nextVerbatim(t.verbatim, &vpos)
			if !ok && s.c.strict {
				return fail(errs.At(ErrCorrupt, int64(len(t.verbatim)), "stream \"verbatim\"", "verbatim lines run out at line %d", i), false)
			}
			cw.buf = append(cw.buf, v...)
		} else if t.ncols == 0 {
			if t.codec == CodecQJSON {
				cw.buf = append(cw.buf, t.segs[0]...)
			}
		} else {
			if left == 0 {
				if g >= 0 {
					s.release(g)
				}
				g++
				dErr, cErr := s.acquire(g)
				if dErr != nil {
					return dErr
				}
				if cErr != nil {
					return fail(cErr, true)
				}
				slot := g % s.slots
				for col := range s.cur {
					s.cur[col] = qCursor{b: s.res[slot*t.ncols+col].b}
				}
				left = min(t.rg, s.nstruct-g*t.rg)
			}
			cw.buf = s.appendRow(cw.buf)
			left--
		}
		if len(cw.buf) >= streamChunk {
			err := error(nil)
			if cw.n+int64(len(cw.buf))-start > limit {
				err = tooLarge(i)
			} else {
				err = cw.flush()
			}
			if err != nil {
				return fail(err, false)
			}
		}
	}
	if t.trailing {
		cw.buf = append(cw.buf, '\n')
	}
	if cw.n+int64(len(cw.buf))-start > limit {
		return fail(tooLarge(t.nlines), false)
	}
	return nil
}

// appendRow appends the next row of the current group: each column's next
// value (the counts were checked, so every value is there).
func (s *qStreamer) appendRow(dst []byte) []byte {
	t := s.t
	if t.codec == CodecQJSON {
		dst = s.segs[0].appendTo(dst)
		for col := range s.cur {
			dst = s.cur[col].appendNext(dst)
			dst = s.segs[col+1].appendTo(dst)
		}
		return dst
	}
	if len(t.delim) == 1 {
		d := t.delim[0]
		dst = s.cur[0].appendNext(dst)
		for col := 1; col < len(s.cur); col++ {
			dst = append(dst, d)
			dst = s.cur[col].appendNext(dst)
		}
		return dst
	}
	for col := range s.cur {
		if col > 0 {
			dst = append(dst, t.delim...)
		}
		dst = s.cur[col].appendNext(dst)
	}
	return dst
}

// appendNext appends the cursor's next value (up to the next '\n' or the
// end) and moves past it. A value of under 16 bytes with 16 bytes to read
// after it and room for 16 in dst, the usual case, is found a word at a
// time and copied as one 16-byte move (the bytes after the value are
// overwritten by what is appended next).
func (cu *qCursor) appendNext(dst []byte) []byte {
	const ones, highs, nls = 0x0101010101010101, 0x8080808080808080, 0x0a0a0a0a0a0a0a0a
	p, b := cu.pos, cu.b
	if p+16 <= len(b) && cap(dst)-len(dst) >= 16 {
		src := (*[16]byte)(b[p : p+16])
		j := 16
		// The lowest byte flagged is the first '\n' (a borrow only
		// flags bytes above a zero one).
		if x := binary.LittleEndian.Uint64(src[:8]) ^ nls; (x-ones)&^x&highs != 0 {
			j = bits.TrailingZeros64((x-ones)&^x&highs) >> 3
		} else if x := binary.LittleEndian.Uint64(src[8:]) ^ nls; (x-ones)&^x&highs != 0 {
			j = 8 + bits.TrailingZeros64((x-ones)&^x&highs)>>3
		}
		n := len(dst)
		*(*[16]byte)(dst[n : n+16]) = *src
		if j < 16 {
			cu.pos = p + j + 1
			return dst[:n+j]
		}
		// Longer: the first 16 bytes are copied; find the rest.
		dst, p = dst[:n+16], p+16
	}
	rest := b[p:]
	j := bytes.IndexByte(rest, '\n')
	if j < 0 {
		j = len(rest)
	}
	cu.pos = p + j + 1
	return append(dst, rest[:j]...)
}

// qSeg is a constant piece of every row (a qjson template segment),
// padded to 16 bytes when it is shorter, to be copied as one move.
type qSeg struct {
	s   []byte
	pad *[16]byte
}

func newQSeg(s []byte) qSeg {
	q := qSeg{s: s}
	if len(s) < 16 {
		q.pad = new([16]byte)
		copy(q.pad[:], s)
	}
	return q
}

func (q qSeg) appendTo(dst []byte) []byte {
	if n := len(dst); q.pad != nil && cap(dst)-n >= 16 {
		*(*[16]byte)(dst[n : n+16]) = *q.pad
		return dst[:n+len(q.s)]
	}
	return append(dst, q.s...)
}
