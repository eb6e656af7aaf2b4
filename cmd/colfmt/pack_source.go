package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// packFunc encodes a pack command's input to w.
type packFunc func(w io.Writer, in *packSource) error

// packSource is pack's input: a file or standard input, read once from
// its start. Formats that encode a whole input in memory call bytes;
// AT-1 streams an input larger than one chunk (see at1Pack).
type packSource struct {
	name string    // as given: a path or "-"
	r    io.Reader // the input from its start
	size int64     // -1 when unknown: standard input, a pipe
	f    *os.File
}

func openPackSource(path string, stdin io.Reader) (*packSource, error) {
	if path == "-" {
		return &packSource{name: path, r: bufio.NewReaderSize(stdin, 64<<10), size: -1}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	size := st.Size()
	if !st.Mode().IsRegular() {
		size = -1 // a named pipe or device: its size says nothing
	}
	return &packSource{name: path, r: f, size: size, f: f}, nil
}

func (s *packSource) close() {
	if s.f != nil {
		s.f.Close()
	}
}

// bytes reads the whole input. An input of unknown size (standard
// input, a pipe) is refused beyond maxStdin bytes.
func (s *packSource) bytes() ([]byte, error) {
	if s.size < 0 {
		return readBounded(s.r, displayName(s.name), "this format is encoded whole")
	}
	var b bytes.Buffer
	b.Grow(int(s.size) + bytes.MinRead)
	_, err := b.ReadFrom(s.r)
	return b.Bytes(), err
}

// packWhole adapts an encoder of a whole input held in memory.
func packWhole(f func(w io.Writer, data []byte) error) packFunc {
	return func(w io.Writer, in *packSource) error {
		data, err := in.bytes()
		if err != nil {
			return err
		}
		return f(w, data)
	}
}
