package bsup

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
)

// JSONReader reads a sequence of JSON values (JSON Lines, NDJSON, or any
// whitespace-separated JSON) as Super values, inferring types as zq's JSON
// reader does: an object is a record with fields in input order, an
// integer literal that fits is int64 and any other number float64, an
// array whose elements differ in type is an array of a union of them, an
// empty array is [null], and null is of type null.
type JSONReader struct {
	dec      *json.Decoder
	maxDepth int
	types    map[string]*Type // interned, so equal types share one *Type
}

// NewJSONReader returns a JSONReader of r. Values nest at most maxDepth
// levels (0 means the default, 100).
func NewJSONReader(r io.Reader, maxDepth int) *JSONReader {
	d := json.NewDecoder(r)
	d.UseNumber()
	if maxDepth <= 0 {
		maxDepth = defaultMaxDepth
	}
	return &JSONReader{dec: d, maxDepth: maxDepth, types: map[string]*Type{}}
}

// Read returns the next value, or io.EOF.
func (j *JSONReader) Read() (Value, error) {
	tok, err := j.dec.Token()
	if err == io.EOF {
		return Value{}, io.EOF
	}
	if err != nil {
		return Value{}, j.err(err)
	}
	return j.value(tok, 0)
}

func (j *JSONReader) err(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errs.At(ErrCorrupt, se.Offset, "json", "%v", err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "unexpected end of JSON input")
	}
	return errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "%v", err)
}

func (j *JSONReader) intern(t *Type) *Type {
	k := t.Key()
	if s, ok := j.types[k]; ok {
		return s
	}
	j.types[k] = t
	return t
}

func (j *JSONReader) value(tok json.Token, depth int) (Value, error) {
	if depth > j.maxDepth {
		return Value{}, errs.At(ErrTooLarge, j.dec.InputOffset(), "json", "JSON nests deeper than %d", j.maxDepth)
	}
	switch t := tok.(type) {
	case nil:
		return NewNull(TypeNull), nil
	case bool:
		return NewBool(t), nil
	case string:
		return NewString(t), nil
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return NewInt(TypeInt64, i), nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !math.IsInf(f, 0) {
			return Value{}, errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "bad number %s", t)
		}
		return NewFloat(TypeFloat64, f), nil
	case json.Delim:
		switch t {
		case '{':
			var fields []Field
			var vals []Value
			seen := map[string]bool{}
			for j.dec.More() {
				kt, err := j.dec.Token()
				if err != nil {
					return Value{}, j.err(err)
				}
				name, _ := kt.(string)
				vt, err := j.dec.Token()
				if err != nil {
					return Value{}, j.err(err)
				}
				v, err := j.value(vt, depth+1)
				if err != nil {
					return Value{}, err
				}
				if seen[name] {
					// Last one wins, as in most JSON readers.
					for i := range fields {
						if fields[i].Name == name {
							fields[i].Type, vals[i] = v.Type, v
						}
					}
					continue
				}
				seen[name] = true
				fields = append(fields, Field{Name: name, Type: v.Type})
				vals = append(vals, v)
			}
			if _, err := j.dec.Token(); err != nil {
				return Value{}, j.err(err)
			}
			return Value{Type: j.intern(NewRecord(fields)), Elems: vals}, nil
		case '[':
			var vals []Value
			for j.dec.More() {
				et, err := j.dec.Token()
				if err != nil {
					return Value{}, j.err(err)
				}
				v, err := j.value(et, depth+1)
				if err != nil {
					return Value{}, err
				}
				vals = append(vals, v)
			}
			if _, err := j.dec.Token(); err != nil {
				return Value{}, j.err(err)
			}
			return j.array(vals), nil
		}
	}
	return Value{}, errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "unexpected token %v", tok)
}

// array types a JSON array: [null] when empty, [T] when every element is
// of type T, else [(T1,T2,...)] with members ordered primitives first (by
// type ID) and then complex types in order of appearance.
func (j *JSONReader) array(vals []Value) Value {
	var members []*Type
	index := map[*Type]int{}
	for _, v := range vals {
		if _, ok := index[v.Type]; !ok {
			index[v.Type] = len(members)
			members = append(members, v.Type)
		}
	}
	switch len(members) {
	case 0:
		return Value{Type: j.intern(NewArray(TypeNull)), Elems: []Value{}}
	case 1:
		return Value{Type: j.intern(NewArray(members[0])), Elems: vals}
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
	ut := j.intern(NewUnion(members))
	out := make([]Value, len(vals))
	for i, v := range vals {
		out[i] = NewUnionValue(ut, index[v.Type], v)
	}
	return Value{Type: j.intern(NewArray(ut)), Elems: out}
}
