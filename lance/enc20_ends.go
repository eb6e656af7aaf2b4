package lance

import "math"

// Binary indices and List offsets share a shape (notes §5): page-local
// u64 ends without a leading 0, a null stored as end + adj (adj 0: no
// nulls). These loops check and rebase them without per-value calls.

// endLimit is the largest valid end: at most max, and below adj when the
// page has nulls.
func endLimit(adj, max uint64) uint64 {
	if adj != 0 && adj-1 < max {
		return adj - 1
	}
	return max
}

// nullFrom is the smallest stored value that means null.
func nullFrom(adj uint64) uint64 {
	if adj == 0 {
		return math.MaxUint64 // no nulls; MaxUint64 stays an invalid end
	}
	return adj
}

// checkEnds checks ends after prev: each end at least the previous and
// at most lim. It returns the last end and the index of the first bad
// one, or -1.
func checkEnds(ends []uint64, adj, prev, lim uint64) (uint64, int) {
	nf := nullFrom(adj)
	for i, v := range ends {
		end := v
		if v >= nf {
			end = v - adj
		}
		if end < prev || end > lim {
			return prev, i
		}
		prev = end
	}
	return prev, -1
}

// rebaseEnds is checkEnds that also writes out[i] = base + end and sets
// bit row+i of words for every valid row (words start zeroed, and bits
// of other rows are kept). It works in blocks that end on a 64-row word,
// so validity is one store per word.
func rebaseEnds[T int32 | int64](ends []uint64, adj, prev, lim uint64, base int64, out []T, words []uint64, row int64) (uint64, int) {
	nf := nullFrom(adj)
	out = out[:len(ends)]
	for i := 0; i < len(ends); {
		k := min(len(ends)-i, 64-int(row&63))
		blk, dst := ends[i:i+k], out[i:i+k]
		var acc uint64
		for j, v := range blk {
			end := v
			valid := v < nf
			if !valid {
				end = v - adj
			}
			// end < prev wraps around, so one compare checks both bounds
			// (prev <= lim holds throughout).
			if end-prev > lim-prev {
				return prev, i + j
			}
			prev = end
			dst[j] = T(base + int64(end))
			if valid {
				acc |= 1 << uint(j)
			}
		}
		words[row>>6] |= acc << (row & 63)
		row += int64(k)
		i += k
	}
	return prev, -1
}

// storedEnd undoes the null adjustment of one stored end (for messages).
func storedEnd(v, adj uint64) uint64 {
	if v >= nullFrom(adj) {
		return v - adj
	}
	return v
}
