//go:build amd64 && !purego

package onpair

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnpackMaxEveryWidth: where the vector unpack is built, it agrees
// with PackCodes/UnpackCodes for every width 8..16 and 0..70 groups of 16
// codes (values spanning the width, the maximum anywhere), at every
// alignment of the packed bytes, and returns their maximum.
func TestUnpackMaxEveryWidth(t *testing.T) {
	if !packedSIMD {
		return
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for width := uint32(8); width <= 16; width++ {
		for groups := 0; groups <= 70; groups++ {
			codes := make([]uint16, 16*groups)
			for i := range codes {
				codes[i] = uint16(rng.Uint32()) & uint16(1<<width-1)
				if groups%3 == 0 {
					codes[i] >>= 3 // a maximum below the width's
				}
			}
			for off := 0; off < 3; off++ {
				packed := append(make([]byte, off), PackCodes(codes, width)...)
				packed = append(packed, make([]byte, 16)...) // the loads' overrun
				got := make([]uint16, 16*groups+16)
				for i := range got {
					got[i] = 0xABCD
				}
				var src *byte
				if len(packed) > off {
					src = &packed[off]
				}
				mx := unpackMaxAVX2(&got[0], src, groups, &unpackTabs[width])
				require.Equal(t, codes, got[:16*groups], "width %d groups %d", width, groups)
				require.Equal(t, bytes.Repeat([]byte{0xCD, 0xAB}, 16), u16Bytes(got[16*groups:]), "written past the groups")
				require.Equal(t, maxCodeGo(codes), mx, "width %d groups %d", width, groups)
			}
		}
	}
}

func u16Bytes(s []uint16) []byte {
	var b []byte
	for _, v := range s {
		b = append(b, byte(v), byte(v>>8))
	}
	return b
}

// BenchmarkCheckPass times the vector passes per code on 64 KiB of codes
// (in L2): the max of a []uint16 (each implementation) and the 12-bit
// unpack with its max.
func BenchmarkCheckPass(b *testing.B) {
	codes := make([]uint16, 1<<10)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range codes {
		codes[i] = uint16(rng.IntN(4096))
	}
	for name, f := range maxCodeImpls() {
		b.Run("max-"+name, func(b *testing.B) {
			b.SetBytes(2 * int64(len(codes)))
			b.ReportAllocs()
			var s uint16
			for b.Loop() {
				s |= f(codes)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
			sink16 = s
		})
	}
	if packedSIMD {
		packed := append(PackCodes(codes, 12), make([]byte, 16)...)
		out := make([]uint16, len(codes))
		b.Run("unpack12-avx2", func(b *testing.B) {
			b.SetBytes(2 * int64(len(codes)))
			b.ReportAllocs()
			var s uint16
			for b.Loop() {
				s |= unpackMaxAVX2(&out[0], &packed[0], len(codes)/16, &unpackTabs[12])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
			sink16 = s
		})
	}
}

var sink16 uint16
