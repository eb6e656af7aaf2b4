package lance

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFS is what writing a table needs from a store, on top of reading it
// as an fs.FS. Names are io/fs paths (slash-separated, relative to the
// store's root). DirFS implements it over an OS directory; an object store
// can implement it with put-if-absent for RenameNoReplace.
type WriteFS interface {
	fs.FS
	// MkdirAll creates directory name and any missing parents.
	MkdirAll(name string) error
	// Create creates file name for writing; it fails with an error
	// wrapping fs.ErrExist if the file exists. Closing the writer makes the
	// bytes durable (DirFS syncs the file).
	Create(name string) (io.WriteCloser, error)
	// RenameNoReplace renames oldname to newname unless newname exists, in
	// which case it fails with an error wrapping fs.ErrExist and leaves
	// both files as they were. It must be atomic: two callers racing for
	// newname cannot both succeed. Table commits rely on it.
	RenameNoReplace(oldname, newname string) error
	// Rename renames oldname to newname, replacing newname (used only for
	// latest_version_hint.json).
	Rename(oldname, newname string) error
	// Remove removes file name.
	Remove(name string) error
}

// DirFS returns a WriteFS for the OS directory dir: reads go through
// os.DirFS, RenameNoReplace is a hard link plus removal of the old name
// (link fails when the new name exists, atomically, on every POSIX file
// system and NTFS), Create opens with O_EXCL and Close syncs the file.
// A file system without hard links (FAT, some FUSE mounts) cannot commit:
// the commit fails with the link error and leaves no manifest.
func DirFS(dir string) WriteFS { return dirFS{dir: dir, FS: os.DirFS(dir)} }

type dirFS struct {
	fs.FS
	dir string
}

func (d dirFS) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

func (d dirFS) MkdirAll(name string) error {
	p, err := d.path("mkdir", name)
	if err != nil {
		return err
	}
	return os.MkdirAll(p, 0o777)
}

func (d dirFS) Create(name string) (io.WriteCloser, error) {
	p, err := d.path("create", name)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, err
	}
	return syncFile{f}, nil
}

// syncFile syncs on Close, so a committed manifest never names a data file
// whose bytes a crash could lose.
type syncFile struct{ *os.File }

func (f syncFile) Close() error {
	serr := f.File.Sync()
	if err := f.File.Close(); err != nil {
		return err
	}
	return serr
}

func (d dirFS) RenameNoReplace(oldname, newname string) error {
	op, err := d.path("rename", oldname)
	if err != nil {
		return err
	}
	np, err := d.path("rename", newname)
	if err != nil {
		return err
	}
	if err := os.Link(op, np); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) && (errors.Is(le.Err, fs.ErrExist)) {
			return fmt.Errorf("lance: %s: %w", newname, fs.ErrExist)
		}
		return err
	}
	// The new name holds the bytes; the old name is only a leftover.
	_ = os.Remove(op)
	return nil
}

func (d dirFS) Rename(oldname, newname string) error {
	op, err := d.path("rename", oldname)
	if err != nil {
		return err
	}
	np, err := d.path("rename", newname)
	if err != nil {
		return err
	}
	return os.Rename(op, np)
}

func (d dirFS) Remove(name string) error {
	p, err := d.path("remove", name)
	if err != nil {
		return err
	}
	return os.Remove(p)
}
