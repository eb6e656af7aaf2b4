package lance

import "github.com/colfmt/colfmt/internal/opt"

// tableConfig holds what only OpenTable reads.
type tableConfig struct {
	version    uint64 // 0: latest
	hasVersion bool
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

// detachedVersionBit marks detached versions (lance's
// DETACHED_VERSION_MASK), which have their own d<N>.manifest names.
const detachedVersionBit = uint64(1) << 63
