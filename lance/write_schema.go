package lance

// Arrow schema -> Lance schema fields for the writer: logical type
// strings (lance-core datatypes.rs), depth-first pre-order field ids,
// parent ids (-1 at top level), the v1 encoding hint lance 12 still writes
// (PLAIN, VAR_BINARY for strings and binary, none for structs), and the
// Arrow field metadata.

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

// maxWriteDepth bounds the nesting of a schema the writer accepts.
const maxWriteDepth = 64

// lanceFields converts an Arrow schema to Lance schema fields, numbering
// them in pre-order from nextID; it returns the fields and the next free
// id. A type the writer cannot store fails with ErrUnsupported naming the
// field.
func lanceFields(schema *arrow.Schema, nextID int32) ([]*filepb.Field, int32, error) {
	if schema == nil {
		return nil, nextID, errs.Wrap(ErrInvalidArgument, "nil schema")
	}
	if nextID < 0 {
		return nil, nextID, errs.Wrap(ErrInvalidArgument, "negative field id %d", nextID)
	}
	var out []*filepb.Field
	seen := map[string]bool{}
	for _, f := range schema.Fields() {
		if seen[f.Name] {
			return nil, nextID, errs.Wrap(ErrInvalidArgument, "duplicate field name %s", errs.Quote(f.Name))
		}
		seen[f.Name] = true
		var err error
		out, err = appendLanceField(out, f, -1, &nextID, f.Name, 0)
		if err != nil {
			return nil, nextID, err
		}
	}
	return out, nextID, nil
}

func appendLanceField(out []*filepb.Field, f arrow.Field, parent int32, next *int32, path string, depth int) ([]*filepb.Field, error) {
	if depth >= maxWriteDepth {
		return nil, errs.Wrap(ErrUnsupported, "field %s nested deeper than %d", errs.Quote(path), maxWriteDepth)
	}
	if f.Name == "" {
		return nil, errs.Wrap(ErrInvalidArgument, "empty field name under %s", errs.Quote(path))
	}
	lt, err := logicalType(f.Type, path)
	if err != nil {
		return nil, err
	}
	p := &filepb.Field{Name: f.Name, Id: *next, ParentId: parent, LogicalType: lt, Nullable: f.Nullable}
	*next++
	switch f.Type.ID() {
	case arrow.STRUCT:
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		p.Encoding = filepb.Field_VAR_BINARY
	default:
		p.Encoding = filepb.Field_PLAIN
	}
	if f.HasMetadata() {
		p.Metadata = map[string][]byte{}
		for i, k := range f.Metadata.Keys() {
			p.Metadata[k] = []byte(f.Metadata.Values()[i])
		}
	}
	out = append(out, p)
	switch t := f.Type.(type) {
	case *arrow.StructType:
		if t.NumFields() == 0 {
			return nil, errs.Wrap(ErrUnsupported, "struct field %s without fields", errs.Quote(path))
		}
		seen := map[string]bool{}
		for _, c := range t.Fields() {
			if seen[c.Name] {
				return nil, errs.Wrap(ErrInvalidArgument, "duplicate field name %s", errs.Quote(path+"."+c.Name))
			}
			seen[c.Name] = true
			if out, err = appendLanceField(out, c, p.Id, next, path+"."+c.Name, depth+1); err != nil {
				return nil, err
			}
		}
	case *arrow.ListType:
		return appendLanceField(out, t.ElemField(), p.Id, next, path+"."+t.ElemField().Name, depth+1)
	case *arrow.LargeListType:
		return appendLanceField(out, t.ElemField(), p.Id, next, path+"."+t.ElemField().Name, depth+1)
	case *arrow.MapType:
		// map -> entries struct -> key, value (keys are never null).
		e := t.ElemField()
		e.Nullable = false
		return appendLanceField(out, e, p.Id, next, path+"."+e.Name, depth+1)
	}
	return out, nil
}

var unitNames = [...]string{arrow.Second: "s", arrow.Millisecond: "ms", arrow.Microsecond: "us", arrow.Nanosecond: "ns"}

// unitName is u's name in a logical type, "" for a unit arrow does not define.
func unitName(u arrow.TimeUnit) string {
	if int(u) < len(unitNames) {
		return unitNames[u]
	}
	return ""
}

// logicalType is the Lance logical type string of an Arrow type.
func logicalType(dt arrow.DataType, path string) (string, error) {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return "bool", nil
	case *arrow.Int8Type:
		return "int8", nil
	case *arrow.Uint8Type:
		return "uint8", nil
	case *arrow.Int16Type:
		return "int16", nil
	case *arrow.Uint16Type:
		return "uint16", nil
	case *arrow.Int32Type:
		return "int32", nil
	case *arrow.Uint32Type:
		return "uint32", nil
	case *arrow.Int64Type:
		return "int64", nil
	case *arrow.Uint64Type:
		return "uint64", nil
	case *arrow.Float16Type:
		return "halffloat", nil
	case *arrow.Float32Type:
		return "float", nil
	case *arrow.Float64Type:
		return "double", nil
	case *arrow.StringType:
		return "string", nil
	case *arrow.LargeStringType:
		return "large_string", nil
	case *arrow.BinaryType:
		return "binary", nil
	case *arrow.LargeBinaryType:
		return "large_binary", nil
	case *arrow.Date32Type:
		return "date32:day", nil
	case *arrow.Date64Type:
		return "date64:ms", nil
	case *arrow.Decimal128Type:
		return "decimal:128:" + strconv.Itoa(int(t.Precision)) + ":" + strconv.Itoa(int(t.Scale)), nil
	case *arrow.Decimal256Type:
		return "decimal:256:" + strconv.Itoa(int(t.Precision)) + ":" + strconv.Itoa(int(t.Scale)), nil
	case *arrow.Time32Type:
		return "time32:" + unitName(t.Unit), nil
	case *arrow.Time64Type:
		return "time64:" + unitName(t.Unit), nil
	case *arrow.TimestampType:
		tz := t.TimeZone
		if tz == "" {
			tz = "-"
		}
		return "timestamp:" + unitName(t.Unit) + ":" + tz, nil
	case *arrow.DurationType:
		return "duration:" + unitName(t.Unit), nil
	case *arrow.FixedSizeBinaryType:
		return "fixed_size_binary:" + strconv.Itoa(t.ByteWidth), nil
	case *arrow.FixedSizeListType:
		if !fslLeafItem(t.Elem()) {
			return "", errs.Wrap(ErrUnsupported, "field %s: fixed_size_list of %s (items must be fixed-width)", errs.Quote(path), t.Elem())
		}
		if t.Len() < 1 {
			return "", errs.Wrap(ErrUnsupported, "field %s: fixed_size_list of size %d", errs.Quote(path), t.Len())
		}
		inner, err := logicalType(t.Elem(), path)
		if err != nil {
			return "", err
		}
		return "fixed_size_list:" + inner + ":" + strconv.Itoa(int(t.Len())), nil
	case *arrow.StructType:
		return "struct", nil
	case *arrow.ListType:
		if t.Elem().ID() == arrow.STRUCT {
			return "list.struct", nil
		}
		return "list", nil
	case *arrow.LargeListType:
		if t.Elem().ID() == arrow.STRUCT {
			return "large_list.struct", nil
		}
		return "large_list", nil
	case *arrow.MapType:
		if t.KeysSorted {
			return "", errs.Wrap(ErrUnsupported, "field %s: map with sorted keys", errs.Quote(path))
		}
		return "map", nil
	}
	return "", errs.Wrap(ErrUnsupported, "field %s: Arrow type %s", errs.Quote(path), dt)
}

// fslLeafItem: the items of a fixed_size_list the writer stores as one
// leaf column: fixed-width values or a fixed_size_list of them.
func fslLeafItem(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.FixedSizeListType:
		return fslLeafItem(t.Elem())
	case arrow.FixedWidthDataType:
		_, isDict := dt.(*arrow.DictionaryType)
		return !isDict && dt.ID() != arrow.NULL && dt.ID() != arrow.EXTENSION
	}
	return false
}
