package csup

import (
	"errors"

	"github.com/colfmt/colfmt/internal/errs"
)

// Sentinel errors. Every error from this package wraps one of them (or one
// of csup/bsup's, which name that package); errors about the input are
// *CorruptError values that also say where.
var (
	ErrCorrupt     = errors.New("csup: corrupt input")
	ErrTooLarge    = errors.New("csup: size exceeds limit")
	ErrUnsupported = errors.New("csup: unsupported")
	// ErrInvalidOption reports an Option given an out-of-range argument.
	ErrInvalidOption = errors.New("csup: invalid option")
)

// CorruptError locates a problem in the input: a file offset and a column
// path such as "user.addr.zip/presence".
type CorruptError = errs.CorruptError
