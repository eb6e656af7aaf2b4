package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// stdinName is how messages name standard input.
const stdinName = "<stdin>"

// maxStdin bounds how much of standard input (or of a named pipe given to
// pack) the command holds in memory (readBounded). AT-1 cat, validate and
// pack stream from a pipe and are not bound by it; every other use of "-"
// (Lance, Super Columnar and inspect need random access, the other
// formats are encoded or parsed whole) reads the stream into memory first,
// and a larger one is refused with a message saying to use a file.
var maxStdin int64 = 1 << 30

// openInput opens path ("-" is standard input). For "-", streamOK says the
// caller can read AT-1 from a stream: the input then keeps the pipe in
// Stream (R is nil) when it starts with an AT-1 magic.
func openInput(path string, stdin io.Reader, streamOK bool) (in *input, closeFn func(), err error) {
	if in, closeFn, ok, err := openRemoteInput(path); ok {
		return in, closeFn, err
	}
	if path != "-" {
		fh, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		st, err := fh.Stat()
		if err != nil {
			fh.Close()
			return nil, nil, err
		}
		return &input{Name: path, R: fh, Size: st.Size()}, func() { fh.Close() }, nil
	}
	br := bufio.NewReaderSize(stdin, 64<<10)
	if streamOK {
		head, _ := br.Peek(5)
		if len(head) == 5 && string(head[:3]) == "AT1" && (head[3] == 2 || head[3] == 3) {
			return &input{Name: stdinName, Stream: br, Size: -1}, func() {}, nil
		}
	}
	b, err := readBounded(br, stdinName, "this format needs random access")
	if err != nil {
		return nil, nil, err
	}
	return &input{Name: stdinName, R: bytes.NewReader(b), Size: int64(len(b))}, func() {}, nil
}

// readBounded reads a stream of unknown size (standard input, a named
// pipe) into memory, up to maxStdin bytes. name names the stream in
// errors; why says, when a larger stream is refused, why it is held in
// memory.
func readBounded(r io.Reader, name, why string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxStdin+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(b)) > maxStdin {
		return nil, fmt.Errorf("%s: more than %d bytes: %s, so a stream is read into memory up to that size; write it to a file and pass the file", name, maxStdin, why)
	}
	return b, nil
}

// reader returns the input as a stream, from its start.
func (in *input) reader() io.Reader {
	if in.Stream != nil {
		return in.Stream
	}
	return io.NewSectionReader(in.R, 0, in.Size)
}

// errNeedsFile is returned by operations that need random access when the
// input is a stream.
var errNeedsFile = errors.New("needs random access: pass a file, not a pipe")
