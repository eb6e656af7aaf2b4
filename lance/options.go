package lance

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/opt"
)

// Default resource limits. Every size read from a file is checked against
// the bytes that remain and against these limits before anything is
// allocated.
const (
	// DefaultMaxBufferSize bounds one buffer, decompressed buffer or decoded
	// array buffer: 1 GiB.
	DefaultMaxBufferSize = 1 << 30
	// DefaultMaxMetadataSize bounds the schema, offset tables and column
	// metadata together: 64 MiB.
	DefaultMaxMetadataSize = 64 << 20
	// DefaultMaxColumns bounds the columns and schema fields: 65536.
	DefaultMaxColumns = 1 << 16
	// DefaultMaxDepth bounds the nesting of encodings and schema: 64.
	DefaultMaxDepth = 64
	// DefaultBatchRows is the most rows per record from Records.
	DefaultBatchRows = 1 << 16
	// DefaultBatchBytes is the decoded size Records aims a record at: a
	// batch holds fewer than BatchRows rows when its rows are wide, so that
	// streaming a file of wide rows stays in bounded memory: 16 MiB.
	DefaultBatchBytes = 16 << 20
	// DefaultMemoryLimit is the total a read may allocate for the buffers
	// of one record (Read) or of one batch (Records), decoded pages it
	// keeps for the next batch included: 256 MiB. A read that would need
	// more fails with ErrTooLarge.
	DefaultMemoryLimit = 256 << 20
)

type config struct {
	maxBuffer   int64
	maxMetadata int64
	maxColumns  int
	maxDepth    int
	memLimit    int64
	mem         memory.Allocator

	table tableConfig // OpenTable only (table_options.go)
	write writeConfig // NewWriter only (write_options.go)
}

func defaultConfig() config {
	return config{
		maxBuffer:   DefaultMaxBufferSize,
		maxMetadata: DefaultMaxMetadataSize,
		maxColumns:  DefaultMaxColumns,
		maxDepth:    DefaultMaxDepth,
		memLimit:    DefaultMemoryLimit,
		mem:         memory.DefaultAllocator,
		write:       defaultWriteConfig(),
	}
}

// Option configures Open. A nil Option is skipped.
type Option func(*config) error

// WithMaxBufferSize limits the size of any single buffer read from the
// file, any decompressed buffer and any decoded array buffer, including
// one joined from several pages (default DefaultMaxBufferSize).
func WithMaxBufferSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return opt.Invalid(ErrInvalidOption, "WithMaxBufferSize", n, "must be positive")
		}
		c.maxBuffer = n
		return nil
	}
}

// WithMaxMetadataSize limits the bytes read for the schema, the offset
// tables and the column metadata together (default DefaultMaxMetadataSize).
func WithMaxMetadataSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return opt.Invalid(ErrInvalidOption, "WithMaxMetadataSize", n, "must be positive")
		}
		c.maxMetadata = n
		return nil
	}
}

// WithMaxColumns limits the number of columns and of schema fields
// (default DefaultMaxColumns).
func WithMaxColumns(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return opt.Invalid(ErrInvalidOption, "WithMaxColumns", n, "must be positive")
		}
		c.maxColumns = n
		return nil
	}
}

// WithMaxDepth limits the nesting of encoding trees and of the schema
// (default DefaultMaxDepth).
func WithMaxDepth(n int) Option {
	return func(c *config) error {
		if n <= 0 || n > 1<<10 {
			return opt.Invalid(ErrInvalidOption, "WithMaxDepth", n, "must be in 1..1024")
		}
		c.maxDepth = n
		return nil
	}
}

// WithMemoryLimit sets the total bytes one read may allocate for decoded
// buffers (default DefaultMemoryLimit): the whole record for Read, each
// batch for Records. It is charged as buffers are allocated, before they
// are, so a small file that declares huge pages fails with ErrTooLarge
// instead of taking the memory.
func WithMemoryLimit(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return opt.Invalid(ErrInvalidOption, "WithMemoryLimit", n, "must be positive")
		}
		c.memLimit = n
		return nil
	}
}

// WithAllocator sets the Arrow allocator for the returned arrays (default
// memory.DefaultAllocator). Buffers decoded from the file are Go slices
// wrapped without copying; the allocator serves the rest.
func WithAllocator(m memory.Allocator) Option {
	return func(c *config) error {
		if m == nil {
			return opt.Invalid(ErrInvalidOption, "WithAllocator", "nil", "an allocator is required")
		}
		c.mem = m
		return nil
	}
}
