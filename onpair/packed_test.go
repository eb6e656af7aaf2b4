package onpair

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Byte layouts computed by hand from "code j starts at bit j*bits,
// LSB-first" (notes §3.5, plus bits 13 worked out in the comments).
func TestPackedGolden(t *testing.T) {
	example := []uint16{0, 1, 3, 0, 1, 2, 3}
	cases := []struct {
		name  string
		codes []uint16
		bits  uint32
		want  []byte
	}{
		{"bits9", example, 9, []byte{0x00, 0x02, 0x0c, 0x00, 0x10, 0x40, 0xc0, 0x00}},
		{"bits12", example, 12, []byte{0x00, 0x10, 0x00, 0x03, 0x00, 0x00, 0x01, 0x20, 0x00, 0x03, 0x00}},
		// bits 13: 1@13 -> byte1 bit5; 3@26 -> byte3 bits2,3; 1@52 -> byte6
		// bit4; 2@65 -> bit 66 = byte8 bit2; 3@78 -> byte9 bits6,7; 91 bits.
		{"bits13", example, 13, []byte{0x00, 0x20, 0x00, 0x0c, 0x00, 0x00, 0x10, 0x00, 0x04, 0xc0, 0x00, 0x00}},
		{"bits16", example, 16, []byte{0x00, 0x00, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00}},
		// Word straddle at 9 bits: code 7 is bits 63..71.
		{"bits9 straddle", []uint16{0x1ff, 0x155, 0x0ab, 0x100, 0x001, 0x0ff, 0x1aa, 0x055}, 9,
			[]byte{0xff, 0xab, 0xae, 0x02, 0x18, 0xe0, 0x9f, 0xea, 0x2a}},
		// Word straddle at 13 bits: code 4 (0x1fff) is bits 52..64.
		{"bits13 straddle", []uint16{0, 0, 0, 0, 0x1fff}, 13,
			[]byte{0, 0, 0, 0, 0, 0, 0xf0, 0xff, 0x01}},
		// bits 12: 0xabc then 0x123 -> bc, (3<<4)|a, 12.
		{"bits12 nibbles", []uint16{0xabc, 0x123}, 12, []byte{0xbc, 0x3a, 0x12}},
		{"bits16 le", []uint16{0xbeef, 0x0102}, 16, []byte{0xef, 0xbe, 0x02, 0x01}},
		{"empty", nil, 12, []byte{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := PackCodes(tc.codes, tc.bits)
			require.Equal(t, tc.want, got)
			require.Equal(t, PackedLen(len(tc.codes), tc.bits), len(got))
			back, err := UnpackCodes(got, tc.bits, len(tc.codes))
			require.NoError(t, err)
			require.Equal(t, len(tc.codes), len(back))
			for i := range back {
				require.Equal(t, tc.codes[i], back[i])
			}
			// The C++ reference appends a zero u64: ignored.
			back2, err := UnpackCodes(append(append([]byte(nil), got...), make([]byte, 8)...), tc.bits, len(tc.codes))
			require.NoError(t, err)
			require.Equal(t, back, back2)
			if len(got) > 0 {
				_, err = UnpackCodes(got[:len(got)-1], tc.bits, len(tc.codes))
				require.ErrorIs(t, err, ErrTruncated)
			}
		})
	}
}

func TestPackRoundTripEveryWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for bits := uint32(8); bits <= 16; bits++ {
		for _, m := range []int{0, 1, 7, 8, 63, 64, 65, 511, 512, 513, 2000} {
			codes := make([]uint16, m)
			for i := range codes {
				codes[i] = uint16(r.IntN(1 << bits))
			}
			packed := PackCodes(codes, bits)
			require.Len(t, packed, (m*int(bits)+7)/8)
			back, err := UnpackCodes(packed, bits, m)
			require.NoError(t, err)
			require.Equal(t, codes, back[:m:m], "bits %d m %d", bits, m)
		}
	}
	_, err := UnpackCodes(nil, 7, 0)
	require.ErrorIs(t, err, ErrBadBits)
	_, err = UnpackCodes(nil, 17, 0)
	require.ErrorIs(t, err, ErrBadBits)
}

func TestDecompressPacked(t *testing.T) {
	p, _ := workedExample()
	for _, bits := range []uint32{9, 12, 13, 16} {
		packed := PackCodes(p.Codes, bits)
		q := p
		q.Bits = bits
		q.Codes = nil
		got, err := DecompressPacked(q, packed, len(p.Codes))
		require.NoError(t, err)
		require.Equal(t, "helloworldhello world", string(got))
	}
	// Many blocks, compared with the unpacked decoder.
	r := rand.New(rand.NewPCG(3, 4))
	codes := make([]uint16, 5000)
	for i := range codes {
		codes[i] = uint16(r.IntN(4))
	}
	p.Codes = codes
	want, err := Decompress(p)
	require.NoError(t, err)
	q := p
	q.Codes = nil
	got, err := DecompressPacked(q, PackCodes(codes, 9), len(codes))
	require.NoError(t, err)
	require.Equal(t, want, got)

	// A bad code in the third block is found and located.
	codes[1500] = 7
	_, err = DecompressPacked(q, PackCodes(codes, 9), len(codes))
	require.ErrorIs(t, err, ErrCodeOutOfRange)
	require.Contains(t, err.Error(), "codes[1500]")
	_, err = DecompressPacked(q, PackCodes(codes, 9)[:10], len(codes))
	require.ErrorIs(t, err, ErrTruncated)
}

// Every width's fused loop (one per width, generated) against the unpacked
// decoder, with codes over the whole width so every shift and mask
// matters, and a code >= N caught at every position of a block.
func TestPackedEveryWidthFullRange(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for width := uint32(8); width <= 16; width++ {
		n := 1<<width - 3 // three codes of the width are out of range
		toks := make([]string, n)
		for i := range toks {
			toks[i] = string([]byte{byte(i), byte(i >> 8), 'x', 'y'})[:1+i%4]
		}
		p := dictOf(toks, nil)
		p.Bits = width
		d, err := NewDecoder(p)
		require.NoError(t, err)
		codes := make([]uint16, 1000+int(width))
		for i := range codes {
			codes[i] = uint16(r.IntN(n))
		}
		codes[5], codes[6] = uint16(n-1), 0
		want, err := d.AppendDecode(nil, codes)
		require.NoError(t, err)
		packed := PackCodes(codes, width)
		got, err := d.AppendDecodePacked(nil, packed, len(codes))
		require.NoError(t, err, "width %d", width)
		require.Equal(t, want, got, "width %d", width)
		q := p
		got, err = DecompressPacked(q, packed, len(codes))
		require.NoError(t, err, "width %d", width)
		require.Equal(t, want, got, "width %d", width)
		for at := 0; at < 24; at++ {
			c := append([]uint16(nil), codes...)
			c[at*37%len(c)] = uint16(n + at%3)
			_, err := d.AppendDecodePacked(nil, PackCodes(c, width), len(c))
			require.ErrorIs(t, err, ErrCodeOutOfRange, "width %d at %d", width, at)
		}
		// Whole blocks of out-of-range codes (each moves the packed
		// kernel's cursor by badLen), near the end and everywhere: the
		// kernel must stay within its room and still report the code.
		for _, from := range []int{0, len(codes) - 64, len(codes) - 24} {
			c := append([]uint16(nil), codes...)
			for k := from; k < len(c); k++ {
				c[k] = uint16(n + k%3)
			}
			_, err := d.AppendDecodePacked(make([]byte, 0, 10), PackCodes(c, width), len(c))
			require.ErrorIs(t, err, ErrCodeOutOfRange, "width %d from %d", width, from)
			_, err = DecompressPacked(q, PackCodes(c, width), len(c))
			require.ErrorIs(t, err, ErrCodeOutOfRange, "width %d from %d", width, from)
		}
	}
}

// TestDecodePackedFullDictionary covers the packed loops without a flag:
// with N = 2^width every code is in range.
func TestDecodePackedFullDictionary(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for width := uint32(8); width <= 16; width++ {
		n := 1 << width
		toks := make([]string, n)
		for i := range toks {
			toks[i] = string([]byte{byte(i), byte(i >> 8), 'x', 'y', 'z'})[:1+i%5]
		}
		p := dictOf(toks, nil)
		p.Bits = width
		d, err := NewDecoder(p)
		require.NoError(t, err)
		codes := make([]uint16, 3000+int(width))
		for i := range codes {
			codes[i] = uint16(r.IntN(n))
		}
		codes[7], codes[8] = uint16(n-1), 0
		want, err := d.AppendDecode(nil, codes)
		require.NoError(t, err)
		packed := PackCodes(codes, width)
		got, err := d.AppendDecodePacked(nil, packed, len(codes))
		require.NoError(t, err, "width %d", width)
		require.Equal(t, want, got, "width %d", width)
		got, err = DecompressPacked(p, packed, len(codes))
		require.NoError(t, err, "width %d", width)
		require.Equal(t, want, got, "width %d", width)
	}
}
