package lance

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Default resource limits. Every size read from a file is checked against
// the bytes that remain and against these limits before anything is
// allocated.
const (
	DefaultMaxBufferSize   = 1 << 30 // one buffer, decompressed buffer or decoded array: 1 GiB
	DefaultMaxMetadataSize = 64 << 20
	DefaultMaxColumns      = 1 << 16
	DefaultMaxDepth        = 64
	DefaultBatchRows       = 1 << 16
)

type config struct {
	maxBuffer   int64
	maxMetadata int64
	maxColumns  int
	maxDepth    int
	mem         memory.Allocator

	table tableConfig // OpenTable only (table_options.go)
}

func defaultConfig() config {
	return config{
		maxBuffer:   DefaultMaxBufferSize,
		maxMetadata: DefaultMaxMetadataSize,
		maxColumns:  DefaultMaxColumns,
		maxDepth:    DefaultMaxDepth,
		mem:         memory.DefaultAllocator,
	}
}

// Option configures Open.
type Option func(*config) error

// WithMaxBufferSize limits the size of any single buffer read from the
// file, any decompressed buffer and any decoded array buffer, including
// one joined from several pages (default 1 GiB).
func WithMaxBufferSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: WithMaxBufferSize(%d): must be positive", ErrInvalidOption, n)
		}
		c.maxBuffer = n
		return nil
	}
}

// WithMaxMetadataSize limits the bytes read for the schema, the offset
// tables and the column metadata together (default 64 MiB).
func WithMaxMetadataSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: WithMaxMetadataSize(%d): must be positive", ErrInvalidOption, n)
		}
		c.maxMetadata = n
		return nil
	}
}

// WithMaxColumns limits the number of columns and of schema fields
// (default 65536).
func WithMaxColumns(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: WithMaxColumns(%d): must be positive", ErrInvalidOption, n)
		}
		c.maxColumns = n
		return nil
	}
}

// WithMaxDepth limits the nesting of encoding trees and of the schema
// (default 64).
func WithMaxDepth(n int) Option {
	return func(c *config) error {
		if n <= 0 || n > 1<<10 {
			return fmt.Errorf("%w: WithMaxDepth(%d): must be in 1..1024", ErrInvalidOption, n)
		}
		c.maxDepth = n
		return nil
	}
}

// WithAllocator sets the Arrow allocator for the returned arrays (default
// memory.DefaultAllocator). Buffers decoded from the file are Go slices
// wrapped without copying; the allocator serves the rest.
func WithAllocator(m memory.Allocator) Option {
	return func(c *config) error {
		if m == nil {
			return fmt.Errorf("%w: WithAllocator(nil)", ErrInvalidOption)
		}
		c.mem = m
		return nil
	}
}
