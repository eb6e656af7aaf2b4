package lance

import "github.com/colfmt/colfmt/internal/opt"

// DefaultPageBytes is the page size NewWriter aims at: a column's page is
// cut once about this many bytes of its uncompressed values and levels are
// buffered (lance 12 cuts 2.1+ pages at 8 MiB of Arrow memory per column).
// A writer buffers at most about one page per column.
const DefaultPageBytes = 8 << 20

// writeConfig holds what only NewWriter reads.
type writeConfig struct {
	major, minor uint16 // footer version: (0, 3) for 2.0, (2, 1), (2, 2)
	pageBytes    int64
	compression  string // "", "lz4", "zstd"
}

func defaultWriteConfig() writeConfig {
	return writeConfig{major: 2, minor: 2, pageBytes: DefaultPageBytes}
}

// WithFormatVersion sets the file format NewWriter writes: "2.0", "2.1" or
// "2.2" (default "2.2", what LanceDB 0.39 writes). Readers ignore it.
func WithFormatVersion(v string) Option {
	return func(c *config) error {
		switch v {
		case "2.0":
			c.write.major, c.write.minor = 0, 3
		case "2.1":
			c.write.major, c.write.minor = 2, 1
		case "2.2":
			c.write.major, c.write.minor = 2, 2
		default:
			return opt.Invalid(ErrInvalidOption, "WithFormatVersion", v, "must be 2.0, 2.1 or 2.2")
		}
		return nil
	}
}

// WithPageBytes sets the uncompressed bytes a column buffers before the
// writer cuts a page (default DefaultPageBytes). Pages end on row
// boundaries, so a single row larger than n makes a page of its own.
// Readers ignore it.
func WithPageBytes(n int64) Option {
	return func(c *config) error {
		if n < 1<<10 || n > 1<<30 {
			return opt.Invalid(ErrInvalidOption, "WithPageBytes", n, "must be in 1024..%d", 1<<30)
		}
		c.write.pageBytes = n
		return nil
	}
}

// WithCompression sets general compression of the values NewWriter
// writes in 2.1/2.2 files: "" (none, the default: lance's own light
// encodings only), "lz4" or "zstd". A column keeps the compressed form only
// where it is smaller. In 2.0 files it compresses string and binary bytes.
// Readers ignore it.
func WithCompression(c string) Option {
	return func(cfg *config) error {
		switch c {
		case "", "lz4", "zstd":
			cfg.write.compression = c
		default:
			return opt.Invalid(ErrInvalidOption, "WithCompression", c, `must be "", "lz4" or "zstd"`)
		}
		return nil
	}
}
