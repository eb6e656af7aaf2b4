package xz

import (
	"math/bits"
	"sync"
)

// The LZMA model. Every xz preset uses lc=3, lp=0, pb=2 (the defaults
// here); WithLiteralModel sets lc 0..4, lp 0..4 (lc+lp <= 4) and pb 0..2.
// Tables are sized for the largest lc+lp and pb.
const (
	defaultLC      = 3
	defaultPB      = 2
	maxLC          = 4
	maxPB          = 2
	posStates      = 1 << maxPB
	numStates      = 12
	numReps        = 4
	lenLowBits     = 3
	lenMidBits     = 3
	lenHighBits    = 8
	lenLow         = 1 << lenLowBits
	lenMid         = 1 << lenMidBits
	lenSymbols     = lenLow + lenMid + 1<<lenHighBits
	distStates     = 4
	slotBits       = 6
	distModelStart = 4
	distModelEnd   = 14
	fullDistances  = 1 << (distModelEnd >> 1)
	alignBits      = 4
	alignSize      = 1 << alignBits
	alignMask      = alignSize - 1
	// literalState: the states below 7 follow a literal.
	litStates = 7
)

func nextLit(s uint8) uint8 {
	switch {
	case s < 4:
		return 0
	case s < 10:
		return s - 3
	}
	return s - 6
}

func nextMatch(s uint8) uint8 {
	if s < litStates {
		return 7
	}
	return 10
}

func nextRep(s uint8) uint8 {
	if s < litStates {
		return 8
	}
	return 11
}

func nextShortRep(s uint8) uint8 {
	if s < litStates {
		return 9
	}
	return 11
}

func distState(l uint32) uint32 {
	if l < distStates+matchLenMin {
		return l - matchLenMin
	}
	return distStates - 1
}

// distSlot returns the slot of dist (distance-1): the two top bits of dist.
func distSlot(d uint32) uint32 {
	if d < distModelStart {
		return d
	}
	n := uint32(bits.Len32(d)) - 1
	return n<<1 | (d>>(n-1))&1
}

type lenEncoder struct {
	choice  prob
	choice2 prob
	low     [posStates][lenLow]prob
	mid     [posStates][lenMid]prob
	high    [1 << lenHighBits]prob
	prices  [posStates][lenSymbols]uint32
	counter [posStates]int
	table   int // lengths priced: nice-1
}

func (le *lenEncoder) reset() {
	le.choice, le.choice2 = probInit, probInit
	for i := range le.low {
		initProbs(le.low[i][:])
		initProbs(le.mid[i][:])
	}
	initProbs(le.high[:])
	// With every probability at its initial value the tables are the same
	// for every posState and every stream: copy them.
	for ps := range le.counter {
		copy(le.prices[ps][:le.table], initLenPrices()[:le.table])
		le.counter[ps] = le.table
	}
}

// initLenPrices is a length coder's price table right after a reset,
// built on first use so that importing the package costs nothing.
var initLenPrices = sync.OnceValue(func() *[lenSymbols]uint32 {
	var le lenEncoder
	le.choice, le.choice2 = probInit, probInit
	for i := range le.low {
		initProbs(le.low[i][:])
		initProbs(le.mid[i][:])
	}
	initProbs(le.high[:])
	le.table = lenSymbols
	le.updatePrices(0)
	p := le.prices[0]
	return &p
})

func (le *lenEncoder) encode(rc *rangeEncoder, l uint32, ps uint32, updatePrices bool) {
	// A due price refresh reads the model as it was before this length:
	// liblzma's range coder queues bits and applies their probability
	// updates only when it flushes, after the symbol, so its tables lag
	// one length behind. Doing the same keeps the parse identical to xz's.
	if updatePrices {
		le.counter[ps]--
		if le.counter[ps] <= 0 {
			le.updatePrices(ps)
		}
	}
	l -= matchLenMin
	if l < lenLow {
		rc.bit(&le.choice, 0)
		rc.tree(le.low[ps][:], lenLowBits, l)
	} else {
		rc.bit(&le.choice, 1)
		l -= lenLow
		if l < lenMid {
			rc.bit(&le.choice2, 0)
			rc.tree(le.mid[ps][:], lenMidBits, l)
		} else {
			rc.bit(&le.choice2, 1)
			rc.tree(le.high[:], lenHighBits, l-lenMid)
		}
	}
}

func (le *lenEncoder) updatePrices(ps uint32) {
	p := &le.prices[ps]
	a0 := price0(le.choice)
	a1 := price1(le.choice)
	b0 := a1 + price0(le.choice2)
	b1 := a1 + price1(le.choice2)
	n := le.table
	i := 0
	for ; i < lenLow && i < n; i++ {
		p[i] = a0 + treePrice(le.low[ps][:], lenLowBits, uint32(i))
	}
	for ; i < lenLow+lenMid && i < n; i++ {
		p[i] = b0 + treePrice(le.mid[ps][:], lenMidBits, uint32(i-lenLow))
	}
	for ; i < n; i++ {
		p[i] = b1 + treePrice(le.high[:], lenHighBits, uint32(i-lenLow-lenMid))
	}
	le.counter[ps] = n
}

func (le *lenEncoder) price(l, ps uint32) uint32 { return le.prices[ps][l-matchLenMin] }

// lzmaState is the adaptive model shared by the encoder and the decoder.
type lzmaState struct {
	state       uint8
	reps        [numReps]uint32
	isMatch     [numStates][posStates]prob
	isRep       [numStates]prob
	isRepG0     [numStates]prob
	isRepG1     [numStates]prob
	isRepG2     [numStates]prob
	isRep0Long  [numStates][posStates]prob
	literal     [1 << maxLC][0x300]prob
	lc          uint8  // literal context bits
	lpMask      uint32 // 1<<lp - 1 (literal position bits)
	posMask     uint32 // 1<<pb - 1
	distSlot    [distStates][1 << slotBits]prob
	distSpecial [fullDistances - distModelEnd + 1]prob // index 0 unused: trees are 1-based
	align       [alignSize]prob
	matchLen    lenEncoder
	repLen      lenEncoder
}

func (s *lzmaState) reset() {
	s.state = 0
	s.reps = [numReps]uint32{}
	for i := range s.isMatch {
		initProbs(s.isMatch[i][:])
		initProbs(s.isRep0Long[i][:])
	}
	initProbs(s.isRep[:])
	initProbs(s.isRepG0[:])
	initProbs(s.isRepG1[:])
	initProbs(s.isRepG2[:])
	n := (s.lpMask + 1) << s.lc
	copy(s.literal[:n], initLiteral()[:n])
	for i := range s.distSlot {
		initProbs(s.distSlot[i][:])
	}
	initProbs(s.distSpecial[:])
	initProbs(s.align[:])
	s.matchLen.reset()
	s.repLen.reset()
}

// initLiteral is the literal coders at their initial probabilities, which
// reset copies (a copy is several times faster than a loop of stores).
var initLiteral = sync.OnceValue(func() *[1 << maxLC][0x300]prob {
	t := new([1 << maxLC][0x300]prob)
	for i := range t {
		initProbs(t[i][:])
	}
	return t
})

// litProbs is the literal coder for the byte at pos after prevByte: the
// low lp bits of the position, then the high lc bits of the byte before.
func litProbs(s *lzmaState, pos int, prevByte byte) []prob {
	return s.literal[(uint32(pos)&s.lpMask)<<s.lc+uint32(prevByte>>(8-s.lc))][:]
}

func encodeLiteral(rc *rangeEncoder, probs []prob, sym uint32) {
	sym |= 0x100
	for {
		rc.bit(&probs[sym>>8], (sym>>7)&1)
		sym <<= 1
		if sym >= 0x10000 {
			return
		}
	}
}

func encodeMatchedLiteral(rc *rangeEncoder, probs []prob, sym, matchByte uint32) {
	offset := uint32(0x100)
	sym |= 0x100
	for {
		matchByte <<= 1
		matchBit := matchByte & offset
		rc.bit(&probs[offset+matchBit+(sym>>8)], (sym>>7)&1)
		sym <<= 1
		offset &= ^(matchByte ^ sym)
		if sym >= 0x10000 {
			return
		}
	}
}

func literalPrice(probs []prob, sym uint32) uint32 {
	var price uint32
	sym |= 0x100
	for {
		price += priceBit(probs[sym>>8], (sym>>7)&1)
		sym <<= 1
		if sym >= 0x10000 {
			return price
		}
	}
}

func matchedLiteralPrice(probs []prob, sym, matchByte uint32) uint32 {
	var price uint32
	offset := uint32(0x100)
	sym |= 0x100
	for {
		matchByte <<= 1
		matchBit := matchByte & offset
		price += priceBit(probs[offset+matchBit+(sym>>8)], (sym>>7)&1)
		sym <<= 1
		offset &= ^(matchByte ^ sym)
		if sym >= 0x10000 {
			return price
		}
	}
}

// propsByte is the LZMA properties byte, (pb*5+lp)*9+lc.
func (s *lzmaState) propsByte() byte {
	return byte((bits.OnesCount32(s.posMask)*5+bits.OnesCount32(s.lpMask))*9) + s.lc
}
