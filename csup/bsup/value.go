package bsup

import (
	"bytes"
	"math"
	"net/netip"
	"time"
)

// Value is one typed Super value as a tree. Which payload field is used
// depends on the kind of the type with named and error types stripped (see
// PayloadKind):
//
//	uint8..uint64, bool (0/1), enum (symbol index)   Uint
//	int8..int64, duration (ns), time (ns since 1970)   Int
//	float16, float32, float64                          Float
//	string, bytes, ip (4/16), net (8/32), type         Bytes (a type value holds its Super Binary type encoding)
//	record                                             Elems, one per field
//	array, set                                         Elems
//	map                                                Elems: key, value, key, value ...
//	union                                              Uint = member index, Elems[0] = the member's value
//	null                                               Null is always true
//
// Null reports a null of Type; the payload is then unused. Bytes may alias
// the buffer the value was decoded from: copy it to keep it past the next
// read of the reader that produced it.
type Value struct {
	Type  *Type
	Null  bool
	Uint  uint64
	Int   int64
	Float float64
	Bytes []byte
	Elems []Value
}

// PayloadKind returns the kind that decides t's payload: named and error
// types carry their inner type's payload.
func PayloadKind(t *Type) Kind { return payloadType(t).Kind }

func payloadType(t *Type) *Type {
	for t.Kind == KindNamed || t.Kind == KindError {
		t = t.Elem
	}
	return t
}

// NewNull returns a null of type t.
func NewNull(t *Type) Value { return Value{Type: t, Null: true} }

// NewString returns a string value.
func NewString(s string) Value { return Value{Type: TypeString, Bytes: []byte(s)} }

// NewInt returns a value of a signed integer, duration or time type.
func NewInt(t *Type, v int64) Value { return Value{Type: t, Int: v} }

// NewUint returns a value of an unsigned integer or enum type.
func NewUint(t *Type, v uint64) Value { return Value{Type: t, Uint: v} }

// NewFloat returns a value of a float type.
func NewFloat(t *Type, v float64) Value { return Value{Type: t, Float: v} }

// NewBool returns a bool value.
func NewBool(b bool) Value {
	var u uint64
	if b {
		u = 1
	}
	return Value{Type: TypeBool, Uint: u}
}

// NewBytes returns a bytes value.
func NewBytes(b []byte) Value { return Value{Type: TypeBytes, Bytes: b} }

// NewTime returns a time value.
func NewTime(t time.Time) Value { return Value{Type: TypeTime, Int: t.UnixNano()} }

// NewIP returns an ip value.
func NewIP(a netip.Addr) Value { return Value{Type: TypeIP, Bytes: a.AsSlice()} }

// NewNet returns a net value (the address is masked).
func NewNet(p netip.Prefix) Value {
	p = p.Masked()
	a := p.Addr().AsSlice()
	mask := make([]byte, len(a))
	for i := 0; i < p.Bits(); i++ {
		mask[i/8] |= 0x80 >> (i % 8)
	}
	return Value{Type: TypeNet, Bytes: append(a, mask...)}
}

// NewRecordValue returns a record of type t with the given fields.
func NewRecordValue(t *Type, fields ...Value) Value { return Value{Type: t, Elems: fields} }

// NewUnionValue returns a union of type t holding member tag's value v.
func NewUnionValue(t *Type, tag int, v Value) Value {
	return Value{Type: t, Uint: uint64(tag), Elems: []Value{v}}
}

// Bool returns the value of a bool.
func (v Value) Bool() bool { return v.Uint != 0 }

// Time returns the value of a time.
func (v Value) Time() time.Time { return time.Unix(0, v.Int).UTC() }

// Addr returns the value of an ip.
func (v Value) Addr() netip.Addr {
	a, _ := netip.AddrFromSlice(v.Bytes)
	return a
}

// Prefix returns the value of a net.
func (v Value) Prefix() netip.Prefix {
	n := len(v.Bytes) / 2
	a, ok := netip.AddrFromSlice(v.Bytes[:n])
	if !ok {
		return netip.Prefix{}
	}
	bits := 0
	for _, c := range v.Bytes[n:] {
		for ; c&0x80 != 0; c <<= 1 {
			bits++
		}
	}
	return netip.PrefixFrom(a, bits)
}

// Field returns the record field named name and whether it exists.
func (v Value) Field(name string) (Value, bool) {
	t := payloadType(v.Type)
	if t.Kind != KindRecord || v.Null {
		return Value{}, false
	}
	for i, f := range t.Fields {
		if f.Name == name && i < len(v.Elems) {
			return v.Elems[i], true
		}
	}
	return Value{}, false
}

// Equal reports whether a and b have identical types and values. Floats
// compare by bit pattern so NaNs round-trip.
func Equal(a, b Value) bool {
	if !SameType(a.Type, b.Type) || a.Null != b.Null {
		return false
	}
	if a.Null {
		return true
	}
	switch t := payloadType(a.Type); t.Kind {
	case KindUint8, KindUint16, KindUint32, KindUint64, KindBool, KindEnum:
		return a.Uint == b.Uint
	case KindInt8, KindInt16, KindInt32, KindInt64, KindDuration, KindTime:
		return a.Int == b.Int
	case KindFloat16, KindFloat32, KindFloat64:
		return math.Float64bits(a.Float) == math.Float64bits(b.Float)
	case KindString, KindBytes, KindIP, KindNet, KindType:
		return bytes.Equal(a.Bytes, b.Bytes)
	case KindUnion:
		if a.Uint != b.Uint {
			return false
		}
		fallthrough
	default:
		if len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !Equal(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	}
}

// SameType reports whether a and b are the same type (structurally,
// including names). It takes time linear in the pairs of subtypes it
// compares, even for types that share subtypes.
func SameType(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	if a.IsPrimitive() {
		return true
	}
	return sameType(a, b, map[[2]*Type]bool{})
}

// sameType compares recursively. A pair is recorded when first entered:
// meeting it again either repeats a comparison that succeeded or is part
// of one that fails anyway.
func sameType(a, b *Type, seen map[[2]*Type]bool) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind || a.Name != b.Name ||
		len(a.Fields) != len(b.Fields) || len(a.Types) != len(b.Types) || len(a.Symbols) != len(b.Symbols) {
		return false
	}
	if a.IsPrimitive() {
		return true
	}
	pair := [2]*Type{a, b}
	if seen[pair] {
		return true
	}
	seen[pair] = true
	for i := range a.Fields {
		if a.Fields[i].Name != b.Fields[i].Name || !sameType(a.Fields[i].Type, b.Fields[i].Type, seen) {
			return false
		}
	}
	for i := range a.Types {
		if !sameType(a.Types[i], b.Types[i], seen) {
			return false
		}
	}
	for i := range a.Symbols {
		if a.Symbols[i] != b.Symbols[i] {
			return false
		}
	}
	if (a.Elem == nil) != (b.Elem == nil) || a.Elem != nil && !sameType(a.Elem, b.Elem, seen) {
		return false
	}
	if (a.Val == nil) != (b.Val == nil) || a.Val != nil && !sameType(a.Val, b.Val, seen) {
		return false
	}
	return true
}
