package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/colfmt/colfmt"
)

// sniffLen is how many bytes of the head and the tail a format's own
// (legacy) Detect function is shown.
const sniffLen = 64

// commandFormat maps what colfmt.Detect found to the command's format
// names.
var commandFormat = map[colfmt.Format]string{
	colfmt.Lance:  "lance",
	colfmt.CSUP:   "csup",
	colfmt.AT1:    "at1",
	colfmt.OnPair: "onpair",
}

// detect returns the format name of in from its bytes (colfmt.Detect).
// For a stream (standard input kept as a pipe) it looks at the magic only.
func detect(in *input) (string, error) {
	if in.Stream != nil {
		return "at1", nil // openInput keeps a stream only for an AT-1 magic
	}
	info, err := colfmt.Detect(in.R, in.Size)
	switch {
	case errors.Is(err, colfmt.ErrTruncated):
		// A file known to be cut short is not decoded: the message says so
		// plainly (and no decoder is handed sizes that run past the end).
		msg := strings.TrimPrefix(err.Error(), colfmt.ErrTruncated.Error()+": ")
		return "", fmt.Errorf("%s: truncated %s: %s%w", in.Name, info, msg, silent{err})
	case errors.Is(err, colfmt.ErrUnknownFormat):
		if name, ok := legacyDetect(in); ok {
			return name, nil
		}
		return "", fmt.Errorf("%s: unrecognised format (not AT-1, Lance, Super Columnar or an OnPair column)", in.Name)
	case err != nil:
		return "", fmt.Errorf("%s: %w", in.Name, err)
	}
	switch info.Format {
	case colfmt.LanceManifest:
		return "", fmt.Errorf("%s: a %s: pass the table directory (the folder that holds _versions/) instead", in.Name, info)
	case colfmt.SuperBinary:
		return "", fmt.Errorf("%s: a %s: %w in this command (package csup/bsup reads it)", in.Name, info, errNotSupported)
	}
	if name, ok := commandFormat[info.Format]; ok {
		return name, nil
	}
	return "", fmt.Errorf("%s: %s: %w in this command", in.Name, info, errNotSupported)
}

// silent wraps an error without adding to the message, so errors.Is still
// finds colfmt.ErrTruncated in a message worded for people.
type silent struct{ err error }

func (s silent) Error() string { return "" }
func (s silent) Unwrap() error { return s.err }

// legacyDetect asks the formats' own Detect functions (see format.Detect)
// about a file colfmt.Detect does not know.
func legacyDetect(in *input) (string, bool) {
	head := make([]byte, min(int64(sniffLen), in.Size))
	if _, err := in.R.ReadAt(head, 0); err != nil && err != io.EOF {
		return "", false
	}
	tail := make([]byte, min(int64(sniffLen), in.Size))
	if _, err := in.R.ReadAt(tail, in.Size-int64(len(tail))); err != nil && err != io.EOF {
		return "", false
	}
	for _, name := range formatNames() {
		if f, ok := formats[name]; ok && f.Detect != nil && f.Detect(head, tail, in.Size) {
			return name, true
		}
	}
	return "", false
}
