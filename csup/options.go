package csup

import (
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/opt"
)

// Defaults of the limits (see the Security section of the package doc).
const (
	DefaultMaxSegmentSize    = 256 << 20
	DefaultMaxReassemblySize = 64 << 20
	DefaultMaxDepth          = 100
	DefaultMaxElements       = 1 << 20
	DefaultSegmentThreshold  = 5242880  // 5 MiB, zq -coltresh
	DefaultSkewThreshold     = 26214400 // 25 MiB, zq -skewtresh
	// DefaultMemoryLimit is the total budget of one read (one Reader, one
	// Validate, one Count): decoded segment bytes plus the elements of the
	// values built, each element charged as ElementCost bytes.
	DefaultMemoryLimit = 1 << 30
	// DefaultObjectRows is how many values the CSUP v16 writer puts in one
	// object before it starts the next (super cuts objects at about
	// 120 000 values, brimdata/super#5507).
	DefaultObjectRows = 120000
	// DefaultObjectSize is about how many bytes of values the CSUP v16
	// writer buffers before it ends an object even short of
	// DefaultObjectRows (super cuts by rows only; this bounds the
	// writer's memory when rows are large).
	DefaultObjectSize = 256 << 20
	// DefaultBatchRows is how many rows a BatchReader puts in one batch
	// at most (WithBatchRows).
	DefaultBatchRows = 8192
	// MaxBatchRows bounds WithBatchRows.
	MaxBatchRows = 1 << 20
	// ElementCost is what one decoded element (a value slot, even a null
	// one) is charged against the memory limit.
	ElementCost = 64
)

type config struct {
	maxSegmentSize    int64
	maxReassemblySize int64
	maxDepth          int
	maxElements       int64
	segmentThresh     int
	skewThresh        int
	compress          bool
	memoryLimit       int64
	layout            Layout
	objectRows        int
	objectSize        int64
	batchRows         int
}

func defaultConfig() config {
	return config{
		maxSegmentSize:    DefaultMaxSegmentSize,
		maxReassemblySize: DefaultMaxReassemblySize,
		maxDepth:          DefaultMaxDepth,
		maxElements:       DefaultMaxElements,
		segmentThresh:     DefaultSegmentThreshold,
		skewThresh:        DefaultSkewThreshold,
		compress:          true,
		memoryLimit:       DefaultMemoryLimit,
		objectRows:        DefaultObjectRows,
		objectSize:        DefaultObjectSize,
		batchRows:         DefaultBatchRows,
	}
}

// Option configures Open or NewWriter.
type Option func(*config) error

// WithMaxSegmentSize limits the stored and the decompressed size of one
// segment (default 256 MiB).
func WithMaxSegmentSize(n int64) Option {
	return func(c *config) error {
		if n < 1 {
			return opt.Invalid(ErrInvalidOption, "WithMaxSegmentSize", n, "must be at least 1")
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
			return opt.Invalid(ErrInvalidOption, "WithMaxReassemblySize", n, "must be at least 1")
		}
		c.maxReassemblySize = n
		return nil
	}
}

// WithMaxDepth limits type nesting (default 100).
func WithMaxDepth(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 10000 {
			return opt.Invalid(ErrInvalidOption, "WithMaxDepth", n, "must be in 1..10000")
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
			return opt.Invalid(ErrInvalidOption, "WithMaxElements", n, "must be in 1..1<<40")
		}
		c.maxElements = n
		return nil
	}
}

// WithSegmentThreshold sets the writer's segment threshold: a column's buffer
// becomes a segment when it reaches this many bytes (default 5 MiB).
func WithSegmentThreshold(n int) Option {
	return func(c *config) error {
		// Segment lengths are uint32 in the spec's segmap.
		if n < 1 || n > 1<<30 {
			return opt.Invalid(ErrInvalidOption, "WithSegmentThreshold", n, "must be in 1..1<<30")
		}
		c.segmentThresh = n
		return nil
	}
}

// WithSkewThreshold sets the writer's skew threshold: when all column buffers
// together pass it, every column is flushed (default 25 MiB).
func WithSkewThreshold(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return opt.Invalid(ErrInvalidOption, "WithSkewThreshold", n, "must be at least 1")
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

// WithMemoryLimit sets the total memory budget of one read — a Reader, a
// Validate or a Count (default DefaultMemoryLimit, 1 GiB): the decoded
// bytes of every segment it loads plus ElementCost bytes for every element
// of the values it builds. WithMaxElements bounds one value; this bounds
// them all, so a small file of many all-null arrays cannot make a scan
// allocate without end. A read that would pass it fails with ErrTooLarge.
func WithMemoryLimit(n int64) Option {
	return func(c *config) error {
		if n < 1 {
			return opt.Invalid(ErrInvalidOption, "WithMemoryLimit", n, "must be at least 1")
		}
		c.memoryLimit = n
		return nil
	}
}

// Layout selects what NewWriter writes.
type Layout int

const (
	// LayoutSpec is the layout of the Super Columnar spec (trailer type
	// "csup", version 1); no released tool reads it.
	LayoutSpec Layout = iota
	// LayoutCSUP16 is CSUP version 16, what super v0.3.0 writes and reads.
	LayoutCSUP16
)

// WithLayout selects the layout NewWriter writes (default LayoutSpec).
func WithLayout(l Layout) Option {
	return func(c *config) error {
		if l != LayoutSpec && l != LayoutCSUP16 {
			return opt.Invalid(ErrInvalidOption, "WithLayout", int(l), "unknown layout")
		}
		c.layout = l
		return nil
	}
}

// WithObjectRows sets how many values the CSUP v16 writer puts in one
// object (default DefaultObjectRows); the writer's memory is bounded by
// one object's values.
func WithObjectRows(n int) Option {
	return func(c *config) error {
		if n < 1 || int64(n) > 1<<31-1 {
			return opt.Invalid(ErrInvalidOption, "WithObjectRows", n, "must be in 1..1<<31-1")
		}
		c.objectRows = n
		return nil
	}
}

// WithObjectSize sets about how many bytes of values (8 per number, the
// bytes of a string plus 4, 4 per container) the CSUP v16 writer buffers
// before it ends the object (default DefaultObjectSize), so that its
// memory stays bounded however large the rows; the object also ends at
// WithObjectRows values, whichever comes first.
func WithObjectSize(n int64) Option {
	return func(c *config) error {
		if n < 1<<10 || n > 1<<32 {
			return opt.Invalid(ErrInvalidOption, "WithObjectSize", n, "must be in 1KiB..4GiB")
		}
		c.objectSize = n
		return nil
	}
}

// WithBatchRows sets how many rows a BatchReader puts in one batch at
// most (default DefaultBatchRows, at most MaxBatchRows); a batch also
// ends with its object.
func WithBatchRows(n int) Option {
	return func(c *config) error {
		if n < 1 || n > MaxBatchRows {
			return opt.Invalid(ErrInvalidOption, "WithBatchRows", n, "must be in 1..%d", MaxBatchRows)
		}
		c.batchRows = n
		return nil
	}
}

func buildConfig(opts []Option) (config, error) {
	c := defaultConfig()
	err := opt.Apply(&c, opts)
	return c, err
}

func (c config) bsupOptions() []bsup.Option {
	return []bsup.Option{
		// Reassembly records nest a few levels per level of the types
		// they describe; the types themselves are checked against maxDepth.
		bsup.WithMaxDepth(min(4*c.maxDepth+8, 10000)),
		bsup.WithMaxFrameSize(max(16, int(min(c.maxReassemblySize, 1<<30)))),
	}
}
