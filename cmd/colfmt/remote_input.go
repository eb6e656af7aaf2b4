package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/colfmt/colfmt"
	"github.com/colfmt/colfmt/lance"
	"github.com/colfmt/colfmt/remote"
	"github.com/colfmt/colfmt/remote/lancefetch"
)

// Remote inputs: every command that takes a FILE or a table directory
// also takes an http://, https:// or file:// URL (package remote), and
// s3:// (package remote/objstore, linked by remote_objstore.go when the
// command is built with -tags colfmt_objstore). Files are read in byte
// ranges, as local ones are; a table directory over HTTP, which cannot be
// listed, is found through _versions/latest_version_hint.json.

// objstoreOpen and objstoreFS open an object and a bucket prefix of a
// store scheme (s3://...); nil when package objstore is not linked.
var (
	objstoreSchemes []string
	objstoreOpen    func(ctx context.Context, rawURL string) (*remote.File, error)
	objstoreFS      func(ctx context.Context, rawURL string) (fs.FS, func() error, error)
)

// urlScheme returns the lower-cased scheme of a URL the command reads
// remotely, or "" for a local path (or "-").
func urlScheme(p string) string {
	i := strings.Index(p, "://")
	if i <= 1 {
		return ""
	}
	s := strings.ToLower(p[:i])
	switch s {
	case "http", "https", "file", "s3", "gs", "azblob":
		return s
	}
	return ""
}

// isStoreScheme reports whether scheme is an object store's (s3, gs,
// azblob), read through package remote/objstore.
func isStoreScheme(scheme string) bool {
	return scheme == "s3" || scheme == "gs" || scheme == "azblob"
}

// fileURLPath returns the local path of a file:// URL.
func fileURLPath(p string) (string, error) {
	u, err := url.Parse(p)
	if err != nil {
		return "", err
	}
	return u.Path, nil
}

// openRemoteInput opens an http://, https://, file:// or object store URL
// as a file: the formats then read it in byte ranges, as they read a
// file. ok is false when path is not such a URL.
func openRemoteInput(p string) (in *input, closeFn func(), ok bool, err error) {
	scheme := urlScheme(p)
	if scheme == "" {
		return nil, nil, false, nil
	}
	f, err := openRemoteFile(p, scheme)
	if err != nil {
		return nil, nil, true, err
	}
	return &input{Name: p, R: f, Size: f.Size()}, func() { f.Close() }, true, nil
}

func openRemoteFile(p, scheme string) (*remote.File, error) {
	ctx := context.Background()
	if !isStoreScheme(scheme) {
		return remote.Open(ctx, p)
	}
	if objstoreOpen == nil || !storeLinked(scheme) {
		return nil, errNoStore(scheme)
	}
	return objstoreOpen(ctx, p)
}

func storeLinked(scheme string) bool {
	for _, s := range objstoreSchemes {
		if s == scheme {
			return true
		}
	}
	return false
}

func errNoStore(scheme string) error {
	if len(objstoreSchemes) == 0 {
		return fmt.Errorf("%s:// is %w in this build of colfmt (build it with -tags colfmt_objstore to read s3://, gs:// and azblob://)", scheme, errNotSupported)
	}
	return fmt.Errorf("%s:// is %w in this build of colfmt (object stores linked: %s)", scheme, errNotSupported, strings.Join(objstoreSchemes, ", "))
}

// openTarget opens the path a file command was given as a table directory
// (dir set) or as a file (in set, for a URL; for a local file both are nil
// and the caller opens it). wantDir is set by --version, which only a table
// takes. A URL is tried as a file first; one that does not exist, or
// whose bytes are of no format while the URL holds a table (an HTTP
// server's directory listing), is read as the table directory.
func openTarget(p string, wantDir bool) (dir *dirInput, in *input, closeFn func(), err error) {
	scheme := urlScheme(p)
	if scheme == "file" {
		lp, err := fileURLPath(p)
		if err != nil {
			return nil, nil, nil, err
		}
		if st, serr := os.Stat(lp); serr == nil && st.IsDir() {
			return &dirInput{Path: p, FS: os.DirFS(lp)}, nil, func() {}, nil
		}
	}
	if scheme == "" || scheme == "file" {
		if scheme == "" {
			if st, serr := os.Stat(p); serr == nil && st.IsDir() {
				return &dirInput{Path: p, FS: os.DirFS(p)}, nil, func() {}, nil
			}
		}
		return nil, nil, nil, nil
	}
	if wantDir || strings.HasSuffix(p, "/") {
		d, closeDir, err := openRemoteDir(p, scheme)
		return d, nil, closeDir, err
	}
	f, ferr := openRemoteFile(p, scheme)
	if ferr == nil {
		in := &input{Name: p, R: f, Size: f.Size()}
		// Detection here and again in runFile reads the head: keep it.
		f.Prefetch(context.Background(), []remote.Extent{{Off: 0, Len: min(f.Size(), 4<<10)}})
		_, derr := colfmt.Detect(f, f.Size())
		if !errors.Is(derr, colfmt.ErrUnknownFormat) {
			return nil, in, func() { f.Close() }, nil
		}
		// Bytes of no format: a table's URL answered with a listing page?
		if scheme == "http" || scheme == "https" {
			if d, closeDir, err := openRemoteDir(p, scheme); err == nil {
				if _, err := fs.Stat(d.FS, "_versions/latest_version_hint.json"); err == nil {
					f.Close()
					return d, nil, closeDir, nil
				}
				closeDir()
			}
		}
		return nil, in, func() { f.Close() }, nil
	}
	if !errors.Is(ferr, fs.ErrNotExist) && !errors.Is(ferr, fs.ErrPermission) {
		return nil, nil, nil, ferr
	}
	// No such object: a table directory (a prefix) of that name?
	d, closeDir, err := openRemoteDir(p, scheme)
	if err != nil {
		return nil, nil, nil, ferr
	}
	if _, err := fs.ReadDir(d.FS, "_versions"); err == nil {
		return d, nil, closeDir, nil
	}
	if _, err := fs.Stat(d.FS, "_versions/latest_version_hint.json"); err == nil {
		return d, nil, closeDir, nil
	}
	closeDir()
	return nil, nil, nil, ferr
}

// openRemoteDir opens the directory URL p as a dirInput.
func openRemoteDir(p, scheme string) (*dirInput, func(), error) {
	ctx := context.Background()
	if isStoreScheme(scheme) {
		if objstoreFS == nil || !storeLinked(scheme) {
			return nil, nil, errNoStore(scheme)
		}
		fsys, closeFS, err := objstoreFS(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		return &dirInput{Path: p, FS: fsys}, func() { closeFS() }, nil
	}
	fsys, err := remote.FS(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	return &dirInput{Path: p, FS: fsys}, func() {}, nil
}

// detectDir is colfmt.DetectDir, and for a store that cannot list
// directories (HTTP) the same answer found through
// _versions/latest_version_hint.json: the manifest of the version it
// names (V2 name first, as lance.OpenTable looks for it).
func detectDir(fsys fs.FS) (colfmt.Info, error) {
	info, err := colfmt.DetectDir(fsys, ".")
	if err == nil || !errors.Is(err, remote.ErrUnsupported) {
		return info, err
	}
	hint, herr := fs.ReadFile(fsys, "_versions/latest_version_hint.json")
	if errors.Is(herr, fs.ErrNotExist) {
		return info, err // no listing and no hint: say so
	}
	if herr != nil {
		return info, herr
	}
	n, ok := hintVersion(hint)
	if !ok {
		return info, fmt.Errorf("_versions/latest_version_hint.json: %w: no version in %.64q", colfmt.ErrCorrupt, hint)
	}
	info = colfmt.Info{Format: colfmt.LanceTable, TableVersion: n}
	var f fs.File
	for _, name := range []string{fmt.Sprintf("%020d.manifest", ^uint64(0)-n), strconv.FormatUint(n, 10) + ".manifest"} {
		if f, err = fsys.Open(path.Join("_versions", name)); err == nil {
			break
		}
	}
	if err != nil {
		return info, fmt.Errorf("version hint %d names no manifest: %w", n, err)
	}
	defer f.Close()
	ra, ok := f.(io.ReaderAt)
	st, serr := f.Stat()
	if !ok || serr != nil {
		return info, fmt.Errorf("_versions: manifest of version %d cannot be read in ranges", n)
	}
	m, err := colfmt.Detect(ra, st.Size())
	if err != nil {
		return info, err
	}
	if m.Format != colfmt.LanceManifest {
		return info, fmt.Errorf("%w: the manifest of version %d is a %s", colfmt.ErrCorrupt, n, m)
	}
	info.Version = m.Version
	return info, nil
}

// hintVersion reads {"version":N} (N >= 1).
func hintVersion(b []byte) (uint64, bool) {
	var h struct {
		Version uint64 `json:"version"`
	}
	err := json.Unmarshal(b, &h)
	return h.Version, err == nil && h.Version > 0
}

// remotePrefetch switches prefetchRemote on (tests compare without it).
var remotePrefetch = true

// prefetchRemote plans what cat and validate of a remote Lance file or
// table will read and fetches it in one wave (package lancefetch): the
// selected columns' pages (all of them without --columns) instead of
// one round trip per page. inspect reads no pages and is left alone;
// local files are not touched.
func prefetchRemote(cmd string, d *dirInput, in *input, columns []string) {
	if cmd == "inspect" || !remotePrefetch {
		return
	}
	if d != nil {
		if s := urlScheme(d.Path); s != "" && s != "file" {
			d.FS = lancefetch.NewFS(context.Background(), d.FS, columns) // openLanceTable calls its PrefetchTable
		}
		return
	}
	rf, ok := in.R.(*remote.File)
	if !ok || urlScheme(in.Name) == "file" {
		return
	}
	if lf, err := lance.Open(rf, rf.Size()); err == nil {
		lancefetch.Prefetch(context.Background(), rf, lf, columns) // best effort: the read fetches what is missing
	}
}
