// Package objstore reads objects of s3://, gs://, azblob:// (and any other
// gocloud.dev/blob store) as a *remote.File: an io.ReaderAt with the tail
// cache, range coalescing, concurrency bound, retries and Stats of package
// remote. It is a separate package so that programs that read only HTTP
// and local files do not link gocloud.dev.
//
// The store drivers are not linked here: import the ones you need, as
// gocloud.dev/blob documents (credentials then come from the environment,
// as the cloud SDKs read them; nothing is logged):
//
//	import _ "gocloud.dev/blob/s3blob"
//	import _ "gocloud.dev/blob/gcsblob"
//	import _ "gocloud.dev/blob/azureblob"
//
// Entry points: OpenURL ("s3://bucket/key?region=..."), Open (an open
// *blob.Bucket and a key), FS (a bucket prefix as an io/fs.FS with
// listing, for lance.OpenTable).
//
// # Consistency
//
// gocloud's range reader exposes no ETag, so the object is checked by its
// size and modification time: every range read must report the size and
// time Attributes gave at open, or it fails with remote.ErrChanged. A
// rewrite of an object to the same size within the store's time
// resolution is not detected.
//
// # Security
//
// Buffers are sized from the caller's ranges and the tail cache bound;
// a range reader that returns fewer or more bytes than asked fails with
// remote.ErrCorrupt.
package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/colfmt/colfmt/remote"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// OpenURL opens the object rawURL names: scheme://bucket/key?query, where
// the query configures the bucket as gocloud.dev/blob documents for the
// scheme. Closing the File closes the bucket.
func OpenURL(ctx context.Context, rawURL string, opts ...remote.Option) (*remote.File, error) {
	bucketURL, key, err := split(rawURL)
	if err != nil {
		return nil, err
	}
	b, err := blob.OpenBucket(ctx, bucketURL)
	if err != nil {
		return nil, fmt.Errorf("objstore: %w", err)
	}
	f, err := open(ctx, b, key, true, opts)
	if err != nil {
		b.Close()
		return nil, err
	}
	return f, nil
}

// split turns scheme://bucket/key?q into scheme://bucket?q and key.
func split(rawURL string) (string, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", remote.ErrInvalidArgument, err)
	}
	key := strings.TrimPrefix(u.Path, "/")
	if u.Scheme == "" || u.Host == "" || key == "" {
		return "", "", fmt.Errorf("%w: %q is not scheme://bucket/key", remote.ErrInvalidArgument, rawURL)
	}
	u.Path, u.RawPath = "", ""
	return u.String(), key, nil
}

// Open opens the object key of bucket b, which stays the caller's.
func Open(ctx context.Context, b *blob.Bucket, key string, opts ...remote.Option) (*remote.File, error) {
	return open(ctx, b, key, false, opts)
}

func open(ctx context.Context, b *blob.Bucket, key string, ownBucket bool, opts []remote.Option) (*remote.File, error) {
	attrs, err := b.Attributes(ctx, key)
	if err != nil {
		return nil, mapErr(key, err)
	}
	obj := &object{b: b, key: key, size: attrs.Size, mod: attrs.ModTime, ownBucket: ownBucket}
	return remote.OpenObject(ctx, key, obj, opts...)
}

type object struct {
	b         *blob.Bucket
	key       string
	size      int64
	mod       time.Time
	ownBucket bool
}

func (o *object) Size() int64        { return o.size }
func (o *object) ModTime() time.Time { return o.mod }

func (o *object) Close() error {
	if o.ownBucket {
		return o.b.Close()
	}
	return nil
}

func (o *object) ReadRange(ctx context.Context, p []byte, off int64) error {
	r, err := o.b.NewRangeReader(ctx, o.key, off, int64(len(p)), nil)
	if err != nil {
		return mapErr(o.key, err)
	}
	defer r.Close()
	if r.Size() != o.size || !r.ModTime().Equal(o.mod) {
		return fmt.Errorf("objstore: %s: %w: size %d modified %v, were %d %v at open", o.key, remote.ErrChanged, r.Size(), r.ModTime(), o.size, o.mod)
	}
	n, err := io.ReadFull(r, p)
	if err != nil {
		return fmt.Errorf("objstore: %s: short read (%d of %d bytes at %d): %w", o.key, n, len(p), off, err)
	}
	return nil
}

// mapErr maps gocloud error codes onto io/fs and remote errors, marking
// the transient ones.
func mapErr(key string, err error) error {
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return fmt.Errorf("objstore: %s: %w", key, errors.Join(errNotExist, err))
	case gcerrors.FailedPrecondition:
		return fmt.Errorf("objstore: %s: %w: %w", key, remote.ErrChanged, err)
	case gcerrors.Internal, gcerrors.ResourceExhausted, gcerrors.DeadlineExceeded, gcerrors.Unknown:
		return temporary{fmt.Errorf("objstore: %s: %w", key, err)}
	}
	return fmt.Errorf("objstore: %s: %w", key, err)
}

type temporary struct{ error }

func (t temporary) Temporary() bool { return true }
func (t temporary) Unwrap() error   { return t.error }
