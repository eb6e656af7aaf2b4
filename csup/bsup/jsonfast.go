package bsup

import (
	"errors"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/colfmt/colfmt/internal/errs"
)

// JSONReader reads a sequence of JSON values (JSON Lines, NDJSON, or any
// whitespace-separated JSON) as Super values, inferring types as zq's JSON
// reader does: an object is a record with fields in input order (a
// repeated name keeps its first position and its last value), an integer
// literal that fits is int64 and any other number float64, an array whose
// elements differ in type is an array of a union of them (primitive
// members first, by type ID), an empty array is [null], and null is of
// type null. Strings are decoded as encoding/json does (invalid UTF-8
// becomes U+FFFD).
//
// It scans bytes itself; FuzzDiffJSONReader checks it against a reader built
// on encoding/json's tokenizer.
type JSONReader struct {
	r        io.Reader
	buf      []byte
	pos      int
	base     int64 // input offset of buf[0]
	eof      bool
	maxDepth int
	typer    jsonTyper
	names    [][]string // per depth, reused
	vals     [][]Value
	str      []byte
	err      error
}

// NewJSONReader returns a JSONReader of r, shaped as NewReader: values
// nest at most WithMaxDepth levels (default 100), the one option it
// reads; a nil r is ErrInvalidArgument and a nil Option is skipped.
func NewJSONReader(r io.Reader, opts ...Option) (*JSONReader, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "NewJSONReader: nil reader")
	}
	return &JSONReader{r: r, maxDepth: cfg.maxDepth, typer: newJSONTyper()}, nil
}

// errMore means the buffer ended inside a value: read more and retry.
var errMore = errors.New("more input needed")

// Read returns the next value, or io.EOF.
func (j *JSONReader) Read() (Value, error) {
	if j.err != nil {
		return Value{}, j.err
	}
	for {
		j.skipSpace()
		if j.pos == len(j.buf) {
			if j.eof {
				j.err = io.EOF
				return Value{}, io.EOF
			}
			if err := j.fill(); err != nil {
				j.err = err
				return Value{}, err
			}
			continue
		}
		start := j.pos
		v, err := j.value(0)
		if err == errMore {
			if j.eof {
				j.err = errs.At(ErrCorrupt, j.base+int64(len(j.buf)), "json", "unexpected end of JSON input")
				return Value{}, j.err
			}
			j.pos = start
			if err := j.fill(); err != nil {
				j.err = err
				return Value{}, err
			}
			continue
		}
		if err != nil {
			j.err = err
			return Value{}, err
		}
		return v, nil
	}
}

// fill drops consumed bytes and reads at least as much again as is
// buffered (so re-scanning a long value stays linear overall).
func (j *JSONReader) fill() error {
	if j.pos > 0 {
		n := copy(j.buf, j.buf[j.pos:])
		j.base += int64(j.pos)
		j.buf, j.pos = j.buf[:n], 0
	}
	want := max(64<<10, len(j.buf))
	if cap(j.buf)-len(j.buf) < want {
		nb := make([]byte, len(j.buf), len(j.buf)+want)
		copy(nb, j.buf)
		j.buf = nb
	}
	n, err := j.r.Read(j.buf[len(j.buf):cap(j.buf)])
	j.buf = j.buf[:len(j.buf)+n]
	if err == io.EOF {
		j.eof = true
		return nil
	}
	return err
}

func (j *JSONReader) skipSpace() {
	for j.pos < len(j.buf) {
		switch j.buf[j.pos] {
		case ' ', '\t', '\n', '\r':
			j.pos++
		default:
			return
		}
	}
}

func (j *JSONReader) bad(format string, args ...any) error {
	return errs.At(ErrCorrupt, j.base+int64(j.pos), "json", format, args...)
}

func (j *JSONReader) value(depth int) (Value, error) {
	if depth > j.maxDepth {
		return Value{}, errs.At(ErrTooLarge, j.base+int64(j.pos), "json", "JSON nests deeper than %d", j.maxDepth)
	}
	j.skipSpace()
	if j.pos == len(j.buf) {
		return Value{}, errMore
	}
	switch c := j.buf[j.pos]; {
	case c == '{':
		return j.object(depth)
	case c == '[':
		return j.array(depth)
	case c == '"':
		s, err := j.string()
		if err != nil {
			return Value{}, err
		}
		return Value{Type: TypeString, Bytes: s}, nil
	case c == 't':
		return NewBool(true), j.literal("true")
	case c == 'f':
		return NewBool(false), j.literal("false")
	case c == 'n':
		return NewNull(TypeNull), j.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return j.number()
	}
	return Value{}, j.bad("invalid character %q looking for beginning of value", j.buf[j.pos])
}

func (j *JSONReader) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if j.pos+i == len(j.buf) {
			return errMore
		}
		if j.buf[j.pos+i] != lit[i] {
			return j.bad("invalid character %q in literal %s", j.buf[j.pos+i], lit)
		}
	}
	j.pos += len(lit)
	return nil
}

// number scans JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// A number that reaches the end of the buffer needs more input unless the
// input has ended.
func (j *JSONReader) number() (Value, error) {
	b, i := j.buf, j.pos
	// peek returns the byte at i, or 0 at the end of the input.
	peek := func() (byte, error) {
		if i < len(b) {
			return b[i], nil
		}
		if j.eof {
			return 0, nil
		}
		return 0, errMore
	}
	digits := func() (int, error) {
		n := 0
		for {
			c, err := peek()
			if err != nil {
				return n, err
			}
			if c < '0' || c > '9' {
				return n, nil
			}
			i++
			n++
		}
	}
	bad := func(what string) (Value, error) {
		c, _ := peek()
		j.pos = i
		return Value{}, j.bad("invalid character %q %s", c, what)
	}
	c, err := peek()
	if err != nil {
		return Value{}, err
	}
	if c == '-' {
		i++
		if c, err = peek(); err != nil {
			return Value{}, err
		}
	}
	switch {
	case c == '0':
		i++
	case c >= '1' && c <= '9':
		if _, err := digits(); err != nil {
			return Value{}, err
		}
	default:
		return bad("in numeric literal")
	}
	if c, err = peek(); err != nil {
		return Value{}, err
	}
	if c == '.' {
		i++
		n, err := digits()
		if err != nil {
			return Value{}, err
		}
		if n == 0 {
			return bad("after decimal point in numeric literal")
		}
		if c, err = peek(); err != nil {
			return Value{}, err
		}
	}
	if c == 'e' || c == 'E' {
		i++
		if c, err = peek(); err != nil {
			return Value{}, err
		}
		if c == '+' || c == '-' {
			i++
		}
		n, err := digits()
		if err != nil {
			return Value{}, err
		}
		if n == 0 {
			return bad("in exponent of numeric literal")
		}
	}
	v, ok := jsonNumber(string(b[j.pos:i]))
	if !ok {
		return Value{}, j.bad("bad number %s", b[j.pos:i])
	}
	j.pos = i
	return v, nil
}

// string decodes a string literal at j.pos into fresh bytes.
func (j *JSONReader) string() ([]byte, error) {
	b := j.buf
	i := j.pos + 1
	// Fast path: no escapes, ASCII or valid UTF-8.
	start := i
	for i < len(b) {
		c := b[i]
		if c == '"' {
			s := make([]byte, i-start)
			copy(s, b[start:i])
			j.pos = i + 1
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		i++
	}
	out := append(j.str[:0], b[start:i]...)
	for {
		if i == len(b) {
			return nil, errMore
		}
		c := b[i]
		switch {
		case c == '"':
			j.pos = i + 1
			j.str = out
			return append([]byte(nil), out...), nil
		case c < 0x20:
			j.pos = i
			return nil, j.bad("invalid character %q in string literal", c)
		case c == '\\':
			if i+1 == len(b) {
				return nil, errMore
			}
			i++
			switch e := b[i]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, n, err := j.hex4(i + 1)
				if err != nil {
					return nil, err
				}
				i += n
				if utf16.IsSurrogate(r) {
					// A pair needs a second \\uXXXX; a lone half is U+FFFD.
					r2 := unicode_replacement
					if i+2 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
						r2b, n2, err := j.hex4(i + 3)
						if err != nil {
							return nil, err
						}
						if d := utf16.DecodeRune(r, r2b); d != unicode_replacement {
							r2 = d
							i += 2 + n2
						}
					} else if i+2 >= len(b) && !j.eof {
						return nil, errMore
					}
					r = r2
				}
				out = utf8.AppendRune(out, r)
			default:
				j.pos = i
				return nil, j.bad("invalid character %q in string escape code", e)
			}
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				if !utf8.FullRune(b[i:]) && !j.eof {
					return nil, errMore
				}
				out = utf8.AppendRune(out, unicode_replacement)
			} else {
				out = append(out, b[i:i+size]...)
			}
			i += size
		}
	}
}

const unicode_replacement = '\uFFFD'

// hex4 reads the four hex digits of a \\u escape at b[at:].
func (j *JSONReader) hex4(at int) (rune, int, error) {
	if at+4 > len(j.buf) {
		return 0, 0, errMore
	}
	v, err := strconv.ParseUint(string(j.buf[at:at+4]), 16, 32)
	if err != nil {
		j.pos = at
		return 0, 0, j.bad("invalid \\u escape %q", j.buf[at:at+4])
	}
	return rune(v), 4, nil
}

func (j *JSONReader) object(depth int) (Value, error) {
	j.pos++ // {
	for len(j.names) <= depth {
		j.names = append(j.names, nil)
		j.vals = append(j.vals, nil)
	}
	names := j.names[depth][:0]
	vals := j.vals[depth][:0]
	j.skipSpace()
	if j.pos == len(j.buf) {
		return Value{}, errMore
	}
	if j.buf[j.pos] == '}' {
		j.pos++
		return j.typer.record(nil, nil), nil
	}
	for {
		j.skipSpace()
		if j.pos == len(j.buf) {
			return Value{}, errMore
		}
		if j.buf[j.pos] != '"' {
			return Value{}, j.bad("invalid character %q looking for beginning of object key string", j.buf[j.pos])
		}
		name, err := j.string()
		if err != nil {
			return Value{}, err
		}
		j.skipSpace()
		if j.pos == len(j.buf) {
			return Value{}, errMore
		}
		if j.buf[j.pos] != ':' {
			return Value{}, j.bad("invalid character %q after object key", j.buf[j.pos])
		}
		j.pos++
		v, err := j.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		names = append(names, string(name))
		vals = append(vals, v)
		j.skipSpace()
		if j.pos == len(j.buf) {
			return Value{}, errMore
		}
		switch j.buf[j.pos] {
		case ',':
			j.pos++
			continue
		case '}':
			j.pos++
			j.names[depth], j.vals[depth] = names, vals
			return j.typer.record(names, append([]Value(nil), vals...)), nil
		}
		return Value{}, j.bad("invalid character %q after object key:value pair", j.buf[j.pos])
	}
}

func (j *JSONReader) array(depth int) (Value, error) {
	j.pos++ // [
	var vals []Value
	j.skipSpace()
	if j.pos == len(j.buf) {
		return Value{}, errMore
	}
	if j.buf[j.pos] == ']' {
		j.pos++
		return j.typer.array(nil), nil
	}
	for {
		v, err := j.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		vals = append(vals, v)
		j.skipSpace()
		if j.pos == len(j.buf) {
			return Value{}, errMore
		}
		switch j.buf[j.pos] {
		case ',':
			j.pos++
			continue
		case ']':
			j.pos++
			return j.typer.array(vals), nil
		}
		return Value{}, j.bad("invalid character %q after array element", j.buf[j.pos])
	}
}
