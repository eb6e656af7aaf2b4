package le

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadsMatchEncodingBinary(t *testing.T) {
	b := make([]byte, 40)
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	for off := 0; off+8 <= len(b); off++ {
		require.Equal(t, binary.LittleEndian.Uint64(b[off:]), Uint64(b, off), "offset %d", off)
	}
	for off := 0; off+8 <= len(b); off++ {
		w := make([]byte, len(b))
		PutUint64(w, off, 0x0102030405060708)
		require.Equal(t, uint64(0x0102030405060708), binary.LittleEndian.Uint64(w[off:]))
		// Nothing outside the 8 bytes is touched.
		for i := range w {
			if i < off || i >= off+8 {
				require.Zero(t, w[i])
			}
		}
	}
	dst := make([]byte, 40)
	for soff := 0; soff+16 <= len(b); soff += 3 {
		for doff := 0; doff+16 <= len(dst); doff += 5 {
			clear(dst)
			Copy16(dst, doff, b, soff)
			require.Equal(t, b[soff:soff+16], dst[doff:doff+16])
			require.Equal(t, make([]byte, doff), dst[:doff])
			require.Equal(t, make([]byte, len(dst)-doff-16), dst[doff+16:])
		}
	}
}

func TestGather16MatchesExactCopies(t *testing.T) {
	// A table of 300 16-byte rows; token c is the first lens[c] bytes of row c.
	const rows = 300
	table := make([]byte, rows*16)
	lens := make([]uint8, rows)
	for i := range table {
		table[i] = byte(i*131 + 7)
	}
	for c := range lens {
		lens[c] = uint8(1 + (c*7)%16)
	}
	for n := 0; n <= 40; n++ {
		codes := make([]uint16, n)
		for i := range codes {
			codes[i] = uint16((i*97 + n*13) % rows)
		}
		want := []byte{}
		for _, c := range codes {
			want = append(want, table[int(c)*16:int(c)*16+int(lens[c])]...)
		}
		// Exactly the room the contract asks for: the last store ends at
		// len(dst), so no pointer may step past it.
		room := 0
		for _, c := range codes[:max(n-1, 0)] {
			room += int(lens[c])
		}
		size := len(want)
		if n > 0 {
			size = room + 16
		}
		dst := make([]byte, size)
		f := Fat{Rows: table, Lens: lens}
		w := f.Gather16(dst, codes)
		require.Equal(t, len(want), w, "n=%d", n)
		require.Equal(t, want, dst[:w], "n=%d", n)
	}
}

func TestGather16AllSixteens(t *testing.T) {
	// Every token 16 bytes: the stores tile dst exactly, ending at its end.
	table := make([]byte, 4*16)
	for i := range table {
		table[i] = byte(i)
	}
	lens := []uint8{16, 16, 16, 16}
	codes := []uint16{3, 0, 2, 1, 1, 2, 0, 3, 3}
	dst := make([]byte, 16*len(codes))
	f := Fat{Rows: table, Lens: lens}
	require.Equal(t, len(dst), f.Gather16(dst, codes))
	for i, c := range codes {
		require.Equal(t, table[int(c)*16:int(c)*16+16], dst[i*16:i*16+16])
	}
}
