package zstdenc

import (
	"math"

	"github.com/klauspost/compress/huff0"
)

// seq is one sequence as the parser chose it: litLen literals, then a
// match of matchLen bytes at distance off. The offset value written
// (repeat code or off+3) follows from the repeat offsets at emission.
type seq struct {
	litLen, matchLen, off uint32
}

// Symbol compression modes (RFC 8878 3.1.1.3.2.1).
const (
	modePredefined = 0
	modeRLE        = 1
	modeFSE        = 2
)

// offsetValue is the offset value of a match at distance d after ll
// literals under repeat offsets reps.
func offsetValue(d, ll uint32, reps *[3]uint32) uint32 {
	if ll > 0 {
		switch d {
		case reps[0]:
			return 1
		case reps[1]:
			return 2
		case reps[2]:
			return 3
		}
	} else {
		switch d {
		case reps[1]:
			return 1
		case reps[2]:
			return 2
		case reps[0] - 1:
			return 3
		}
	}
	return d + 3
}

// updateReps updates the repeat offsets after a sequence with offset
// value v, ll literals and distance d.
func updateReps(reps *[3]uint32, v, ll, d uint32) {
	if v > 3 {
		reps[0], reps[1], reps[2] = d, reps[0], reps[1]
		return
	}
	i := v - 1
	if ll == 0 {
		i++
	}
	switch i {
	case 0:
	case 1:
		reps[0], reps[1] = reps[1], reps[0]
	default: // 2, or 3 (rep0-1): d moves to the front
		reps[0], reps[1], reps[2] = d, reps[0], reps[1]
	}
}

// streamChoice is the chosen mode of one of the LL, OF, ML streams.
type streamChoice struct {
	mode byte
	tab  *fseTable
	desc []byte
	bits float64 // estimated bits, table description included
}

var (
	llPredefTable = buildFSE(llPredef, llPredefLog)
	mlPredefTable = buildFSE(mlPredef, mlPredefLog)
	ofPredefTable = buildFSE(ofPredef, ofPredefLog)
)

// chooseMode picks the cheapest of predefined, RLE and FSE (each
// accuracy log from 5 to maxLog) for counts.
func chooseMode(counts []uint32, total uint32, predef *fseTable, maxLog uint8) streamChoice {
	distinct, only := 0, 0
	for s, c := range counts {
		if c > 0 {
			distinct++
			only = s
		}
	}
	best := streamChoice{bits: math.Inf(1)}
	if distinct == 1 {
		best = streamChoice{mode: modeRLE, desc: []byte{uint8(only)}, bits: 8}
	}
	if b := fseBits(counts, predef.norm, predef.log); b < best.bits {
		best = streamChoice{mode: modePredefined, tab: predef, bits: b}
	}
	for log := uint8(5); log <= maxLog; log++ {
		if 1<<log < distinct {
			continue
		}
		norm := normalize(counts, total, log)
		desc := appendNCount(nil, norm, log)
		if b := fseBits(counts, norm, log) + float64(8*len(desc)); b < best.bits {
			best = streamChoice{mode: modeFSE, tab: buildFSE(norm, log), desc: desc, bits: b}
		}
	}
	return best
}

// appendSequences appends the sequences section of seqs, whose offset
// values are ofv.
func appendSequences(dst []byte, seqs []seq, ofv []uint32) []byte {
	var ch [3]streamChoice
	nb := len(seqs)
	switch {
	case nb < 128:
		dst = append(dst, byte(nb))
	case nb < 0x7F00:
		dst = append(dst, byte(nb>>8+128), byte(nb))
	default:
		dst = append(dst, 255, byte(nb-0x7F00), byte((nb-0x7F00)>>8))
	}
	if nb == 0 {
		return dst
	}
	llc := make([]uint8, nb)
	mlc := make([]uint8, nb)
	ofc := make([]uint8, nb)
	var llCnt [maxLLCode + 1]uint32
	var mlCnt [maxMLCode + 1]uint32
	var ofCnt [maxOFCode + 1]uint32
	for i, s := range seqs {
		llc[i], mlc[i], ofc[i] = llCode(s.litLen), mlCode(s.matchLen), ofCode(ofv[i])
		llCnt[llc[i]]++
		mlCnt[mlc[i]]++
		ofCnt[ofc[i]]++
	}
	ch[0] = chooseMode(llCnt[:], uint32(nb), llPredefTable, llMaxLog)
	ch[1] = chooseMode(ofCnt[:], uint32(nb), ofPredefTable, ofMaxLog)
	ch[2] = chooseMode(mlCnt[:], uint32(nb), mlPredefTable, mlMaxLog)
	dst = append(dst, ch[0].mode<<6|ch[1].mode<<4|ch[2].mode<<2)
	for _, c := range ch {
		dst = append(dst, c.desc...)
	}
	w := bitWriter{out: dst}
	var st [3]uint32
	codes := [3][]uint8{llc, ofc, mlc}
	last := nb - 1
	for k := range ch {
		if ch[k].mode != modeRLE {
			st[k] = ch[k].tab.init(codes[k][last])
		}
	}
	extra := func(i int) {
		s := seqs[i]
		w.add(uint64(s.litLen-llBase[llc[i]]), uint(llBits[llc[i]]))
		w.add(uint64(s.matchLen-mlBase[mlc[i]]), uint(mlBits[mlc[i]]))
		w.add(uint64(ofv[i]), uint(ofc[i]))
	}
	extra(last)
	for i := last - 1; i >= 0; i-- {
		for _, k := range [3]int{1, 2, 0} { // OF, ML, LL
			if ch[k].mode != modeRLE {
				st[k] = ch[k].tab.encode(&w, st[k], codes[k][i])
			}
		}
		extra(i)
	}
	for _, k := range [3]int{2, 1, 0} { // ML, OF, LL
		if ch[k].mode != modeRLE {
			ch[k].tab.flush(&w, st[k])
		}
	}
	return w.close()
}

// appendLiteralsHeader appends a raw (0) or RLE (1) literals header.
func appendRawHeader(dst []byte, typ byte, n int) []byte {
	switch {
	case n < 32:
		return append(dst, typ|byte(n)<<3)
	case n < 4096:
		return append(dst, typ|1<<2|byte(n)<<4, byte(n>>4))
	}
	return append(dst, typ|3<<2|byte(n)<<4, byte(n>>4), byte(n>>12))
}

// appendCompressedHeader appends a Huffman literals header: regenerated
// size r, compressed size c, one stream or four.
func appendCompressedHeader(dst []byte, r, c int, single bool) []byte {
	const typ = 2
	switch {
	case single:
		v := uint32(typ) | uint32(r)<<4 | uint32(c)<<14
		return append(dst, byte(v), byte(v>>8), byte(v>>16))
	case r < 1024 && c < 1024:
		v := uint32(typ) | 1<<2 | uint32(r)<<4 | uint32(c)<<14
		return append(dst, byte(v), byte(v>>8), byte(v>>16))
	case r < 16384 && c < 16384:
		v := uint32(typ) | 2<<2 | uint32(r)<<4 | uint32(c)<<18
		return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	v := uint64(typ) | 3<<2 | uint64(r)<<4 | uint64(c)<<22
	return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32))
}

// appendLiterals appends the literals section holding lits: the smallest
// of raw, RLE and Huffman with one or four streams (and, when full, every
// code-length limit from 6 to 11 bits; else 11 only).
func appendLiterals(dst, lits []byte, hs *huff0.Scratch, full bool) []byte {
	best := appendRawHeader(nil, 0, len(lits))
	best = append(best, lits...)
	if len(lits) > 1 {
		same := true
		for _, b := range lits[1:] {
			if b != lits[0] {
				same = false
				break
			}
		}
		if same {
			return append(appendRawHeader(dst, 1, len(lits)), lits[0])
		}
	}
	try := func(single bool, tableLog uint8) {
		hs.Reuse = huff0.ReusePolicyNone
		hs.TableLog = tableLog
		hs.Out = nil
		var h []byte
		var err error
		if single {
			h, _, err = huff0.Compress1X(lits, hs)
		} else {
			h, _, err = huff0.Compress4X(lits, hs)
		}
		if err != nil {
			return // incompressible, or one symbol: raw or RLE it is
		}
		if single && len(h) >= 1024 {
			return
		}
		if len(h) >= 1<<18 {
			return
		}
		c := appendCompressedHeader(nil, len(lits), len(h), single)
		if len(c)+len(h) < len(best) {
			best = append(c, h...)
		}
	}
	// The longest code length is tried from 6 to 11 bits: on few
	// literals a shorter limit often makes the table description
	// smaller by more than the codes lose.
	first := uint8(6)
	if !full {
		first = 11
	}
	for tl := first; tl <= 11; tl++ {
		if len(lits) >= 8 && len(lits) < 1024 {
			try(true, tl)
		}
		if len(lits) >= 64 {
			try(false, tl)
		}
	}
	return append(dst, best...)
}
