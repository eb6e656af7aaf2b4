package remote

import (
	"errors"

	"github.com/colfmt/colfmt/internal/errs"
)

// Sentinel errors. Every error the package returns wraps one of them or an
// error from the transport (net, os) that says what failed.
var (
	// ErrChanged reports that the object changed while it was being read:
	// a later response carried another ETag or Last-Modified than the
	// first, another total size, or the server refused If-Match (412).
	ErrChanged = errors.New("remote: object changed while reading")
	// ErrUnsupported reports a scheme, or a server behaviour (no range
	// requests on an object larger than the tail cache), that is not read.
	ErrUnsupported = errors.New("remote: unsupported")
	// ErrTooLarge reports a read larger than a configured limit.
	ErrTooLarge = errors.New("remote: size exceeds limit")
	// ErrCorrupt reports a malformed server response (a Content-Range that
	// does not match the request, a short body).
	ErrCorrupt = errors.New("remote: malformed response")
	// ErrInvalidArgument reports a caller mistake: a negative offset, an
	// empty URL.
	ErrInvalidArgument = errors.New("remote: invalid argument")
	// ErrInvalidOption reports an Option given an out-of-range argument.
	ErrInvalidOption = errs.Sub(ErrInvalidArgument, "remote: invalid option")
)
