package xz

import (
	"encoding/binary"
	"sync"

	"github.com/colfmt/colfmt/internal/hugepage"
	"hash/crc32"
	"math"
	"math/bits"
)

const (
	matchLenMin = 2
	matchLenMax = 273
	hash2Size   = 1 << 10
	hash3Size   = 1 << 16
)

// match is one candidate: length and distance-1 (LZMA's "dist").
type match struct {
	len  uint32
	dist uint32
}

// crcTab is the IEEE table crc32 builds in its own init.
var crcTab = crc32.IEEETable

// matchFinder indexes a whole block held in memory. Positions are block
// offsets; tables hold pos+1 so that 0 means "none". The window of
// reachable positions is a cyclic buffer of dictionary+1 entries, as in
// liblzma: a hash chain (hc4, one link per position) or a binary tree
// (bt4, two links per position) over the strings that start there.
type matchFinder struct {
	kind       mfKind
	buf        []byte
	pos        int // next position find or skip indexes
	nice       int
	depth      int
	cyclicSize uint32
	cyclicPos  uint32
	hashMask   uint32
	hash2Mask  uint32
	hash3Mask  uint32
	hash2      []uint32
	hash3      []uint32
	hash4      []uint32
	son        []uint32
	sink       uint32   // touched table entries (see touchNext)
	tables     []uint32 // hash2, hash3, hash4 and son in one allocation
}

// hash4Size follows liblzma: the dictionary size rounded to a power of two,
// halved, at least 64 Ki entries, halved again above 16 Mi.
func hash4Size(dict uint32) uint32 {
	hs := dict - 1
	hs |= hs >> 1
	hs |= hs >> 2
	hs |= hs >> 4
	hs |= hs >> 8
	hs |= hs >> 16
	hs >>= 1
	hs |= 0xFFFF
	if hs > 1<<24 {
		hs >>= 1
	}
	return hs + 1
}

// hashSizes returns the entries of the 2-, 3- and 4-byte hash tables:
// liblzma's sizes for a dictionary of dict bytes, but for a block of
// n < 16 KiB bytes at most 4 x n rounded up to a power of two (at least
// 256), so that small streams do not allocate and clear half a megabyte.
// Larger inputs get liblzma's tables for their dictionary, which is the
// block's size when that is smaller than the preset's (effectiveDict).
// find compares the bytes a hash hit implies. (The smaller 3-byte table
// loses a few matches to collisions: with liblzma's, the parse of 28
// more of 700 small files was xz's, 0.001% smaller in all, for 3x the
// time on a 200-byte stream.)
//
// hc3 has no 4-byte table; its 3-byte table has the size of the others'
// 4-byte one (as in liblzma) and takes that slot.
func hashSizes(kind mfKind, dict uint32, n int) (h2, h3, h4 uint32) {
	h2, h3, h4 = hash2Size, hash3Size, hash4Size(dict)
	if kind == mfHC3 {
		h3 = 0
	}
	if n < 16<<10 {
		c := uint32(256)
		for c < 4*uint32(n) {
			c <<= 1
		}
		h2, h3, h4 = min(h2, c), min(h3, c), min(h4, c)
	}
	return
}

// effectiveDict is the dictionary the block can use: never more than the
// block itself.
func effectiveDict(dict uint32, n int) uint32 {
	if uint64(n) < uint64(dict) {
		dict = uint32(n)
	}
	if dict < 4096 {
		dict = 4096
	}
	return dict
}

// scratch keeps a worker's large buffers from one block to the next, so
// that a stream of many blocks does not leave a dead set of tables per
// block to the garbage collector.
type scratch struct {
	tables []uint32
	lz     []byte
	enc    *encoder // the model, price tables, parser window and range coder buffer
	rec    matchRec // EncodeModels' recorded matches
	found  []match  // recordMatches' matches at one position
}

// scratchPool keeps the scratches of AppendEncode and EncodeModels from
// one call to the next: at1 encodes many small streams, each several
// times, and a fresh encoder, parser window and match finder tables per
// call (about 350 KB for a 3 KB input at preset 6e) left most of the
// time of a small call to the allocator, the clearing of memory and the
// garbage collector.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// pooledMax bounds, in bytes, each buffer a pooled scratch keeps: the
// tables of inputs up to a few hundred KiB at any preset (larger ones use
// huge pages, see makeTables, and are freed with their call).
const pooledMax = hugepage.Min - 1

func getScratches(n int) []*scratch {
	s := make([]*scratch, n)
	for i := range s {
		s[i] = scratchPool.Get().(*scratch)
	}
	return s
}

// putScratch returns s to the pool, dropping its largest buffers.
func putScratch(s *scratch) {
	if cap(s.tables)*4 > pooledMax {
		s.tables = nil
	}
	if cap(s.lz) > pooledMax {
		s.lz = nil
	}
	if cap(s.rec.off)*4 > pooledMax {
		s.rec.off = nil
	}
	if cap(s.rec.ms)*8 > pooledMax {
		s.rec.ms = nil
	}
	scratchPool.Put(s)
}

func newMatchFinder(p params, buf []byte, s *scratch) *matchFinder {
	dict := effectiveDict(p.dictSize, len(buf))
	mf := &matchFinder{kind: p.mf, buf: buf, nice: p.nice, depth: p.depth}
	mf.cyclicSize = dict + 1
	h2, h3, h4 := hashSizes(p.mf, dict, len(buf))
	if p.liblzmaTables {
		h2, h3, h4 = hashSizes(p.mf, p.dictSize, math.MaxInt32)
	}
	mf.hash2Mask, mf.hash3Mask, mf.hashMask = h2-1, h3-1, h4-1
	links := int(mf.cyclicSize)
	if p.mf == mfBT4 {
		links *= 2
	}
	total := int(h2+h3+h4) + links
	var t []uint32
	if s != nil && cap(s.tables) >= total {
		t = s.tables[:total]
		// Only the hash heads need to be 0 ("none"): as in liblzma, a
		// link is written when its position is inserted, before any
		// search can reach it.
		clear(t[:h2+h3+h4])
	} else {
		t = makeTables(total)
		if s != nil {
			s.tables = t
		}
	}
	mf.tables = t
	mf.hash2, t = t[:h2:h2], t[h2:]
	mf.hash3, t = t[:h3:h3], t[h3:]
	mf.hash4, t = t[:h4:h4], t[h4:]
	mf.son = t
	return mf
}

// memoryFor is the match finder's table memory in bytes for a block of n
// bytes (the block itself not included).
func memoryFor(p params, n int) int64 {
	dict := effectiveDict(p.dictSize, n)
	h2, h3, h4 := hashSizes(p.mf, dict, n)
	m := int64(h2+h3+h4) * 4
	links := int64(dict) + 1
	if p.mf == mfBT4 {
		links *= 2
	}
	return m + links*4
}

func (mf *matchFinder) avail() int { return len(mf.buf) - mf.pos }

func (mf *matchFinder) movePos() {
	mf.pos++
	mf.cyclicPos++
	if mf.cyclicPos == mf.cyclicSize {
		mf.cyclicPos = 0
	}
}

func (mf *matchFinder) hashes(cur []byte) (h2, h3, h4 uint32) {
	temp := crcTab[cur[0]] ^ uint32(cur[1])
	h2 = temp & mf.hash2Mask
	temp ^= uint32(cur[2]) << 8
	h3 = temp & mf.hash3Mask
	h4 = (temp ^ crcTab[cur[3]]<<5) & mf.hashMask
	return
}

// touchNext loads the 3- and 4-byte hash heads of position p+1 (p+5 <=
// len(buf)) so that their cache misses, a fifth of find's time otherwise
// (the 4-byte table is megabytes), overlap with this position's tree walk
// or chain search. The values only go to mf.sink, which nothing reads:
// Go has no prefetch instruction, and a load whose result is unused
// would be removed by the compiler.
func (mf *matchFinder) touchNext(p int) {
	_, h3, h4 := mf.hashes(mf.buf[p+1:])
	mf.sink += mf.hash4[h4] + mf.hash3[h3]
}

// matchLen extends a match of length n between buf[a:] and buf[b:] up to
// limit bytes.
func matchLen(buf []byte, a, b, n, limit int) int {
	x := buf[a : a+limit]
	y := buf[b : b+limit]
	for n+8 <= limit {
		d := binary.LittleEndian.Uint64(x[n:]) ^ binary.LittleEndian.Uint64(y[n:])
		if d != 0 {
			return n + bits.TrailingZeros64(d)>>3
		}
		n += 8
	}
	for n < limit && x[n] == y[n] {
		n++
	}
	return n
}

// find returns the matches at mf.pos in increasing length (and each the
// nearest of its length), then advances. The longest is at most nice.
func (mf *matchFinder) find(matches []match) []match {
	matches = matches[:0]
	if mf.kind == mfHC3 {
		return mf.find3(matches)
	}
	limit := mf.avail()
	if limit > mf.nice {
		limit = mf.nice
	} else if limit < 4 {
		mf.movePos()
		return matches
	}
	buf := mf.buf
	pos := uint32(mf.pos)
	h2, h3, h4 := mf.hashes(buf[mf.pos:])
	if limit >= 5 {
		mf.touchNext(mf.pos)
	}
	v2 := mf.hash2[h2]
	v3 := mf.hash3[h3]
	cur := mf.hash4[h4]
	mf.hash2[h2] = pos + 1
	mf.hash3[h3] = pos + 1
	mf.hash4[h4] = pos + 1
	delta2 := pos + 1 - v2
	delta3 := pos + 1 - v3
	bestLen := 1
	// With liblzma's table sizes a hash2 (hash3) hit whose first byte
	// matches also matches on 2 (3) bytes; the smaller tables of small
	// blocks lose that, so the bytes are compared.
	p := mf.pos
	if v2 != 0 && delta2 < mf.cyclicSize && buf[p-int(delta2)] == buf[p] && buf[p+1-int(delta2)] == buf[p+1] {
		bestLen = 2
		matches = append(matches, match{2, delta2 - 1})
	}
	if v3 != 0 && delta2 != delta3 && delta3 < mf.cyclicSize && buf[p-int(delta3)] == buf[p] &&
		buf[p+1-int(delta3)] == buf[p+1] && buf[p+2-int(delta3)] == buf[p+2] {
		bestLen = 3
		matches = append(matches, match{0, delta3 - 1})
		delta2 = delta3
	}
	if len(matches) != 0 {
		bestLen = matchLen(buf, mf.pos, mf.pos-int(delta2), bestLen, limit)
		matches[len(matches)-1].len = uint32(bestLen)
		if bestLen == limit {
			if mf.kind == mfBT4 {
				mf.btSkip(limit, cur)
			} else {
				mf.son[mf.cyclicPos] = cur
			}
			mf.movePos()
			return matches
		}
	}
	if bestLen < 3 {
		bestLen = 3
	}
	if mf.kind == mfBT4 {
		matches = mf.btFind(limit, cur, bestLen, matches)
	} else {
		matches = mf.hcFind(limit, cur, bestLen, matches)
	}
	mf.movePos()
	return matches
}

// hashes3 returns hc3's 2- and 3-byte hashes.
func (mf *matchFinder) hashes3(cur []byte) (h2, h3 uint32) {
	temp := crcTab[cur[0]] ^ uint32(cur[1])
	return temp & mf.hash2Mask, (temp ^ uint32(cur[2])<<8) & mf.hashMask
}

// find3 is find for hc3 (preset 0): a 2-byte hash for the nearest
// 2-byte match, then the chain of strings with the same 3-byte hash.
func (mf *matchFinder) find3(matches []match) []match {
	limit := mf.avail()
	if limit > mf.nice {
		limit = mf.nice
	} else if limit < 3 {
		mf.movePos()
		return matches
	}
	buf := mf.buf
	p := mf.pos
	pos := uint32(p)
	h2, h3 := mf.hashes3(buf[p:])
	v2 := mf.hash2[h2]
	cur := mf.hash4[h3]
	mf.hash2[h2] = pos + 1
	mf.hash4[h3] = pos + 1
	bestLen := 2
	delta2 := pos + 1 - v2
	if v2 != 0 && delta2 < mf.cyclicSize && buf[p-int(delta2)] == buf[p] && buf[p+1-int(delta2)] == buf[p+1] {
		bestLen = matchLen(buf, p, p-int(delta2), 2, limit)
		matches = append(matches, match{uint32(bestLen), delta2 - 1})
		if bestLen == limit {
			mf.son[mf.cyclicPos] = cur
			mf.movePos()
			return matches
		}
	}
	matches = mf.hcFind(limit, cur, bestLen, matches)
	mf.movePos()
	return matches
}

// skip indexes n positions without reporting matches.
func (mf *matchFinder) skip(n int) {
	if mf.kind == mfHC3 {
		for ; n > 0; n-- {
			if mf.avail() >= 3 {
				h2, h3 := mf.hashes3(mf.buf[mf.pos:])
				cur := mf.hash4[h3]
				mf.hash2[h2] = uint32(mf.pos) + 1
				mf.hash4[h3] = uint32(mf.pos) + 1
				mf.son[mf.cyclicPos] = cur
			}
			mf.movePos()
		}
		return
	}
	for ; n > 0; n-- {
		limit := mf.avail()
		if limit > mf.nice {
			limit = mf.nice
		} else if limit < 4 {
			mf.movePos()
			continue
		}
		pos := uint32(mf.pos)
		h2, h3, h4 := mf.hashes(mf.buf[mf.pos:])
		if limit >= 5 {
			mf.touchNext(mf.pos)
		}
		cur := mf.hash4[h4]
		mf.hash2[h2] = pos + 1
		mf.hash3[h3] = pos + 1
		mf.hash4[h4] = pos + 1
		if mf.kind == mfBT4 {
			mf.btSkip(limit, cur)
		} else {
			mf.son[mf.cyclicPos] = cur
		}
		mf.movePos()
	}
}

func (mf *matchFinder) linkIndex(delta uint32) uint32 {
	if delta > mf.cyclicPos {
		return mf.cyclicPos - delta + mf.cyclicSize
	}
	return mf.cyclicPos - delta
}

func (mf *matchFinder) hcFind(limit int, cur uint32, bestLen int, matches []match) []match {
	buf := mf.buf
	p := mf.pos
	pos := uint32(p)
	mf.son[mf.cyclicPos] = cur
	for depth := mf.depth; ; depth-- {
		if cur == 0 || depth == 0 {
			return matches
		}
		delta := pos + 1 - cur
		if delta >= mf.cyclicSize {
			return matches
		}
		pb := p - int(delta)
		cur = mf.son[mf.linkIndex(delta)]
		if buf[pb+bestLen] == buf[p+bestLen] && buf[pb] == buf[p] {
			n := matchLen(buf, p, pb, 1, limit)
			if n > bestLen {
				bestLen = n
				matches = append(matches, match{uint32(n), delta - 1})
				if n == limit {
					return matches
				}
			}
		}
	}
}

// extend returns how far x and y (len(y) == limit <= len(x)) agree,
// knowing that they agree on their first n bytes.
func extend(x, y []byte, n, limit int) int {
	for n+8 <= limit {
		if d := binary.LittleEndian.Uint64(x[n:]) ^ binary.LittleEndian.Uint64(y[n:]); d != 0 {
			return n + bits.TrailingZeros64(d)>>3
		}
		n += 8
	}
	for n < limit && x[n] == y[n] {
		n++
	}
	return n
}

func (mf *matchFinder) btFind(limit int, cur uint32, bestLen int, matches []match) []match {
	buf := mf.buf
	p := mf.pos
	pos1 := uint32(p) + 1
	son := mf.son
	cyclicPos, cyclicSize := mf.cyclicPos, mf.cyclicSize
	cb := buf[p : p+limit : p+limit] // the string being inserted
	ptr0 := cyclicPos<<1 + 1
	ptr1 := cyclicPos << 1
	len0, len1 := 0, 0
	for depth := mf.depth; ; depth-- {
		delta := pos1 - cur
		if cur == 0 || depth == 0 || delta >= cyclicSize {
			son[ptr0] = 0
			son[ptr1] = 0
			return matches
		}
		idx := cyclicPos - delta
		if delta > cyclicPos {
			idx += cyclicSize
		}
		// Both children are loaded before the bytes are compared, so that
		// the two cache misses overlap even when the branch on the
		// comparison is mispredicted.
		pair := son[idx<<1 : idx<<1+2 : idx<<1+2]
		left, right := pair[0], pair[1]
		pb := buf[p-int(delta):]
		n := min(len0, len1)
		a, c := pb[n], cb[n]
		if a == c {
			n = extend(pb, cb, n+1, limit)
			if n > bestLen {
				bestLen = n
				matches = append(matches, match{uint32(n), delta - 1})
				if n == limit {
					son[ptr1] = left
					son[ptr0] = right
					return matches
				}
			}
			a, c = pb[n], cb[n]
		}
		if a < c {
			son[ptr1] = cur
			ptr1 = idx<<1 + 1
			cur = right
			len1 = n
		} else {
			son[ptr0] = cur
			ptr0 = idx << 1
			cur = left
			len0 = n
		}
	}
}

func (mf *matchFinder) btSkip(limit int, cur uint32) {
	buf := mf.buf
	p := mf.pos
	pos1 := uint32(p) + 1
	son := mf.son
	cyclicPos, cyclicSize := mf.cyclicPos, mf.cyclicSize
	cb := buf[p : p+limit : p+limit]
	ptr0 := cyclicPos<<1 + 1
	ptr1 := cyclicPos << 1
	len0, len1 := 0, 0
	for depth := mf.depth; ; depth-- {
		delta := pos1 - cur
		if cur == 0 || depth == 0 || delta >= cyclicSize {
			son[ptr0] = 0
			son[ptr1] = 0
			return
		}
		idx := cyclicPos - delta
		if delta > cyclicPos {
			idx += cyclicSize
		}
		// Both children are loaded before the bytes are compared, so that
		// the two cache misses overlap even when the branch on the
		// comparison is mispredicted.
		pair := son[idx<<1 : idx<<1+2 : idx<<1+2]
		left, right := pair[0], pair[1]
		pb := buf[p-int(delta):]
		n := min(len0, len1)
		a, c := pb[n], cb[n]
		if a == c {
			n = extend(pb, cb, n+1, limit)
			if n == limit {
				son[ptr1] = left
				son[ptr0] = right
				return
			}
			a, c = pb[n], cb[n]
		}
		if a < c {
			son[ptr1] = cur
			ptr1 = idx<<1 + 1
			cur = right
			len1 = n
		} else {
			son[ptr0] = cur
			ptr0 = idx << 1
			cur = left
			len0 = n
		}
	}
}
