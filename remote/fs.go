package remote

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
)

// FS opens the directory at rawURL as an fs.FS: file:// and plain paths
// through os.DirFS; http:// and https:// as an FS whose Open opens
// rawURL/<name> with Open (and the same options). HTTP has no listing, so
// ReadDir fails with ErrUnsupported; lance.OpenTable then finds the
// latest version through _versions/latest_version_hint.json, which is
// all a table scan needs.
func FS(ctx context.Context, rawURL string, opts ...Option) (fs.FS, error) {
	if _, err := newConfig(opts); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	scheme, rest := splitScheme(rawURL)
	switch scheme {
	case "http", "https":
		u, err := url.Parse(rawURL)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
		}
		u.Path = strings.TrimSuffix(u.Path, "/")
		u.RawPath = ""
		return &httpFS{ctx: ctx, base: u, opts: opts}, nil
	case "file", "":
		p := rest
		if scheme == "file" {
			u, err := url.Parse(rawURL)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
			}
			p = u.Path
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("%w: not a directory", ErrInvalidArgument)}
		}
		return os.DirFS(p), nil
	}
	return nil, fmt.Errorf("%w: scheme %q (read: http, https, file)", ErrUnsupported, scheme)
}

type httpFS struct {
	ctx  context.Context
	base *url.URL
	opts []Option
}

// Open opens name (an io/fs path) below the base URL as a *File.
func (h *httpFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w: HTTP has no directory listing", ErrUnsupported)}
	}
	u := *h.base
	u.Path += "/" + name
	f, err := Open(h.ctx, u.String(), h.opts...)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			pe.Path = name
			return nil, pe
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
}

// Stat learns name's size with a HEAD request (Open would read its tail).
func (h *httpFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	u := *h.base
	u.Path += "/" + name
	f, err := Open(h.ctx, u.String(), append(h.opts[:len(h.opts):len(h.opts)], WithTailCache(0))...)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			pe.Op, pe.Path = "stat", name
			return nil, pe
		}
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	defer f.Close()
	return f.Stat()
}

// ReadDir fails: HTTP has no listing.
func (h *httpFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return nil, &fs.PathError{Op: "readdir", Path: name, Err: fmt.Errorf("%w: HTTP has no directory listing", ErrUnsupported)}
}
