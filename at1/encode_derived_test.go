package at1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/colfmt/colfmt/internal/varint"
)

// derivedChunkRef is derivedChunk done directly, as it was written
// before value numbers: for each earlier column, a map from its values
// to k's, built value by value.
func derivedChunkRef(cols []column, k int) ([]byte, bool) {
	n := cols[k].len()
	var best []byte
	bestMap := min(n/4+1, 1<<12)
	for a := 0; a < k; a++ {
		if cols[a].len() != n {
			continue
		}
		ids := map[string]int{}
		var mapped [][]byte
		ok := true
		for i := range cols[a].cells {
			v := cols[a].val(i)
			id, seen := ids[string(v)]
			if !seen {
				if len(mapped) >= bestMap {
					ok = false
					break
				}
				ids[string(v)] = len(mapped)
				mapped = append(mapped, cols[k].val(i))
				continue
			}
			if !bytes.Equal(mapped[id], cols[k].val(i)) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		out := varint.Append(nil, uint64(a))
		out = varint.Append(out, uint64(len(mapped)))
		for _, m := range mapped {
			out = varint.Append(out, uint64(len(m)))
			out = append(out, m...)
		}
		best, bestMap = out, len(mapped)
	}
	return best, best != nil
}

// checkDerivedTwins fails unless derivedChunk and derivedChunkRef agree
// on every column of cols, and reports how many columns were derived.
func checkDerivedTwins(t testing.TB, cols []column) int {
	ids := derivedIDs(cols, 2)
	derived := 0
	for k := range cols {
		got, gok := derivedChunk(cols, ids, k)
		want, wok := derivedChunkRef(cols, k)
		if gok != wok || !bytes.Equal(got, want) {
			t.Fatalf("column %d: derivedChunk %v %q, direct %v %q", k, gok, got, wok, want)
		}
		if gok {
			derived++
		}
	}
	return derived
}

// TestDerivedChunkTwin compares derivedChunk with its direct twin on
// random tables built to hold functions of earlier columns, columns that
// are almost functions (one value off), ragged lengths, map limits
// (more distinct values than n/4+1, and than 4096) and empty columns.
func TestDerivedChunkTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 12))
	derived := 0
	for round := range 300 {
		n := []int{0, 1, 3, 8, 40, 200, 5000, 20000}[r.IntN(8)]
		ncols := 1 + r.IntN(7)
		vals := make([][]string, ncols)
		for k := range vals {
			m := n
			if r.IntN(5) == 0 {
				m = r.IntN(n + 1) // ragged: fewer values than the others
			}
			vals[k] = make([]string, m)
			switch a := r.IntN(max(k, 1)); {
			case k > 0 && r.IntN(2) == 0 && len(vals[a]) == m:
				// A function of column a, sometimes broken in one row.
				f := map[string]string{}
				for i, v := range vals[a] {
					w, ok := f[v]
					if !ok {
						w = fmt.Sprint("f", r.IntN(3+r.IntN(50)))
						f[v] = w
					}
					vals[k][i] = w
				}
				if m > 0 && r.IntN(3) == 0 {
					vals[k][r.IntN(m)] = "odd"
				}
			default:
				distinct := []int{1, 2, 5, n/4 + 1, n/4 + 2, 4096, 4097, n + 1}[r.IntN(8)]
				for i := range vals[k] {
					vals[k][i] = fmt.Sprint(r.IntN(max(distinct, 1)))
				}
			}
		}
		cols := make([]column, ncols)
		for k, v := range vals {
			cols[k] = fieldsOf(v...)
		}
		derived += checkDerivedTwins(t, cols)
		_ = round
	}
	if derived < 100 {
		t.Fatalf("only %d derived columns in 300 tables: the test no longer builds functions", derived)
	}
}

// FuzzDerivedChunk compares derivedChunk with derivedChunkRef on tables
// read from the input: lines are rows, '|' separates a row's values
// (ragged rows give columns of different lengths).
func FuzzDerivedChunk(f *testing.F) {
	f.Add([]byte("a|x|1\nb|y|1\na|x|2\nc|x|2\nb|y|3\n"))
	f.Add([]byte("1|1\n2|2\n1|1\n1|1\n2|3\n"))
	f.Add([]byte("a|b\na\n|\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var vals [][]string
		for _, line := range bytes.Split(in, []byte{'\n'}) {
			for k, v := range bytes.Split(line, []byte{'|'}) {
				if k >= 8 {
					break
				}
				if k == len(vals) {
					vals = append(vals, nil)
				}
				vals[k] = append(vals[k], string(v))
			}
		}
		cols := make([]column, len(vals))
		for k, v := range vals {
			cols[k] = fieldsOf(v...)
		}
		checkDerivedTwins(t, cols)
	})
}
