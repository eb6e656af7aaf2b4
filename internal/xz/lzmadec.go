package xz

import "encoding/binary"

// The LZMA decoder: one LZMA2 chunk at a time, straight into the output
// buffer, which is also the dictionary (the whole block's output is in
// memory, so no circular window and no second copy). The range decoder's
// range, code and input position live in locals of decodeChunk; the model
// (probabilities, state, reps) lives in lzmaDec and carries across chunks.

const (
	decPosStates = 1 << 4 // LZMA allows pb up to 4 (xz presets use 0..2)
	litSize      = 0x300
	// chunkPad is the zero padding after a chunk's compressed bytes in
	// the decoder's input copy: one symbol reads at most about 20 bytes,
	// and the input position is checked after every symbol, so reads
	// never leave the padded copy.
	chunkPad = 64
)

// shortMatch is the longest match copied in 8-byte words; longer ones
// use copy.
const shortMatch = 32

// shortBack[d-1] is the smallest multiple of the distance d (1 to 7)
// that is at least 8.
var shortBack = [8]uint8{8, 8, 9, 8, 10, 12, 14, 8}

// litBranchBits is how many of an unmatched literal's top bits are
// decoded with branches (see decodeChunk): 2 measured better than 3 once
// the branch-free bits loaded their children ahead (up to 1.1x on at1
// values streams, even on text).
const litBranchBits = 2

// lzmaDec is the adaptive model of the decoder.
type lzmaDec struct {
	state      uint32
	rep        [numReps]uint32
	lc, lp, pb uint32
	isMatch    [numStates * decPosStates]prob
	isRep      [numStates]prob
	isRepG0    [numStates]prob
	isRepG1    [numStates]prob
	isRepG2    [numStates]prob
	isRep0Long [numStates * decPosStates]prob
	slot       [distStates][1 << slotBits]prob
	special    [fullDistances - distModelEnd + 1]prob // 1-based reverse trees
	align      [alignSize]prob
	matchLen   lenDec
	repLen     lenDec
	literal    [litSize << 4]prob // lc+lp <= 4
	pad        []byte             // a chunk's compressed bytes followed by chunkPad zeros
}

type lenDec struct {
	choice, choice2 prob
	low             [decPosStates][lenLow]prob
	mid             [decPosStates][lenMid]prob
	high            [1 << lenHighBits]prob
}

func fillProbs(p []prob) {
	for i := range p {
		p[i] = probInit
	}
}

func (l *lenDec) reset() {
	l.choice, l.choice2 = probInit, probInit
	for i := range l.low {
		fillProbs(l.low[i][:])
		fillProbs(l.mid[i][:])
	}
	fillProbs(l.high[:])
}

// setProps reads the LZMA properties byte ((pb*5+lp)*9+lc); LZMA2 requires
// lc+lp <= 4.
func (d *lzmaDec) setProps(b byte) bool {
	if b > (4*5+4)*9+8 {
		return false
	}
	lc := uint32(b) % 9
	b /= 9
	lp := uint32(b) % 5
	pb := uint32(b) / 5
	if lc+lp > 4 || pb > 4 {
		return false
	}
	d.lc, d.lp, d.pb = lc, lp, pb
	return true
}

// reset starts the model afresh (LZMA2 state reset).
func (d *lzmaDec) reset() {
	d.state = 0
	d.rep = [numReps]uint32{}
	fillProbs(d.isMatch[:])
	fillProbs(d.isRep[:])
	fillProbs(d.isRepG0[:])
	fillProbs(d.isRepG1[:])
	fillProbs(d.isRepG2[:])
	fillProbs(d.isRep0Long[:])
	for i := range d.slot {
		fillProbs(d.slot[i][:])
	}
	fillProbs(d.special[:])
	fillProbs(d.align[:])
	d.matchLen.reset()
	d.repLen.reset()
	fillProbs(d.literal[:litSize<<(d.lc+d.lp)])
}

// rcBit decodes one bit with probability *p, normalizing first (as
// liblzma and xz-embedded do, so both count input bytes the same way).
// It is small enough to be inlined, which keeps rng, code and ip in
// registers of the caller's loop.
func rcBit(p *prob, rng, code uint32, in []byte, ip int) (uint32, uint32, int, uint32) {
	if rng < topValue {
		rng <<= 8
		code = code<<8 | uint32(in[ip])
		ip++
	}
	v := uint32(*p)
	bound := (rng >> probBits) * v
	if code < bound {
		*p = prob(v + ((1<<probBits - v) >> moveBits))
		return bound, code, ip, 0
	}
	*p = prob(v - v>>moveBits)
	return rng - bound, code - bound, ip, 1
}

// bitTreeReverse decodes an n-bit symbol, least significant bit first,
// with the tree of probabilities probs[1 : 1<<n] (the distances' reverse
// trees of 1 to 5 bits). Its bits are hard to predict, so they are
// decoded without a branch on the bit: m is all ones for a 0 bit, and the
// probability moves by v + (2048-v)>>5 = v - (v-2017)>>5 (arithmetic
// shift) for a 0 and v - v>>5 for a 1. One call per tree keeps the range
// decoder in registers for all its bits.
func bitTreeReverse(probs []prob, n uint32, rng, code uint32, in []byte, ip int) (uint32, uint32, uint32, int) {
	t, sym := uint32(1), uint32(0)
	for i := uint32(0); i < n; i++ {
		p := &probs[t]
		if rng < topValue {
			rng <<= 8
			code = code<<8 | uint32(in[ip])
			ip++
		}
		v := uint32(*p)
		bound := (rng >> probBits) * v
		m := uint32((int64(code) - int64(bound)) >> 63)
		*p = prob(int32(v) - (int32(v)-int32(2017&m))>>moveBits)
		rng = bound&m | (rng-bound)&^m
		code -= bound &^ m
		t = t<<1 | (m + 1)
		sym |= (m + 1) << i
	}
	return sym, rng, code, ip
}

// The fixed-width bit trees (bitTree3, bitTree6, bitTree8, bitTreeAlign)
// are unrolled in trees.go, generated from a template in
// trees_gen_test.go.

// litLow decodes the low bits of an unmatched literal whose top bits
// are in sym, without a branch on the bit: it loads both children's
// probabilities before the bit is known (the load is off the range
// decoder's dependency chain) and selects with conditional moves.
func litLow(probs *[litSize]prob, sym, rng, code uint32, in []byte, ip int) (uint32, uint32, uint32, int) {
	v := uint32(probs[sym&0xFF])
	for sym < 0x100 {
		if rng < topValue {
			rng <<= 8
			code = code<<8 | uint32(in[ip])
			ip++
		}
		bound := (rng >> probBits) * v
		c0, c1 := uint32(probs[(sym<<1)&0xFF]), uint32(probs[(sym<<1+1)&0xFF])
		r1, k1 := rng-bound, code-bound
		nv, nv1 := v+(1<<probBits-v)>>moveBits, v-v>>moveBits
		b := uint32(0)
		rng = bound
		if code >= bound {
			rng, code, nv, b, c0 = r1, k1, nv1, 1, c1
		}
		probs[sym&0xFF] = prob(nv)
		sym = sym<<1 + b
		v = c0
	}
	return sym, rng, code, ip
}

// chunkResult is why decodeChunk stopped early.
type chunkResult uint8

const (
	chunkOK       chunkResult = iota
	chunkTrunc                // the compressed bytes ran out
	chunkDistance             // a distance beyond the dictionary or the output so far
	chunkOverrun              // a match runs past the chunk's uncompressed size
	chunkTail                 // bytes left over, or the range coder did not end at 0
	chunkInit                 // the range coder's first byte is not 0
)

// decodeChunk decodes one LZMA chunk whose compressed bytes (the 5 range
// coder init bytes first) are in[:n] into out[pos:end]; in has at least
// chunkPad readable bytes after them.
// dictStart is the position of the last dictionary reset; dict the
// dictionary size the block declares.
func (d *lzmaDec) decodeChunk(out []byte, pos, end, dictStart int, in []byte, n int, dict uint32) (chunkResult, int) {
	in = in[:n+chunkPad]
	if n < 5 {
		return chunkTrunc, pos
	}
	if in[0] != 0 {
		return chunkInit, pos
	}
	code := uint32(in[1])<<24 | uint32(in[2])<<16 | uint32(in[3])<<8 | uint32(in[4])
	rng := uint32(0xFFFFFFFF)
	ip := 5
	st := d.state
	// The reps stay in d.rep: they are only used by matches (rep0 also
	// by matched literals), and fewer live locals leave registers for
	// the range decoder.
	lc := d.lc
	lpMask := uint32(1)<<d.lp - 1
	pbMask := uint32(1)<<d.pb - 1
	// Short matches are copied in 8-byte words that may write past the
	// match, never past end (the chunk's end: append's contract, nothing
	// beyond the output is written); the next symbols overwrite them.
	out = out[:end]
	var bit uint32
	res := chunkOK
	for pos < end {
		if ip > n {
			res = chunkTrunc
			break
		}
		rel := uint32(pos - dictStart)
		posState := rel & pbMask
		rng, code, ip, bit = rcBit(&d.isMatch[st<<4|posState], rng, code, in, ip)
		if bit == 0 {
			// Literal.
			prev := uint32(0)
			if pos > dictStart {
				prev = uint32(out[pos-1])
			}
			li := (((rel & lpMask) << lc) + prev>>(8-lc)) * litSize
			probs := (*[litSize]prob)(d.literal[li : li+litSize])
			sym := uint32(1)
			if st < litStates {
				// The top bits of a literal are often predictable (text,
				// digits), and a predicted branch lets the CPU run ahead:
				// decode them with branches. The low bits are close to
				// random: decode them without branches on the bit (m is
				// all ones for a 0 bit).
				for sym < 1<<litBranchBits {
					rng, code, ip, bit = rcBit(&probs[sym&0xFF], rng, code, in, ip)
					sym = sym<<1 | bit
				}
				sym, rng, code, ip = litLow(probs, sym, rng, code, in, ip)
			} else {
				// Matched literal: the byte at rep0 steers the model
				// until the first bit that differs from it.
				m := uint32(out[pos-int(d.rep[0])-1])
				offset := uint32(0x100)
				for sym < 0x100 {
					m <<= 1
					mb := m & offset
					p := &probs[offset+mb+sym]
					if rng < topValue {
						rng <<= 8
						code = code<<8 | uint32(in[ip])
						ip++
					}
					v := uint32(*p)
					bound := (rng >> probBits) * v
					z := uint32((int64(code) - int64(bound)) >> 63) // all ones: bit 0
					rng = bound&z | (rng-bound)&^z
					code -= bound &^ z
					*p = prob((v+(1<<probBits-v)>>moveBits)&z | (v-v>>moveBits)&^z)
					sym = sym<<1 | (z + 1)
					offset &= mb ^ z // bit 1: mb; bit 0: offset &^ mb
				}
			}
			out[pos] = byte(sym)
			pos++
			switch {
			case st < 4:
				st = 0
			case st < 10:
				st -= 3
			default:
				st -= 6
			}
			continue
		}
		var l uint32
		rep0 := d.rep[0]
		rng, code, ip, bit = rcBit(&d.isRep[st], rng, code, in, ip)
		if bit == 0 {
			// Match with a new distance.
			d.rep[3], d.rep[2], d.rep[1] = d.rep[2], d.rep[1], rep0
			l, rng, code, ip = d.matchLen.decode(posState, rng, code, in, ip)
			if st < litStates {
				st = 7
			} else {
				st = 10
			}
			ls := l
			if ls > distStates-1 {
				ls = distStates - 1
			}
			var slot uint32
			slot, rng, code, ip = bitTree6(&d.slot[ls&(distStates-1)], rng, code, in, ip)
			if slot < distModelStart {
				rep0 = slot
			} else {
				nd := slot>>1 - 1
				dist := (2 | slot&1) << nd
				if slot < distModelEnd {
					// Reverse bit tree in special[dist-slot ...].
					var r uint32
					r, rng, code, ip = bitTreeReverse(d.special[dist-slot:], nd, rng, code, in, ip)
					dist += r
				} else {
					// Direct bits, shifted in below the slot's top
					// bits, then 4 align bits (reverse tree).
					dist = 2 | slot&1
					for i := nd - alignBits; i > 0; i-- {
						if rng < topValue {
							rng <<= 8
							code = code<<8 | uint32(in[ip])
							ip++
						}
						rng >>= 1
						code -= rng
						t := 0 - code>>31 // all ones when code went "negative"
						code += rng & t
						dist = dist<<1 + t + 1
					}
					var r uint32
					r, rng, code, ip = bitTreeAlign(&d.align, rng, code, in, ip)
					dist = dist<<alignBits + r
				}
				rep0 = dist
			}
		} else {
			rng, code, ip, bit = rcBit(&d.isRepG0[st], rng, code, in, ip)
			if bit == 0 {
				rng, code, ip, bit = rcBit(&d.isRep0Long[st<<4|posState], rng, code, in, ip)
				if bit == 0 {
					// Short rep: one byte at rep0.
					if st < litStates {
						st = 9
					} else {
						st = 11
					}
					full := uint32(pos - dictStart)
					if rep0 >= full || rep0 >= dict {
						res = chunkDistance
						break
					}
					out[pos] = out[pos-int(rep0)-1]
					pos++
					continue
				}
			} else {
				var dist uint32
				rng, code, ip, bit = rcBit(&d.isRepG1[st], rng, code, in, ip)
				if bit == 0 {
					dist = d.rep[1]
				} else {
					rng, code, ip, bit = rcBit(&d.isRepG2[st], rng, code, in, ip)
					if bit == 0 {
						dist = d.rep[2]
					} else {
						dist = d.rep[3]
						d.rep[3] = d.rep[2]
					}
					d.rep[2] = d.rep[1]
				}
				d.rep[1] = rep0
				rep0 = dist
			}
			l, rng, code, ip = d.repLen.decode(posState, rng, code, in, ip)
			if st < litStates {
				st = 8
			} else {
				st = 11
			}
		}
		d.rep[0] = rep0
		// Copy l+2 bytes from rep0+1 back.
		full := uint32(pos - dictStart)
		if rep0 >= full || rep0 >= dict {
			res = chunkDistance
			break
		}
		ml := int(l) + matchLenMin
		if ml > end-pos {
			res = chunkOverrun
			break
		}
		src := pos - int(rep0) - 1
		if rep0 >= 7 && ml <= shortMatch && pos+shortMatch <= end {
			// A distance of 8 or more: each word's source bytes are
			// written before it is read, so word copies in order give
			// the overlapping match's bytes too. Two words always (most
			// matches are 16 bytes or shorter: no branch on the length
			// to mispredict), two more when needed.
			w := (*[shortMatch]byte)(out[pos : pos+shortMatch])
			binary.LittleEndian.PutUint64(w[0:], binary.LittleEndian.Uint64(out[src:]))
			binary.LittleEndian.PutUint64(w[8:], binary.LittleEndian.Uint64(out[src+8:]))
			if ml > 16 {
				binary.LittleEndian.PutUint64(w[16:], binary.LittleEndian.Uint64(out[src+16:]))
				binary.LittleEndian.PutUint64(w[24:], binary.LittleEndian.Uint64(out[src+24:]))
			}
		} else if rep0 < 7 && pos+shortMatch+8 <= end && ml <= shortMatch {
			// A distance of 1 to 7: the first 8 bytes byte by byte
			// (each reads a byte written just before), then words
			// from back bytes back, the smallest multiple of the
			// distance that is at least 8 (8 to 14: never before src,
			// never a byte not yet written).
			w := (*[shortMatch + 8]byte)(out[pos : pos+shortMatch+8])
			for k := 0; k < 8; k++ {
				w[k] = out[src+k]
			}
			if ml > 8 {
				back := int(shortBack[rep0&7])
				for k := 8; k < ml; k += 8 {
					binary.LittleEndian.PutUint64(w[k:], binary.LittleEndian.Uint64(out[pos+k-back:]))
				}
			}
		} else if ml <= int(rep0)+1 {
			copy(out[pos:pos+ml], out[src:src+ml])
		} else if rep0 == 0 {
			b := out[src]
			o := out[pos : pos+ml]
			for i := range o {
				o[i] = b
			}
		} else {
			// Overlapping: copy in runs of the distance, which double.
			o := out[src : pos+ml]
			for k := int(rep0) + 1; k < len(o); {
				k += copy(o[k:], o[:k])
			}
		}
		pos += ml
	}
	d.state = st
	if res == chunkOK {
		// Leave the range decoder normalized, as liblzma and
		// xz-embedded do: the chunk's last byte is read here.
		if rng < topValue {
			code = code<<8 | uint32(in[ip])
			ip++
		}
		if ip > n {
			res = chunkTrunc
		} else if ip != n || code != 0 {
			res = chunkTail
		}
	}
	return res, pos
}

// decode reads a match length minus matchLenMin.
func (l *lenDec) decode(posState uint32, rng, code uint32, in []byte, ip int) (uint32, uint32, uint32, int) {
	var bit, s uint32
	ps := posState & (decPosStates - 1)
	rng, code, ip, bit = rcBit(&l.choice, rng, code, in, ip)
	if bit == 0 {
		s, rng, code, ip = bitTree3(&l.low[ps], rng, code, in, ip)
		return s, rng, code, ip
	}
	rng, code, ip, bit = rcBit(&l.choice2, rng, code, in, ip)
	if bit == 0 {
		s, rng, code, ip = bitTree3(&l.mid[ps], rng, code, in, ip)
		return s + lenLow, rng, code, ip
	}
	s, rng, code, ip = bitTree8(&l.high, rng, code, in, ip)
	return s + lenLow + lenMid, rng, code, ip
}
