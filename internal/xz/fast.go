package xz

// optimumFast is liblzma's "fast" mode (presets 0..3): take the longest
// match unless a rep match is nearly as long or the next position has a
// clearly better match, in which case emit a literal.

// changePair reports whether big is so much farther than small that the
// shorter, nearer match is worth more.
func changePair(small, big uint32) bool { return big>>7 > small }

func (e *encoder) optimumFast() symbol {
	lenMain, avail, repLens := e.windowStart()
	if avail < 2 {
		return symbol{len: 1, kind: symLit}
	}
	buf := e.buf
	pos := e.pos
	nice := e.p.nice
	repLen, repIndex := 0, 0
	for i, l := range repLens {
		if l >= nice {
			e.skip(l - 1)
			return e.repSymbol(i, l)
		}
		if l > repLen {
			repLen, repIndex = l, i
		}
	}
	matches := e.matches
	if lenMain >= nice {
		e.skip(lenMain - 1)
		return symbol{len: uint32(lenMain), dist: matches[len(matches)-1].dist, kind: symMatch}
	}
	var backMain uint32
	if lenMain >= 2 {
		n := len(matches)
		backMain = matches[n-1].dist
		for n > 1 && uint32(lenMain) == matches[n-2].len+1 {
			if !changePair(matches[n-2].dist, backMain) {
				break
			}
			n--
			lenMain = int(matches[n-1].len)
			backMain = matches[n-1].dist
		}
		if lenMain == 2 && backMain >= 0x80 {
			lenMain = 1
		}
	}
	if repLen >= 2 {
		if repLen+1 >= lenMain ||
			(repLen+2 >= lenMain && backMain > 1<<9) ||
			(repLen+3 >= lenMain && backMain > 1<<15) {
			e.skip(repLen - 1)
			return e.repSymbol(repIndex, repLen)
		}
	}
	if lenMain < 2 || avail <= 2 {
		return symbol{len: 1, kind: symLit}
	}
	// Look at the next position; its matches stay cached for the next call.
	nl := e.findMatches()
	if nl >= 2 {
		nd := e.matches[len(e.matches)-1].dist
		if (nl >= lenMain && nd < backMain) ||
			(nl == lenMain+1 && !changePair(backMain, nd)) ||
			nl > lenMain+1 ||
			(nl+1 >= lenMain && lenMain >= 3 && changePair(nd, backMain)) {
			return symbol{len: 1, kind: symLit}
		}
	}
	limit := max(2, lenMain-1)
	p := pos + 1
	for i := 0; i < numReps; i++ {
		back := p - int(e.reps[i]) - 1
		if back >= 0 && matchLen(buf, p, back, 0, limit) == limit {
			return symbol{len: 1, kind: symLit}
		}
	}
	e.skip(lenMain - 2)
	return symbol{len: uint32(lenMain), dist: backMain, kind: symMatch}
}
