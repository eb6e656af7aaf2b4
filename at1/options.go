package at1

import (
	"runtime"

	"github.com/colfmt/colfmt/internal/opt"
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
	// DefaultMemoryLimit caps the decompressed streams one stream set (a
	// whole-file container, or one frame) holds at once, in total. It is
	// charged before each stream is decompressed, from the size the
	// backend declares (zstd content size, xz index, stored length) or,
	// when none is declared, as the stream grows. 256 MiB: one stream of
	// the largest default size, so a hostile file claiming many such
	// streams stops after the first (colfmt stays well inside a 2 GiB
	// address-space cap even as a cgo binary, which reserves ~1.5 GB).
	DefaultMemoryLimit = 256 << 20
)

// maxStreamLimit keeps per-stream and per-column buffers addressable by
// uint32 offsets (with room for the end sentinel).
const maxStreamLimit = 1 << 31

// config holds the options of one call: the decoder's limits and
// policies, and the encoder's choices.
type config struct {
	maxDecoded  int64
	maxStream   int64
	maxStreams  int
	maxDict     uint32
	memoryLimit int64
	strict      bool
	concurrency int
	// safe selects the checked twins of the validated fast paths (tests
	// and fuzzing compare the two).
	safe bool

	enc encConfig
}

// An Option changes a limit, a policy or an encoder choice. Options
// validate their argument and make the call that receives them fail with
// ErrInvalidOption, naming the option, when it is out of range. A nil
// Option is ignored.
type Option func(*config) error

func newConfig(opts []Option) (*config, error) {
	c := &config{
		maxDecoded:  DefaultMaxDecodedSize,
		maxStream:   DefaultMaxStreamSize,
		maxStreams:  DefaultMaxStreams,
		maxDict:     DefaultMaxXZDictionary,
		memoryLimit: DefaultMemoryLimit,
		concurrency: runtime.GOMAXPROCS(0),
		enc:         defaultEncConfig(),
	}
	if err := opt.Apply(c, opts); err != nil {
		return nil, err
	}
	return c, nil
}

// WithMaxDecodedSize caps the decoded output of one call (0 < n <= 2^48,
// a bound that keeps derived budgets free of overflow).
func WithMaxDecodedSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 || n > 1<<48 {
			return opt.Invalid(ErrInvalidOption, "WithMaxDecodedSize", n, "must be in 1..%d", int64(1)<<48)
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
			return opt.Invalid(ErrInvalidOption, "WithMaxStreamSize", n, "must be in 1..%d", int64(maxStreamLimit))
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
			return opt.Invalid(ErrInvalidOption, "WithMaxStreams", n, "must be in 1..%d", DefaultMaxStreams)
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
			return opt.Invalid(ErrInvalidOption, "WithMaxXZDictionary", n, "must be in 4096..%d", int64(3<<29))
		}
		c.maxDict = uint32(n)
		return nil
	}
}

// WithMemoryLimit caps the decompressed streams one stream set holds at
// once, in total (1 KiB..2^48; default DefaultMemoryLimit). A file whose
// streams declare more fails with ErrTooLarge before they are allocated.
func WithMemoryLimit(n int64) Option {
	return func(c *config) error {
		if n < 1<<10 || n > 1<<48 {
			return opt.Invalid(ErrInvalidOption, "WithMemoryLimit", n, "must be in %d..%d", 1<<10, int64(1)<<48)
		}
		c.memoryLimit = n
		return nil
	}
}

// WithConcurrency sets how many streams, blocks or frames decode (or
// encode) at once (default GOMAXPROCS; 1 works serially). Output does not
// depend on it.
func WithConcurrency(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return opt.Invalid(ErrInvalidOption, "WithConcurrency", n, "must be positive")
		}
		c.concurrency = n
		return nil
	}
}

// WithStrict adds consistency checks that the reference decoder skips: the
// verbatim lines of a columnar file must not run out, NUMEXC subtypes must
// be 0 or 1 and their exception count must match the bitmap, and a
// qcolumnar/qjson n_struct and nrg must agree with row_modes and rg.
// Files the reference encoder (and Encode) writes pass; validate uses it.
func WithStrict() Option {
	return func(c *config) error {
		c.strict = true
		return nil
	}
}
