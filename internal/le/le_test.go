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
