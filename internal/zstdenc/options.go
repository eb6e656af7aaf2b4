package zstdenc

import (
	"errors"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
)

// The package's sentinels. It only encodes, so there is no ErrCorrupt:
// every input is valid, and the only failures are the caller's.
var (
	ErrTooLarge        = errors.New("zstdenc: too large")
	ErrInvalidArgument = errors.New("zstdenc: invalid argument")
	ErrInvalidOption   = errs.Sub(ErrInvalidArgument, "zstdenc: invalid option")
)

// DefaultMaxInputSize is the largest input AppendEncode accepts unless
// WithMaxInputSize says otherwise (256 MiB). The encoder is meant for
// small inputs; its memory is about 9 bytes per input byte plus 5 MiB of
// fixed tables, and its time grows with the input (see the package doc).
const DefaultMaxInputSize = 256 << 20

// MaxInputSize is the largest value WithMaxInputSize accepts: positions
// are 32-bit.
const MaxInputSize = 1<<31 - 1

// DefaultSearchDepth is the number of earlier positions sharing a 3-byte
// hash that the match finder compares per position.
const DefaultSearchDepth = 256

// MaxSearchDepth is the largest value WithSearchDepth accepts.
const MaxSearchDepth = 1 << 16

// Option configures AppendEncode.
type Option func(*config) error

type config struct {
	maxInput int
	depth    int
	thorough bool
}

func defaultConfig() config {
	return config{maxInput: DefaultMaxInputSize, depth: DefaultSearchDepth}
}

// WithMaxInputSize sets the largest input AppendEncode accepts (default
// DefaultMaxInputSize); a larger one fails with ErrTooLarge before any
// allocation. n must be in 0..MaxInputSize.
func WithMaxInputSize(n int) Option {
	return func(c *config) error {
		if n < 0 || n > MaxInputSize {
			return opt.Invalid(ErrInvalidOption, "WithMaxInputSize", n, "must be in 0..%d", MaxInputSize)
		}
		c.maxInput = n
		return nil
	}
}

// WithSearchDepth sets how many earlier candidate positions the match
// finder compares per position (default DefaultSearchDepth): more finds
// longer and nearer matches at a cost in time. n must be in
// 1..MaxSearchDepth.
func WithSearchDepth(n int) Option {
	return func(c *config) error {
		if n < 1 || n > MaxSearchDepth {
			return opt.Invalid(ErrInvalidOption, "WithSearchDepth", n, "must be in 1..%d", MaxSearchDepth)
		}
		c.depth = n
		return nil
	}
}

// WithThorough makes the encoder try twice as many first-pass price
// models and refine each once more: about 0.15% smaller on small text
// files for about twice the CPU (see the package doc).
func WithThorough(on bool) Option {
	return func(c *config) error {
		c.thorough = on
		return nil
	}
}
