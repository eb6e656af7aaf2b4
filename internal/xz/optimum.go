package xz

// The optimal parser (liblzma's "normal" mode, from the LZMA SDK): from the
// current position it prices every way of covering the next bytes - a
// literal, a short rep, a rep match, a normal match, and the two-step
// sequences match+literal+rep0 and rep+literal+rep0 - over a window of up
// to optsSize positions, then walks the cheapest path backwards.

const optsSize = 1 << 12

const backLit = ^uint32(0)

type optimal struct {
	state      uint8
	prev1IsLit bool
	prev2      bool
	posPrev2   uint32
	backPrev2  uint32
	price      uint32
	posPrev    uint32
	backPrev   uint32 // backLit, a rep index < numReps, or dist+numReps
	backs      [numReps]uint32
}

func (o *optimal) makeLiteral() {
	o.backPrev = backLit
	o.prev1IsLit = false
}

// next returns the next symbol to encode at e.pos.
func (e *encoder) next() symbol {
	if e.qi < len(e.queue) {
		s := e.queue[e.qi]
		e.qi++
		return s
	}
	e.queue = e.queue[:0]
	e.qi = 0
	if e.p.fast {
		return e.optimumFast()
	}
	// As in liblzma, the distance prices are refreshed only when every
	// position found has been encoded.
	if e.readAhead == 0 {
		distEvery, alignEvery := 1<<7, alignSize
		if e.p.arrivals > 1 {
			// The multi-arrival parser prices with fresh tables: they
			// change only when a match was encoded since.
			distEvery, alignEvery = 1, 1
		}
		if e.matchPriceCount >= distEvery {
			e.fillDistPrices()
		}
		if e.alignPriceCount >= alignEvery {
			e.fillAlignPrices()
		}
	}
	if e.p.arrivals > 1 {
		return e.optimumMulti()
	}
	return e.optimumNormal()
}

func (e *encoder) repSymbol(rep int, l int) symbol {
	return symbol{len: uint32(l), dist: e.reps[rep], kind: symRep + uint8(rep)}
}

// windowStart is what every parser looks at first: the longest match at
// e.pos (found now, or found when the previous window ended there), the
// bytes left to match (at most matchLenMax; under 2 the parser writes a
// literal) and each rep's match length there (0 when under 2 bytes).
func (e *encoder) windowStart() (lenMain, avail int, repLens [numReps]int) {
	if e.readAhead == 0 {
		lenMain = e.findMatches()
	} else {
		lenMain = e.longest
	}
	buf, pos := e.buf, e.pos
	avail = min(len(buf)-pos, matchLenMax)
	if avail < 2 {
		return lenMain, avail, repLens
	}
	for i := 0; i < numReps; i++ {
		back := pos - int(e.reps[i]) - 1
		if back < 0 || buf[pos] != buf[back] || buf[pos+1] != buf[back+1] {
			continue
		}
		repLens[i] = matchLen(buf, pos, back, 2, avail)
	}
	return lenMain, avail, repLens
}

// longestRep is the index of the longest of repLens, the first on ties.
func longestRep(repLens *[numReps]int) int {
	repMax := 0
	for i := 1; i < numReps; i++ {
		if repLens[i] > repLens[repMax] {
			repMax = i
		}
	}
	return repMax
}

// optimalStart is windowStart for the optimal parsers, which take some
// symbols unpriced (done): a literal when fewer than 2 bytes are left,
// else the longest rep, or else the longest match, when it reaches the
// nice length.
func (e *encoder) optimalStart() (lenMain int, repLens [numReps]int, s symbol, done bool) {
	lenMain, avail, repLens := e.windowStart()
	if avail < 2 {
		return lenMain, repLens, symbol{len: 1, kind: symLit}, true
	}
	repMax := longestRep(&repLens)
	if l := repLens[repMax]; l >= e.p.nice {
		e.skip(l - 1)
		return lenMain, repLens, e.repSymbol(repMax, l), true
	}
	if lenMain >= e.p.nice {
		e.skip(lenMain - 1)
		return lenMain, repLens, symbol{len: uint32(lenMain), dist: e.matches[len(e.matches)-1].dist, kind: symMatch}, true
	}
	return lenMain, repLens, symbol{}, false
}

func (e *encoder) optimumNormal() symbol {
	lenMain, repLens, s, done := e.optimalStart()
	if done {
		return s
	}
	buf := e.buf
	pos := e.pos
	nice := e.p.nice
	repMax := longestRep(&repLens)
	matches := e.matches
	curByte := buf[pos]
	mbPos := pos - int(e.reps[0]) - 1
	matchByte := ^curByte
	if mbPos >= 0 {
		matchByte = buf[mbPos]
	}
	if lenMain < 2 && curByte != matchByte && repLens[repMax] < 2 {
		return symbol{len: 1, kind: symLit}
	}

	opts := e.opts
	st := e.state
	ps := uint32(pos) & e.posMask
	opts[0].state = st
	opts[1].price = price0(e.isMatch[st][ps]) + e.litPrice(pos, st, matchByte)
	opts[1].makeLiteral()
	matchPrice := price1(e.isMatch[st][ps])
	repMatchPrice := matchPrice + price1(e.isRep[st])
	if matchByte == curByte {
		p := repMatchPrice + e.shortRepPrice(st, ps)
		if p < opts[1].price {
			opts[1].price = p
			opts[1].backPrev = 0
		}
	}
	lenEnd := max(lenMain, repLens[repMax])
	if lenEnd < 2 {
		if opts[1].backPrev == 0 {
			return e.repSymbol(0, 1)
		}
		return symbol{len: 1, kind: symLit}
	}
	opts[1].posPrev = 0
	opts[0].backs = e.reps
	for l := lenEnd; l >= 2; l-- {
		opts[l].price = infinityPrice
	}
	for i := 0; i < numReps; i++ {
		rl := repLens[i]
		if rl < 2 {
			continue
		}
		price := repMatchPrice + e.pureRepPrice(i, st, ps)
		for l := rl; l >= 2; l-- {
			p := price + e.repLen.price(uint32(l), ps)
			if p < opts[l].price {
				opts[l] = optimal{price: p, posPrev: 0, backPrev: uint32(i)}
			}
		}
	}
	normalMatchPrice := matchPrice + price0(e.isRep[st])
	l := 2
	if repLens[0] >= 2 {
		l = repLens[0] + 1
	}
	if l <= lenMain {
		i := 0
		for uint32(l) > matches[i].len {
			i++
		}
		var dp [distStates]uint32
		e.distPrices4(matches[i].dist, &dp)
		for ; ; l++ {
			dist := matches[i].dist
			p := normalMatchPrice + dp[distState(uint32(l))] + e.matchLen.price(uint32(l), ps)
			if p < opts[l].price {
				opts[l] = optimal{price: p, posPrev: 0, backPrev: dist + numReps}
			}
			if uint32(l) == matches[i].len {
				i++
				if i == len(matches) {
					break
				}
				e.distPrices4(matches[i].dist, &dp)
			}
		}
	}

	cur := 1
	for ; cur < lenEnd; cur++ {
		newLen := e.findMatches()
		if newLen >= nice {
			break
		}
		lenEnd = e.helper2(cur, lenEnd, newLen, pos+cur)
	}
	e.backward(cur)
	e.qi = 1
	return e.queue[0]
}

// backward turns the path ending at cur into queued symbols.
func (e *encoder) backward(cur int) {
	opts := e.opts
	end := cur
	posMem := opts[cur].posPrev
	backMem := opts[cur].backPrev
	for {
		if opts[cur].prev1IsLit {
			opts[posMem].makeLiteral()
			opts[posMem].posPrev = posMem - 1
			if opts[cur].prev2 {
				opts[posMem-1].prev1IsLit = false
				opts[posMem-1].posPrev = opts[cur].posPrev2
				opts[posMem-1].backPrev = opts[cur].backPrev2
			}
		}
		posPrev := posMem
		backCur := backMem
		backMem = opts[posPrev].backPrev
		posMem = opts[posPrev].posPrev
		opts[posPrev].backPrev = backCur
		opts[posPrev].posPrev = uint32(cur)
		cur = int(posPrev)
		if cur == 0 {
			break
		}
	}
	reps := e.reps
	for i := 0; i < end; {
		next := int(opts[i].posPrev)
		back := opts[i].backPrev
		l := uint32(next - i)
		switch {
		case back == backLit:
			e.queue = append(e.queue, symbol{len: 1, kind: symLit})
		case back < numReps:
			d := reps[back]
			if l > 1 {
				copy(reps[1:back+1], reps[:back])
				reps[0] = d
			}
			e.queue = append(e.queue, symbol{len: l, dist: d, kind: symRep + uint8(back)})
		default:
			d := back - numReps
			reps[3], reps[2], reps[1], reps[0] = reps[2], reps[1], reps[0], d
			e.queue = append(e.queue, symbol{len: l, dist: d, kind: symMatch})
		}
		i = next
	}
}

func (e *encoder) helper2(cur, lenEnd, newLen, position int) int {
	opts := e.opts
	buf := e.buf
	nice := e.p.nice
	o := &opts[cur]
	posPrev := int(o.posPrev)
	var st uint8
	if o.prev1IsLit {
		posPrev--
		if o.prev2 {
			st = opts[o.posPrev2].state
			if o.backPrev2 < numReps {
				st = nextRep(st)
			} else {
				st = nextMatch(st)
			}
		} else {
			st = opts[posPrev].state
		}
		st = nextLit(st)
	} else {
		st = opts[posPrev].state
	}
	// The reps are built in place in o.backs: a local array copied there
	// whole would be one 16-byte load of 4-byte stores, which the CPU
	// cannot forward.
	reps := &o.backs
	if posPrev == cur-1 {
		if o.backPrev == 0 {
			st = nextShortRep(st)
		} else {
			st = nextLit(st)
		}
		*reps = opts[posPrev].backs
	} else {
		var back uint32
		if o.prev1IsLit && o.prev2 {
			posPrev = int(o.posPrev2)
			back = o.backPrev2
			st = nextRep(st)
		} else {
			back = o.backPrev
			if back < numReps {
				st = nextRep(st)
			} else {
				st = nextMatch(st)
			}
		}
		pb := &opts[posPrev].backs
		if back < numReps {
			reps[0] = pb[back]
			i := uint32(1)
			for ; i <= back; i++ {
				reps[i] = pb[i-1]
			}
			for ; i < numReps; i++ {
				reps[i] = pb[i]
			}
		} else {
			reps[0] = back - numReps
			reps[1], reps[2], reps[3] = pb[0], pb[1], pb[2]
		}
	}
	o.state = st

	curPrice := o.price
	curByte := buf[position]
	matchByte := buf[position-int(reps[0])-1]
	ps := uint32(position) & e.posMask
	cur1Price := curPrice + price0(e.isMatch[st][ps]) + e.litPrice(position, st, matchByte)
	nextIsLit := false
	if n := &opts[cur+1]; cur1Price < n.price {
		n.price = cur1Price
		n.posPrev = uint32(cur)
		n.makeLiteral()
		nextIsLit = true
	}
	matchPrice := curPrice + price1(e.isMatch[st][ps])
	repMatchPrice := matchPrice + price1(e.isRep[st])
	if n := &opts[cur+1]; matchByte == curByte && !(int(n.posPrev) < cur && n.backPrev == 0) {
		p := repMatchPrice + e.shortRepPrice(st, ps)
		if p <= n.price {
			n.price = p
			n.posPrev = uint32(cur)
			n.backPrev = 0
			n.prev1IsLit = false
			nextIsLit = true
		}
	}
	availFull := min(len(buf)-position, optsSize-1-cur)
	if availFull < 2 {
		return lenEnd
	}
	avail := min(availFull, nice)

	// literal + rep0
	if !nextIsLit && matchByte != curByte {
		back := position - int(reps[0]) - 1
		limit := min(availFull, nice+1)
		lt2 := matchLen(buf, position, back, 1, limit) - 1
		if lt2 >= 2 {
			st2 := nextLit(st)
			psn := uint32(position+1) & e.posMask
			nextRepPrice := cur1Price + price1(e.isMatch[st2][psn]) + price1(e.isRep[st2])
			off := cur + 1 + lt2
			for lenEnd < off {
				lenEnd++
				opts[lenEnd].price = infinityPrice
			}
			p := nextRepPrice + e.repPrice(0, uint32(lt2), st2, psn)
			if p < opts[off].price {
				opts[off].price = p
				opts[off].posPrev = uint32(cur + 1)
				opts[off].backPrev = 0
				opts[off].prev1IsLit = true
				opts[off].prev2 = false
			}
		}
	}

	startLen := 2
	for ri := 0; ri < numReps; ri++ {
		back := position - int(reps[ri]) - 1
		if back < 0 || buf[position] != buf[back] || buf[position+1] != buf[back+1] {
			continue
		}
		lt := matchLen(buf, position, back, 2, avail)
		for lenEnd < cur+lt {
			lenEnd++
			opts[lenEnd].price = infinityPrice
		}
		price := repMatchPrice + e.pureRepPrice(ri, st, ps)
		for l := lt; l >= 2; l-- {
			p := price + e.repLen.price(uint32(l), ps)
			if n := &opts[cur+l]; p < n.price {
				n.price = p
				n.posPrev = uint32(cur)
				n.backPrev = uint32(ri)
				n.prev1IsLit = false
			}
		}
		if ri == 0 {
			startLen = lt + 1
		}
		// rep + literal + rep0
		limit := min(availFull, lt+1+nice)
		lt2 := 0
		if lt+1 < limit {
			lt2 = matchLen(buf, position, back, lt+1, limit) - (lt + 1)
		}
		if lt2 >= 2 {
			st2 := nextRep(st)
			psn := uint32(position+lt) & e.posMask
			p := price + e.repLen.price(uint32(lt), ps) +
				price0(e.isMatch[st2][psn]) +
				e.litPrice(position+lt, st2, buf[back+lt])
			st2 = nextLit(st2)
			psn = uint32(position+lt+1) & e.posMask
			p += price1(e.isMatch[st2][psn]) + price1(e.isRep[st2])
			off := cur + lt + 1 + lt2
			for lenEnd < off {
				lenEnd++
				opts[lenEnd].price = infinityPrice
			}
			p += e.repPrice(0, uint32(lt2), st2, psn)
			if n := &opts[off]; p < n.price {
				n.price = p
				n.posPrev = uint32(cur + lt + 1)
				n.backPrev = 0
				n.prev1IsLit = true
				n.prev2 = true
				n.posPrev2 = uint32(cur)
				n.backPrev2 = uint32(ri)
			}
		}
	}

	matches := e.matches
	if newLen > avail {
		newLen = avail
		i := 0
		for uint32(newLen) > matches[i].len {
			i++
		}
		matches[i].len = uint32(newLen)
		matches = matches[:i+1]
	}
	if newLen >= startLen {
		normalMatchPrice := matchPrice + price0(e.isRep[st])
		for lenEnd < cur+newLen {
			lenEnd++
			opts[lenEnd].price = infinityPrice
		}
		i := 0
		for uint32(startLen) > matches[i].len {
			i++
		}
		var dp [distStates]uint32
		e.distPrices4(matches[i].dist, &dp)
		for lt := startLen; ; lt++ {
			dist := matches[i].dist
			p := normalMatchPrice + dp[distState(uint32(lt))] + e.matchLen.price(uint32(lt), ps)
			if n := &opts[cur+lt]; p < n.price {
				n.price = p
				n.posPrev = uint32(cur)
				n.backPrev = dist + numReps
				n.prev1IsLit = false
			}
			if uint32(lt) == matches[i].len {
				// match + literal + rep0
				back := position - int(dist) - 1
				limit := min(availFull, lt+1+nice)
				lt2 := 0
				if lt+1 < limit {
					lt2 = matchLen(buf, position, back, lt+1, limit) - (lt + 1)
				}
				if lt2 >= 2 {
					st2 := nextMatch(st)
					psn := uint32(position+lt) & e.posMask
					q := p + price0(e.isMatch[st2][psn]) +
						e.litPrice(position+lt, st2, buf[back+lt])
					st2 = nextLit(st2)
					psn = (psn + 1) & e.posMask
					q += price1(e.isMatch[st2][psn]) + price1(e.isRep[st2])
					off := cur + lt + 1 + lt2
					for lenEnd < off {
						lenEnd++
						opts[lenEnd].price = infinityPrice
					}
					q += e.repPrice(0, uint32(lt2), st2, psn)
					if n := &opts[off]; q < n.price {
						n.price = q
						n.posPrev = uint32(cur + lt + 1)
						n.backPrev = 0
						n.prev1IsLit = true
						n.prev2 = true
						n.posPrev2 = uint32(cur)
						n.backPrev2 = dist + numReps
					}
				}
				i++
				if i == len(matches) {
					break
				}
				e.distPrices4(matches[i].dist, &dp)
			}
		}
	}
	return lenEnd
}
