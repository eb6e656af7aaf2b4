package bsup

import "github.com/colfmt/colfmt/internal/opt"

// Defaults of the limits and of the writer's frame size (see the Security
// section of the package doc).
const (
	// DefaultMaxFrameSize is WithMaxFrameSize's default: 64 MiB of frame
	// payload, before and after decompression.
	DefaultMaxFrameSize = 64 << 20
	// DefaultMaxTypes is WithMaxTypes's default: typedefs in one stream.
	DefaultMaxTypes = 1 << 20
	// DefaultMaxDepth is WithMaxDepth's default: nesting levels of types
	// and values (JSONReader's too).
	DefaultMaxDepth = 100
	// DefaultFrameThreshold is WithFrameThreshold's default: bytes of
	// values a Writer buffers per frame (zed's framethresh).
	DefaultFrameThreshold = 512 << 10
)

type config struct {
	maxFrameSize   int
	maxTypes       int
	maxDepth       int
	frameThreshold int
	compress       bool
	version        int
}

func defaultConfig() config {
	return config{
		maxFrameSize:   DefaultMaxFrameSize,
		maxTypes:       DefaultMaxTypes,
		maxDepth:       DefaultMaxDepth,
		frameThreshold: DefaultFrameThreshold,
		compress:       true,
	}
}

// Option configures a Reader, JSONReader or Writer.
type Option func(*config) error

// WithMaxFrameSize limits the payload of one frame, before and after
// decompression (default DefaultMaxFrameSize, 64 MiB). The reader rejects
// larger frames with ErrTooLarge before allocating anything for them.
func WithMaxFrameSize(n int) Option {
	return func(c *config) error {
		if n < 16 {
			return opt.Invalid(ErrInvalidOption, "WithMaxFrameSize", n, "must be at least 16")
		}
		c.maxFrameSize = n
		return nil
	}
}

// WithMaxTypes limits the number of typedefs in one stream (default
// DefaultMaxTypes, 1<<20).
func WithMaxTypes(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return opt.Invalid(ErrInvalidOption, "WithMaxTypes", n, "must be at least 1")
		}
		c.maxTypes = n
		return nil
	}
}

// WithMaxDepth limits how deeply types (and so values) nest (default
// DefaultMaxDepth, 100).
func WithMaxDepth(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 10000 {
			return opt.Invalid(ErrInvalidOption, "WithMaxDepth", n, "must be in 1..10000")
		}
		c.maxDepth = n
		return nil
	}
}

// WithFrameThreshold sets how many bytes of values a Writer buffers before
// it writes a frame (default DefaultFrameThreshold, 512 KiB, as zed's
// framethresh).
func WithFrameThreshold(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return opt.Invalid(ErrInvalidOption, "WithFrameThreshold", n, "must be at least 1")
		}
		c.frameThreshold = n
		return nil
	}
}

// WithVersion selects the Super Binary version a Writer writes: 0 (the
// default, zed v1.x and Super Columnar trailers) or 2 (the metadata of CSUP
// version 16 files: a version byte before every frame, typedef IDs from 31,
// an optional-field flag after each record field's type).
func WithVersion(v int) Option {
	return func(c *config) error {
		if v != 0 && v != 2 {
			return opt.Invalid(ErrInvalidOption, "WithVersion", v, "must be 0 or 2")
		}
		c.version = v
		return nil
	}
}

// WithCompression turns LZ4 frame compression on (the default) or off. A
// frame is compressed only when that makes it smaller.
func WithCompression(on bool) Option {
	return func(c *config) error {
		c.compress = on
		return nil
	}
}

func buildConfig(opts []Option) (config, error) {
	c := defaultConfig()
	err := opt.Apply(&c, opts)
	return c, err
}
