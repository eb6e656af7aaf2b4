package bsup

import (
	"math"
	"sort"
	"strconv"
)

// jsonTyper types JSON values as zq does and interns the types by
// structure (children are interned first, so a type is identified by its
// kind, names and its children's numbers), so equal types share one *Type.
type jsonTyper struct {
	ids  map[*Type]int
	sigs map[string]*Type
	sig  []byte
}

func newJSONTyper() jsonTyper {
	return jsonTyper{ids: map[*Type]int{}, sigs: map[string]*Type{}}
}

func (j *jsonTyper) id(t *Type) int {
	if t.IsPrimitive() {
		return int(t.Kind)
	}
	return j.ids[t]
}

// lookup returns the interned type for the signature in j.sig, or builds
// it with mk and interns it.
func (j *jsonTyper) lookup(mk func() *Type) *Type {
	if t, ok := j.sigs[string(j.sig)]; ok {
		return t
	}
	t := mk()
	j.ids[t] = IDFirstUser + len(j.ids)
	j.sigs[string(j.sig)] = t
	return t
}

// array types a JSON array: [null] when empty, [T] when every element is
// of type T, else [(T1,T2,...)] with members ordered primitives first (by
// type ID) and then complex types in order of appearance.
func (j *jsonTyper) array(vals []Value) Value {
	if len(vals) == 0 {
		return Value{Type: j.arrayOf(TypeNull), Elems: []Value{}}
	}
	first := vals[0].Type
	same := true
	for _, v := range vals[1:] {
		if v.Type != first {
			same = false
			break
		}
	}
	if same {
		return Value{Type: j.arrayOf(first), Elems: vals}
	}
	var members []*Type
	index := map[*Type]int{}
	for _, v := range vals {
		if _, ok := index[v.Type]; !ok {
			index[v.Type] = len(members)
			members = append(members, v.Type)
		}
	}
	sort.SliceStable(members, func(a, b int) bool {
		pa, pb := members[a].IsPrimitive(), members[b].IsPrimitive()
		if pa && pb {
			return members[a].Kind < members[b].Kind
		}
		return pa && !pb
	})
	for i, m := range members {
		index[m] = i
	}
	j.sig = append(j.sig[:0], byte(KindUnion))
	for _, m := range members {
		j.sig = strconv.AppendInt(append(j.sig, ','), int64(j.id(m)), 10)
	}
	ut := j.lookup(func() *Type { return NewUnion(members) })
	out := make([]Value, len(vals))
	for i, v := range vals {
		out[i] = NewUnionValue(ut, index[v.Type], v)
	}
	return Value{Type: j.arrayOf(ut), Elems: out}
}

func (j *jsonTyper) arrayOf(elem *Type) *Type {
	j.sig = strconv.AppendInt(append(j.sig[:0], byte(KindArray)), int64(j.id(elem)), 10)
	return j.lookup(func() *Type { return NewArray(elem) })
}

// record builds a record from an object's fields; a repeated name keeps
// its first position and its last value, as most JSON readers do.
func (j *jsonTyper) record(names []string, vals []Value) Value {
	dup := false
	if len(names) <= 16 {
		for a := 1; a < len(names) && !dup; a++ {
			for b := 0; b < a; b++ {
				if names[a] == names[b] {
					dup = true
					break
				}
			}
		}
	} else {
		seen := make(map[string]bool, len(names))
		for _, n := range names {
			dup = dup || seen[n]
			seen[n] = true
		}
	}
	if dup {
		var keptNames []string
		var kept []Value
		pos := map[string]int{}
		for i, n := range names {
			if k, ok := pos[n]; ok {
				kept[k] = vals[i]
				continue
			}
			pos[n] = len(kept)
			keptNames = append(keptNames, n)
			kept = append(kept, vals[i])
		}
		names, vals = keptNames, kept
	}
	j.sig = append(j.sig[:0], byte(KindRecord))
	for i, n := range names {
		j.sig = strconv.AppendQuote(j.sig, n)
		j.sig = strconv.AppendInt(j.sig, int64(j.id(vals[i].Type)), 10)
	}
	t := j.lookup(func() *Type {
		fields := make([]Field, len(names))
		for i, n := range names {
			fields[i] = Field{Name: n, Type: vals[i].Type}
		}
		return NewRecord(fields)
	})
	return Value{Type: t, Elems: vals}
}

// jsonNumber types a JSON number: int64 when it is an integer literal that
// fits, else float64 (out-of-range magnitudes become ±Inf).
func jsonNumber(s string) (Value, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return NewInt(TypeInt64, i), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return Value{}, false
	}
	return NewFloat(TypeFloat64, f), true
}
