package at1

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// Decimals of mixed precision (most with four decimals, the rest three or
// five: NUMEXC with exceptions, or TEXT) are ranked again by xz, which
// codes the NUMEXC chain smaller than zstd's estimate says; a candidate
// smaller under xz by less than the margin does not replace pickChunk's
// choice.
func TestXZRank(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var b strings.Builder
	for i := 0; i < 600; i++ {
		d := 4
		if r.IntN(10) < 3 {
			d = 3 + 2*r.IntN(2)
		}
		fmt.Fprintf(&b, "%s\n", strconv.FormatFloat(0.05+r.Float64()*0.25, 'f', d, 64))
	}
	src := []byte(b.String())
	if len(src) < xzRankMin {
		t.Fatalf("%d bytes, under xzRankMin", len(src))
	}
	col := buildTable(src, ',', false).cols[0]
	cands := colCandidates(col)
	best := pickChunk(cands, col.small)
	if best.typ != colText {
		t.Fatalf("pickChunk chose type %d, want TEXT (the premise)", best.typ)
	}
	if got := xzRank(col, cands, best); got.typ != colNumExc {
		t.Errorf("xzRank chose type %d, want NUMEXC", got.typ)
	}
	enc := roundTrip(t, "mixed precision", src, WithCodec(CodecColumnar), WithKeepCodec(true), WithTokenTables(false))
	if _, types := tokenMeta(t, enc); len(types) != 1 || types[0] != colNumExc {
		t.Errorf("column types %v, want NUMEXC", types)
	}

	// The margin: a candidate 3% smaller under xz is not taken, one 10%
	// smaller is. (Random bytes: xz and zstd code them at their length.)
	noise := make([]byte, 4000)
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	col = fieldsOf("1", "2", "3")
	a := candidate{colText, noise}
	for _, tc := range []struct {
		keep int
		want byte
	}{{3880, colText}, {3600, colDict}} {
		b := candidate{colDict, append(append([]byte{}, noise[:tc.keep]...), make([]byte, len(noise)-tc.keep)...)}
		if got := xzRank(col, []candidate{a, b}, a); got.typ != tc.want {
			t.Errorf("%d of %d bytes random (xz %d against %d): type %d, want %d", tc.keep, len(noise), xzEstSize(b.chunk), xzEstSize(a.chunk), got.typ, tc.want)
		}
	}
}
