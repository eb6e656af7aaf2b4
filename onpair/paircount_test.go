package onpair

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPairCountsMatchesMap checks the counter table against a map with the
// same saturating-increment and reset semantics, through several growths.
func TestPairCountsMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	p := newPairCounts()
	ref := map[uint32]uint8{}
	for i := 0; i < 200_000; i++ {
		key := uint32(r.IntN(300))<<16 | uint32(r.IntN(200+i/10))
		if r.IntN(50) == 0 {
			p.reset(key)
			ref[key] = 0
			continue
		}
		want := ref[key]
		if want < 255 {
			want++
		}
		ref[key] = want
		require.Equal(t, want, p.incr(key), "op %d key %x", i, key)
	}
	require.Greater(t, len(p.keys), 1<<14, "never grew")
	for k := uint32(0); k < 1000; k++ { // saturation
		p.incr(7<<16 | 7)
	}
	require.Equal(t, uint8(255), p.incr(7<<16|7))
}
