package csup

import (
	"errors"
	"github.com/colfmt/colfmt/csup/bsup"

	"github.com/colfmt/colfmt/internal/errs"
)

// Sentinel errors. Every error from this package wraps one of them (or one
// of csup/bsup's, which name that package); errors about the input are
// *CorruptError values that also say where.
var (
	ErrCorrupt     = errors.New("csup: corrupt input")
	ErrTooLarge    = errors.New("csup: size exceeds limit")
	ErrUnsupported = errors.New("csup: unsupported")
	// ErrInvalidArgument reports a caller mistake: a nil reader, a
	// negative size, a bad argument.
	ErrInvalidArgument = errors.New("csup: invalid argument")
	// ErrInvalidOption reports an Option given an out-of-range argument;
	// it wraps ErrInvalidArgument.
	ErrInvalidOption = errs.Sub(ErrInvalidArgument, "csup: invalid option")
)

// CorruptError locates a problem in the input: a file offset and a column
// path such as "user.addr.zip/presence".
type CorruptError = errs.CorruptError

// boundary re-wraps an error that comes from package bsup (a broken
// reassembly stream, a bad value body in a column) so that it also wraps
// the csup sentinel of the same kind: errors.Is(err, csup.ErrCorrupt)
// holds for every corrupt input, and errors.Is(err, bsup.ErrCorrupt) still
// does for bsup's own. The message and the *CorruptError location stay.
func boundary(err error) error {
	if err == nil {
		return nil
	}
	var own error
	switch {
	case errors.Is(err, ErrCorrupt), errors.Is(err, ErrTooLarge), errors.Is(err, ErrUnsupported), errors.Is(err, ErrInvalidArgument):
		return err
	case errors.Is(err, bsup.ErrCorrupt):
		own = ErrCorrupt
	case errors.Is(err, bsup.ErrTooLarge):
		own = ErrTooLarge
	case errors.Is(err, bsup.ErrUnsupported):
		own = ErrUnsupported
	case errors.Is(err, bsup.ErrInvalidArgument):
		own = ErrInvalidArgument
	default:
		return err
	}
	return &boundaryError{err: err, own: own}
}

type boundaryError struct{ err, own error }

func (e *boundaryError) Error() string   { return e.err.Error() }
func (e *boundaryError) Unwrap() []error { return []error{e.err, e.own} }
