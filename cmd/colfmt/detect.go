package main

import (
	"bytes"
	"fmt"
	"io"
)

// sniffLen is how many bytes of the head and the tail detection looks at.
const sniffLen = 64

// builtinDetect recognises formats by their magic numbers even before the
// package that reads them has landed, so the command can say which format
// a file is and that it is not supported yet. A registered format's own
// Detect takes precedence.
var builtinDetect = map[string]func(head, tail []byte, size int64) bool{
	"at1": func(head, _ []byte, _ int64) bool {
		return len(head) >= 5 && bytes.Equal(head[:3], []byte("AT1")) && (head[3] == 2 || head[3] == 3)
	},
	"lance": func(_, tail []byte, _ int64) bool {
		return len(tail) >= 4 && bytes.Equal(tail[len(tail)-4:], []byte("LANC"))
	},
	"csup": func(head, _ []byte, _ int64) bool {
		return bytes.HasPrefix(head, []byte("CSUP")) || bytes.HasPrefix(head, []byte("VNG"))
	},
	"onpair": func(head, _ []byte, _ int64) bool {
		return bytes.HasPrefix(head, []byte("OPCOL"))
	},
}

// detect returns the format name of in, or an error if none matches.
func detect(in *input) (string, error) {
	head := make([]byte, min(int64(sniffLen), in.Size))
	if _, err := in.R.ReadAt(head, 0); err != nil && err != io.EOF {
		return "", err
	}
	tail := make([]byte, min(int64(sniffLen), in.Size))
	if _, err := in.R.ReadAt(tail, in.Size-int64(len(tail))); err != nil && err != io.EOF {
		return "", err
	}
	for _, name := range formatNames() {
		if f, ok := formats[name]; ok && f.Detect != nil && f.Detect(head, tail, in.Size) {
			return name, nil
		}
	}
	for _, name := range knownFormats {
		if _, ok := formats[name]; ok {
			continue
		}
		if d := builtinDetect[name]; d != nil && d(head, tail, in.Size) {
			return name, nil
		}
	}
	return "", fmt.Errorf("colfmt: %s: unrecognised format (not AT-1, Lance, Super Columnar or an OnPair column)", in.Name)
}
