package zstdenc

import (
	"math"
	"math/bits"
)

// bitWriter writes a zstd backward bitstream: bits go in least
// significant first, and the decoder reads them from the end.
type bitWriter struct {
	acc uint64
	n   uint
	out []byte
}

// add writes the low nb (at most 32) bits of v.
func (w *bitWriter) add(v uint64, nb uint) {
	w.acc |= (v & (1<<nb - 1)) << w.n
	w.n += nb
	if w.n >= 32 {
		w.out = append(w.out, byte(w.acc), byte(w.acc>>8), byte(w.acc>>16), byte(w.acc>>24))
		w.acc >>= 32
		w.n -= 32
	}
}

// close ends the stream with its 1 marker bit and pads the last byte.
func (w *bitWriter) close() []byte {
	w.add(1, 1)
	for w.n > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n = uint(max(int(w.n)-8, 0))
	}
	return w.out
}

// fseTable is an FSE encoding table built from normalized counts exactly
// as the decoder spreads them (RFC 8878 4.1.1).
type fseTable struct {
	log   uint8
	norm  []int16  // normalized counts, -1 for "less than 1"
	first []uint16 // per symbol: index into cells of its first cell
	cells []uint16 // cell numbers, grouped by symbol, ascending
}

func buildFSE(norm []int16, log uint8) *fseTable {
	size := 1 << log
	t := &fseTable{log: log, norm: norm, first: make([]uint16, len(norm)), cells: make([]uint16, size)}
	sym := make([]uint8, size)
	high := size - 1
	for s, n := range norm {
		if n == -1 {
			sym[high] = uint8(s)
			high--
		}
	}
	pos, step, mask := 0, size>>1+size>>3+3, size-1
	for s, n := range norm {
		for i := 0; i < int(n); i++ {
			sym[pos] = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	k := 0
	for s, n := range norm {
		t.first[s] = uint16(k)
		k += int(max(n, -n))
	}
	next := make([]uint16, len(norm))
	copy(next, t.first)
	for c, s := range sym {
		t.cells[next[s]] = uint16(c)
		next[s]++
	}
	return t
}

// count is the number of cells of symbol s.
func (t *fseTable) count(s uint8) uint32 {
	n := int32(t.norm[s])
	return uint32(max(n, -n))
}

// init returns the encoder state before the first symbol written (the
// last one decoded): any cell of s, no bits.
func (t *fseTable) init(s uint8) uint32 {
	return 1<<t.log + uint32(t.cells[t.first[s]])
}

// encode writes symbol s from state st (in [T, 2T)) and returns the new state.
func (t *fseTable) encode(w *bitWriter, st uint32, s uint8) uint32 {
	n := t.count(s)
	k := bits.Len32(st) - bits.Len32(n)
	if st>>uint(k) < n {
		k--
	}
	w.add(uint64(st), uint(k))
	x := st >> uint(k)
	return 1<<t.log + uint32(t.cells[uint32(t.first[s])+x-n])
}

// flush writes the final state, which the decoder reads first.
func (t *fseTable) flush(w *bitWriter, st uint32) {
	w.add(uint64(st), uint(t.log))
}

// normalize scales counts (total > 0) to sum 1<<log, every present
// symbol at least 1, the rounding chosen to cost the fewest bits.
func normalize(counts []uint32, total uint32, log uint8) []int16 {
	last := len(counts) - 1
	for last > 0 && counts[last] == 0 {
		last--
	}
	norm := make([]int16, last+1)
	size := 1 << log
	sum := 0
	for s := 0; s <= last; s++ {
		if c := counts[s]; c > 0 {
			n := int(math.Round(float64(c) * float64(size) / float64(total)))
			n = max(n, 1)
			norm[s] = int16(n)
			sum += n
		}
	}
	for sum > size { // take one from where it costs least
		best, bestCost := -1, math.Inf(1)
		for s := 0; s <= last; s++ {
			if n := norm[s]; n > 1 {
				c := float64(counts[s]) * math.Log2(float64(n)/float64(n-1))
				if c < bestCost {
					best, bestCost = s, c
				}
			}
		}
		norm[best]--
		sum--
	}
	for sum < size { // give one where it saves most
		best, bestGain := -1, -1.0
		for s := 0; s <= last; s++ {
			if n := norm[s]; n > 0 {
				g := float64(counts[s]) * math.Log2(float64(n+1)/float64(n))
				if g > bestGain {
					best, bestGain = s, g
				}
			}
		}
		norm[best]++
		sum++
	}
	return norm
}

// fseBits estimates the bits counts cost under norm (log).
func fseBits(counts []uint32, norm []int16, log uint8) float64 {
	b := 0.0
	for s, c := range counts {
		if c == 0 {
			continue
		}
		if s >= len(norm) || norm[s] == 0 {
			return math.Inf(1)
		}
		n := max(norm[s], -norm[s])
		b += float64(c) * (float64(log) - math.Log2(float64(n)))
	}
	return b
}

// appendNCount appends the FSE table description of norm (RFC 8878 4.1.1).
func appendNCount(dst []byte, norm []int16, log uint8) []byte {
	var acc uint64
	var n uint
	put := func(v uint32, nb uint) {
		acc |= uint64(v) & (1<<nb - 1) << n
		n += nb
		for n >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			n -= 8
		}
	}
	put(uint32(log-5), 4)
	remaining := int32(1<<log) + 1
	threshold := int32(1 << log)
	nbBits := uint(log) + 1
	prev0 := false
	s := 0
	for remaining > 1 && s < len(norm) {
		if prev0 {
			start := s
			for norm[s] == 0 {
				s++
			}
			for s >= start+24 {
				start += 24
				put(0xFFFF, 16)
			}
			for s >= start+3 {
				start += 3
				put(3, 2)
			}
			put(uint32(s-start), 2)
		}
		count := int32(norm[s])
		s++
		mx := 2*threshold - 1 - remaining
		remaining -= max(count, -count)
		count++
		if count >= threshold {
			count += mx
		}
		nb := nbBits
		if count < mx {
			nb--
		}
		put(uint32(count), nb)
		prev0 = count == 1
		for remaining < threshold {
			nbBits--
			threshold >>= 1
		}
	}
	if n > 0 {
		dst = append(dst, byte(acc))
	}
	return dst
}
