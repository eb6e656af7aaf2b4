package bsup

import (
	"strconv"
	"strings"
)

// Kind classifies a Type.
type Kind uint8

// Kinds. The primitive kinds are numbered as their Super Binary type IDs
// (0..29); complex kinds follow.
const (
	KindUint8    Kind = 0
	KindUint16   Kind = 1
	KindUint32   Kind = 2
	KindUint64   Kind = 3
	KindInt8     Kind = 6
	KindInt16    Kind = 7
	KindInt32    Kind = 8
	KindInt64    Kind = 9
	KindDuration Kind = 12
	KindTime     Kind = 13
	KindFloat16  Kind = 14
	KindFloat32  Kind = 15
	KindFloat64  Kind = 16
	KindBool     Kind = 23
	KindBytes    Kind = 24
	KindString   Kind = 25
	KindIP       Kind = 26
	KindNet      Kind = 27
	KindType     Kind = 28
	KindNull     Kind = 29

	KindRecord Kind = 30
	KindArray  Kind = 31
	KindSet    Kind = 32
	KindMap    Kind = 33
	KindUnion  Kind = 34
	KindEnum   Kind = 35
	KindError  Kind = 36
	KindNamed  Kind = 37
)

// IDFirstUser is the first type ID a type context assigns to a typedef.
const IDFirstUser = 30

// Type is a Super data type. Types are immutable once built; the
// primitive types are package-level singletons. Complex types built by a
// Context are shared between the values that use them.
type Type struct {
	Kind    Kind
	Fields  []Field  // record
	Elem    *Type    // array, set, error, named (underlying), map key
	Val     *Type    // map value
	Types   []*Type  // union members
	Symbols []string // enum
	Name    string   // named

	key   string // canonical text, computed once (see Key)
	depth int    // nesting depth: 0 for primitives
}

// Field is a record field.
type Field struct {
	Name string
	Type *Type
}

// The primitive types and their names are static data (no work at
// package initialisation).

// primNames are the primitive types' names, by Kind; "" for the others.
var primNames = [len(primitives)]string{
	KindUint8: "uint8", KindUint16: "uint16", KindUint32: "uint32", KindUint64: "uint64",
	KindInt8: "int8", KindInt16: "int16", KindInt32: "int32", KindInt64: "int64",
	KindDuration: "duration", KindTime: "time", KindFloat16: "float16", KindFloat32: "float32",
	KindFloat64: "float64", KindBool: "bool", KindBytes: "bytes", KindString: "string",
	KindIP: "ip", KindNet: "net", KindType: "type", KindNull: "null",
}

// The primitive types.
var (
	TypeUint8    = &Type{Kind: KindUint8, key: "uint8"}
	TypeUint16   = &Type{Kind: KindUint16, key: "uint16"}
	TypeUint32   = &Type{Kind: KindUint32, key: "uint32"}
	TypeUint64   = &Type{Kind: KindUint64, key: "uint64"}
	TypeInt8     = &Type{Kind: KindInt8, key: "int8"}
	TypeInt16    = &Type{Kind: KindInt16, key: "int16"}
	TypeInt32    = &Type{Kind: KindInt32, key: "int32"}
	TypeInt64    = &Type{Kind: KindInt64, key: "int64"}
	TypeDuration = &Type{Kind: KindDuration, key: "duration"}
	TypeTime     = &Type{Kind: KindTime, key: "time"}
	TypeFloat16  = &Type{Kind: KindFloat16, key: "float16"}
	TypeFloat32  = &Type{Kind: KindFloat32, key: "float32"}
	TypeFloat64  = &Type{Kind: KindFloat64, key: "float64"}
	TypeBool     = &Type{Kind: KindBool, key: "bool"}
	TypeBytes    = &Type{Kind: KindBytes, key: "bytes"}
	TypeString   = &Type{Kind: KindString, key: "string"}
	TypeIP       = &Type{Kind: KindIP, key: "ip"}
	TypeNet      = &Type{Kind: KindNet, key: "net"}
	TypeType     = &Type{Kind: KindType, key: "type"}
	TypeNull     = &Type{Kind: KindNull, key: "null"}
)

var primitives = [30]*Type{
	KindUint8: TypeUint8, KindUint16: TypeUint16, KindUint32: TypeUint32, KindUint64: TypeUint64,
	KindInt8: TypeInt8, KindInt16: TypeInt16, KindInt32: TypeInt32, KindInt64: TypeInt64,
	KindDuration: TypeDuration, KindTime: TypeTime, KindFloat16: TypeFloat16, KindFloat32: TypeFloat32,
	KindFloat64: TypeFloat64, KindBool: TypeBool, KindBytes: TypeBytes, KindString: TypeString,
	KindIP: TypeIP, KindNet: TypeNet, KindType: TypeType, KindNull: TypeNull,
}

// Primitive returns the primitive type with Super Binary ID id, or nil if id
// is reserved or not primitive.
func Primitive(id int) *Type {
	if id < 0 || id >= len(primitives) {
		return nil
	}
	return primitives[id]
}

// IsPrimitive reports whether t is a primitive type.
func (t *Type) IsPrimitive() bool { return t.Kind < KindRecord }

// Underlying strips named types.
func (t *Type) Underlying() *Type {
	for t.Kind == KindNamed {
		t = t.Elem
	}
	return t
}

// NewRecord returns a record type. Field names must be distinct.
func NewRecord(fields []Field) *Type {
	t := &Type{Kind: KindRecord, Fields: fields}
	for _, f := range fields {
		t.deeper(f.Type)
	}
	return t
}

// NewArray returns an array type.
func NewArray(elem *Type) *Type { return (&Type{Kind: KindArray, Elem: elem}).deeper(elem) }

// NewSet returns a set type.
func NewSet(elem *Type) *Type { return (&Type{Kind: KindSet, Elem: elem}).deeper(elem) }

// NewMap returns a map type.
func NewMap(key, val *Type) *Type {
	return (&Type{Kind: KindMap, Elem: key, Val: val}).deeper(key).deeper(val)
}

// NewUnion returns a union type of the given members, in that order.
func NewUnion(types []*Type) *Type {
	t := &Type{Kind: KindUnion, Types: types}
	for _, m := range types {
		t.deeper(m)
	}
	return t
}

// NewEnum returns an enum type.
func NewEnum(symbols []string) *Type { return &Type{Kind: KindEnum, Symbols: symbols, depth: 1} }

// NewError returns an error type wrapping inner.
func NewError(inner *Type) *Type { return (&Type{Kind: KindError, Elem: inner}).deeper(inner) }

// NewNamed returns a named type.
func NewNamed(name string, t *Type) *Type {
	return (&Type{Kind: KindNamed, Name: name, Elem: t}).deeper(t)
}

func (t *Type) deeper(child *Type) *Type {
	if child != nil && child.depth+1 > t.depth {
		t.depth = child.depth + 1
	}
	return t
}

// Depth returns how deeply t nests: 0 for a primitive, 1 for an array of
// primitives, and so on; named and error types count as a level.
func (t *Type) Depth() int { return t.depth }

// Key returns the canonical text of t (Super/ZSON type syntax, named types
// written as name=underlying). Two types are identical iff their keys are.
// The text is as long as the type written out as a tree, which for types
// that share subtypes can be far longer than their definitions: compare
// with SameType, and use String for display.
func (t *Type) Key() string {
	if t.key == "" {
		var b strings.Builder
		t.format(&b, true, -1)
		t.key = b.String()
	}
	return t.key
}

// maxTypeText bounds String's output.
const maxTypeText = 4096

// String returns the type in ZSON syntax, with a named type's definition
// shown only by name, cut at 4096 bytes (ending in "…").
func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	var b strings.Builder
	if !t.format(&b, false, maxTypeText) {
		b.WriteString("…")
	}
	return b.String()
}

// format writes t; with limit >= 0 it stops once b holds more than limit
// bytes and returns false.
func (t *Type) format(b *strings.Builder, full bool, limit int) bool {
	if limit >= 0 && b.Len() > limit {
		return false
	}
	switch t.Kind {
	case KindRecord:
		b.WriteByte('{')
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			writeName(b, f.Name)
			b.WriteByte(':')
			if !f.Type.format(b, full, limit) {
				return false
			}
		}
		b.WriteByte('}')
	case KindArray:
		b.WriteByte('[')
		if !t.Elem.format(b, full, limit) {
			return false
		}
		b.WriteByte(']')
	case KindSet:
		b.WriteString("|[")
		if !t.Elem.format(b, full, limit) {
			return false
		}
		b.WriteString("]|")
	case KindMap:
		b.WriteString("|{")
		if !t.Elem.format(b, full, limit) {
			return false
		}
		b.WriteByte(':')
		if !t.Val.format(b, full, limit) {
			return false
		}
		b.WriteString("}|")
	case KindUnion:
		b.WriteByte('(')
		for i, m := range t.Types {
			if i > 0 {
				b.WriteByte(',')
			}
			if !m.format(b, full, limit) {
				return false
			}
		}
		b.WriteByte(')')
	case KindEnum:
		b.WriteString("enum(")
		for i, s := range t.Symbols {
			if i > 0 {
				b.WriteByte(',')
			}
			writeName(b, s)
		}
		b.WriteByte(')')
	case KindError:
		b.WriteString("error(")
		if !t.Elem.format(b, full, limit) {
			return false
		}
		b.WriteByte(')')
	case KindNamed:
		writeName(b, t.Name)
		if full {
			b.WriteByte('=')
			return t.Elem.format(b, full, limit)
		}
	default:
		if int(t.Kind) < len(primNames) && primNames[t.Kind] != "" {
			b.WriteString(primNames[t.Kind])
		} else {
			b.WriteString("<bad type>")
		}
	}
	return limit < 0 || b.Len() <= limit
}

// writeName writes an identifier bare when it is a plain identifier and
// quoted otherwise.
func writeName(b *strings.Builder, s string) {
	plain := s != ""
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	if plain {
		b.WriteString(s)
		return
	}
	b.WriteString(strconv.Quote(s))
}
