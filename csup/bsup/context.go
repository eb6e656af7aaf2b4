package bsup

import (
	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// Typedef codes in a types frame.
const (
	defRecord = 0
	defArray  = 1
	defSet    = 2
	defMap    = 3
	defUnion  = 4
	defEnum   = 5
	defError  = 6
	defNamed  = 7
	defFusion = 8 // version 2
)

// Context is the type table of one Super Binary stream: typedefs get IDs
// from 30 in order of definition, and the table resets at end of stream.
type Context struct {
	v2       bool // Super Binary version 2: ID 30 is none, typedefs from 31
	types    []*Type
	maxTypes int
	maxDepth int
}

func newContext(c config) *Context {
	return &Context{maxTypes: c.maxTypes, maxDepth: c.maxDepth}
}

// Lookup returns the type with ID id, or nil.
func (c *Context) Lookup(id uint64) *Type {
	if id < IDFirstUser {
		return Primitive(int(id))
	}
	first := uint64(IDFirstUser)
	if c.v2 {
		if id == IDFirstUser {
			return nil // none: not in this package's type model
		}
		first++
	}
	id -= first
	if id >= uint64(len(c.types)) {
		return nil
	}
	return c.types[id]
}

// Len returns the number of typedefs in the table.
func (c *Context) Len() int { return len(c.types) }

func (c *Context) reset() { c.types = c.types[:0] }

// typedefs decodes the typedefs of one types frame. base is the stream
// offset of b, for error locations.
func (c *Context) typedefs(b []byte, base int64) error {
	p := &parser{b: b, base: base, ctx: c}
	for p.off < len(b) {
		start := p.off
		t, err := p.typedef()
		if err != nil {
			return errs.Locate(err, base+int64(start), "typedef")
		}
		if len(c.types) >= c.maxTypes {
			return errs.TooLarge(ErrTooLarge, base+int64(start), "typedef", "type table", uint64(len(c.types))+1, int64(c.maxTypes))
		}
		if t.depth > c.maxDepth {
			return errs.At(ErrTooLarge, base+int64(start), "typedef", "type nesting depth %d exceeds the limit of %d", t.depth, c.maxDepth)
		}
		c.types = append(c.types, t)
	}
	return nil
}

type parser struct {
	b    []byte
	off  int
	base int64
	ctx  *Context
}

func (p *parser) uvarint() (uint64, error) {
	v, n := varint.Consume(p.b[p.off:])
	if n < 0 {
		return 0, errs.At(ErrCorrupt, p.base+int64(p.off), "", "bad uvarint")
	}
	p.off += n
	return v, nil
}

// count reads a count of items that take at least one byte each, so it is
// bounded by the bytes that remain.
func (p *parser) count(what string) (int, error) {
	at := p.off
	n, err := p.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(p.b)-p.off) {
		return 0, errs.At(ErrCorrupt, p.base+int64(at), "", "%s count %d exceeds the %d bytes that remain", what, n, len(p.b)-p.off)
	}
	return int(n), nil
}

func (p *parser) name() (string, error) {
	n, err := p.count("name length")
	if err != nil {
		return "", err
	}
	s := string(p.b[p.off : p.off+n])
	p.off += n
	return s, nil
}

func (p *parser) typeRef() (*Type, error) {
	at := p.off
	id, err := p.uvarint()
	if err != nil {
		return nil, err
	}
	t := p.ctx.Lookup(id)
	if t == nil {
		return nil, errs.At(ErrCorrupt, p.base+int64(at), "", "unknown type ID %d", id)
	}
	return t, nil
}

func (p *parser) typedef() (*Type, error) {
	code := p.b[p.off]
	p.off++
	switch code {
	case defRecord:
		n, err := p.count("field")
		if err != nil {
			return nil, err
		}
		fields := make([]Field, n)
		for i := range fields {
			if fields[i].Name, err = p.name(); err != nil {
				return nil, err
			}
			if fields[i].Type, err = p.typeRef(); err != nil {
				return nil, err
			}
			if p.ctx.v2 {
				// Version 2 puts an optional-field flag after the type.
				if p.off >= len(p.b) {
					return nil, errs.At(ErrCorrupt, p.base+int64(p.off), "", "record typedef truncated")
				}
				if opt := p.b[p.off]; opt != 0 {
					return nil, errs.At(ErrUnsupported, p.base+int64(p.off), "", "optional record field %s", errs.Quote(fields[i].Name))
				}
				p.off++
			}
		}
		return NewRecord(fields), nil
	case defArray, defSet, defError:
		inner, err := p.typeRef()
		if err != nil {
			return nil, err
		}
		switch code {
		case defArray:
			return NewArray(inner), nil
		case defSet:
			return NewSet(inner), nil
		}
		return NewError(inner), nil
	case defMap:
		k, err := p.typeRef()
		if err != nil {
			return nil, err
		}
		v, err := p.typeRef()
		if err != nil {
			return nil, err
		}
		return NewMap(k, v), nil
	case defUnion:
		n, err := p.count("union member")
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, errs.At(ErrCorrupt, p.base+int64(p.off), "", "union typedef with no members")
		}
		types := make([]*Type, n)
		for i := range types {
			if types[i], err = p.typeRef(); err != nil {
				return nil, err
			}
		}
		return NewUnion(types), nil
	case defEnum:
		n, err := p.count("enum symbol")
		if err != nil {
			return nil, err
		}
		syms := make([]string, n)
		for i := range syms {
			if syms[i], err = p.name(); err != nil {
				return nil, err
			}
		}
		return NewEnum(syms), nil
	case defNamed:
		name, err := p.name()
		if err != nil {
			return nil, err
		}
		inner, err := p.typeRef()
		if err != nil {
			return nil, err
		}
		return NewNamed(name, inner), nil
	}
	if code == defFusion && p.ctx.v2 {
		return nil, errs.At(ErrUnsupported, p.base+int64(p.off-1), "", "fusion typedef")
	}
	return nil, errs.At(ErrCorrupt, p.base+int64(p.off-1), "", "bad typedef code %d", code)
}
