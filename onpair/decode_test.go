package onpair

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// dictOf builds Parts whose tokens are the given strings (minimum padding).
func dictOf(tokens []string, codes []uint16) Parts {
	var dict []byte
	offs := []uint32{0}
	for _, t := range tokens {
		dict = append(dict, t...)
		offs = append(offs, uint32(len(dict)))
	}
	if n := len(tokens); n > 0 {
		dict = append(dict, make([]byte, MaxTokenSize-len(tokens[n-1]))...)
	}
	return Parts{DictBytes: dict, DictOffsets: offs, Codes: codes, Bits: 16}
}

// A recycled table must forget the previous, larger dictionary: a code
// that was valid there is out of range now, and the tokens are the new ones.
func TestTableRefillForgetsLargerDictionary(t *testing.T) {
	big := make([]string, 300)
	for i := range big {
		big[i] = string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	d, err := newFatTable(dictOf(big, nil))
	require.NoError(t, err)

	small := dictOf([]string{"x", "yy", "zzz"}, []uint16{2, 1, 0})
	for round := 0; round < 2; round++ {
		d.fill(small, 1)
		require.Equal(t, 3, d.n)
		require.Equal(t, uint16(3), d.mask)
		n, err := d.decodedLen(small.Codes, 0)
		require.NoError(t, err)
		require.Equal(t, 6, n)
		for _, c := range []uint16{3, 4, 299, 300, 65535} {
			_, err := d.decodedLen([]uint16{0, c, 1}, 10)
			require.ErrorIs(t, err, ErrCodeOutOfRange, "code %d", c)
			require.Contains(t, err.Error(), "codes[11]")
		}
	}
	out := make([]byte, 6+MaxTokenSize)
	w, i, bad := d.decode(out, small.Codes)
	require.Equal(t, 6, w)
	require.Equal(t, 3, i)
	require.Less(t, bad, uint8(0x80))
	require.Equal(t, "zzzyyx", string(out[:6]))

	// Growing again reuses nothing stale either.
	d.fill(dictOf(big, nil), 1)
	n, err := d.decodedLen([]uint16{299, 0}, 0)
	require.NoError(t, err)
	require.Equal(t, 4, n)
}

// The one-shot entry points (DecompressPacked pools its tables): alternate dictionaries
// of different sizes through them and compare with the safe decoder.
func TestOneShotEntryPointsAcrossDictionaries(t *testing.T) {
	big := make([]string, 500)
	for i := range big {
		big[i] = string(bytes.Repeat([]byte{byte('a' + i%26)}, 1+i%16))
	}
	codes := make([]uint16, 100)
	for i := range codes {
		codes[i] = uint16(i * 7 % 500)
	}
	pb := dictOf(big, codes)
	ps := dictOf([]string{"q", "rs"}, []uint16{1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1})
	bad := dictOf([]string{"q", "rs"}, []uint16{1, 0, 2})
	for round := 0; round < 4; round++ {
		for _, p := range []Parts{pb, ps, bad} {
			want, wantErr := decompressSafe(p)
			got, err := Decompress(p)
			n, lerr := DecompressedLen(p)
			buf := make([]byte, len(want))
			w, ierr := DecompressInto(buf, p)
			if wantErr != nil {
				require.True(t, errors.Is(err, ErrCodeOutOfRange) && errors.Is(lerr, ErrCodeOutOfRange) && errors.Is(ierr, ErrCodeOutOfRange),
					"%v / %v / %v", err, lerr, ierr)
				continue
			}
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Equal(t, len(want), n)
			require.NoError(t, ierr)
			require.Equal(t, want, buf[:w])
			packed := PackCodes(p.Codes, 9)
			q := p
			q.Bits = 9
			gotP, err := DecompressPacked(q, packed, len(p.Codes))
			require.NoError(t, err)
			require.Equal(t, want, gotP)
		}
	}
}

// Columns made by one Decoder share its table and decode like columns made
// from their own Parts; their codes are still checked.
func TestDecoderColumns(t *testing.T) {
	c, err := CompressStrings([]string{"alpha beta", "gamma", "", "alpha gamma beta"}, WithBits(9))
	require.NoError(t, err)
	p := c.Parts()
	d, err := NewDecoder(p)
	require.NoError(t, err)
	for _, rows := range [][]uint32{c.RowOffsets(), {0, uint32(len(p.Codes))}} {
		col, err := d.NewColumn(p.Codes, rows)
		require.NoError(t, err)
		require.Equal(t, c.AppendAll(nil), col.AppendAll(nil))
		require.Equal(t, len(rows)-1, col.Len())
		checkPredicates(t, col, []byte("gam"))
		checkPredicates(t, col, []byte("a b"))
	}
	_, err = d.NewColumn([]uint16{0, uint16(p.NumTokens())}, []uint32{0, 2})
	require.ErrorIs(t, err, ErrCodeOutOfRange)
	_, err = d.NewColumn(p.Codes, []uint32{0, 1})
	require.ErrorIs(t, err, ErrBadRowOffsets)
	_, err = d.NewColumn(p.Codes, c.RowOffsets(), WithMaxRows(1))
	require.ErrorIs(t, err, ErrTooLarge)
}

// The checked block kernel tests four codes per 8-byte word against n
// (SWAR, n <= 32768) or per code (larger n). Every decoder must reject a
// code just past n, and the lane extremes, wherever it sits in a block, and
// decode the same codes without it exactly.
func TestBlockRangeCheckBoundaries(t *testing.T) {
	for _, n := range []int{1, 2, 255, 256, 4095, 4096, 32767, 32768, 32769, 65536} {
		toks := make([]string, n)
		for i := range toks {
			toks[i] = string([]byte{byte(i), byte(i >> 8), 'x'})[:1+i%3]
		}
		p := dictOf(toks, nil)
		d, err := NewDecoder(p)
		require.NoError(t, err)
		codes := make([]uint16, 40)
		var want []byte
		for i := range codes {
			codes[i] = uint16((i * 7919) % n)
			want = append(want, toks[codes[i]]...)
		}
		got := make([]byte, len(want))
		w, err := d.DecodeInto(got, codes)
		require.NoError(t, err, "n=%d", n)
		require.Equal(t, want, got[:w], "n=%d", n)
		q := p
		q.Codes = codes
		w, err = DecompressInto(got, q)
		require.NoError(t, err, "n=%d", n)
		require.Equal(t, want, got[:w], "n=%d", n)
		for _, badCode := range []int{n, n + 1, 0x7fff, 0x8000, 0x8001, 0xffff} {
			if badCode < n || badCode > 0xffff {
				continue
			}
			for _, at := range []int{0, 3, 4, 7, 8, 13, 31, 39} {
				c := append([]uint16(nil), codes...)
				c[at] = uint16(badCode)
				_, err := d.DecodeInto(make([]byte, 16*len(c)), c)
				require.ErrorIs(t, err, ErrCodeOutOfRange, "n=%d code %d at %d", n, badCode, at)
				q.Codes = c
				_, err = DecompressInto(make([]byte, 16*len(c)), q)
				require.ErrorIs(t, err, ErrCodeOutOfRange, "n=%d code %d at %d", n, badCode, at)
			}
		}
	}
}
