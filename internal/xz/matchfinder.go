package xz

import "hash/crc32"

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

var crcTab = crc32.MakeTable(crc32.IEEE)

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
	hash2      []uint32
	hash3      []uint32
	hash4      []uint32
	son        []uint32
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

func newMatchFinder(p params, buf []byte) *matchFinder {
	dict := effectiveDict(p.dictSize, len(buf))
	mf := &matchFinder{kind: p.mf, buf: buf, nice: p.nice, depth: p.depth}
	mf.cyclicSize = dict + 1
	hs := hash4Size(dict)
	mf.hashMask = hs - 1
	mf.hash2 = make([]uint32, hash2Size)
	mf.hash3 = make([]uint32, hash3Size)
	mf.hash4 = make([]uint32, hs)
	if p.mf == mfBT4 {
		mf.son = make([]uint32, 2*int(mf.cyclicSize))
	} else {
		mf.son = make([]uint32, int(mf.cyclicSize))
	}
	return mf
}

// memoryFor is the match finder's table memory in bytes for a block of n
// bytes (the block itself not included).
func memoryFor(p params, n int) int64 {
	dict := effectiveDict(p.dictSize, n)
	m := int64(hash2Size+hash3Size+hash4Size(dict)) * 4
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
	h2 = temp & (hash2Size - 1)
	temp ^= uint32(cur[2]) << 8
	h3 = temp & (hash3Size - 1)
	h4 = (temp ^ crcTab[cur[3]]<<5) & mf.hashMask
	return
}

// matchLen extends a match of length n between buf[a:] and buf[b:] up to
// limit bytes.
func matchLen(buf []byte, a, b, n, limit int) int {
	x := buf[a : a+limit]
	y := buf[b : b+limit]
	for n < limit && x[n] == y[n] {
		n++
	}
	return n
}

// find returns the matches at mf.pos in increasing length (and each the
// nearest of its length), then advances. The longest is at most nice.
func (mf *matchFinder) find(matches []match) []match {
	matches = matches[:0]
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
	v2 := mf.hash2[h2]
	v3 := mf.hash3[h3]
	cur := mf.hash4[h4]
	mf.hash2[h2] = pos + 1
	mf.hash3[h3] = pos + 1
	mf.hash4[h4] = pos + 1
	delta2 := pos + 1 - v2
	delta3 := pos + 1 - v3
	bestLen := 1
	if v2 != 0 && delta2 < mf.cyclicSize && buf[mf.pos-int(delta2)] == buf[mf.pos] {
		bestLen = 2
		matches = append(matches, match{2, delta2 - 1})
	}
	if v3 != 0 && delta2 != delta3 && delta3 < mf.cyclicSize && buf[mf.pos-int(delta3)] == buf[mf.pos] {
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

// skip indexes n positions without reporting matches.
func (mf *matchFinder) skip(n int) {
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

func (mf *matchFinder) btFind(limit int, cur uint32, bestLen int, matches []match) []match {
	buf := mf.buf
	p := mf.pos
	pos := uint32(p)
	son := mf.son
	ptr0 := mf.cyclicPos<<1 + 1
	ptr1 := mf.cyclicPos << 1
	len0, len1 := 0, 0
	for depth := mf.depth; ; depth-- {
		delta := pos + 1 - cur
		if cur == 0 || depth == 0 || delta >= mf.cyclicSize {
			son[ptr0] = 0
			son[ptr1] = 0
			return matches
		}
		pair := mf.linkIndex(delta) << 1
		pb := p - int(delta)
		n := min(len0, len1)
		if buf[pb+n] == buf[p+n] {
			n = matchLen(buf, p, pb, n+1, limit)
			if n > bestLen {
				bestLen = n
				matches = append(matches, match{uint32(n), delta - 1})
				if n == limit {
					son[ptr1] = son[pair]
					son[ptr0] = son[pair+1]
					return matches
				}
			}
		}
		if buf[pb+n] < buf[p+n] {
			son[ptr1] = cur
			ptr1 = pair + 1
			cur = son[ptr1]
			len1 = n
		} else {
			son[ptr0] = cur
			ptr0 = pair
			cur = son[ptr0]
			len0 = n
		}
	}
}

func (mf *matchFinder) btSkip(limit int, cur uint32) {
	buf := mf.buf
	p := mf.pos
	pos := uint32(p)
	son := mf.son
	ptr0 := mf.cyclicPos<<1 + 1
	ptr1 := mf.cyclicPos << 1
	len0, len1 := 0, 0
	for depth := mf.depth; ; depth-- {
		delta := pos + 1 - cur
		if cur == 0 || depth == 0 || delta >= mf.cyclicSize {
			son[ptr0] = 0
			son[ptr1] = 0
			return
		}
		pair := mf.linkIndex(delta) << 1
		pb := p - int(delta)
		n := min(len0, len1)
		if buf[pb+n] == buf[p+n] {
			n = matchLen(buf, p, pb, n+1, limit)
			if n == limit {
				son[ptr1] = son[pair]
				son[ptr0] = son[pair+1]
				return
			}
		}
		if buf[pb+n] < buf[p+n] {
			son[ptr1] = cur
			ptr1 = pair + 1
			cur = son[ptr1]
			len1 = n
		} else {
			son[ptr0] = cur
			ptr0 = pair
			cur = son[ptr0]
			len0 = n
		}
	}
}
