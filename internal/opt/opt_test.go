package opt

import (
	"errors"
	"testing"
)

type config struct{ n int }

type option func(*config) error

var errInvalidOption = errors.New("pkg: invalid option")

func withN(n int) option {
	return func(c *config) error {
		if n < 1 {
			return Invalid(errInvalidOption, "WithN", n, "must be at least %d", 1)
		}
		c.n = n
		return nil
	}
}

func TestApplySkipsNilAndStopsAtFirstError(t *testing.T) {
	var c config
	if err := Apply(&c, []option{nil, withN(3), nil}); err != nil || c.n != 3 {
		t.Fatalf("Apply = %v, n = %d; want nil, 3", err, c.n)
	}
	err := Apply(&c, []option{withN(0), withN(9)})
	if !errors.Is(err, errInvalidOption) {
		t.Fatalf("error %v does not wrap the sentinel", err)
	}
	if got, want := err.Error(), "pkg: invalid option: WithN(0): must be at least 1"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
	if c.n != 3 {
		t.Fatalf("an option after the failing one ran: n = %d", c.n)
	}
}
