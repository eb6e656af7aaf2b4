package remote

import (
	"net/http"
	"time"

	"github.com/colfmt/colfmt/internal/opt"
)

// Defaults of the options.
const (
	// DefaultCoalesceGap: ReadRanges merges two ranges into one request
	// when at most this many unrequested bytes lie between them. At 20 ms
	// a round trip and 100 MB/s, 64 KiB costs under a millisecond, far
	// less than a request.
	DefaultCoalesceGap = 64 << 10
	// DefaultMaxInFlight is how many requests one File has open at once.
	DefaultMaxInFlight = 8
	// DefaultRetries is how many times a transient failure (5xx, 429, a
	// reset connection) is retried, with exponential backoff.
	DefaultRetries = 3
	// DefaultBackoff is the wait before the first retry; it doubles each
	// time (with jitter).
	DefaultBackoff = 100 * time.Millisecond
	// DefaultTailCache is how many bytes at the end of the object Open
	// reads and keeps: every format here reads its footer and metadata
	// from the end first, so this one request usually serves them all.
	DefaultTailCache = 64 << 10
	// MaxTailCache bounds WithTailCache.
	MaxTailCache = 64 << 20
	// DefaultMaxPrefetch bounds the bytes Prefetch keeps per File.
	DefaultMaxPrefetch = 256 << 20
	// DefaultMaxRequestSize bounds one request's body (a coalesced span).
	DefaultMaxRequestSize = 256 << 20
)

// Option configures Open and FS.
type Option func(*config) error

type config struct {
	client      *http.Client
	retries     int
	backoff     time.Duration
	maxInFlight int
	gap         int64
	tail        int64
	maxRequest  int64
	maxPrefetch int64
}

func defaultConfig() config {
	return config{
		client:      http.DefaultClient,
		retries:     DefaultRetries,
		backoff:     DefaultBackoff,
		maxInFlight: DefaultMaxInFlight,
		gap:         DefaultCoalesceGap,
		tail:        DefaultTailCache,
		maxRequest:  DefaultMaxRequestSize,
		maxPrefetch: DefaultMaxPrefetch,
	}
}

func newConfig(opts []Option) (config, error) {
	c := defaultConfig()
	err := opt.Apply(&c, opts)
	return c, err
}

// WithHTTPClient sets the client for http:// and https:// URLs (default
// http.DefaultClient). Credentials, proxies and TLS settings belong to it.
func WithHTTPClient(c *http.Client) Option {
	return func(cfg *config) error {
		if c == nil {
			return opt.Invalid(ErrInvalidOption, "WithHTTPClient", "nil", "needs a client")
		}
		cfg.client = c
		return nil
	}
}

// WithRetries sets how many times a transient failure is retried (0..20;
// default DefaultRetries).
func WithRetries(n int) Option {
	return func(cfg *config) error {
		if n < 0 || n > 20 {
			return opt.Invalid(ErrInvalidOption, "WithRetries", n, "must be in 0..20")
		}
		cfg.retries = n
		return nil
	}
}

// WithBackoff sets the wait before the first retry (0..1 min; default
// DefaultBackoff); each later retry waits twice as long, with jitter.
func WithBackoff(d time.Duration) Option {
	return func(cfg *config) error {
		if d < 0 || d > time.Minute {
			return opt.Invalid(ErrInvalidOption, "WithBackoff", d, "must be in 0..1m")
		}
		cfg.backoff = d
		return nil
	}
}

// WithMaxInFlight bounds the concurrent requests of one File (1..256;
// default DefaultMaxInFlight).
func WithMaxInFlight(n int) Option {
	return func(cfg *config) error {
		if n < 1 || n > 256 {
			return opt.Invalid(ErrInvalidOption, "WithMaxInFlight", n, "must be in 1..256")
		}
		cfg.maxInFlight = n
		return nil
	}
}

// WithCoalesceGap sets the largest gap, in bytes, ReadRanges reads through
// to merge two ranges into one request (0..64 MiB; default
// DefaultCoalesceGap). 0 merges only adjacent or overlapping ranges.
func WithCoalesceGap(n int64) Option {
	return func(cfg *config) error {
		if n < 0 || n > 64<<20 {
			return opt.Invalid(ErrInvalidOption, "WithCoalesceGap", n, "must be in 0..%d", 64<<20)
		}
		cfg.gap = n
		return nil
	}
}

// WithTailCache sets how many bytes at the end of the object Open reads
// and keeps for later reads (0..MaxTailCache; default DefaultTailCache).
// 0 reads only the size at open (a HEAD request over HTTP).
func WithTailCache(n int64) Option {
	return func(cfg *config) error {
		if n < 0 || n > MaxTailCache {
			return opt.Invalid(ErrInvalidOption, "WithTailCache", n, "must be in 0..%d", MaxTailCache)
		}
		cfg.tail = n
		return nil
	}
}

// WithMaxRequestSize bounds the bytes one request may ask for (a read or
// a coalesced span; 1 KiB..4 GiB; default DefaultMaxRequestSize). Larger
// coalesced spans are split; a larger single ReadAt is split too.
func WithMaxRequestSize(n int64) Option {
	return func(cfg *config) error {
		if n < 1<<10 || n > 4<<30 {
			return opt.Invalid(ErrInvalidOption, "WithMaxRequestSize", n, "must be in %d..%d", 1<<10, int64(4<<30))
		}
		cfg.maxRequest = n
		return nil
	}
}

// WithMaxPrefetch bounds the bytes Prefetch keeps per File (0..64 GiB;
// default DefaultMaxPrefetch). 0 disables Prefetch.
func WithMaxPrefetch(n int64) Option {
	return func(cfg *config) error {
		if n < 0 || n > 64<<30 {
			return opt.Invalid(ErrInvalidOption, "WithMaxPrefetch", n, "must be in 0..%d", int64(64<<30))
		}
		cfg.maxPrefetch = n
		return nil
	}
}
