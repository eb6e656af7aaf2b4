package xz

import "sync"

// symbol is one parser decision, written as the parser priced it: a
// literal, a copy of len bytes from dist+1 back with a new distance, or
// a copy with rep i (kind symRep+i; len 1 with rep 0 is a "short rep").
// A new-distance copy stays one even when dist equals a rep, and a rep
// keeps its index when two reps hold the same distance, as in liblzma.
type symbol struct {
	len  uint32
	dist uint32
	kind uint8
}

const (
	symLit = iota
	symMatch
	symRep // symRep+i: rep i
)

// encoder turns a block into LZMA symbols. pos is the next byte to encode;
// the match finder runs readAhead bytes ahead of it.
type encoder struct {
	lzmaState
	p         params
	buf       []byte
	mf        *matchFinder
	rc        rangeEncoder
	pos       int
	readAhead int

	matches []match
	longest int // longest match at mf.pos-1 when readAhead > 0

	queue []symbol // decided symbols not yet encoded
	qi    int

	distSlotPrices  [distStates][1 << slotBits]uint32
	distPrices      [distStates][fullDistances]uint32
	alignPrices     [alignSize]uint32
	matchPriceCount int
	alignPriceCount int

	opts []optimal
	arr  []arrivals
	pool []arrival // the multi-arrival parser's arrivals between others
	dps  [][distStates]uint32

	rec *matchRec // when not nil, mf has no tables: find and skip replay rec
}

func newEncoder(p params, buf []byte, s *scratch, rec *matchRec) *encoder {
	// A scratch's encoder is reused from call to call: every field is set
	// here or by resetState before it is read (the price tables are filled
	// before the parser's first use; the parser's window, like liblzma's,
	// is written before it is read), so only the model is re-initialised.
	var e *encoder
	if s != nil && s.enc != nil {
		e = s.enc
	} else {
		e = new(encoder)
		if s != nil {
			s.enc = e
		}
	}
	e.p, e.buf, e.rec = p, buf, rec
	e.pos, e.readAhead, e.longest = 0, 0, 0
	e.queue, e.qi = e.queue[:0], 0
	if rec != nil {
		e.mf = &matchFinder{kind: p.mf, buf: buf, nice: p.nice, depth: p.depth}
	} else {
		e.mf = newMatchFinder(p, buf, s)
	}
	e.lc, e.lpMask, e.posMask = p.lc, 1<<p.lp-1, 1<<p.pb-1
	if e.matches == nil {
		e.matches = make([]match, 0, matchLenMax+1)
	}
	e.matches = e.matches[:0]
	e.opts = e.opts[:0]
	if !p.fast {
		// The parser's offsets never pass the end of the block.
		n := min(optsSize, len(buf)+2)
		if cap(e.opts) < n {
			e.opts = make([]optimal, n)
		}
		e.opts = e.opts[:n]
	}
	if n := min(chunkCompMax, len(buf)) + chunkMargin; cap(e.rc.buf) < n {
		e.rc.buf = make([]byte, 0, n)
	}
	// The optimal parser prices lengths up to nice only (every path
	// limits them to it), and liblzma's tables have exactly that many
	// entries: their size is also how many lengths pass between refreshes.
	// No length passes the block's size.
	table := min(p.nice+1-matchLenMin, max(1, len(buf)-1))
	if p.fast {
		table = 0 // the fast parser reads no prices
	}
	e.matchLen.table = table
	e.repLen.table = table
	e.resetState()
	return e
}

// release drops the encoder's references to the block and the match
// finder, so that a pooled scratch keeps no caller's data alive.
func (e *encoder) release() {
	e.buf, e.rec, e.mf = nil, nil, nil
}

// resetState is an LZMA2 state reset: model, state and reps back to their
// initial values. Symbols still queued were decided under the old reps:
// after a reset the caller rewrites them (rebaseQueue).
func (e *encoder) resetState() {
	e.lzmaState.reset()
	e.matchPriceCount = 1 << 30
	e.alignPriceCount = 1 << 30
}

// rebaseQueue rewrites the queued symbols for the reps a state reset
// left: a rep whose distance is no longer a rep becomes a match with that
// distance, a short rep whose distance is not rep 0 a literal, and a rep
// whose distance moved takes its new index. Until 2026-12-02 they were
// encoded with their old indexes, so a stored chunk (after which the
// state is reset) followed by an LZMA chunk while a rep was queued across
// the boundary decoded wrongly (TestStoredChunkThenQueuedRep).
func (e *encoder) rebaseQueue() {
	reps := e.reps
	for i := e.qi; i < len(e.queue); i++ {
		s := &e.queue[i]
		if s.kind == symLit {
			continue
		}
		j := numReps
		if s.kind != symMatch {
			for j = 0; j < numReps && reps[j] != s.dist; j++ {
			}
		}
		switch {
		case s.kind != symMatch && s.len == 1 && j != 0:
			*s = symbol{len: 1, kind: symLit}
		case j == numReps:
			*s = symbol{len: s.len, dist: s.dist, kind: symMatch}
			reps = [numReps]uint32{s.dist, reps[0], reps[1], reps[2]}
		default:
			s.kind = symRep + uint8(j)
			if s.len > 1 {
				copy(reps[1:j+1], reps[:j])
				reps[0] = s.dist
			}
		}
	}
}

// findMatches runs the match finder at mf.pos and returns the longest
// length, extended past nice up to matchLenMax as liblzma does.
func (e *encoder) findMatches() int {
	if e.rec != nil {
		e.replayFind()
	} else {
		e.matches = e.mf.find(e.matches)
	}
	e.readAhead++
	n := len(e.matches)
	if n == 0 {
		e.longest = 0
		return 0
	}
	l := int(e.matches[n-1].len)
	if l == e.p.nice {
		p := e.mf.pos - 1
		limit := min(len(e.buf)-p, matchLenMax)
		l = matchLen(e.buf, p, p-int(e.matches[n-1].dist)-1, l, limit)
	}
	e.longest = l
	return l
}

func (e *encoder) skip(n int) {
	if n > 0 {
		if e.rec != nil {
			e.mf.pos += n
		} else {
			e.mf.skip(n)
		}
		e.readAhead += n
	}
}

// encodeSymbol writes s at e.pos and advances.
func (e *encoder) encodeSymbol(s symbol) {
	rc := &e.rc
	ps := uint32(e.pos) & e.posMask
	st := e.state
	if s.kind == symLit {
		rc.bit(&e.isMatch[st][ps], 0)
		var prev byte
		if e.pos > 0 {
			prev = e.buf[e.pos-1]
		}
		probs := litProbs(&e.lzmaState, e.pos, prev)
		cur := uint32(e.buf[e.pos])
		if st < litStates {
			encodeLiteral(rc, probs, cur)
		} else {
			encodeMatchedLiteral(rc, probs, cur, uint32(e.buf[e.pos-int(e.reps[0])-1]))
		}
		e.state = nextLit(st)
		e.pos++
		return
	}
	rc.bit(&e.isMatch[st][ps], 1)
	if s.kind == symMatch {
		rc.bit(&e.isRep[st], 0)
		e.encodeMatch(s.dist, s.len, ps)
		e.reps[3], e.reps[2], e.reps[1], e.reps[0] = e.reps[2], e.reps[1], e.reps[0], s.dist
		e.state = nextMatch(st)
		e.pos += int(s.len)
		return
	}
	rep := int(s.kind - symRep)
	d := e.reps[rep]
	rc.bit(&e.isRep[st], 1)
	if rep == 0 {
		rc.bit(&e.isRepG0[st], 0)
		if s.len == 1 {
			rc.bit(&e.isRep0Long[st][ps], 0)
			e.state = nextShortRep(st)
			e.pos++
			return
		}
		rc.bit(&e.isRep0Long[st][ps], 1)
	} else {
		rc.bit(&e.isRepG0[st], 1)
		if rep == 1 {
			rc.bit(&e.isRepG1[st], 0)
		} else {
			rc.bit(&e.isRepG1[st], 1)
			rc.bit(&e.isRepG2[st], uint32(rep-2))
			if rep == 3 {
				e.reps[3] = e.reps[2]
			}
			e.reps[2] = e.reps[1]
		}
		e.reps[1] = e.reps[0]
		e.reps[0] = d
	}
	e.repLen.encode(rc, s.len, ps, !e.p.fast)
	if e.p.arrivals > 1 {
		e.repLen.updatePrices(ps)
	}
	e.state = nextRep(st)
	e.pos += int(s.len)
}

func (e *encoder) encodeMatch(dist, l, ps uint32) {
	rc := &e.rc
	e.matchLen.encode(rc, l, ps, !e.p.fast)
	if e.p.arrivals > 1 {
		e.matchLen.updatePrices(ps)
	}
	slot := distSlot(dist)
	rc.tree(e.distSlot[distState(l)][:], slotBits, slot)
	if slot >= distModelStart {
		footer := int(slot>>1) - 1
		base := (2 | slot&1) << uint(footer)
		reduced := dist - base
		if slot < distModelEnd {
			rc.reverseTree(e.distSpecial[base-slot:], footer, reduced)
		} else {
			rc.direct(reduced>>alignBits, footer-alignBits)
			rc.reverseTree(e.align[:], alignBits, reduced&alignMask)
			e.alignPriceCount++
		}
	}
	e.matchPriceCount++
}

// Prices used by the optimal parser.

// initDistPrices is the distance price tables of a model just reset,
// built on first use.
var initDistPrices = sync.OnceValue(func() *distPriceTables {
	var e encoder
	e.lzmaState.reset()
	e.computeDistPrices()
	return &distPriceTables{e.distSlotPrices, e.distPrices}
})

type distPriceTables struct {
	slot [distStates][1 << slotBits]uint32
	dist [distStates][fullDistances]uint32
}

func (e *encoder) fillDistPrices() {
	if e.matchPriceCount == 1<<30 {
		// No match since resetState (encodeMatch counts them): the
		// distance probabilities are all initial, and so are the tables.
		t := initDistPrices()
		e.distSlotPrices, e.distPrices = t.slot, t.dist
		e.matchPriceCount = 0
		return
	}
	e.computeDistPrices()
	e.matchPriceCount = 0
}

func (e *encoder) computeDistPrices() {
	for ds := 0; ds < distStates; ds++ {
		sp := &e.distSlotPrices[ds]
		for slot := uint32(0); slot < 1<<slotBits; slot++ {
			sp[slot] = treePrice(e.distSlot[ds][:], slotBits, slot)
			if slot >= distModelEnd {
				sp[slot] += ((slot >> 1) - 1 - alignBits) << priceShift
			}
		}
		dp := &e.distPrices[ds]
		for i := uint32(0); i < distModelStart; i++ {
			dp[i] = sp[i]
		}
		for i := uint32(distModelStart); i < fullDistances; i++ {
			slot := distSlot(i)
			footer := int(slot>>1) - 1
			base := (2 | slot&1) << uint(footer)
			dp[i] = sp[slot] + reverseTreePrice(e.distSpecial[base-slot:], footer, i-base)
		}
	}
}

func (e *encoder) fillAlignPrices() {
	for i := uint32(0); i < alignSize; i++ {
		e.alignPrices[i] = reverseTreePrice(e.align[:], alignBits, i)
	}
	e.alignPriceCount = 0
}

// distPrices4 sets p to dist's price after a match length of each length
// state; the parser adds the length's price (matchLen.price) itself, so a
// match's distance is priced once, not once per length tried. It writes
// through p rather than returning the array: the caller then reads the
// same 4-byte words that were stored, where a returned array was copied
// with one 16-byte load of four 4-byte stores, which the CPU cannot
// forward (a stall of a dozen cycles per match).
func (e *encoder) distPrices4(dist uint32, p *[distStates]uint32) {
	if dist < fullDistances {
		for ds := range p {
			p[ds] = e.distPrices[ds][dist]
		}
		return
	}
	slot := distSlot(dist)
	a := e.alignPrices[dist&alignMask]
	for ds := range p {
		p[ds] = e.distSlotPrices[ds][slot] + a
	}
}

func (e *encoder) shortRepPrice(st uint8, ps uint32) uint32 {
	return price0(e.isRepG0[st]) + price0(e.isRep0Long[st][ps])
}

func (e *encoder) pureRepPrice(rep int, st uint8, ps uint32) uint32 {
	if rep == 0 {
		return price0(e.isRepG0[st]) + price1(e.isRep0Long[st][ps])
	}
	price := price1(e.isRepG0[st])
	if rep == 1 {
		return price + price0(e.isRepG1[st])
	}
	return price + price1(e.isRepG1[st]) + priceBit(e.isRepG2[st], uint32(rep-2))
}

func (e *encoder) repPrice(rep int, l uint32, st uint8, ps uint32) uint32 {
	return e.pureRepPrice(rep, st, ps) + e.repLen.price(l, ps)
}

// litPrice prices the byte at position p in state st with match byte mb.
func (e *encoder) litPrice(p int, st uint8, mb byte) uint32 {
	var prev byte
	if p > 0 {
		prev = e.buf[p-1]
	}
	probs := litProbs(&e.lzmaState, p, prev)
	if st < litStates {
		return literalPrice(probs, uint32(e.buf[p]))
	}
	return matchedLiteralPrice(probs, uint32(e.buf[p]), uint32(mb))
}
