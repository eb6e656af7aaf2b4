package onpair

import (
	"math"

	"github.com/colfmt/colfmt/internal/opt"
)

// Option configures compression (Compress, Train, ...) and decoding of
// serialized columns (ParseColumn). Options validate their argument and
// return an ErrInvalidOption error (which wraps ErrInvalidArgument) naming
// the option when it is out of range. A nil Option is skipped.
type Option func(*config) error

type config struct {
	bits           uint32  // dictionary budget 2^bits tokens
	pairThreshold  int     // 0: dynamic controller; else fixed count 2..255
	sampleFraction float64 // share of the input bytes scanned by training
	seed           uint64  // sampling seed

	maxRows        int64
	maxCodes       int64
	maxDecodedSize int64

	rowTable bool // Column.AppendRow builds the short-row table
}

// Defaults.
const (
	DefaultBits           = 12
	DefaultSampleFraction = 0.15
	DefaultSeed           = 42
	// DefaultMaxRows bounds the rows of a parsed column (row offsets cost
	// 4 bytes each in memory).
	DefaultMaxRows = 1 << 28
	// DefaultMaxCodes bounds the codes of a parsed column (2 bytes each in
	// memory); also the hard cap, since row offsets are uint32.
	DefaultMaxCodes = 1 << 30
	// DefaultMaxDecodedSize bounds the decoded size of a parsed column
	// (what AppendAll would allocate): 4 GiB.
	DefaultMaxDecodedSize = 4 << 30
)

func defaultConfig() config {
	return config{
		bits:           DefaultBits,
		sampleFraction: DefaultSampleFraction,
		seed:           DefaultSeed,
		maxRows:        DefaultMaxRows,
		maxCodes:       DefaultMaxCodes,
		maxDecodedSize: DefaultMaxDecodedSize,
		rowTable:       true,
	}
}

func buildConfig(opts []Option) (config, error) {
	c := defaultConfig()
	err := opt.Apply(&c, opts) // skips nil options
	return c, err
}

// WithBits sets the dictionary budget to 2^bits tokens, bits in 9..16
// (default 12). The written code width is max(9, ceil(log2 N)) for the N
// tokens training produced, so it is never above bits.
func WithBits(bits int) Option {
	return func(c *config) error {
		if bits < 9 || bits > 16 {
			return opt.Invalid(ErrInvalidOption, "WithBits", bits, "bits must be in 9..16")
		}
		c.bits = uint32(bits)
		return nil
	}
}

// WithPairThreshold fixes the pair-count threshold at which training merges
// two adjacent tokens (2..255). The default, 0, is the reference's dynamic
// controller, which starts at 2 and adapts the threshold to the budget.
func WithPairThreshold(n int) Option {
	return func(c *config) error {
		if n != 0 && (n < 2 || n > 255) {
			return opt.Invalid(ErrInvalidOption, "WithPairThreshold", n, "must be 0 (dynamic) or 2..255")
		}
		c.pairThreshold = n
		return nil
	}
}

// WithSampleFraction sets the share of the input bytes training scans,
// in (0, 1] (default 0.15).
func WithSampleFraction(f float64) Option {
	return func(c *config) error {
		if !(f > 0 && f <= 1) || math.IsNaN(f) {
			return opt.Invalid(ErrInvalidOption, "WithSampleFraction", f, "must be in (0, 1]")
		}
		c.sampleFraction = f
		return nil
	}
}

// WithSeed sets the sampling seed (default 42). The same input, options and
// seed always give the same column.
func WithSeed(seed uint64) Option {
	return func(c *config) error {
		c.seed = seed
		return nil
	}
}

// WithRowTable sets whether a Column's first AppendRow builds its
// short-row table (default true): 8 bytes a row, which makes a random row
// of up to four codes one load from the table instead of two dependent
// loads (its offsets, then its codes); see Column.AppendRow. Without it
// AppendRow reads the offsets and the codes and uses no memory of its own.
func WithRowTable(on bool) Option {
	return func(c *config) error {
		c.rowTable = on
		return nil
	}
}

// WithMaxRows bounds the rows ParseColumn accepts (default DefaultMaxRows).
func WithMaxRows(n int64) Option {
	return func(c *config) error {
		if n < 0 {
			return opt.Invalid(ErrInvalidOption, "WithMaxRows", n, "negative")
		}
		c.maxRows = n
		return nil
	}
}

// WithMaxCodes bounds the codes ParseColumn accepts (default and hard cap
// DefaultMaxCodes).
func WithMaxCodes(n int64) Option {
	return func(c *config) error {
		if n < 0 || n > DefaultMaxCodes {
			return opt.Invalid(ErrInvalidOption, "WithMaxCodes", n, "must be in 0..%d", int64(DefaultMaxCodes))
		}
		c.maxCodes = n
		return nil
	}
}

// WithMaxDecodedSize bounds the decoded size of a column ParseColumn
// accepts (default DefaultMaxDecodedSize).
func WithMaxDecodedSize(n int64) Option {
	return func(c *config) error {
		if n < 0 {
			return opt.Invalid(ErrInvalidOption, "WithMaxDecodedSize", n, "negative")
		}
		c.maxDecodedSize = n
		return nil
	}
}
