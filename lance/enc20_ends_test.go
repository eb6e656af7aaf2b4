package lance

import "testing"

func BenchmarkRebaseEnds(b *testing.B) {
	const n = 8192
	ends := make([]uint64, n)
	var e uint64
	adj := uint64(n*4 + 1)
	for i := range ends {
		e += uint64(i % 5)
		ends[i] = e
		if i%10 == 0 {
			ends[i] += adj
		}
	}
	out := make([]int32, n)
	words := make([]uint64, n/64)
	b.SetBytes(n * 8)
	for i := 0; i < b.N; i++ {
		clear(words)
		if _, bad := rebaseEnds(ends, adj, 0, adj-1, 3, out, words, 0); bad >= 0 {
			b.Fatal(bad)
		}
	}
}

// FuzzDiffRebaseEnds compares rebaseEnds and checkEnds with a plain
// value-by-value reading of the notes' rule (valid = v < adj; end = v or
// v - adj; ends never decrease and stay within the limit).
func FuzzDiffRebaseEnds(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0}, uint64(5), uint64(100), uint8(3), int64(7))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0}, uint64(0), uint64(0), uint8(63), int64(-1))
	f.Fuzz(func(t *testing.T, raw []byte, adj, max uint64, row uint8, base int64) {
		ends := make([]uint64, len(raw)/8)
		for i := range ends {
			ends[i] = uint64(raw[8*i]) | uint64(raw[8*i+1])<<8 | uint64(raw[8*i+7])<<56
			if raw[8*i+2]&1 != 0 && adj != 0 {
				ends[i] += adj // a null, as writers store it
			}
		}
		lim := endLimit(adj, max)
		r0 := int64(row)
		words := make([]uint64, (r0+int64(len(ends))+64)/64)
		out := make([]int64, len(ends))
		prev, bad := rebaseEnds(ends, adj, 0, lim, base, out, words, r0)
		cprev, cbad := checkEnds(ends, adj, 0, lim)
		// The reference.
		var p uint64
		want := -1
		for i, v := range ends {
			valid := adj == 0 || v < adj
			end := v
			if !valid {
				end = v - adj
			}
			if end < p || (adj != 0 && end >= adj) || end > max {
				want = i
				break
			}
			p = end
			if out[i] != base+int64(end) {
				t.Fatalf("out[%d] = %d, want %d", i, out[i], base+int64(end))
			}
		}
		if bad != want || cbad != want || prev != p || cprev != p {
			t.Fatalf("rebaseEnds (%d, %d), checkEnds (%d, %d), want (%d, %d)", prev, bad, cprev, cbad, p, want)
		}
		if want >= 0 {
			return // errors discard the output, validity included
		}
		for i, v := range ends {
			valid := adj == 0 || v < adj
			k := r0 + int64(i)
			if got := words[k>>6]>>(k&63)&1 == 1; got != valid {
				t.Fatalf("row %d valid = %v, want %v", i, got, valid)
			}
		}
		for k := int64(0); k < r0; k++ {
			if words[k>>6]>>(k&63)&1 != 0 {
				t.Fatalf("bit %d before the first row is set", k)
			}
		}
	})
}
