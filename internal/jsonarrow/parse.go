package jsonarrow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// A small JSON parser that keeps object members in their order (the
// schema's field order is the order of first appearance) and numbers as
// their text (ints stay exact).

type kind uint8

const (
	kNull kind = iota
	kBool
	kNum
	kStr
	kArr
	kObj
)

type value struct {
	k   kind
	b   bool
	s   string // string value (numbers: raw)
	arr []value
	obj []member
	raw []byte // the value's JSON text
}

type member struct {
	key string
	v   value
}

// parser is reused from line to line: the arrays and members of a line's
// values live in its arenas, valid until the next parse.
type parser struct {
	b     []byte
	i     int
	depth int
	max   int

	vals   []value    // arena of array items
	mems   []member   // arena of object members
	vstack [][]value  // per depth: items of the array being parsed
	mstack [][]member // per depth: members of the object being parsed
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: %s", p.i+1, fmt.Sprintf(format, args...))
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// parse parses a line, reusing p's arenas (values of the previous line
// become invalid).
func (p *parser) parse(b []byte, maxDepth int) (value, error) {
	p.b, p.i, p.depth, p.max = b, 0, 0, maxDepth
	p.vals, p.mems = p.vals[:0], p.mems[:0]
	p.ws()
	v, err := p.value()
	if err != nil {
		return v, err
	}
	p.ws()
	if p.i != len(p.b) {
		return v, p.errorf("text after the JSON value")
	}
	return v, nil
}

func (p *parser) value() (value, error) {
	if p.i >= len(p.b) {
		return value{}, p.errorf("unexpected end of line")
	}
	start := p.i
	switch c := p.b[p.i]; {
	case c == '{':
		if p.depth++; p.depth > p.max {
			return value{}, p.errorf("nested deeper than %d", p.max)
		}
		p.i++
		v := value{k: kObj}
		d := p.depth
		for len(p.mstack) <= d {
			p.mstack = append(p.mstack, nil)
		}
		p.mstack[d] = p.mstack[d][:0]
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
		} else {
			for {
				p.ws()
				if p.i >= len(p.b) || p.b[p.i] != '"' {
					return v, p.errorf("object key expected")
				}
				k, err := p.str()
				if err != nil {
					return v, err
				}
				p.ws()
				if p.i >= len(p.b) || p.b[p.i] != ':' {
					return v, p.errorf("':' expected")
				}
				p.i++
				p.ws()
				m, err := p.value()
				if err != nil {
					return v, err
				}
				p.mstack[d] = append(p.mstack[d], member{k, m})
				p.ws()
				if p.i < len(p.b) && p.b[p.i] == ',' {
					p.i++
					continue
				}
				if p.i < len(p.b) && p.b[p.i] == '}' {
					p.i++
					break
				}
				return v, p.errorf("',' or '}' expected")
			}
		}
		p.depth--
		at := len(p.mems)
		p.mems = append(p.mems, p.mstack[d]...)
		v.obj = p.mems[at:len(p.mems):len(p.mems)]
		v.raw = p.b[start:p.i]
		return v, nil
	case c == '[':
		if p.depth++; p.depth > p.max {
			return value{}, p.errorf("nested deeper than %d", p.max)
		}
		p.i++
		v := value{k: kArr}
		d := p.depth
		for len(p.vstack) <= d {
			p.vstack = append(p.vstack, nil)
		}
		p.vstack[d] = p.vstack[d][:0]
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
		} else {
			for {
				p.ws()
				e, err := p.value()
				if err != nil {
					return v, err
				}
				p.vstack[d] = append(p.vstack[d], e)
				p.ws()
				if p.i < len(p.b) && p.b[p.i] == ',' {
					p.i++
					continue
				}
				if p.i < len(p.b) && p.b[p.i] == ']' {
					p.i++
					break
				}
				return v, p.errorf("',' or ']' expected")
			}
		}
		p.depth--
		at := len(p.vals)
		p.vals = append(p.vals, p.vstack[d]...)
		v.arr = p.vals[at:len(p.vals):len(p.vals)]
		v.raw = p.b[start:p.i]
		return v, nil
	case c == '"':
		s, err := p.str()
		if err != nil {
			// str may stop past the end on a cut escape: no raw slice then.
			return value{}, err
		}
		return value{k: kStr, s: s, raw: p.b[start:min(p.i, len(p.b))]}, nil
	case c == 't':
		return p.lit("true", value{k: kBool, b: true})
	case c == 'f':
		return p.lit("false", value{k: kBool})
	case c == 'n':
		return p.lit("null", value{k: kNull})
	case c == '-' || (c >= '0' && c <= '9'):
		for p.i < len(p.b) {
			c := p.b[p.i]
			if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
				p.i++
				continue
			}
			break
		}
		if !validNumber(p.b[start:p.i]) {
			bad := string(p.b[start:p.i])
			p.i = start
			return value{}, p.errorf("bad number %q", bad)
		}
		return value{k: kNum, raw: p.b[start:p.i]}, nil
	default:
		return value{}, p.errorf("unexpected %q", c)
	}
}

func (p *parser) lit(word string, v value) (value, error) {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return value{}, p.errorf("bad literal")
	}
	v.raw = p.b[p.i : p.i+len(word)]
	p.i += len(word)
	return v, nil
}

// str parses a string at p.i (the opening quote).
func (p *parser) str() (string, error) {
	start := p.i
	p.i++
	escaped := false
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !escaped {
				s := p.b[start+1 : p.i-1]
				if !utf8.Valid(s) {
					return string(s), p.errorf("invalid UTF-8 in a string")
				}
				return string(s), nil
			}
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				return "", p.errorf("bad string: %v", err)
			}
			return s, nil
		case c == '\\':
			escaped = true
			p.i += 2
		case c < 0x20:
			return "", p.errorf("control character in a string")
		default:
			p.i++
		}
	}
	return "", p.errorf("unterminated string")
}

// validNumber checks the JSON number grammar.
func validNumber(s []byte) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isInt reports whether number text s is an integer that fits int64.
func isInt(s []byte) bool {
	if bytes.ContainsAny(s, ".eE") {
		return false // without ParseInt's error allocation
	}
	_, err := strconv.ParseInt(string(s), 10, 64)
	return err == nil
}
