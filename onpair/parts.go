package onpair

import (
	"fmt"

	"github.com/colfmt/colfmt/internal/errs"
)

// MaxTokenSize is the longest token in bytes (OnPair16) and the decoder's
// fixed read width: every token start must be readable for this many bytes.
const MaxTokenSize = 16

// MaxTokens is the most tokens a dictionary can hold: codes are u16.
const MaxTokens = 1 << 16

// Parts is the decode-side state of a column as the spec defines it: the
// dictionary bytes (tokens concatenated, then decoder padding), the N+1
// dictionary offsets, the M codes (unpacked, one uint16 each) and the code
// width Bits used when the codes are packed.
//
// Parts from untrusted storage must pass Validate (or ValidateDictionary
// for the decoders, which check codes themselves) before use; every decoder
// in this package does that itself.
type Parts struct {
	DictBytes   []byte
	DictOffsets []uint32
	Codes       []uint16
	Bits        uint32
}

// NumTokens returns N = len(DictOffsets)-1 (0 when DictOffsets is empty).
func (p Parts) NumTokens() int { return max(len(p.DictOffsets)-1, 0) }

// Token returns token i (a sub-slice of DictBytes). The caller guarantees
// that p is valid and i < N.
func (p Parts) Token(i int) []byte { return p.DictBytes[p.DictOffsets[i]:p.DictOffsets[i+1]] }

// ValidateDictionary checks the dictionary invariants the decoders rely on
// (spec §Validation 1–2): DictOffsets is non-empty, starts at 0, is strictly
// increasing with every token 1..MaxTokenSize bytes, N <= 65536, and
// len(DictBytes) >= o[N-1] + MaxTokenSize. It runs in O(N). The error wraps
// one of ErrNoOffsets, ErrFirstOffsetNotZero, ErrNonIncreasingOffsets,
// ErrTokenTooLarge, ErrTooManyTokens or ErrMissingDecoderPadding (and so
// ErrCorrupt).
func (p Parts) ValidateDictionary() error {
	o := p.DictOffsets
	if len(o) == 0 {
		return errs.At(ErrNoOffsets, -1, "dict_offsets", "")
	}
	if o[0] != 0 {
		return errs.At(ErrFirstOffsetNotZero, -1, "dict_offsets[0]", "got %d", o[0])
	}
	n := len(o) - 1
	if n > MaxTokens {
		return errs.At(ErrTooManyTokens, -1, "dict_offsets", "%d tokens, at most %d", n, MaxTokens)
	}
	for i := 0; i < n; i++ {
		a, b := o[i], o[i+1]
		if b <= a {
			return errs.At(ErrNonIncreasingOffsets, -1, fmt.Sprintf("dict_offsets[%d]", i+1),
				"offset %d follows %d (token %d is empty or negative)", b, a, i)
		}
		if b-a > MaxTokenSize {
			return errs.At(ErrTokenTooLarge, -1, fmt.Sprintf("dict_offsets[%d]", i+1),
				"token %d is %d bytes", i, b-a)
		}
	}
	if n > 0 && uint64(len(p.DictBytes)) < uint64(o[n-1])+MaxTokenSize {
		return errs.At(ErrMissingDecoderPadding, -1, "dict_bytes",
			"have %d bytes, need o[N-1]+16 = %d", len(p.DictBytes), uint64(o[n-1])+MaxTokenSize)
	}
	return nil
}

// Validate checks everything ValidateDictionary does, and also that Bits is
// in 8..16 (the spec says 9..16; later spiraldb versions write 8 for an
// untrained dictionary), that N <= 2^Bits (ErrTooManyTokens) and that every
// code is < N (ErrCodeOutOfRange). It runs in O(N+M).
func (p Parts) Validate() error {
	if err := p.ValidateDictionary(); err != nil {
		return err
	}
	if err := p.checkBits(); err != nil {
		return err
	}
	return checkCodes(p.Codes, p.NumTokens(), 0)
}

// checkBits checks Bits is in 8..16 and N <= 2^Bits.
func (p Parts) checkBits() error {
	if p.Bits < 8 || p.Bits > 16 {
		return errs.At(ErrBadBits, -1, "bits", "bits = %d", p.Bits)
	}
	if n := p.NumTokens(); n > 1<<p.Bits {
		return errs.At(ErrTooManyTokens, -1, "dict_offsets", "%d tokens do not fit %d-bit codes", n, p.Bits)
	}
	return nil
}

// ValidateConformant checks, beyond Validate, the rules of the later
// spiraldb interchange contract that this package's writer always meets:
// all 256 single-byte tokens are present (ErrIncompleteAlphabet) and the
// tokens are unique and in bytewise ascending order (ErrUnsortedTokens).
// Decoding needs only Validate; this is the stricter "conformant" level.
func (p Parts) ValidateConformant() error {
	if err := p.Validate(); err != nil {
		return err
	}
	n := p.NumTokens()
	var seen [256]bool
	for i := 0; i < n; i++ {
		t := p.Token(i)
		if len(t) == 1 {
			seen[t[0]] = true
		}
		if i > 0 && string(p.Token(i-1)) >= string(t) {
			return errs.At(ErrUnsortedTokens, -1, fmt.Sprintf("dict_offsets[%d]", i), "token %d %q does not sort after token %d %q", i, t, i-1, p.Token(i-1))
		}
	}
	for b, ok := range seen {
		if !ok {
			return errs.At(ErrIncompleteAlphabet, -1, "dict_bytes", "no token for byte 0x%02x", b)
		}
	}
	return nil
}

// checkCodes returns an ErrCodeOutOfRange error for the first code >= n;
// base is the index of codes[0] in the column, for the message.
func checkCodes(codes []uint16, n, base int) error {
	// Branch-light scan for the maximum first; locate only on failure.
	var mx uint16
	for _, c := range codes {
		mx = max(mx, c)
	}
	if len(codes) == 0 || int(mx) < n {
		return nil
	}
	for i, c := range codes {
		if int(c) >= n {
			return errs.At(ErrCodeOutOfRange, -1, fmt.Sprintf("codes[%d]", base+i),
				"code %d with %d tokens", c, n)
		}
	}
	return nil
}
