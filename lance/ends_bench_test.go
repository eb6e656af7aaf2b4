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
