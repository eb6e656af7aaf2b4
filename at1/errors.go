package at1

import (
	"errors"

	"github.com/colfmt/colfmt/internal/errs"
)

// Sentinel errors. Every error the package returns wraps exactly one of
// them; errors about a place in the input are *CorruptError values that say
// where (byte offset and stream, column or frame).
var (
	ErrCorrupt     = errors.New("at1: corrupt input")
	ErrTooLarge    = errors.New("at1: size exceeds limit")
	ErrUnsupported = errors.New("at1: unsupported")
	// ErrInvalidArgument reports a caller mistake: a nil reader, a
	// negative size, an unknown codec or backend name.
	ErrInvalidArgument = errors.New("at1: invalid argument")
	// ErrInvalidOption reports an Option given an out-of-range argument;
	// it wraps ErrInvalidArgument.
	ErrInvalidOption = errs.Sub(ErrInvalidArgument, "at1: invalid option")
	// ErrChecksum reports that the decoded output does not match the
	// SHA-256 integrity trailer.
	ErrChecksum = errors.New("at1: integrity check failed")
)

// CorruptError locates a problem in the input.
type CorruptError = errs.CorruptError

func invalidArg(format string, args ...any) error {
	return errs.Wrap(ErrInvalidArgument, format, args...)
}
