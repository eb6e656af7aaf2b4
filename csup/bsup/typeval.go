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

// AppendTypeValueV2 appends the Super Binary version 2 type-value encoding
// of t (complex codes one higher than version 0's, see DecodeTypeValueV2).
// Record types are refused: their version 2 form carries optional-field
// bits this package does not model.
func AppendTypeValueV2(dst []byte, t *Type) ([]byte, error) {
	if t == nil {
		return dst, errs.Wrap(ErrCorrupt, "nil type")
	}
	if t.IsPrimitive() {
		return append(dst, byte(t.Kind)), nil
	}
	var err error
	switch t.Kind {
	case KindRecord:
		return dst, errs.Wrap(ErrUnsupported, "record type value in Super Binary version 2")
	case KindArray, KindSet, KindError:
		code := map[Kind]byte{KindArray: tvArray, KindSet: tvSet, KindError: tvError}[t.Kind] + 1
		return AppendTypeValueV2(append(dst, code), t.Elem)
	case KindMap:
		if dst, err = AppendTypeValueV2(append(dst, tvMap+1), t.Elem); err != nil {
			return dst, err
		}
		return AppendTypeValueV2(dst, t.Val)
	case KindUnion:
		dst = varint.Append(append(dst, tvUnion+1), uint64(len(t.Types)))
		for _, m := range t.Types {
			if dst, err = AppendTypeValueV2(dst, m); err != nil {
				return dst, err
			}
		}
		return dst, nil
	case KindEnum:
		dst = varint.Append(append(dst, tvEnum+1), uint64(len(t.Symbols)))
		for _, s := range t.Symbols {
			dst = appendName(dst, s)
		}
		return dst, nil
	case KindNamed:
		return AppendTypeValueV2(appendName(append(dst, tvNamedDef+1), t.Name), t.Elem)
	}
	return dst, errs.Wrap(ErrUnsupported, "type kind %d", t.Kind)
}

// DecodeTypeValue decodes a whole type value; nesting is limited to
// maxDepth levels.
func DecodeTypeValue(b []byte, maxDepth int) (*Type, error) {
	return decodeTypeValue(b, maxDepth, false)
}

// DecodeTypeValueV2 decodes a type value of Super Binary version 2 (the
// metadata of CSUP files): ID 30 is the primitive none, so the complex codes
// are one higher than version 0's (31 record, …, 36 enum, …, 39 named
// reference). Record type values of version 2 also carry optional-field
// bits, and none and fusion types have no counterpart in this package's type
// model: those are refused with ErrUnsupported.
func DecodeTypeValueV2(b []byte, maxDepth int) (*Type, error) {
	return decodeTypeValue(b, maxDepth, true)
}

func decodeTypeValue(b []byte, maxDepth int, v2 bool) (*Type, error) {
	d := tvDecoder{b: b, maxDepth: maxDepth, v2: v2}
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
	v2       bool
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
	if d.v2 {
		switch id {
		case IDFirstUser:
			return nil, errs.Wrap(ErrUnsupported, "type none (Super Binary version 2)")
		case tvRecord + 1:
			return nil, errs.Wrap(ErrUnsupported, "record type value of Super Binary version 2")
		case tvNamedRef + 2:
			return nil, errs.Wrap(ErrUnsupported, "fusion type value")
		}
		id--
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
