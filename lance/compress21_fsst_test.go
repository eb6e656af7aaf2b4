package lance

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// fsstFuzzTable builds a table from fuzz bytes: n symbols of 1..8 bytes
// whose u64 slots carry junk above their length (the fast decoder must
// not let it show).
func fsstFuzzTable(n byte, seed []byte, encoder bool) *fsstTable {
	t := &fsstTable{n: min(int(n), 255), encoder: encoder}
	for i := 0; i < t.n; i++ {
		var x uint64 = uint64(i)*0x9E3779B97F4A7C15 + 1
		if len(seed) > 0 {
			x ^= uint64(seed[i%len(seed)]) << (8 * (i % 8))
		}
		t.sym[i] = x
		t.len[i] = uint8(1 + (x>>59+uint64(i))%8)
	}
	return t
}

// fsstDecodeSafe is the exact twin: appendDecode per string.
func fsstDecodeSafe(t *fsstTable, strs [][]byte) ([][]byte, error) {
	var out [][]byte
	for _, s := range strs {
		b, err := t.appendDecode(nil, s)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// fsstDecodeFast runs decodedLen + decodeInto into one buffer with 8
// bytes of slack, as fsstDecode does.
func fsstDecodeFast(t *fsstTable, strs [][]byte) ([][]byte, error) {
	total := 0
	for _, s := range strs {
		l, err := t.decodedLen(s)
		if err != nil {
			return nil, err
		}
		total += l
	}
	buf := make([]byte, total+8)
	for i := range buf {
		buf[i] = 0xAA
	}
	var out [][]byte
	at := 0
	for _, s := range strs {
		e := t.decodeInto(buf, at, s)
		out = append(out, buf[at:e])
		at = e
	}
	if at != total {
		return nil, fmt.Errorf("decoded %d bytes, decodedLen said %d", at, total)
	}
	return out, nil
}

func splitFuzz(data []byte, cuts []byte) [][]byte {
	var strs [][]byte
	for _, c := range cuts {
		k := int(c) % (len(data) + 1)
		strs = append(strs, data[:k])
		data = data[k:]
	}
	return append(strs, data)
}

func TestFsstDecodeIntoMatchesAppend(t *testing.T) {
	tab := fsstFuzzTable(200, []byte("seed"), true)
	strs := [][]byte{{0, 1, 2, 255, 'x', 199}, {}, {255, 0}, {5, 5, 5, 5, 5, 5, 5, 5, 5}}
	want, err := fsstDecodeSafe(tab, strs)
	require.NoError(t, err)
	got, err := fsstDecodeFast(tab, strs)
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		require.True(t, bytes.Equal(want[i], got[i]), "string %d: %x, want %x", i, got[i], want[i])
	}
	// The symbols' junk above their length must not leak: a 1-byte symbol
	// then an escape.
	tab.sym[0], tab.len[0] = 0x4142434445464748, 1
	got, err = fsstDecodeFast(tab, [][]byte{{0, 255, 'z'}})
	require.NoError(t, err)
	require.Equal(t, []byte{0x48, 'z'}, got[0])
	// Errors: a code past the table, an escape at the end.
	_, err = tab.decodedLen([]byte{200})
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = tab.decodedLen([]byte{1, 255})
	require.ErrorIs(t, err, ErrCorrupt)
}

// FuzzDiffFsst compares the 8-byte-store decoder (decodedLen +
// decodeInto) with the exact appendDecode: same bytes, same verdict.
func FuzzDiffFsst(f *testing.F) {
	f.Add(byte(3), []byte{1, 2, 3}, []byte{0, 1, 2, 255, 7, 0}, []byte{2}, true)
	f.Add(byte(255), []byte{9}, []byte{254, 255, 'z', 3, 3}, []byte{1, 1}, true)
	f.Add(byte(0), []byte{}, []byte("raw bytes"), []byte{4}, false)
	f.Add(byte(10), []byte{}, []byte{255}, []byte{}, true)
	f.Fuzz(func(t *testing.T, n byte, seed, data, cuts []byte, encoder bool) {
		if len(cuts) > 64 {
			cuts = cuts[:64]
		}
		tab := fsstFuzzTable(n, seed, encoder)
		strs := splitFuzz(data, cuts)
		want, errW := fsstDecodeSafe(tab, strs)
		got, errG := fsstDecodeFast(tab, strs)
		if (errW == nil) != (errG == nil) {
			t.Fatalf("verdicts differ: safe %v, fast %v", errW, errG)
		}
		if errW != nil {
			return
		}
		for i := range want {
			if !bytes.Equal(want[i], got[i]) {
				t.Fatalf("string %d: safe %x, fast %x", i, want[i], got[i])
			}
		}
	})
}
