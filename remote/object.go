package remote

import (
	"context"
	"fmt"
	"time"
)

// Object is a store's object of known size whose byte ranges can be
// fetched: the hook through which other stores (package remote/objstore:
// s3, gs, azblob through gocloud.dev/blob) become a *File with the same
// tail cache, coalescing, concurrency bound, retries and Stats.
type Object interface {
	// Size is the object's size, learnt when it was opened.
	Size() int64
	// ModTime is its modification time (zero if unknown).
	ModTime() time.Time
	// ReadRange fills p with the bytes at off (within the size). An error
	// for a different version of the object than the one opened wraps
	// ErrChanged; one worth retrying has a Temporary() bool method that
	// says true (or is a net error, a reset connection, a short body).
	ReadRange(ctx context.Context, p []byte, off int64) error
	Close() error
}

// OpenObject opens obj as a *File named name, reading its tail cache.
// ctx bounds every later ReadAt and Read, as for Open.
func OpenObject(ctx context.Context, name string, obj Object, opts ...Option) (*File, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if obj == nil || obj.Size() < 0 {
		return nil, fmt.Errorf("%w: OpenObject: nil object or negative size", ErrInvalidArgument)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	f := &File{name: name, cfg: cfg, ctx: ctx, sem: make(chan struct{}, cfg.maxInFlight),
		src: objectSource{obj}, size: obj.Size(), modTime: obj.ModTime()}
	f.rounds.Add(1)
	if n := min(cfg.tail, f.size); n > 0 {
		tail := make([]byte, n)
		if err := f.src.fetch(ctx, f, tail, f.size-n); err != nil {
			obj.Close()
			return nil, err
		}
		f.tail, f.tailOff = tail, f.size-n
	}
	return f, nil
}

type objectSource struct{ obj Object }

func (s objectSource) fetch(ctx context.Context, f *File, p []byte, off int64) error {
	return f.retry(ctx, func() error {
		start := time.Now()
		f.requests.Add(1)
		err := s.obj.ReadRange(ctx, p, off)
		f.wallNanos.Add(int64(time.Since(start)))
		if err == nil {
			f.bytes.Add(int64(len(p)))
		}
		return err
	})
}

func (s objectSource) close() error { return s.obj.Close() }
