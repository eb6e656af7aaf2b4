package csup

import (
	"strings"

	"github.com/colfmt/colfmt/csup/bsup"
)

// Helpers to read metadata values generically: the reassembly records and
// VNG's marshaled Go structs are decoded as plain Super values, and fields
// are looked up by name, never by type ID (zed redefines named types as
// their children differ).

// unwrap strips union wrappers (an array of differently shaped nodes is an
// array of a union).
func unwrap(v bsup.Value) bsup.Value {
	for v.Type != nil && !v.Null && bsup.PayloadKind(v.Type) == bsup.KindUnion && len(v.Elems) == 1 {
		v = v.Elems[0]
	}
	return v
}

// typeName returns the name of v's outermost named type, or "".
func typeName(v bsup.Value) string {
	if v.Type != nil && v.Type.Kind == bsup.KindNamed {
		return v.Type.Name
	}
	return ""
}

// field returns the field of record v whose name matches name ignoring
// case and underscores (mem_length matches MemLength).
func field(v bsup.Value, name string) (bsup.Value, bool) {
	v = unwrap(v)
	if v.Null || v.Type == nil {
		return bsup.Value{}, false
	}
	t := v.Type.Underlying()
	if t.Kind != bsup.KindRecord {
		return bsup.Value{}, false
	}
	for i, f := range t.Fields {
		if i < len(v.Elems) && normName(f.Name) == name {
			return unwrap(v.Elems[i]), true
		}
	}
	return bsup.Value{}, false
}

func normName(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "_", ""))
}

// isRecord reports whether v is a non-null record.
func isRecord(v bsup.Value) bool {
	v = unwrap(v)
	return v.Type != nil && !v.Null && v.Type.Underlying().Kind == bsup.KindRecord
}

// asInt returns the value of any integer-typed v.
func asInt(v bsup.Value) (int64, bool) {
	v = unwrap(v)
	if v.Null || v.Type == nil {
		return 0, false
	}
	switch bsup.PayloadKind(v.Type) {
	case bsup.KindInt8, bsup.KindInt16, bsup.KindInt32, bsup.KindInt64:
		return v.Int, true
	case bsup.KindUint8, bsup.KindUint16, bsup.KindUint32, bsup.KindUint64:
		if v.Uint > 1<<62 {
			return 0, false
		}
		return int64(v.Uint), true
	}
	return 0, false
}

func asString(v bsup.Value) (string, bool) {
	v = unwrap(v)
	if v.Null || v.Type == nil || bsup.PayloadKind(v.Type) != bsup.KindString {
		return "", false
	}
	return string(v.Bytes), true
}

// elems returns the elements of an array value (nil for a null array).
func elems(v bsup.Value) ([]bsup.Value, bool) {
	v = unwrap(v)
	if v.Type == nil {
		return nil, false
	}
	k := bsup.PayloadKind(v.Type)
	if k != bsup.KindArray && k != bsup.KindSet {
		return nil, false
	}
	return v.Elems, true
}
