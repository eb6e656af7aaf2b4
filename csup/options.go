package csup

import (
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// Defaults of the limits (see the Security section of the package doc).
const (
	DefaultMaxSegmentSize    = 256 << 20
	DefaultMaxReassemblySize = 64 << 20
	DefaultMaxDepth          = 100
	DefaultMaxElements       = 1 << 20
	DefaultSegmentThresh     = 5242880  // 5 MiB, zq -coltresh
	DefaultSkewThresh        = 26214400 // 25 MiB, zq -skewtresh
)

type config struct {
	maxSegmentSize    int64
	maxReassemblySize int64
	maxDepth          int
	maxElements       int64
	segmentThresh     int
	skewThresh        int
	compress          bool
}

func defaultConfig() config {
	return config{
		maxSegmentSize:    DefaultMaxSegmentSize,
		maxReassemblySize: DefaultMaxReassemblySize,
		maxDepth:          DefaultMaxDepth,
		maxElements:       DefaultMaxElements,
		segmentThresh:     DefaultSegmentThresh,
		skewThresh:        DefaultSkewThresh,
		compress:          true,
	}
}

// Option configures Open or NewWriter.
type Option func(*config) error

// WithMaxSegmentSize limits the stored and the decompressed size of one
// segment (default 256 MiB).
func WithMaxSegmentSize(n int64) Option {
	return func(c *config) error {
		if n < 1 {
			return errs.Wrap(ErrInvalidOption, "max segment size %d is below 1", n)
		}
		c.maxSegmentSize = n
		return nil
	}
}

// WithMaxReassemblySize limits the reassembly section and the trailer
// (default 64 MiB); they are read into memory whole.
func WithMaxReassemblySize(n int64) Option {
	return func(c *config) error {
		if n < 1 {
			return errs.Wrap(ErrInvalidOption, "max reassembly size %d is below 1", n)
		}
		c.maxReassemblySize = n
		return nil
	}
}

// WithMaxDepth limits type nesting (default 100).
func WithMaxDepth(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 10000 {
			return errs.Wrap(ErrInvalidOption, "max depth %d is outside 1..10000", n)
		}
		c.maxDepth = n
		return nil
	}
}

// WithMaxElements limits the length of one array, set or map value read
// from a file (default 1<<20).
func WithMaxElements(n int64) Option {
	return func(c *config) error {
		if n < 1 || n > 1<<40 {
			return errs.Wrap(ErrInvalidOption, "max elements %d is outside 1..1<<40", n)
		}
		c.maxElements = n
		return nil
	}
}

// WithSegmentThresh sets the writer's segment threshold: a column's buffer
// becomes a segment when it reaches this many bytes (default 5 MiB).
func WithSegmentThresh(n int) Option {
	return func(c *config) error {
		// Segment lengths are uint32 in the spec's segmap.
		if n < 1 || n > 1<<30 {
			return errs.Wrap(ErrInvalidOption, "segment threshold %d is outside 1..1<<30", n)
		}
		c.segmentThresh = n
		return nil
	}
}

// WithSkewThresh sets the writer's skew threshold: when all column buffers
// together pass it, every column is flushed (default 25 MiB).
func WithSkewThresh(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errs.Wrap(ErrInvalidOption, "skew threshold %d is below 1", n)
		}
		c.skewThresh = n
		return nil
	}
}

// WithCompression turns LZ4 segment compression on (the default) or off.
// A segment is compressed only when that makes it strictly smaller.
func WithCompression(on bool) Option {
	return func(c *config) error {
		c.compress = on
		return nil
	}
}

func buildConfig(opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

func (c config) bsupOptions() []bsup.Option {
	return []bsup.Option{
		// Reassembly records nest a few levels per level of the types
		// they describe; the types themselves are checked against maxDepth.
		bsup.WithMaxDepth(min(4*c.maxDepth+8, 10000)),
		bsup.WithMaxFrameSize(max(16, int(min(c.maxReassemblySize, 1<<30)))),
	}
}
