package lance

import "github.com/colfmt/colfmt/internal/opt"

// DefaultMaxRowsPerFile is the most rows CreateTable and Append put in one
// data file (one fragment): 1,048,576, lance's max_rows_per_file.
const DefaultMaxRowsPerFile = 1 << 20

// tableConfig holds what only the table functions read.
type tableConfig struct {
	version    uint64 // OpenTable: 0 latest
	hasVersion bool

	maxRowsPerFile int64 // CreateTable, Append: 0 means DefaultMaxRowsPerFile
	stableRowIDs   bool  // CreateTable
}

func (c tableConfig) rowsPerFile() int64 {
	if c.maxRowsPerFile == 0 {
		return DefaultMaxRowsPerFile
	}
	return c.maxRowsPerFile
}

// WithVersion makes OpenTable open version n of the table (time travel)
// instead of the latest. A version that cleanup removed, or that never
// existed, fails with fs.ErrNotExist wrapped in the error. Data files
// ignore it.
func WithVersion(n uint64) Option {
	return func(c *config) error {
		if n == 0 || n >= detachedVersionBit {
			return opt.Invalid(ErrInvalidOption, "WithVersion", n, "must be in 1..%d", detachedVersionBit-1)
		}
		c.table.version, c.table.hasVersion = n, true
		return nil
	}
}

// WithMaxRowsPerFile sets the most rows CreateTable and Append write into
// one data file, a fragment of its own (default DefaultMaxRowsPerFile; at
// most 2^32-1, lance's limit for a fragment). Readers ignore it.
func WithMaxRowsPerFile(n int64) Option {
	return func(c *config) error {
		if n < 1 || n > 1<<32-1 {
			return opt.Invalid(ErrInvalidOption, "WithMaxRowsPerFile", n, "must be in 1..%d", int64(1<<32-1))
		}
		c.table.maxRowsPerFile = n
		return nil
	}
}

// WithStableRowIDs makes CreateTable write a table with stable row ids, as
// LanceDB's enableStableRowIds (storage option
// new_table_enable_stable_row_ids) does: feature flag 2 for readers and
// writers, and each fragment the row ids it holds and version sequences
// saying its rows were created and last updated at version 1, so row ids
// survive compaction and updates. Append keeps a table's setting (the
// option is ignored there); OpenTable and data files ignore it.
func WithStableRowIDs(on bool) Option {
	return func(c *config) error {
		c.table.stableRowIDs = on
		return nil
	}
}

// detachedVersionBit marks detached versions (lance's
// DETACHED_VERSION_MASK), which have their own d<N>.manifest names.
const detachedVersionBit = uint64(1) << 63
