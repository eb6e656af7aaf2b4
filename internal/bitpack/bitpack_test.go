package bitpack

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// refPack is the bit-at-a-time reference layout.
func refPack(vals []uint64, width uint) []byte {
	nbits := len(vals) * int(width)
	out := make([]byte, (nbits+7)/8)
	for j, v := range vals {
		for b := uint(0); b < width; b++ {
			if v>>b&1 == 1 {
				pos := j*int(width) + int(b)
				out[pos/8] |= 1 << (pos % 8)
			}
		}
	}
	return out
}

func refUnpack(src []byte, width uint, n int) []uint64 {
	out := make([]uint64, n)
	for j := range out {
		for b := uint(0); b < width; b++ {
			pos := j*int(width) + int(b)
			if src[pos/8]>>(pos%8)&1 == 1 {
				out[j] |= 1 << b
			}
		}
	}
	return out
}

func randVals(r *rand.Rand, n int, width uint) []uint64 {
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = r.Uint64() & maskOf(width)
	}
	return vals
}

func TestEveryWidthAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for width := uint(1); width <= 64; width++ {
		for n := 0; n <= 200; n++ {
			vals := randVals(r, n, width)
			want := refPack(vals, width)
			got := Append([]byte{}, vals, width)
			require.Equal(t, want, got, "width %d n %d", width, n)
			require.Equal(t, len(want), PackedLen(n, width))

			// Exactly sized input, and input with trailing junk, both decode.
			un, err := Unpack[uint64](nil, got, width, n)
			require.NoError(t, err)
			if n == 0 {
				require.Empty(t, un)
			} else {
				require.Equal(t, vals, un, "width %d n %d", width, n)
			}
			un, err = Unpack[uint64](nil, append(append([]byte{}, got...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), width, n)
			require.NoError(t, err)
			require.Equal(t, refUnpack(got, width, n), append([]uint64{}, un...))

			for i := range vals {
				if g := Get(got, width, i); g != vals[i] {
					t.Fatalf("Get(width %d, %d) = %x, want %x", width, i, g, vals[i])
				}
			}
			if n > 0 {
				_, err = Unpack[uint64](nil, got[:len(got)-1], width, n)
				require.ErrorIs(t, err, ErrShort)
			}
		}
	}
}

func TestNarrowTypes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for width := uint(1); width <= 16; width++ {
		vals := make([]uint16, 1000)
		for i := range vals {
			vals[i] = uint16(r.Uint32()) & uint16(maskOf(width))
		}
		p := Append(nil, vals, width)
		got, err := Unpack[uint16]([]uint16{7}, p, width, len(vals))
		require.NoError(t, err)
		require.Equal(t, uint16(7), got[0], "appends after existing elements")
		require.Equal(t, vals, got[1:])
	}
	_, err := Unpack[uint16](nil, make([]byte, 100), 17, 10)
	require.ErrorIs(t, err, ErrWidth)
	_, err = Unpack[uint8](nil, make([]byte, 100), 0, 10)
	require.ErrorIs(t, err, ErrWidth)
	_, err = Unpack[uint64](nil, make([]byte, 100), 65, 10)
	require.ErrorIs(t, err, ErrWidth)
}

func TestGoldenLayouts(t *testing.T) {
	// 12-bit codes 0x123, 0x456: bits LSB-first -> 23 61 45.
	require.Equal(t, []byte{0x23, 0x61, 0x45}, Append(nil, []uint16{0x123, 0x456}, 12))
	// 9-bit: 0x1ff, 0x000, 0x1ff -> 511 | 0<<9 | 511<<18
	w := uint64(0x1ff) | uint64(0x1ff)<<18
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], w)
	require.Equal(t, b[:4], Append(nil, []uint16{0x1ff, 0, 0x1ff}, 9))
	// 1-bit bitmap, LSB first.
	require.Equal(t, []byte{0b00000101, 0b1}, Append(nil, []uint8{1, 0, 1, 0, 0, 0, 0, 0, 1}, 1))
	// Bits above the width are dropped.
	require.Equal(t, []byte{0x0f}, Append(nil, []uint8{0xff}, 4))
}

func TestPackedLen(t *testing.T) {
	require.Equal(t, 0, PackedLen(0, 12))
	require.Equal(t, 2, PackedLen(1, 12))
	require.Equal(t, 3, PackedLen(2, 12))
	require.Equal(t, 1, PackedLen(8, 1))
	require.Equal(t, 2, PackedLen(9, 1))
	require.Equal(t, -1, PackedLen(-1, 1))
	require.Equal(t, -1, PackedLen(math.MaxInt/4, 64)) // n*64 bits overflows
	require.Equal(t, -1, PackedLen(math.MaxInt, 9))    // fits in bits, not in int bytes
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(12), uint16(5))
	f.Add([]byte{}, uint8(1), uint16(0))
	f.Fuzz(func(t *testing.T, raw []byte, w uint8, n uint16) {
		width := uint(w%64) + 1
		// Unpack arbitrary bytes: must agree with the reference or fail cleanly.
		got, err := Unpack[uint64](nil, raw, width, int(n))
		if PackedLen(int(n), width) > len(raw) {
			if err == nil {
				t.Fatalf("short input accepted")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		want := refUnpack(raw, width, int(n))
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("width %d value %d: got %x want %x", width, i, got[i], want[i])
			}
		}
		// And repacking reproduces the bits that were used.
		re := Append(nil, got, width)
		if string(re) != string(refPack(want, width)) {
			t.Fatalf("repack differs")
		}
	})
}

var sink int

func benchUnpack(b *testing.B, width uint) {
	const n = 1 << 16
	vals := randVals(rand.New(rand.NewPCG(5, 6)), n, width)
	p := Append(nil, vals, width)
	out := make([]uint64, 0, n)
	b.ReportAllocs()
	b.SetBytes(n * 8) // bytes of decoded uint64 values
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, _ = Unpack(out[:0], p, width, n)
	}
	sink += len(out)
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gvalues/s")
}

func BenchmarkUnpack1(b *testing.B)  { benchUnpack(b, 1) }
func BenchmarkUnpack9(b *testing.B)  { benchUnpack(b, 9) }
func BenchmarkUnpack12(b *testing.B) { benchUnpack(b, 12) }
func BenchmarkUnpack16(b *testing.B) { benchUnpack(b, 16) }
func BenchmarkUnpack32(b *testing.B) { benchUnpack(b, 32) }

// BenchmarkUnpack12U16 is the OnPair case: 12-bit codes into uint16.
func BenchmarkUnpack12U16(b *testing.B) {
	const n = 1 << 16
	vals := randVals(rand.New(rand.NewPCG(5, 6)), n, 12)
	p := Append(nil, vals, 12)
	out := make([]uint16, 0, n)
	b.ReportAllocs()
	b.SetBytes(n * 2)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, _ = Unpack(out[:0], p, 12, n)
	}
	sink += len(out)
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gvalues/s")
}

// BenchmarkCopyBaseline copies the decoded size: the memory-speed ceiling.
func BenchmarkCopyBaseline(b *testing.B) {
	const n = 1 << 16
	src := make([]uint64, n)
	dst := make([]uint64, n)
	b.ReportAllocs()
	b.SetBytes(n * 8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(dst, src)
	}
}

func benchPack(b *testing.B, width uint) {
	const n = 1 << 16
	vals := randVals(rand.New(rand.NewPCG(7, 8)), n, width)
	out := make([]byte, 0, PackedLen(n, width))
	b.ReportAllocs()
	b.SetBytes(n * 8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out = Append(out[:0], vals, width)
	}
	sink += len(out)
}

func BenchmarkPack1(b *testing.B)  { benchPack(b, 1) }
func BenchmarkPack9(b *testing.B)  { benchPack(b, 9) }
func BenchmarkPack12(b *testing.B) { benchPack(b, 12) }
func BenchmarkPack16(b *testing.B) { benchPack(b, 16) }
func BenchmarkPack32(b *testing.B) { benchPack(b, 32) }
