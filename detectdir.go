package colfmt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// DetectDir reports the format of the directory dir of fsys. Today the one
// directory format is a Lance table: a _versions folder holding at least
// one *.manifest file. The Info has Format LanceTable, TableVersion the
// latest version found in _versions (V1 names "N.manifest" and V2 names,
// 20 digits holding MaxUint64-N, are both read; detached "d*" commits are
// ignored) and Version the data storage version its manifest records.
//
// It returns ErrInvalidArgument for a nil fsys or an invalid path (see
// fs.ValidPath), ErrUnknownFormat for a directory of no known layout, and
// the manifest's error (wrapping ErrTruncated or ErrCorrupt) when the
// latest manifest is not a manifest.
func DetectDir(fsys fs.FS, dir string) (Info, error) {
	if fsys == nil {
		return Info{}, fmt.Errorf("%w: nil file system", ErrInvalidArgument)
	}
	if !fs.ValidPath(dir) {
		return Info{}, fmt.Errorf("%w: invalid path %q", ErrInvalidArgument, dir)
	}
	entries, err := fs.ReadDir(fsys, path.Join(dir, "_versions"))
	if errors.Is(err, fs.ErrNotExist) {
		return Info{}, fmt.Errorf("%w: %s is a directory without _versions/*.manifest", ErrUnknownFormat, dir)
	}
	if err != nil {
		return Info{}, err
	}
	latest, name := uint64(0), ""
	for _, e := range entries {
		v, ok := manifestVersion(e.Name())
		if ok && !e.IsDir() && (name == "" || v > latest) {
			latest, name = v, e.Name()
		}
	}
	if name == "" {
		return Info{}, fmt.Errorf("%w: %s/_versions holds no *.manifest file", ErrUnknownFormat, dir)
	}
	info := Info{Format: LanceTable, TableVersion: latest}
	f, err := fsys.Open(path.Join(dir, "_versions", name))
	if err != nil {
		return info, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return info, err
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		// fs.File need not be an io.ReaderAt; a manifest is small enough to
		// read whole for the few bytes Detect wants, but bound it.
		const maxManifest = 64 << 20
		if st.Size() > maxManifest {
			return info, fmt.Errorf("colfmt: %s: manifest of %d bytes from a file system without ReadAt", name, st.Size())
		}
		b, err := io.ReadAll(io.LimitReader(f, maxManifest))
		if err != nil {
			return info, err
		}
		ra = strings.NewReader(string(b))
	}
	m, err := Detect(ra, st.Size())
	if err != nil {
		return info, fmt.Errorf("%s: %w", path.Join(dir, "_versions", name), err)
	}
	if m.Format != LanceManifest {
		return info, fmt.Errorf("%w: %s is a %s, not a Lance manifest", ErrCorrupt, path.Join(dir, "_versions", name), m)
	}
	info.Version = m.Version
	return info, nil
}

// manifestVersion parses a manifest file name: "N.manifest" (V1 naming) or
// a 20-digit MaxUint64-N (V2 naming). Detached commits ("d<N>.manifest")
// and temporary files are not versions.
func manifestVersion(name string) (uint64, bool) {
	num, ok := strings.CutSuffix(name, ".manifest")
	if !ok || num == "" {
		return 0, false
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		return 0, false
	}
	if len(name) == 29 { // V2: 20 digits + ".manifest"
		return ^uint64(0) - n, true
	}
	return n, true
}
