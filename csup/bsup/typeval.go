package bsup

import (
	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// Type values (the body of a value of type "type") encode a type inline:
// a primitive is its ID; 30 record, 31 array, 32 set, 33 map, 34 union,
// 35 enum, 36 error, 37 named definition, 38 named reference (a name bound
// earlier in the same type value, depth first).
const (
	tvRecord   = 30
	tvArray    = 31
	tvSet      = 32
	tvMap      = 33
	tvUnion    = 34
	tvEnum     = 35
	tvError    = 36
	tvNamedDef = 37
	tvNamedRef = 38
)

// AppendTypeValue appends the type-value encoding of t.
func AppendTypeValue(dst []byte, t *Type) []byte {
	switch t.Kind {
	case KindRecord:
		dst = append(dst, tvRecord)
		dst = varint.Append(dst, uint64(len(t.Fields)))
		for _, f := range t.Fields {
			dst = appendName(dst, f.Name)
			dst = AppendTypeValue(dst, f.Type)
		}
	case KindArray:
		dst = AppendTypeValue(append(dst, tvArray), t.Elem)
	case KindSet:
		dst = AppendTypeValue(append(dst, tvSet), t.Elem)
	case KindMap:
		dst = AppendTypeValue(append(dst, tvMap), t.Elem)
		dst = AppendTypeValue(dst, t.Val)
	case KindUnion:
		dst = varint.Append(append(dst, tvUnion), uint64(len(t.Types)))
		for _, m := range t.Types {
			dst = AppendTypeValue(dst, m)
		}
	case KindEnum:
		dst = varint.Append(append(dst, tvEnum), uint64(len(t.Symbols)))
		for _, s := range t.Symbols {
			dst = appendName(dst, s)
		}
	case KindError:
		dst = AppendTypeValue(append(dst, tvError), t.Elem)
	case KindNamed:
		dst = appendName(append(dst, tvNamedDef), t.Name)
		dst = AppendTypeValue(dst, t.Elem)
	default:
		dst = append(dst, byte(t.Kind))
	}
	return dst
}

func appendName(dst []byte, s string) []byte {
	dst = varint.Append(dst, uint64(len(s)))
	return append(dst, s...)
}

// DecodeTypeValue decodes a whole type value; nesting is limited to
// maxDepth levels.
func DecodeTypeValue(b []byte, maxDepth int) (*Type, error) {
	d := tvDecoder{b: b, maxDepth: maxDepth}
	t, err := d.typ(0)
	if err != nil {
		return nil, err
	}
	if d.off != len(b) {
		return nil, errs.Wrap(ErrCorrupt, "type value has %d trailing bytes", len(b)-d.off)
	}
	return t, nil
}

type tvDecoder struct {
	b        []byte
	off      int
	maxDepth int
	names    map[string]*Type
}

func (d *tvDecoder) uvarint() (uint64, error) {
	v, n := varint.Consume(d.b[d.off:])
	if n < 0 {
		return 0, errs.Wrap(ErrCorrupt, "bad uvarint in type value at byte %d", d.off)
	}
	d.off += n
	return v, nil
}

// count reads a count of items that take at least one byte each.
func (d *tvDecoder) count() (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(d.b)-d.off) {
		return 0, errs.Wrap(ErrCorrupt, "type value count %d exceeds its remaining %d bytes", n, len(d.b)-d.off)
	}
	return int(n), nil
}

func (d *tvDecoder) name() (string, error) {
	n, err := d.count()
	if err != nil {
		return "", err
	}
	s := string(d.b[d.off : d.off+n])
	d.off += n
	return s, nil
}

func (d *tvDecoder) typ(depth int) (*Type, error) {
	if depth > d.maxDepth {
		return nil, errs.Wrap(ErrTooLarge, "type value nesting deeper than %d", d.maxDepth)
	}
	id, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if id < IDFirstUser {
		if p := Primitive(int(id)); p != nil {
			return p, nil
		}
		return nil, errs.Wrap(ErrUnsupported, "reserved primitive type ID %d", id)
	}
	switch id {
	case tvRecord:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		fields := make([]Field, n)
		for i := range fields {
			if fields[i].Name, err = d.name(); err != nil {
				return nil, err
			}
			if fields[i].Type, err = d.typ(depth + 1); err != nil {
				return nil, err
			}
		}
		return NewRecord(fields), nil
	case tvArray, tvSet, tvError:
		inner, err := d.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		switch id {
		case tvArray:
			return NewArray(inner), nil
		case tvSet:
			return NewSet(inner), nil
		}
		return NewError(inner), nil
	case tvMap:
		k, err := d.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		v, err := d.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		return NewMap(k, v), nil
	case tvUnion:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, errs.Wrap(ErrCorrupt, "union type value with no members")
		}
		types := make([]*Type, n)
		for i := range types {
			if types[i], err = d.typ(depth + 1); err != nil {
				return nil, err
			}
		}
		return NewUnion(types), nil
	case tvEnum:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		syms := make([]string, n)
		for i := range syms {
			if syms[i], err = d.name(); err != nil {
				return nil, err
			}
		}
		return NewEnum(syms), nil
	case tvNamedDef:
		name, err := d.name()
		if err != nil {
			return nil, err
		}
		inner, err := d.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		t := NewNamed(name, inner)
		if d.names == nil {
			d.names = map[string]*Type{}
		}
		d.names[name] = t
		return t, nil
	case tvNamedRef:
		name, err := d.name()
		if err != nil {
			return nil, err
		}
		t, ok := d.names[name]
		if !ok {
			return nil, errs.Wrap(ErrCorrupt, "type value refers to unbound name %q", name)
		}
		return t, nil
	}
	return nil, errs.Wrap(ErrCorrupt, "bad type-value code %d", id)
}
