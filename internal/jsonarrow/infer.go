package jsonarrow

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Schema inference: one itype per field path, widened by every value seen.

type tkind uint8

const (
	tNone  tkind = iota // only nulls (or absent) so far
	tBool               // true/false
	tInt                // integers that fit int64
	tFloat              // numbers
	tStr                // strings
	tList               // arrays
	tObj                // objects
	tJSON               // mixed kinds: a string column of JSON text
)

type itype struct {
	k      tkind
	elem   *itype   // tList
	fields []*field // tObj, in order of first appearance
	index  map[string]int
	// tList: the length every non-null array had so far (-1: lengths
	// differ), and whether one has been seen.
	length  int
	lenSeen bool
}

type field struct {
	name string
	t    *itype
}

func (t *itype) toJSON() {
	*t = itype{k: tJSON}
}

func (t *itype) observe(v *value) {
	if v.k == kNull || t.k == tJSON {
		return
	}
	switch v.k {
	case kBool:
		switch t.k {
		case tNone:
			t.k = tBool
		case tBool:
		default:
			t.toJSON()
		}
	case kNum:
		integer := isInt(v.raw)
		switch t.k {
		case tNone:
			t.k = tFloat
			if integer {
				t.k = tInt
			}
		case tInt:
			if !integer {
				t.k = tFloat
			}
		case tFloat:
		default:
			t.toJSON()
		}
	case kStr:
		switch t.k {
		case tNone:
			t.k = tStr
		case tStr:
		default:
			t.toJSON()
		}
	case kArr:
		switch t.k {
		case tNone:
			t.k, t.elem = tList, &itype{}
		case tList:
		default:
			t.toJSON()
			return
		}
		switch {
		case !t.lenSeen:
			t.length, t.lenSeen = len(v.arr), true
		case t.length != len(v.arr):
			t.length = -1
		}
		for i := range v.arr {
			t.elem.observe(&v.arr[i])
		}
	case kObj:
		switch t.k {
		case tNone:
			t.k, t.index = tObj, map[string]int{}
		case tObj:
		default:
			t.toJSON()
			return
		}
		for i := range v.obj {
			m := &v.obj[i]
			j, ok := t.index[m.key]
			if !ok {
				j = len(t.fields)
				t.index[m.key] = j
				t.fields = append(t.fields, &field{name: m.key, t: &itype{}})
			}
			t.fields[j].t.observe(&m.v)
		}
	}
}

// arrowType is the Arrow type of an inferred itype (every field nullable).
func (t *itype) arrowType(o *Options) arrow.DataType {
	switch t.k {
	case tBool:
		return arrow.FixedWidthTypes.Boolean
	case tInt:
		return arrow.PrimitiveTypes.Int64
	case tFloat:
		return arrow.PrimitiveTypes.Float64
	case tList:
		e := t.elem
		if o.VectorMinLen > 0 && t.length >= o.VectorMinLen && (e.k == tInt || e.k == tFloat) {
			var it arrow.DataType = arrow.PrimitiveTypes.Float32
			if o.Float64Vectors {
				it = arrow.PrimitiveTypes.Float64
			}
			if e.k == tInt {
				it = arrow.PrimitiveTypes.Int64 // exact
			}
			return arrow.FixedSizeListOfField(int32(t.length), arrow.Field{Name: "item", Type: it, Nullable: true})
		}
		return arrow.ListOfField(arrow.Field{Name: "item", Type: e.arrowType(o), Nullable: true})
	case tObj:
		if len(t.fields) == 0 {
			return arrow.BinaryTypes.String // {} only: JSON text
		}
		fs := make([]arrow.Field, len(t.fields))
		for i, f := range t.fields {
			fs[i] = arrow.Field{Name: f.name, Type: f.t.arrowType(o), Nullable: true}
		}
		return arrow.StructOf(fs...)
	}
	// tNone (only nulls), tStr, tJSON.
	return arrow.BinaryTypes.String
}
