package csup

import "github.com/colfmt/colfmt/csup/bsup"

// Typed nulls in CSUP version 16.
//
// super v0.3.0's data model has no typed nulls: a null is a value of type
// null, and a value that holds one has a type that says so ({a:null} is
// not {a:int64}; a union that can be null has a null member). The v16
// writer therefore writes a typed null as super would hold the same data
// (what its SUP input syntax writes for it, see
// ../shared/data/csup/README.md):
//
//   - a null of any type but a union becomes an untyped null (type null),
//     and the record, array, set, map, named or error type around it is
//     rebuilt from the new member types, so a record with a null field is
//     a different top-level type (a separate Dynamic variant);
//   - a null of a union type becomes that union's null member, the union
//     gaining a null member (last) when it has none, as
//     null::(int64|string|null) in the samples; so does a union value whose
//     member value is null (a null string under the string member of
//     (int64,string,null) is that union's null member: super cannot tell
//     the two apart, and a union member column holds no nulls);
//   - the elements of an array, set or map whose types then differ are of a
//     union of those types, in the order first met (a null last when the
//     other elements share one type) — no sample covers this, so it is our
//     choice, not verified against super.
//
// Reading the file back gives these values, as super does. Values without
// typed nulls are written unchanged (checked without allocating).

// hasTypedNull reports whether v holds a null whose type is not null, or
// a union value holding a null under a member that is not the null type.
func hasTypedNull(v bsup.Value) bool {
	if v.Null {
		return v.Type.Kind != bsup.KindNull
	}
	if nullInUnion(v) {
		return true
	}
	for _, e := range v.Elems {
		if hasTypedNull(e) {
			return true
		}
	}
	return false
}

// scan16 reports whether v holds a typed null and about how many bytes
// the v16 writer buffers for it (8 a leaf value, its bytes plus 4 for a
// string or bytes value, 4 per container), in one walk.
func scan16(v bsup.Value) (typedNull bool, size int64) {
	if v.Null {
		return v.Type.Kind != bsup.KindNull, 0
	}
	if nullInUnion(v) {
		return true, 4
	}
	if v.Elems == nil {
		return false, 8 + int64(len(v.Bytes))
	}
	size = 4
	for _, e := range v.Elems {
		n, s := scan16(e)
		typedNull = typedNull || n
		size += s
	}
	return typedNull, size
}

// untypeNulls returns v with every typed null replaced as described above.
func untypeNulls(v bsup.Value) bsup.Value {
	if !hasTypedNull(v) {
		return v
	}
	return untype(v)
}

// nullInUnion reports whether v is a union value whose member value is a
// null under a member that is neither of type null nor a union (a null of
// a union member becomes that member's own null member).
func nullInUnion(v bsup.Value) bool {
	if len(v.Elems) != 1 || !v.Elems[0].Null {
		return false
	}
	u := v.Type.Underlying()
	if u.Kind != bsup.KindUnion || v.Uint >= uint64(len(u.Types)) {
		return false
	}
	k := u.Types[v.Uint].Underlying().Kind
	return k != bsup.KindNull && k != bsup.KindUnion
}

// unionNull returns the null member value of the union type t (named or
// not), adding a null member last when t has none.
func unionNull(t *bsup.Type) bsup.Value {
	u := t.Underlying()
	for i, m := range u.Types {
		if m.Kind == bsup.KindNull {
			return bsup.NewUnionValue(t, i, bsup.NewNull(bsup.TypeNull))
		}
	}
	members := append(append([]*bsup.Type(nil), u.Types...), bsup.TypeNull)
	return bsup.NewUnionValue(bsup.NewUnion(members), len(u.Types), bsup.NewNull(bsup.TypeNull))
}

// untype rewrites v, which holds a typed null somewhere.
func untype(v bsup.Value) bsup.Value {
	t := v.Type
	if v.Null {
		if t.Underlying().Kind == bsup.KindUnion {
			return unionNull(t)
		}
		return bsup.NewNull(bsup.TypeNull)
	}
	if nullInUnion(v) {
		return unionNull(t)
	}
	if len(v.Elems) == 0 {
		return v
	}
	elems := make([]bsup.Value, len(v.Elems))
	for i, e := range v.Elems {
		elems[i] = untypeNulls(e)
	}
	out := v
	out.Elems = elems
	if u := t.Underlying(); u.Kind == bsup.KindUnion && len(elems) == 1 && v.Uint < uint64(len(u.Types)) &&
		!bsup.SameType(elems[0].Type, u.Types[v.Uint]) {
		// The member value changed type: when another member has the new
		// type, the value is of that member.
		for i, m := range u.Types {
			if bsup.SameType(m, elems[0].Type) {
				out.Uint = uint64(i)
				return out
			}
		}
	}
	out.Type = rebuild(t, v, elems)
	return out
}

// rebuild returns the type of a value of type t whose elements became
// elems.
func rebuild(t *bsup.Type, v bsup.Value, elems []bsup.Value) *bsup.Type {
	switch t.Kind {
	case bsup.KindNamed:
		inner := rebuild(t.Elem, v, elems)
		if inner == t.Elem {
			return t
		}
		return bsup.NewNamed(t.Name, inner)
	case bsup.KindError:
		inner := rebuild(t.Elem, v, elems)
		if inner == t.Elem {
			return t
		}
		return bsup.NewError(inner)
	case bsup.KindRecord:
		var fields []bsup.Field
		for i, f := range t.Fields {
			if i < len(elems) && elems[i].Type != f.Type {
				if fields == nil {
					fields = append([]bsup.Field(nil), t.Fields...)
				}
				fields[i].Type = elems[i].Type
			}
		}
		if fields == nil {
			return t
		}
		return bsup.NewRecord(fields)
	case bsup.KindArray, bsup.KindSet:
		et := elemType(t.Elem, elems, 0, 1)
		if et == t.Elem {
			return t
		}
		for i := range elems {
			elems[i] = asMember(et, elems[i])
		}
		if t.Kind == bsup.KindSet {
			return bsup.NewSet(et)
		}
		return bsup.NewArray(et)
	case bsup.KindMap:
		kt, vt := elemType(t.Elem, elems, 0, 2), elemType(t.Val, elems, 1, 2)
		if kt == t.Elem && vt == t.Val {
			return t
		}
		for i := range elems {
			elems[i] = asMember(map[bool]*bsup.Type{true: kt, false: vt}[i%2 == 0], elems[i])
		}
		return bsup.NewMap(kt, vt)
	case bsup.KindUnion:
		tag := int(v.Uint)
		if len(elems) != 1 || tag >= len(t.Types) || elems[0].Type == t.Types[tag] {
			return t
		}
		members := append([]*bsup.Type(nil), t.Types...)
		members[tag] = elems[0].Type
		return bsup.NewUnion(members)
	}
	return t
}

// elemType returns the type of the elements elems[first], elems[first+step],
// ...: orig when they all have it, the one type they share, else a union of
// their types in the order first met with null last.
func elemType(orig *bsup.Type, elems []bsup.Value, first, step int) *bsup.Type {
	var types []*bsup.Type
	null := false
	for i := first; i < len(elems); i += step {
		et := elems[i].Type
		if et.Kind == bsup.KindNull {
			null = true
			continue
		}
		seen := false
		for _, x := range types {
			if x == et || bsup.SameType(x, et) {
				seen = true
				break
			}
		}
		if !seen {
			types = append(types, et)
		}
	}
	switch {
	case !null && len(types) == 1:
		return types[0]
	case null && len(types) == 0:
		return bsup.TypeNull
	}
	if null {
		types = append(types, bsup.TypeNull)
	}
	return bsup.NewUnion(types)
}

// asMember returns e as a value of type t: e itself when it has that type,
// else e wrapped in the union t.
func asMember(t *bsup.Type, e bsup.Value) bsup.Value {
	if t.Kind != bsup.KindUnion || e.Type == t || bsup.SameType(e.Type, t) {
		return e
	}
	for i, m := range t.Types {
		if m == e.Type || bsup.SameType(m, e.Type) {
			return bsup.NewUnionValue(t, i, e)
		}
	}
	return e
}
