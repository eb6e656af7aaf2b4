package onpair

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// workedExample is §3.5 of the notes, built by hand: tokens "he", "llo",
// " ", "world"; rows "hello", "world", "hello world"; minimum padding.
func workedExample() (Parts, []uint32) {
	dict := append([]byte("hello world"), make([]byte, 11)...) // o[N-1]+16 = 22
	return Parts{
		DictBytes:   dict,
		DictOffsets: []uint32{0, 2, 5, 6, 11},
		Codes:       []uint16{0, 1, 3, 0, 1, 2, 3},
		Bits:        9,
	}, []uint32{0, 2, 3, 7}
}

func TestWorkedExampleDecode(t *testing.T) {
	p, _ := workedExample()
	require.NoError(t, p.Validate())
	want := []byte("helloworldhello world")
	n, err := DecompressedLen(p)
	require.NoError(t, err)
	require.Equal(t, len(want), n)

	got, err := Decompress(p)
	require.NoError(t, err)
	require.Equal(t, want, got)

	// Exactly sized dst, with a canary after it in the same array.
	buf := bytes.Repeat([]byte{0xAA}, n+32)
	w, err := DecompressInto(buf[:n], p)
	require.NoError(t, err)
	require.Equal(t, n, w)
	require.Equal(t, want, buf[:n])
	require.Equal(t, bytes.Repeat([]byte{0xAA}, 32), buf[n:], "canary overwritten")

	_, err = DecompressInto(buf[:n-1], p)
	require.ErrorIs(t, err, ErrInvalidArgument)

	safe, err := decompressSafe(p)
	require.NoError(t, err)
	require.Equal(t, want, safe)
}

// TestDecodeLongCodeStream runs both the 16-byte fast region and the exact
// tail: 400 codes over tokens of lengths 1..16 (so the 8-code block
// kernels run, then the exact tail), exact dst plus canary, through every
// decoder: one-shot, prepared (Decoder) and packed.
func TestDecodeLongCodeStream(t *testing.T) {
	var dict []byte
	offs := []uint32{0}
	var want []byte
	for l := 1; l <= 16; l++ {
		for k := 0; k < l; k++ {
			dict = append(dict, byte('a'+l-1))
		}
		offs = append(offs, uint32(len(dict)))
	}
	last := offs[len(offs)-2]
	// Over-allocated padding (15 bytes past o[N-1]+16 would be more than
	// needed); here the minimum: the last token is 16 bytes, so 0 padding.
	require.Equal(t, int(last)+16, len(dict))
	var codes []uint16
	for i := 0; i < 400; i++ {
		c := uint16((i * 7) % 16)
		codes = append(codes, c)
		want = append(want, dict[offs[c]:offs[c+1]]...)
	}
	p := Parts{DictBytes: dict, DictOffsets: offs, Codes: codes, Bits: 9}
	require.NoError(t, p.Validate())
	buf := bytes.Repeat([]byte{0x55}, len(want)+16)
	n, err := DecompressInto(buf[:len(want)], p)
	require.NoError(t, err)
	require.Equal(t, want, buf[:n])
	require.Equal(t, bytes.Repeat([]byte{0x55}, 16), buf[len(want):])
	got, err := AppendDecompress([]byte("prefix:"), p)
	require.NoError(t, err)
	require.Equal(t, append([]byte("prefix:"), want...), got)

	d, err := NewDecoder(p)
	require.NoError(t, err)
	for cut := 0; cut <= 16; cut++ { // exact dst, then short by up to 16
		buf := bytes.Repeat([]byte{0x55}, len(want)+16)
		n, err := d.DecodeInto(buf[:len(want)-cut], codes)
		if cut > 0 {
			require.ErrorIs(t, err, ErrInvalidArgument)
			require.Equal(t, bytes.Repeat([]byte{0x55}, 16+cut), buf[len(want)-cut:], "short dst overrun")
			_, err = DecompressInto(buf[:len(want)-cut], p)
			require.ErrorIs(t, err, ErrInvalidArgument)
			require.Equal(t, bytes.Repeat([]byte{0x55}, 16+cut), buf[len(want)-cut:], "short dst overrun")
			continue
		}
		require.NoError(t, err)
		require.Equal(t, want, buf[:n])
		require.Equal(t, bytes.Repeat([]byte{0x55}, 16), buf[len(want):], "canary overwritten")
	}
	got, err = d.AppendDecode([]byte("p:"), codes)
	require.NoError(t, err)
	require.Equal(t, append([]byte("p:"), want...), got)
	for _, extra := range [][]byte{nil, make([]byte, 8)} { // with and without onpair_cpp's zero word
		packed := append(PackCodes(codes, 9), extra...)
		got, err = d.AppendDecodePacked([]byte("q:"), packed, len(codes))
		require.NoError(t, err)
		require.Equal(t, append([]byte("q:"), want...), got)
		got, err = DecompressPacked(p, packed, len(codes))
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}

func TestPaddingForms(t *testing.T) {
	p, _ := workedExample()
	// Over-allocated by 15 bytes, as spiraldb's compress writes.
	p.DictBytes = append(append([]byte(nil), p.DictBytes...), make([]byte, 15)...)
	require.NoError(t, p.Validate())
	got, err := Decompress(p)
	require.NoError(t, err)
	require.Equal(t, "helloworldhello world", string(got))
	// One byte short of the minimum.
	p.DictBytes = p.DictBytes[:21]
	require.ErrorIs(t, p.ValidateDictionary(), ErrMissingDecoderPadding)
}

func TestEmptyDictionary(t *testing.T) {
	p := Parts{DictOffsets: []uint32{0}, Bits: 9}
	require.NoError(t, p.Validate())
	got, err := Decompress(p)
	require.NoError(t, err)
	require.Empty(t, got)
	n, err := DecompressInto(nil, p)
	require.NoError(t, err)
	require.Zero(t, n)
	p.Codes = []uint16{0}
	require.ErrorIs(t, p.Validate(), ErrCodeOutOfRange)
	_, err = Decompress(p)
	require.ErrorIs(t, err, ErrCodeOutOfRange)
}

func TestValidationFailures(t *testing.T) {
	good, _ := workedExample()
	mod := func(f func(p *Parts)) Parts {
		p := good
		p.DictOffsets = append([]uint32(nil), good.DictOffsets...)
		p.Codes = append([]uint16(nil), good.Codes...)
		f(&p)
		return p
	}
	big := make([]uint32, 258)
	for i := range big {
		big[i] = uint32(i)
	}
	huge := make([]uint32, MaxTokens+2)
	for i := range huge {
		huge[i] = uint32(i)
	}
	cases := []struct {
		name    string
		p       Parts
		want    error
		dictErr bool // ValidateDictionary catches it too
	}{
		{"no offsets", mod(func(p *Parts) { p.DictOffsets = nil }), ErrNoOffsets, true},
		{"first offset", mod(func(p *Parts) { p.DictOffsets[0] = 1 }), ErrFirstOffsetNotZero, true},
		{"empty token", mod(func(p *Parts) { p.DictOffsets[2] = 2 }), ErrNonIncreasingOffsets, true},
		{"decreasing", mod(func(p *Parts) { p.DictOffsets[2] = 1 }), ErrNonIncreasingOffsets, true},
		{"token 17 bytes", Parts{DictBytes: make([]byte, 32), DictOffsets: []uint32{0, 17}, Bits: 9}, ErrTokenTooLarge, true},
		{"padding", mod(func(p *Parts) { p.DictBytes = p.DictBytes[:21] }), ErrMissingDecoderPadding, true},
		{"over 65536 tokens", Parts{DictBytes: make([]byte, MaxTokens+32), DictOffsets: huge, Bits: 16}, ErrTooManyTokens, true},
		{"bits 7", mod(func(p *Parts) { p.Bits = 7 }), ErrBadBits, false},
		{"bits 17", mod(func(p *Parts) { p.Bits = 17 }), ErrBadBits, false},
		{"257 tokens at 8 bits", Parts{DictBytes: make([]byte, 300), DictOffsets: big, Bits: 8}, ErrTooManyTokens, false},
		{"code out of range", mod(func(p *Parts) { p.Codes[5] = 4 }), ErrCodeOutOfRange, false},
	}
	sentinels := []error{ErrNoOffsets, ErrFirstOffsetNotZero, ErrNonIncreasingOffsets, ErrTokenTooLarge,
		ErrMissingDecoderPadding, ErrTooManyTokens, ErrBadBits, ErrCodeOutOfRange}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Validate()
			require.ErrorIs(t, err, tc.want)
			require.ErrorIs(t, err, ErrCorrupt)
			for _, s := range sentinels {
				if s != tc.want {
					require.False(t, errors.Is(err, s), "%v also matches %v", err, s)
				}
			}
			var ce *CorruptError
			require.ErrorAs(t, err, &ce)
			require.NotEmpty(t, ce.Path)
			require.Contains(t, err.Error(), "onpair: corrupt input")
			if tc.dictErr {
				require.ErrorIs(t, tc.p.ValidateDictionary(), tc.want)
			} else {
				require.NoError(t, tc.p.ValidateDictionary())
			}
			// The decoders refuse everything but the bits-only failures.
			_, derr := Decompress(tc.p)
			if tc.want == ErrBadBits || tc.name == "257 tokens at 8 bits" {
				require.NoError(t, derr)
			} else {
				require.ErrorIs(t, derr, tc.want)
			}
		})
	}
	// Bits 8 (untrained spiraldb dictionaries) and 16 are accepted.
	for _, b := range []uint32{8, 9, 12, 16} {
		p := good
		p.Bits = b
		require.NoError(t, p.Validate(), "bits %d", b)
	}
}

func TestCodeOutOfRangeLocated(t *testing.T) {
	p, _ := workedExample()
	p.Codes = []uint16{0, 1, 2, 9, 1}
	err := p.Validate()
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "codes[3]", ce.Path)
}

// TestFullSixteenBitDictionary: exactly 65536 tokens (all 256 single bytes
// and 65280 two-byte tokens) is valid at bits 16 and decodes code 65535;
// at bits 15 it is too many.
func TestFullSixteenBitDictionary(t *testing.T) {
	var dict []byte
	offs := []uint32{0}
	for b := 0; b < 256; b++ {
		dict = append(dict, byte(b))
		offs = append(offs, uint32(len(dict)))
	}
	for i := 0; len(offs) <= MaxTokens; i++ {
		dict = append(dict, byte(i>>8), byte(i))
		offs = append(offs, uint32(len(dict)))
	}
	dict = append(dict, make([]byte, 14)...)
	codes := []uint16{65535, 0, 255, 256, 65535}
	p := Parts{DictBytes: dict, DictOffsets: offs, Codes: codes, Bits: 16}
	require.Equal(t, MaxTokens, p.NumTokens())
	require.NoError(t, p.Validate())
	got, err := Decompress(p)
	require.NoError(t, err)
	last := p.Token(65535)
	want := append(append(append(append(append([]byte(nil), last...), 0), 255), p.Token(256)...), last...)
	require.Equal(t, want, got)
	packed := PackCodes(codes, 16)
	q := p
	q.Codes = nil
	got2, err := DecompressPacked(q, packed, len(codes))
	require.NoError(t, err)
	require.Equal(t, want, got2)
	p.Bits = 15
	require.ErrorIs(t, p.Validate(), ErrTooManyTokens)
	// A full dictionary can be reused for compression.
	d, err := NewDictionary(Parts{DictBytes: dict, DictOffsets: offs})
	require.NoError(t, err)
	require.Equal(t, uint32(16), d.Bits())
	c, err := d.CompressStrings([]string{"\x00\x01\x02", "xyz"})
	require.NoError(t, err)
	checkColumn(t, c, []string{"\x00\x01\x02", "xyz"})
}

func TestValidateConformant(t *testing.T) {
	ex, _ := workedExample()
	require.ErrorIs(t, ex.ValidateConformant(), ErrUnsortedTokens) // "llo" > " "
	// Sorted but without the full alphabet.
	p := Parts{DictBytes: append([]byte("abc"), make([]byte, 16)...), DictOffsets: []uint32{0, 1, 2, 3}, Bits: 9}
	require.ErrorIs(t, p.ValidateConformant(), ErrIncompleteAlphabet)
	// Duplicates are not "sorted".
	p = Parts{DictBytes: append([]byte("aa"), make([]byte, 16)...), DictOffsets: []uint32{0, 1, 2}, Bits: 9}
	require.ErrorIs(t, p.ValidateConformant(), ErrUnsortedTokens)
	// Invalid parts fail the basic check first.
	p.Bits = 3
	require.ErrorIs(t, p.ValidateConformant(), ErrBadBits)
}
