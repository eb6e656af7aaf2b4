package zstdenc

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Prices are in 1/256 bit.
const (
	bitCost  = 256
	infPrice = math.MaxInt32 / 2
	// sufficientLen is the match length the parser takes without
	// weighing the positions it covers (libzstd's targetLength at its
	// strongest levels is 999; runs longer than this are rare in small
	// inputs and cost the parser time).
	sufficientLen = 512
	// maxMatches bounds the matches kept per position (the longest
	// replaces the last kept), and so the parser's memory.
	maxMatches = 16
)

// match is a candidate match: length and distance.
type match struct {
	length, off uint32
}

// node is the parser's best way to reach a position.
type node struct {
	price  int32
	litLen uint32 // literals since the last match (0: a match ends here)
	mlen   uint32 // the match ending here, when litLen == 0
	off    uint32
	reps   [3]uint32
}

// priceModel prices literals and the LL, ML and OF codes (extra bits
// included) for the parser.
type priceModel struct {
	lit [256]int32
	ll  [maxLLCode + 1]int32
	ml  [maxMLCode + 1]int32
	of  [maxOFCode + 1]int32
}

func log2Price(num, den float64) int32 {
	return int32(math.Round(math.Log2(num/den) * bitCost))
}

// setCodePrices prices each code by the table t (absent symbols cost
// two bits more than the table's most expensive cell), plus extra bits.
func setCodePrices(dst []int32, t *fseTable, extra func(int) int) {
	for s := range dst {
		p := int32(t.log+2) * bitCost
		if s < len(t.norm) && t.norm[s] != 0 {
			n := max(t.norm[s], -t.norm[s])
			p = log2Price(float64(int(1)<<t.log), float64(n))
		}
		dst[s] = p + int32(extra(s))*bitCost
	}
}

func llExtra(s int) int { return int(llBits[s]) }
func mlExtra(s int) int { return int(mlBits[s]) }
func ofExtra(s int) int { return s }

// seedPrices is the first pass's model: literals by their frequency in
// the block, codes by the predefined tables.
func seedPrices(pm *priceModel, block []byte) {
	var cnt [256]uint32
	for _, b := range block {
		cnt[b]++
	}
	setLitPrices(pm, cnt[:], uint32(len(block)), true)
	setCodePrices(pm.ll[:], llPredefTable, llExtra)
	setCodePrices(pm.ml[:], mlPredefTable, mlExtra)
	setCodePrices(pm.of[:], ofPredefTable, ofExtra)
}

// setFreq prices each symbol by its frequency in freq (all nonzero).
func setFreq(dst []int32, freq []uint32, extra func(int) int) {
	sum := 0.0
	for _, f := range freq {
		sum += float64(f)
	}
	for s, f := range freq {
		p := log2Price(sum, float64(f))
		if extra != nil {
			p += int32(extra(s)) * bitCost
		} else {
			p = min(p, 11*bitCost)
		}
		dst[s] = max(p, bitCost/8)
	}
}

// seedFreqPrices is the other first-pass model, after libzstd's first
// block: literals by their block frequency heavily smoothed (so they look
// expensive and the first pass takes many matches), flat length codes and
// offset codes favouring short ones.
func seedFreqPrices(pm *priceModel, block []byte) {
	var cnt [256]uint32
	for _, b := range block {
		cnt[b]++
	}
	for i := range cnt {
		cnt[i] = 1 + cnt[i]>>4
	}
	setFreq(pm.lit[:], cnt[:], nil)
	var ll [maxLLCode + 1]uint32
	var ml [maxMLCode + 1]uint32
	for i := range ll {
		ll[i] = 1
	}
	ll[0], ll[1] = 4, 2
	for i := range ml {
		ml[i] = 1
	}
	of := [maxOFCode + 1]uint32{6, 2, 1, 1, 2, 3, 4, 4, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	setFreq(pm.ll[:], ll[:], llExtra)
	setFreq(pm.ml[:], ml[:], mlExtra)
	setFreq(pm.of[:], of[:], ofExtra)
}

// setLitPrices prices literals by cnt (total of them) when they are
// Huffman coded, or at 8 bits each when they are stored.
func setLitPrices(pm *priceModel, cnt []uint32, total uint32, huffman bool) {
	if !huffman || total == 0 {
		for i := range pm.lit {
			pm.lit[i] = 8 * bitCost
		}
		return
	}
	for i, c := range cnt {
		p := int32(12 * bitCost)
		if c > 0 {
			p = min(log2Price(float64(total), float64(c)), 11*bitCost)
		}
		pm.lit[i] = max(p, bitCost/8)
	}
}

// matchLen is the length of the common prefix of a and b.
func matchLen(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

const hashMul = 506832829

func hash3(b []byte, shift uint) uint32 {
	return (uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16) * hashMul >> shift
}

// buildChains links every position to the previous one whose next three
// bytes hash alike.
func buildChains(src []byte) []int32 {
	n := len(src)
	prev := make([]int32, n)
	if n < minMatch {
		for i := range prev {
			prev[i] = -1
		}
		return prev
	}
	hlog := uint(min(max(bits.Len(uint(n)), 8), 17))
	head := make([]int32, 1<<hlog)
	for i := range head {
		head[i] = -1
	}
	shift := 32 - hlog
	for i := 0; i+minMatch <= n; i++ {
		h := hash3(src[i:], shift)
		prev[i] = head[h]
		head[h] = int32(i)
	}
	for i := max(n-minMatch+1, 0); i < n; i++ {
		prev[i] = -1
	}
	return prev
}

// chainMatches appends the matches at p (ending by end) of increasing
// length found in depth candidates.
func chainMatches(out []match, src []byte, prev []int32, p, end, depth int) []match {
	maxLen := end - p
	best := minMatch - 1
	if maxLen < minMatch {
		return out
	}
	cur := src[p:end]
	start := len(out)
	for cand := prev[p]; cand >= 0 && depth > 0; depth-- {
		c := int(cand)
		if src[c+best] == cur[best] {
			if l := matchLen(src[c:], cur); l > best {
				if len(out)-start < maxMatches {
					out = append(out, match{uint32(l), uint32(p - c)})
				} else {
					out[len(out)-1] = match{uint32(l), uint32(p - c)}
				}
				best = l
				if l >= maxLen || l >= sufficientLen {
					break
				}
			}
		}
		cand = prev[c]
	}
	return out
}

// parser holds one block's parsing state, reused across passes.
type parser struct {
	src   []byte
	prev  []int32
	depth int
	opt   []node
	// Chain matches of each block position, found once for all passes:
	// mIdx[i]..mIdx[i+1] in mList once mDone[i].
	mStart []int32
	mEnd   []int32
	mList  []match
	cand   []match
	seqs   []seq
	// Prices by length for the current pass.
	llp, mlp []int32
}

// chain returns the chain matches at block position i (absolute p).
func (ps *parser) chain(i, p, end int) []match {
	if ps.mStart[i] < 0 {
		ps.mStart[i] = int32(len(ps.mList))
		ps.mList = chainMatches(ps.mList, ps.src, ps.prev, p, end, ps.depth)
		ps.mEnd[i] = int32(len(ps.mList))
	}
	return ps.mList[ps.mStart[i]:ps.mEnd[i]]
}

// reset prepares the parser for the block [bs, be).
func (ps *parser) reset(bs, be int) {
	n := be - bs
	if cap(ps.opt) < n+1 {
		ps.opt = make([]node, n+1)
		ps.mStart = make([]int32, n+1)
		ps.mEnd = make([]int32, n+1)
	}
	ps.opt = ps.opt[:n+1]
	ps.mStart = ps.mStart[:n+1]
	ps.mEnd = ps.mEnd[:n+1]
	for i := range ps.mStart {
		ps.mStart[i] = -1
	}
	ps.mList = ps.mList[:0]
}

// parse finds the cheapest sequences of the block [bs, be) under pm,
// starting from repeat offsets reps, and returns them and the count of
// trailing literals.
func (ps *parser) parse(bs, be int, pm *priceModel, reps [3]uint32) ([]seq, int) {
	n := be - bs
	src := ps.src
	opt := ps.opt
	if cap(ps.llp) < n+2 {
		ps.llp = make([]int32, n+2)
		ps.mlp = make([]int32, n+2)
	}
	llp, mlp := ps.llp[:n+2], ps.mlp[:n+1]
	for i := range llp {
		// Beyond LL code 35's range only a run of trailing literals,
		// which takes no code, can be that long.
		llp[i] = pm.ll[llCode(uint32(min(i, blockMax-1)))]
	}
	for i := minMatch; i <= n; i++ {
		mlp[i] = pm.ml[mlCode(uint32(i))]
	}
	opt[0] = node{price: llp[0], reps: reps}
	for i := 1; i <= n; i++ {
		opt[i].price = infPrice
	}
	skip := 0
	for i := 0; i < n; i++ {
		cur := &opt[i]
		p := bs + i
		// A literal.
		l := cur.litLen
		if c := cur.price + pm.lit[src[p]] + llp[l+1] - llp[l]; c < opt[i+1].price {
			opt[i+1] = node{price: c, litLen: l + 1, reps: cur.reps}
		}
		if i < skip || n-i < minMatch {
			continue
		}
		// Repeat-offset matches, then the chain's longer ones.
		cands := ps.cand[:0]
		best := minMatch - 1
		for k := 0; k < 3; k++ {
			var d uint32
			if l > 0 {
				d = cur.reps[k]
			} else if k < 2 {
				d = cur.reps[k+1]
			} else {
				d = cur.reps[0] - 1
			}
			if d == 0 || int(d) > p {
				continue
			}
			if p+4 <= len(src) && (binary.LittleEndian.Uint32(src[p:])^binary.LittleEndian.Uint32(src[p-int(d):]))&0xFFFFFF != 0 {
				continue // shorter than minMatch
			}
			if ml := matchLen(src[p-int(d):], src[p:be]); ml > best {
				cands = append(cands, match{uint32(ml), d})
				best = ml
			}
		}
		if best < sufficientLen && best < n-i {
			for _, m := range ps.chain(i, p, be) {
				if int(m.length) > best {
					cands = append(cands, m)
					best = int(m.length)
				}
			}
		}
		ps.cand = cands
		if len(cands) == 0 {
			continue
		}
		from := minMatch
		if best >= sufficientLen {
			// Take the long match whole; skip the positions it covers.
			from = best
			cands = cands[len(cands)-1:]
			skip = i + best
		}
		base0 := cur.price + llp[0]
		for _, m := range cands {
			v := offsetValue(m.off, l, &cur.reps)
			base := base0 + pm.of[ofCode(v)]
			nr := cur.reps
			updateReps(&nr, v, l, m.off)
			o := opt[i : i+int(m.length)+1]
			for ml, mp := range mlp[from : m.length+1] {
				ml += from
				if c := base + mp; c < o[ml].price {
					o[ml] = node{price: c, mlen: uint32(ml), off: m.off, reps: nr}
				}
			}
			from = int(m.length) + 1
		}
	}
	// Walk back from the end.
	seqs := ps.seqs[:0]
	j := n
	tail := int(opt[n].litLen)
	j -= tail
	for j > 0 {
		m := opt[j]
		start := j - int(m.mlen)
		ll := opt[start].litLen
		seqs = append(seqs, seq{litLen: ll, matchLen: m.mlen, off: m.off})
		j = start - int(ll)
	}
	for a, b := 0, len(seqs)-1; a < b; a, b = a+1, b-1 {
		seqs[a], seqs[b] = seqs[b], seqs[a]
	}
	ps.seqs = seqs
	return seqs, tail
}
