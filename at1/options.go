package at1

import (
	"fmt"
	"runtime"
)

// Defaults for the resource limits; each can be changed with an Option.
const (
	// DefaultMaxDecodedSize caps the bytes one Decode call produces (for
	// NewReader: one frame, or the whole of a whole-file container).
	DefaultMaxDecodedSize = 1 << 30
	// DefaultMaxStreamSize caps the decompressed size of one stream, one
	// query block or one raw frame.
	DefaultMaxStreamSize = 256 << 20
	// DefaultMaxStreams is the most streams one packed stream set may
	// hold. It is also the format's own maximum.
	DefaultMaxStreams = 256
	// DefaultMaxXZDictionary caps the LZMA2 dictionary a stream may
	// declare (xz -9 uses 64 MiB). Each concurrent xz decoder holds one.
	DefaultMaxXZDictionary = 64 << 20
)

// maxStreamLimit keeps per-stream and per-column buffers addressable by
// uint32 offsets (with room for the end sentinel).
const maxStreamLimit = 1 << 31

// config holds the options of one call.
type config struct {
	maxDecoded  int64
	maxStream   int64
	maxStreams  int
	maxDict     uint32
	strict      bool
	concurrency int
	// safe selects the checked twins of the validated fast paths (tests
	// and fuzzing compare the two).
	safe bool
}

// An Option changes a limit or a policy. Options validate their argument
// and make the call that receives them fail when it is out of range.
type Option func(*config) error

func newConfig(opts []Option) (*config, error) {
	c := &config{
		maxDecoded:  DefaultMaxDecodedSize,
		maxStream:   DefaultMaxStreamSize,
		maxStreams:  DefaultMaxStreams,
		maxDict:     DefaultMaxXZDictionary,
		concurrency: runtime.GOMAXPROCS(0),
	}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// WithMaxDecodedSize caps the decoded output of one call (0 < n <= 2^48,
// a bound that keeps derived budgets free of overflow).
func WithMaxDecodedSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 || n > 1<<48 {
			return fmt.Errorf("%w: WithMaxDecodedSize(%d): must be in 1..%d", ErrInvalidOption, n, int64(1)<<48)
		}
		c.maxDecoded = n
		return nil
	}
}

// WithMaxStreamSize caps the decompressed size of one stream, query block
// or raw frame (0 < n <= 2 GiB).
func WithMaxStreamSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 || n > maxStreamLimit {
			return fmt.Errorf("%w: WithMaxStreamSize(%d): must be in 1..%d", ErrInvalidOption, n, int64(maxStreamLimit))
		}
		c.maxStream = n
		return nil
	}
}

// WithMaxStreams caps the number of streams in a packed stream set
// (1..256; the format allows no more than 256).
func WithMaxStreams(n int) Option {
	return func(c *config) error {
		if n <= 0 || n > DefaultMaxStreams {
			return fmt.Errorf("%w: WithMaxStreams(%d): must be in 1..%d", ErrInvalidOption, n, DefaultMaxStreams)
		}
		c.maxStreams = n
		return nil
	}
}

// WithMaxXZDictionary caps the LZMA2 dictionary size an xz stream may
// declare (4 KiB..1.5 GiB). Files from xz presets 0-9 need at most 64 MiB.
func WithMaxXZDictionary(n int64) Option {
	return func(c *config) error {
		if n < 4096 || n > 3<<29 {
			return fmt.Errorf("%w: WithMaxXZDictionary(%d): must be in 4096..%d", ErrInvalidOption, n, int64(3<<29))
		}
		c.maxDict = uint32(n)
		return nil
	}
}

// WithConcurrency sets how many streams or blocks decode at once
// (default GOMAXPROCS; 1 decodes serially). Output does not depend on it.
func WithConcurrency(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: WithConcurrency(%d): must be positive", ErrInvalidOption, n)
		}
		c.concurrency = n
		return nil
	}
}

// Strict adds consistency checks that the reference decoder skips: the
// verbatim lines of a columnar file must not run out, NUMEXC subtypes must
// be 0 or 1 and their exception count must match the bitmap, and a
// qcolumnar/qjson n_struct and nrg must agree with row_modes and rg.
// Files the reference encoder writes pass; validate uses it.
func Strict() Option {
	return func(c *config) error {
		c.strict = true
		return nil
	}
}
