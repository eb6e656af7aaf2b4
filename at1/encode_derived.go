package at1

import (
	"github.com/colfmt/colfmt/internal/varint"
)

// derivedMapMax is the largest map a DERIVED column is written with: a
// large map rarely pays for itself. A column of n values takes a map of
// at most n/4+1 values.
const derivedMapMax = 1 << 12

// derivedMapLimit is the largest map derivedChunk writes for a column of
// n values.
func derivedMapLimit(n int) int { return min(n/4+1, derivedMapMax) }

// valueIDs numbers a column's distinct values in the order they first
// appear, as a DERIVED column's map follows them.
type valueIDs struct {
	ids   []uint16 // value i's number; nil: more than derivedMapLimit distinct values
	first []int32  // the first value of each number
}

// columnIDs numbers c's values, or gives up (ids nil) past
// derivedMapLimit distinct values: such a column can neither be the
// source of a DERIVED column nor one (a function of a column has no more
// distinct values than it).
func columnIDs(c column) valueIDs {
	n := c.len()
	limit := derivedMapLimit(n)
	seen := make(map[string]uint16)
	ids := make([]uint16, n)
	var first []int32
	for i := range n {
		v := c.val(i)
		id, ok := seen[string(v)]
		if !ok {
			if len(first) == limit {
				return valueIDs{}
			}
			id = uint16(len(first))
			seen[string(v)] = id
			first = append(first, int32(i))
		}
		ids[i] = id
	}
	return valueIDs{ids, first}
}

// derivedIDs is columnIDs of every column, on up to conc goroutines.
func derivedIDs(cols []column, conc int) []valueIDs {
	ids := make([]valueIDs, len(cols))
	parallel(conc, len(cols), func(k int) error {
		ids[k] = columnIDs(cols[k])
		return nil
	})
	return ids
}

// derivedChunk writes column k as DERIVED from an earlier column a when
// k's value is a function of a's and exactly the same rows carry both
// (columns are ragged: rows with more than k fields are a subset of those
// with more than a, so equal counts mean the same rows). The map follows
// the first appearance of a's distinct values; the smallest map wins (the
// later column on a tie), and none larger than derivedMapLimit. ids is
// derivedIDs of cols: comparing value numbers instead of hashing every
// value of every earlier column for each k (which took 29% of the encode
// of a 1.3 MB JSON Lines file of 200 columns) makes the test of a pair a
// pass over two small-integer arrays. derivedChunkRef in the tests is the
// direct twin the fuzz target compares it with.
func derivedChunk(cols []column, ids []valueIDs, k int) ([]byte, bool) {
	idk := ids[k]
	if idk.ids == nil {
		return nil, false
	}
	n := cols[k].len()
	var best []byte
	bestMap := derivedMapLimit(n)
	var img [derivedMapMax]uint16 // a's number -> k's number + 1 (0: not yet seen)
	for a := 0; a < k; a++ {
		ida := ids[a]
		da := len(ida.first)
		if cols[a].len() != n || ida.ids == nil || da > bestMap || da < len(idk.first) {
			continue
		}
		fk := img[:da]
		clear(fk)
		ok := true
		for i, x := range ida.ids[:n] {
			y := idk.ids[i] + 1
			if f := fk[x]; f == 0 {
				fk[x] = y
			} else if f != y {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		out := varint.Append(nil, uint64(a))
		out = varint.Append(out, uint64(da))
		for _, i := range ida.first {
			m := cols[k].val(int(i))
			out = varint.Append(out, uint64(len(m)))
			out = append(out, m...)
		}
		best, bestMap = out, da
	}
	return best, best != nil
}
