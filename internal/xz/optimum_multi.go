package xz

// A multi-arrival optimal parser (WithArrivals): like optimumNormal it
// prices every way of covering the bytes ahead over a window, but each
// position keeps up to k cheapest ways of reaching it, each with its own
// state and reps, instead of one. liblzma's parser keeps only the
// cheapest, so a path that costs a little more to reach a position but
// leaves a more useful rep behind is lost there; its two-step sequences
// (match+literal+rep0, rep+literal+rep0) recover the commonest case, and
// this parser tries them too (addVia). It also prices with tables
// refreshed before every decision, where liblzma refreshes the distance
// prices every 128 matches and each length table once per as many
// lengths as it holds.
//
// On 12 slices of 64 KiB of real tables (best of 8 literal models each),
// the streams were 1.5% smaller with 2 arrivals, 2.1% with 4 and 2.3%
// with 8, for about 3x, 5x and 10x the time of liblzma's parser. Without
// the fresh length prices, 1.0%, 1.6% and 2.0%; without the two-step
// sequences, 1.0%, 1.8% and 2.1%.

// MaxArrivals is the most arrivals WithArrivals keeps per position.
const MaxArrivals = 8

// poolMax bounds the pooled arrivals of one window (addVia): at most 9,000
// on 12 slices of 64 KiB of real tables and the tests' structured input
// with 8 arrivals; past it a window tries no more two-step sequences, so
// that no input makes the parser's memory grow without bound.
const poolMax = 1 << 15

type arrival struct {
	price uint32
	reps  [numReps]uint32
	back  uint32 // backLit, a rep index < numReps, or dist+numReps
	from  uint16 // window offset of the arrival this one extends
	state uint8
	fromK int32 // its index at from, or -1-i for e.pool[i]
}

type arrivals struct {
	n     int
	worst uint32 // the dearest arrival's price
	a     [MaxArrivals]arrival
}

// add keeps an arrival of price p that extends arrival fromK at window
// offset from, if it is cheaper than an arrival with the same state and
// reps, or than the dearest arrival when k are kept.
func (s *arrivals) add(p uint32, reps *[numReps]uint32, back uint32, from, fromK int, state uint8, k int) bool {
	if s.n == k && p >= s.worst {
		// Not cheaper than any arrival kept, nor than one with its state
		// and reps (which costs at most worst).
		return false
	}
	slot := s.n
	for i := 0; i < s.n; i++ {
		a := &s.a[i]
		if a.state == state && a.reps == *reps {
			if p >= a.price {
				return false
			}
			slot = i
			break
		}
	}
	if slot == s.n && s.n == k {
		for i := 0; i < s.n; i++ {
			if s.a[i].price == s.worst {
				slot = i
				break
			}
		}
	}
	s.a[slot] = arrival{price: p, reps: *reps, back: back, from: uint16(from), fromK: int32(fromK), state: state}
	if slot == s.n {
		s.n++
	}
	w := s.a[0].price
	for i := 1; i < s.n; i++ {
		w = max(w, s.a[i].price)
	}
	s.worst = w
	return true
}

func (e *encoder) optimumMulti() symbol {
	lenMain, repLens, s, done := e.optimalStart()
	if done {
		return s
	}
	buf := e.buf
	pos := e.pos
	nice := e.p.nice
	repMaxLen := repLens[longestRep(&repLens)]
	mbPos := pos - int(e.reps[0]) - 1
	if lenMain < 2 && repMaxLen < 2 && (mbPos < 0 || buf[pos] != buf[mbPos]) {
		return symbol{len: 1, kind: symLit}
	}

	if e.arr == nil {
		e.arr = make([]arrivals, optsSize)
	}
	arr := e.arr
	arr[0] = arrivals{n: 1}
	arr[0].a[0] = arrival{state: e.state, reps: e.reps}
	e.pool = e.pool[:0]
	lenEnd := 0
	cur := 0
	for {
		lenEnd = e.expand(cur, lenEnd)
		cur++
		if cur >= lenEnd {
			break
		}
		if e.findMatches() >= nice {
			break
		}
	}
	// The cheapest arrival at cur, walked back.
	best := 0
	for i := 1; i < arr[cur].n; i++ {
		if arr[cur].a[i].price < arr[cur].a[best].price {
			best = i
		}
	}
	n := 0
	for q, k := cur, best; q > 0; {
		a := e.node(q, k)
		n++
		q, k = int(a.from), int(a.fromK)
	}
	if cap(e.queue) < n {
		e.queue = make([]symbol, n)
	}
	e.queue = e.queue[:n]
	for q, k, i := cur, best, n-1; q > 0; i-- {
		a := e.node(q, k)
		l := uint32(q - int(a.from))
		from := e.node(int(a.from), int(a.fromK))
		switch {
		case a.back == backLit:
			e.queue[i] = symbol{len: 1, kind: symLit}
		case a.back < numReps:
			e.queue[i] = symbol{len: l, dist: from.reps[a.back], kind: symRep + uint8(a.back)}
		default:
			e.queue[i] = symbol{len: l, dist: a.back - numReps, kind: symMatch}
		}
		q, k = int(a.from), int(a.fromK)
	}
	e.qi = 1
	return e.queue[0]
}

// node is the arrival k at window offset q, or a pooled one (k < 0).
func (e *encoder) node(q, k int) *arrival {
	if k < 0 {
		return &e.pool[-1-k]
	}
	return &e.arr[q].a[k]
}

// addVia adds the arrival at cur+l+1+lt2 that a copy of l bytes (back:
// a rep index or dist+numReps; st2 and reps2 the state and reps after
// it; p its price) then a literal then rep 0 reach, when rep 0 matches
// at least 2 bytes after the literal (liblzma's match+literal+rep0 and
// rep+literal+rep0). The copy and the literal are pooled: they need no
// place among their positions' arrivals.
func (e *encoder) addVia(cur, k, l int, back uint32, st2 uint8, reps2 *[numReps]uint32, p uint32, availFull int, lenEnd *int) {
	if len(e.pool) >= poolMax {
		return
	}
	buf := e.buf
	position := e.pos + cur
	back0 := position + l - int(reps2[0]) - 1
	if back0 < 0 {
		return
	}
	limit := min(availFull, l+1+e.p.nice)
	if l+1 >= limit {
		return
	}
	lt2 := matchLen(buf, position+l+1, back0+1, 0, limit-(l+1))
	if lt2 < 2 {
		return
	}
	ps := uint32(position+l) & e.posMask
	pl := p + price0(e.isMatch[st2][ps]) + e.litPrice(position+l, st2, buf[back0])
	st3 := nextLit(st2)
	ps1 := uint32(position+l+1) & e.posMask
	pr := pl + price1(e.isMatch[st3][ps1]) + price1(e.isRep[st3]) + e.repPrice(0, uint32(lt2), st3, ps1)
	off := cur + l + 1 + lt2
	for *lenEnd < off {
		*lenEnd++
		e.arr[*lenEnd].n = 0
	}
	i := len(e.pool)
	if e.arr[off].add(pr, reps2, 0, cur+l+1, -2-i, nextRep(st3), e.p.arrivals) {
		e.pool = append(e.pool,
			arrival{price: p, reps: *reps2, back: back, from: uint16(cur), fromK: int32(k), state: st2},
			arrival{price: pl, reps: *reps2, back: backLit, from: uint16(cur + l), fromK: int32(-1 - i), state: st3})
	}
}

// expand adds to the window every way of going on from the arrivals at
// cur, whose matches e.matches holds, and returns the new window end.
func (e *encoder) expand(cur, lenEnd int) int {
	arr := e.arr
	buf := e.buf
	kmax := e.p.arrivals
	position := e.pos + cur
	availFull := min(len(buf)-position, optsSize-1-cur)
	avail := min(availFull, e.p.nice)
	grow := func(to int) {
		for lenEnd < to {
			lenEnd++
			arr[lenEnd].n = 0
		}
	}
	grow(cur + 1)
	matches := e.matches
	newLen := 0
	if len(matches) > 0 {
		newLen = int(matches[len(matches)-1].len)
	}
	if newLen > avail {
		newLen = avail
		i := 0
		for uint32(newLen) > matches[i].len {
			i++
		}
		matches = matches[:i+1]
	}
	// Each match's distance priced once for every arrival.
	if cap(e.dps) < len(matches) {
		e.dps = make([][distStates]uint32, len(matches), matchLenMax)
	}
	dps := e.dps[:len(matches)]
	for i, m := range matches {
		e.distPrices4(m.dist, &dps[i])
	}
	if availFull >= 2 {
		grow(cur + max(newLen, 0))
	}
	ps := uint32(position) & e.posMask
	curByte := buf[position]
	set := &arr[cur]
	for k := 0; k < set.n; k++ {
		a := set.a[k]
		st := a.state
		mbPos := position - int(a.reps[0]) - 1
		matchByte := ^curByte
		if mbPos >= 0 {
			matchByte = buf[mbPos]
		}
		arr[cur+1].add(a.price+price0(e.isMatch[st][ps])+e.litPrice(position, st, matchByte), &a.reps, backLit, cur, k, nextLit(st), kmax)
		matchPrice := a.price + price1(e.isMatch[st][ps])
		repMatchPrice := matchPrice + price1(e.isRep[st])
		if matchByte == curByte && mbPos >= 0 {
			arr[cur+1].add(repMatchPrice+e.shortRepPrice(st, ps), &a.reps, 0, cur, k, nextShortRep(st), kmax)
		}
		if availFull < 2 {
			continue
		}
		for ri := 0; ri < numReps; ri++ {
			back := position - int(a.reps[ri]) - 1
			if back < 0 || buf[position] != buf[back] || buf[position+1] != buf[back+1] {
				continue
			}
			lt := matchLen(buf, position, back, 2, avail)
			grow(cur + lt)
			reps := a.reps
			d := reps[ri]
			copy(reps[1:ri+1], reps[:ri])
			reps[0] = d
			price := repMatchPrice + e.pureRepPrice(ri, st, ps)
			nst := nextRep(st)
			for l := 2; l <= lt; l++ {
				arr[cur+l].add(price+e.repLen.price(uint32(l), ps), &reps, uint32(ri), cur, k, nst, kmax)
			}
			e.addVia(cur, k, lt, uint32(ri), nst, &reps, price+e.repLen.price(uint32(lt), ps), availFull, &lenEnd)
		}
		if newLen < 2 {
			continue
		}
		normalMatchPrice := matchPrice + price0(e.isRep[st])
		nst := nextMatch(st)
		l := 2
		for i, m := range matches {
			reps := [numReps]uint32{m.dist, a.reps[0], a.reps[1], a.reps[2]}
			end := min(int(m.len), newLen)
			for ; l <= end; l++ {
				arr[cur+l].add(normalMatchPrice+dps[i][distState(uint32(l))]+e.matchLen.price(uint32(l), ps), &reps, m.dist+numReps, cur, k, nst, kmax)
			}
			if end == int(m.len) {
				e.addVia(cur, k, end, m.dist+numReps, nst, &reps, normalMatchPrice+dps[i][distState(uint32(end))]+e.matchLen.price(uint32(end), ps), availFull, &lenEnd)
			}
		}
	}
	return lenEnd
}
