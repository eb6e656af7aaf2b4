package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/colfmt/colfmt/remote"
	"gocloud.dev/blob"
)

var errNotExist = fs.ErrNotExist

// FS returns the objects of bucket b below prefix as an io/fs.FS: Open
// opens an object as a *remote.File, ReadDir lists one level with the
// "/" delimiter (so lance.OpenTable lists _versions/). ctx bounds every
// call; b stays the caller's.
func FS(ctx context.Context, b *blob.Bucket, prefix string, opts ...remote.Option) fs.FS {
	prefix = strings.Trim(prefix, "/")
	return &bucketFS{ctx: ctx, b: b, prefix: prefix, opts: opts}
}

type bucketFS struct {
	ctx    context.Context
	b      *blob.Bucket
	prefix string
	opts   []remote.Option
}

func (f *bucketFS) key(name string) string {
	if name == "." {
		return f.prefix
	}
	if f.prefix == "" {
		return name
	}
	return f.prefix + "/" + name
}

func (f *bucketFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	file, err := Open(f.ctx, f.b, f.key(name), f.opts...)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// A "directory" is a prefix with objects below it.
			if ents, derr := f.ReadDir(name); derr == nil && len(ents) > 0 {
				return &dirFile{name: name}, nil
			}
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return file, nil
}

func (f *bucketFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	p := f.key(name)
	if p != "" {
		p += "/"
	}
	it := f.b.List(&blob.ListOptions{Prefix: p, Delimiter: "/"})
	var out []fs.DirEntry
	for {
		o, err := it.Next(f.ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: mapErr(p, err)}
		}
		out = append(out, entry{name: path.Base(strings.TrimSuffix(o.Key, "/")), dir: o.IsDir, size: o.Size, mod: o.ModTime})
	}
	if len(out) == 0 {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return out, nil
}

type entry struct {
	name string
	dir  bool
	size int64
	mod  time.Time
}

func (e entry) Name() string { return e.name }
func (e entry) IsDir() bool  { return e.dir }
func (e entry) Type() fs.FileMode {
	if e.dir {
		return fs.ModeDir
	}
	return 0
}
func (e entry) Info() (fs.FileInfo, error) { return e, nil }
func (e entry) Size() int64                { return e.size }
func (e entry) Mode() fs.FileMode          { return e.Type() | 0o444 }
func (e entry) ModTime() time.Time         { return e.mod }
func (e entry) Sys() any                   { return nil }

type dirFile struct{ name string }

func (d *dirFile) Stat() (fs.FileInfo, error) { return entry{name: path.Base(d.name), dir: true}, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}
func (d *dirFile) Close() error { return nil }

// FSURL opens the bucket rawURL names (scheme://bucket/prefix?query, the
// query configuring the bucket as for OpenURL) and returns the objects
// below prefix as an io/fs.FS (see FS), and the function that closes the
// bucket. The prefix may be empty (the bucket's root).
func FSURL(ctx context.Context, rawURL string, opts ...remote.Option) (fs.FS, func() error, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", remote.ErrInvalidArgument, err)
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, nil, fmt.Errorf("%w: %q is not scheme://bucket/prefix", remote.ErrInvalidArgument, rawURL)
	}
	prefix := strings.Trim(u.Path, "/")
	u.Path, u.RawPath = "", ""
	b, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		return nil, nil, fmt.Errorf("objstore: %w", err)
	}
	return FS(ctx, b, prefix, opts...), b.Close, nil
}
