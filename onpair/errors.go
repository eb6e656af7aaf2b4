package onpair

import (
	"errors"
	"fmt"

	"github.com/colfmt/colfmt/internal/errs"
)

// Package sentinels. Every error returned for bad input wraps exactly one
// of them; test with errors.Is.
var (
	ErrCorrupt     = errors.New("onpair: corrupt input")
	ErrTooLarge    = errors.New("onpair: size exceeds limit")
	ErrUnsupported = errors.New("onpair: unsupported")
	// ErrInvalidArgument reports a bad argument from the caller (an option
	// value, Arrow-style offsets, a row index), not bad encoded input.
	ErrInvalidArgument = errors.New("onpair: invalid argument")
)

// The distinct validation failures of Parts (spec §Validation and the
// rules the notes add). Each wraps ErrCorrupt, so errors.Is(err, ErrCorrupt)
// holds for all of them, and errors.Is(err, ErrTokenTooLarge) picks out one.
var (
	// ErrNoOffsets: DictOffsets is empty; even an empty dictionary is [0].
	ErrNoOffsets = corrupt("dictionary offsets are empty (an empty dictionary is [0])")
	// ErrFirstOffsetNotZero: DictOffsets[0] != 0.
	ErrFirstOffsetNotZero = corrupt("first dictionary offset is not 0")
	// ErrNonIncreasingOffsets: some o[i+1] <= o[i], i.e. an empty token.
	ErrNonIncreasingOffsets = corrupt("dictionary offsets are not strictly increasing")
	// ErrTokenTooLarge: some token is longer than MaxTokenSize bytes.
	ErrTokenTooLarge = corrupt("token longer than 16 bytes")
	// ErrTooManyTokens: N > 2^Bits (or N > 65536, which no u16 code can address).
	ErrTooManyTokens = corrupt("more tokens than the code width allows")
	// ErrMissingDecoderPadding: len(DictBytes) < o[N-1] + MaxTokenSize.
	ErrMissingDecoderPadding = corrupt("dictionary bytes lack the 16-byte decoder padding")
	// ErrBadBits: Bits is outside 8..16.
	ErrBadBits = corrupt("code width outside 8..16 bits")
	// ErrCodeOutOfRange: some code >= N.
	ErrCodeOutOfRange = corrupt("code out of range")
	// ErrIncompleteAlphabet (ValidateConformant only): some single byte
	// has no one-byte token.
	ErrIncompleteAlphabet = corrupt("dictionary lacks a single-byte token")
	// ErrUnsortedTokens (ValidateConformant only): tokens are not unique
	// and in bytewise ascending order.
	ErrUnsortedTokens = corrupt("tokens are not unique and sorted")
	// ErrBadRowOffsets: a Column's code offsets do not start at 0, decrease,
	// or do not end at the number of codes.
	ErrBadRowOffsets = corrupt("row offsets do not delimit the codes")
	// ErrBadMagic: serialized column does not start with "OPCOL".
	ErrBadMagic = corrupt("not an OnPair column (magic \"OPCOL\" missing)")
	// ErrTruncated: a serialized column ends early.
	ErrTruncated = corrupt("truncated column")
	// ErrTrailingBytes: bytes follow the end of a serialized column.
	ErrTrailingBytes = corrupt("trailing bytes after column")
)

// CorruptError locates a problem in the input: Offset is a byte offset in
// a serialized column (or -1), Path names the buffer and index.
type CorruptError = errs.CorruptError

// corruptSentinel is a sub-sentinel: its own message, unwrapping to ErrCorrupt.
type corruptSentinel struct{ msg string }

func (e *corruptSentinel) Error() string { return ErrCorrupt.Error() + ": " + e.msg }
func (e *corruptSentinel) Unwrap() error { return ErrCorrupt }

func corrupt(msg string) error { return &corruptSentinel{msg: msg} }

// ErrInvalidOption reports an Option given an out-of-range argument. It
// wraps ErrInvalidArgument, so either sentinel matches, and its messages
// name the option ("onpair: invalid option: WithBits(3): ...").
var ErrInvalidOption = errs.Sub(ErrInvalidArgument, "onpair: invalid option")

func invalidArg(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidArgument, fmt.Sprintf(format, args...))
}
