// Package opt is the one place the colfmt packages apply functional options.
//
// Every format package declares `type Option func(*config) error` and builds
// its config with Apply, so the packages agree on two rules: a nil Option is
// skipped (never a panic), and an Option given an out-of-range argument fails
// the call with an error that names the option and wraps the package's
// ErrInvalidOption (which itself wraps ErrInvalidArgument).
package opt

import "fmt"

// Apply runs opts on c in order, skipping nil entries, and returns the first
// error an option reports.
func Apply[C any, O ~func(*C) error](c *C, opts []O) error {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return err
		}
	}
	return nil
}

// Invalid reports that option name was given arg, which is out of range:
// "<sentinel>: name(arg): <why>". sentinel is the package's ErrInvalidOption.
func Invalid(sentinel error, name string, arg any, why string, args ...any) error {
	return &invalid{sentinel: sentinel, msg: fmt.Sprintf("%s(%v): %s", name, arg, fmt.Sprintf(why, args...))}
}

type invalid struct {
	sentinel error
	msg      string
}

func (e *invalid) Error() string { return e.sentinel.Error() + ": " + e.msg }
func (e *invalid) Unwrap() error { return e.sentinel }
