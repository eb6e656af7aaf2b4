package jsonarrow

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// checkSchema refuses a schema with a type Records cannot fill.
func checkSchema(s *arrow.Schema) error {
	if s == nil {
		return fmt.Errorf("jsonarrow: nil schema")
	}
	for _, f := range s.Fields() {
		if err := checkType(f.Type, f.Name); err != nil {
			return err
		}
	}
	return nil
}

func checkType(dt arrow.DataType, path string) error {
	switch t := dt.(type) {
	case *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type,
		*arrow.Float16Type, *arrow.Float32Type, *arrow.Float64Type,
		*arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType, *arrow.LargeBinaryType,
		*arrow.Date32Type, *arrow.TimestampType:
		return nil
	case *arrow.ListType:
		return checkType(t.Elem(), path+"[]")
	case *arrow.LargeListType:
		return checkType(t.Elem(), path+"[]")
	case *arrow.FixedSizeListType:
		return checkType(t.Elem(), path+"[]")
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if err := checkType(f.Type, path+"."+f.Name); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("jsonarrow: field %q: type %s cannot be read from JSON", path, dt)
}

func mismatch(path string, v *value, want string) error {
	return fmt.Errorf("field %q: %s where the schema wants %s", path, describe(v), want)
}

func describe(v *value) string {
	s := string(v.raw)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// appendValue appends v to b, whose type is dt.
func appendValue(b array.Builder, dt arrow.DataType, nullable bool, v *value, path string) error {
	if v.k == kNull {
		if !nullable {
			return fmt.Errorf("field %q: null in a non-nullable field", path)
		}
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		if v.k != kBool {
			return mismatch(path, v, "a bool")
		}
		bb.Append(v.b)
	case *array.Int8Builder:
		n, err := intOf(v, path, math.MinInt8, math.MaxInt8)
		bb.Append(int8(n))
		return err
	case *array.Int16Builder:
		n, err := intOf(v, path, math.MinInt16, math.MaxInt16)
		bb.Append(int16(n))
		return err
	case *array.Int32Builder:
		n, err := intOf(v, path, math.MinInt32, math.MaxInt32)
		bb.Append(int32(n))
		return err
	case *array.Int64Builder:
		n, err := intOf(v, path, math.MinInt64, math.MaxInt64)
		bb.Append(n)
		return err
	case *array.Uint8Builder:
		n, err := uintOf(v, path, math.MaxUint8)
		bb.Append(uint8(n))
		return err
	case *array.Uint16Builder:
		n, err := uintOf(v, path, math.MaxUint16)
		bb.Append(uint16(n))
		return err
	case *array.Uint32Builder:
		n, err := uintOf(v, path, math.MaxUint32)
		bb.Append(uint32(n))
		return err
	case *array.Uint64Builder:
		n, err := uintOf(v, path, math.MaxUint64)
		bb.Append(n)
		return err
	case *array.Float16Builder:
		f, err := floatOf(v, path)
		bb.Append(float16.New(float32(f)))
		return err
	case *array.Float32Builder:
		f, err := floatOf(v, path)
		bb.Append(float32(f))
		return err
	case *array.Float64Builder:
		f, err := floatOf(v, path)
		bb.Append(f)
		return err
	case *array.StringBuilder:
		bb.Append(textOf(v))
	case *array.LargeStringBuilder:
		bb.Append(textOf(v))
	case *array.BinaryBuilder: // binary and large_binary
		if v.k == kStr {
			bb.AppendString(v.s)
		} else {
			bb.Append(v.raw)
		}
	case *array.Date32Builder:
		if v.k != kStr {
			return mismatch(path, v, "a date string (2006-01-02)")
		}
		t, err := time.Parse(time.DateOnly, v.s)
		if err != nil {
			return mismatch(path, v, "a date string (2006-01-02)")
		}
		bb.Append(arrow.Date32FromTime(t))
	case *array.TimestampBuilder:
		unit := dt.(*arrow.TimestampType).Unit
		switch v.k {
		case kNum:
			n, err := intOf(v, path, math.MinInt64, math.MaxInt64)
			bb.Append(arrow.Timestamp(n))
			return err
		case kStr:
			t, err := time.Parse(time.RFC3339Nano, v.s)
			if err != nil {
				return mismatch(path, v, "an RFC 3339 timestamp or an integer")
			}
			ts, err := arrow.TimestampFromTime(t, unit)
			if err != nil {
				return fmt.Errorf("field %q: %v", path, err)
			}
			bb.Append(ts)
		default:
			return mismatch(path, v, "an RFC 3339 timestamp or an integer")
		}
	case *array.ListBuilder:
		return appendList(bb, bb.ValueBuilder(), dt.(*arrow.ListType).ElemField(), v, path)
	case *array.LargeListBuilder:
		return appendList(bb, bb.ValueBuilder(), dt.(*arrow.LargeListType).ElemField(), v, path)
	case *array.FixedSizeListBuilder:
		ft := dt.(*arrow.FixedSizeListType)
		if v.k != kArr {
			return mismatch(path, v, "an array")
		}
		if len(v.arr) != int(ft.Len()) {
			return fmt.Errorf("field %q: array of %d items where the schema wants %d", path, len(v.arr), ft.Len())
		}
		bb.Append(true)
		ef := ft.ElemField()
		vb, ip := bb.ValueBuilder(), path+"[]"
		for i := range v.arr {
			if err := appendValue(vb, ef.Type, ef.Nullable, &v.arr[i], ip); err != nil {
				return err
			}
		}
	case *array.StructBuilder:
		st := dt.(*arrow.StructType)
		if v.k != kObj {
			return mismatch(path, v, "an object")
		}
		bb.Append(true)
		for j, f := range st.Fields() {
			var m *value
			for i := len(v.obj) - 1; i >= 0; i-- {
				if v.obj[i].key == f.Name {
					m = &v.obj[i].v
					break
				}
			}
			if m == nil {
				m = &value{k: kNull, raw: []byte("null")}
			}
			if err := appendValue(bb.FieldBuilder(j), f.Type, f.Nullable, m, path+"."+f.Name); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("field %q: type %s cannot be read from JSON", path, dt)
	}
	return nil
}

type listBuilder interface{ Append(bool) }

func appendList(lb listBuilder, vb array.Builder, ef arrow.Field, v *value, path string) error {
	if v.k != kArr {
		return mismatch(path, v, "an array")
	}
	lb.Append(true)
	ip := path + "[]"
	for i := range v.arr {
		if err := appendValue(vb, ef.Type, ef.Nullable, &v.arr[i], ip); err != nil {
			return err
		}
	}
	return nil
}

// textOf is a string value as it is, any other value as its JSON text.
func textOf(v *value) string {
	if v.k == kStr {
		return v.s
	}
	return string(v.raw)
}

var errNotInt = errors.New("not an integer")

func intOf(v *value, path string, lo, hi int64) (int64, error) {
	if v.k != kNum {
		return 0, mismatch(path, v, "an integer")
	}
	n, err := int64(0), errNotInt
	if !bytes.ContainsAny(v.raw, ".eE") {
		n, err = strconv.ParseInt(string(v.raw), 10, 64)
	}
	if err != nil {
		// 1e3, 2.0: integral values written as floats.
		f, ferr := strconv.ParseFloat(string(v.raw), 64)
		if ferr != nil || f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
			return 0, mismatch(path, v, "an integer")
		}
		n = int64(f)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("field %q: %s is out of range %d..%d", path, v.raw, lo, hi)
	}
	return n, nil
}

func uintOf(v *value, path string, hi uint64) (uint64, error) {
	if v.k != kNum {
		return 0, mismatch(path, v, "an integer")
	}
	n, err := strconv.ParseUint(string(v.raw), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(v.raw), 64)
		if ferr != nil || f != math.Trunc(f) || f < 0 || f >= 1<<64 {
			return 0, mismatch(path, v, "an unsigned integer")
		}
		n = uint64(f)
	}
	if n > hi {
		return 0, fmt.Errorf("field %q: %s is out of range 0..%d", path, v.raw, hi)
	}
	return n, nil
}

func floatOf(v *value, path string) (float64, error) {
	if v.k != kNum {
		return 0, mismatch(path, v, "a number")
	}
	f, err := strconv.ParseFloat(string(v.raw), 64)
	if err != nil && !math.IsInf(f, 0) { // out of range parses to ±Inf
		return 0, mismatch(path, v, "a number")
	}
	return f, nil
}
