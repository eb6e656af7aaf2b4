// Package errs holds the error mechanics that every colfmt format package
// shares: the located CorruptError and helpers that build errors wrapping a
// package's sentinels. Each format package declares its own sentinels (whose
// messages start with the package name) and re-exports CorruptError as an
// alias, so errors.Is and errors.As work the same way everywhere.
package errs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CorruptError locates a problem in the input. It unwraps to Err, which in
// turn wraps one of the package sentinels (ErrCorrupt, ErrTooLarge, ...).
type CorruptError struct {
	// Offset is the byte offset in the input where the problem was found,
	// or -1 when no single offset applies.
	Offset int64
	// Path names the logical place: a column, stream, field or page path.
	Path string
	// Err is the cause; it wraps the package sentinel.
	Err error
}

// Error returns the cause's message (which starts with the package name)
// followed by the location.
func (e *CorruptError) Error() string {
	var b strings.Builder
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("corrupt input")
	}
	switch {
	case e.Offset >= 0 && e.Path != "":
		b.WriteString(" (at offset ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
		b.WriteString(", ")
		b.WriteString(e.Path)
		b.WriteByte(')')
	case e.Offset >= 0:
		b.WriteString(" (at offset ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
		b.WriteByte(')')
	case e.Path != "":
		b.WriteString(" (at ")
		b.WriteString(e.Path)
		b.WriteByte(')')
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *CorruptError) Unwrap() error { return e.Err }

// At returns a *CorruptError at offset off and path that wraps sentinel with
// a formatted detail: "<sentinel message>: <detail>".
func At(sentinel error, off int64, path string, format string, args ...any) error {
	return &CorruptError{Offset: off, Path: path, Err: Wrap(sentinel, format, args...)}
}

// Wrap returns an error that wraps sentinel with a formatted detail.
func Wrap(sentinel error, format string, args ...any) error {
	if format == "" {
		return sentinel
	}
	return &wrapped{sentinel: sentinel, msg: fmt.Sprintf(format, args...)}
}

type wrapped struct {
	sentinel error
	msg      string
}

func (w *wrapped) Error() string { return w.sentinel.Error() + ": " + w.msg }
func (w *wrapped) Unwrap() error { return w.sentinel }

// Locate attaches a location to err. An error that already carries a
// location (a *CorruptError anywhere in its chain) is returned unchanged so
// the innermost, most precise location wins; nil stays nil.
func Locate(err error, off int64, path string) error {
	if err == nil {
		return nil
	}
	var ce *CorruptError
	if errors.As(err, &ce) {
		return err
	}
	return &CorruptError{Offset: off, Path: path, Err: err}
}

// TooLarge reports that a size read from the input (n) exceeds a limit.
func TooLarge(sentinel error, off int64, path, what string, n uint64, limit int64) error {
	return At(sentinel, off, path, "%s of %d bytes exceeds the limit of %d", what, n, limit)
}

// CheckSize validates a size n read from a header before anything is
// allocated for it: it must fit in the bytes that remain (avail, or no check
// when avail < 0) and in limit (no check when limit <= 0). It returns n as an
// int on success. tooLarge and corrupt are the package's sentinels.
func CheckSize(n uint64, avail, limit int64, tooLarge, corrupt error, off int64, path, what string) (int, error) {
	if limit > 0 && n > uint64(limit) {
		return 0, TooLarge(tooLarge, off, path, what, n, limit)
	}
	if avail >= 0 && n > uint64(avail) {
		return 0, At(corrupt, off, path, "%s of %d bytes runs past the %d bytes that remain", what, n, avail)
	}
	if n > uint64(maxInt) {
		return 0, TooLarge(tooLarge, off, path, what, n, int64(maxInt))
	}
	return int(n), nil
}

const maxInt = int(^uint(0) >> 1)

// MulSize returns a*b, and false if the product overflows int64 or is
// negative; use it to size arrays of fixed-width items from header counts.
func MulSize(a, b int64) (int64, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a {
		return 0, false
	}
	return p, true
}

// Sub returns a sentinel with its own message that unwraps to parent, for
// named sub-kinds such as ErrInvalidOption (parent ErrInvalidArgument).
func Sub(parent error, msg string) error { return &sub{parent: parent, msg: msg} }

type sub struct {
	parent error
	msg    string
}

func (e *sub) Error() string { return e.msg }
func (e *sub) Unwrap() error { return e.parent }

// Quote renders a name read from the input (a field name, a column path) for
// an error message: printable UTF-8 without quotes or backslashes stays as
// it is; anything else is quoted as a Go string, so raw bytes (0xff, ESC)
// never reach a terminal.
func Quote(name string) string {
	if !utf8.ValidString(name) {
		return strconv.Quote(name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) || r == '"' || r == '\\' {
			return strconv.Quote(name)
		}
	}
	return name
}
