package bsup

import (
	"errors"

	"github.com/colfmt/colfmt/internal/errs"
)

// Sentinel errors. Every error from this package wraps one of them; errors
// about the input are *CorruptError values that also say where.
var (
	ErrCorrupt     = errors.New("bsup: corrupt input")
	ErrTooLarge    = errors.New("bsup: size exceeds limit")
	ErrUnsupported = errors.New("bsup: unsupported")
	// ErrInvalidArgument reports a caller mistake: a nil reader, a
	// negative size, a bad argument.
	ErrInvalidArgument = errors.New("bsup: invalid argument")
	// ErrInvalidOption reports an Option given an out-of-range argument;
	// it wraps ErrInvalidArgument.
	ErrInvalidOption = errs.Sub(ErrInvalidArgument, "bsup: invalid option")
)

// CorruptError locates a problem in the input (offset in the stream, and a
// path such as a field name when one applies).
type CorruptError = errs.CorruptError
