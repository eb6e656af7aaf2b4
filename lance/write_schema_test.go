package lance

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestWriteLanceFields(t *testing.T) {
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	md := arrow.NewMetadata([]string{"k"}, []string{"v"})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "st", Type: st, Nullable: true, Metadata: md},
		{Name: "lst", Type: arrow.ListOf(st), Nullable: true},
		{Name: "vec", Type: arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
	}, nil)
	fs, next, err := lanceFields(schema, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, lt   string
		id, parent int32
	}{
		{"id", "int32", 5, -1}, {"st", "struct", 6, -1}, {"a", "int32", 7, 6}, {"b", "string", 8, 6},
		{"lst", "list.struct", 9, -1}, {"item", "struct", 10, 9}, {"a", "int32", 11, 10}, {"b", "string", 12, 10},
		{"vec", "fixed_size_list:float:4", 13, -1}, {"m", "map", 14, -1}, {"entries", "struct", 15, 14},
		{"key", "string", 16, 15}, {"value", "int32", 17, 15}, {"ts", "timestamp:us:-", 18, -1},
	}
	if len(fs) != len(want) || next != 19 {
		t.Fatalf("got %d fields, next %d", len(fs), next)
	}
	for i, w := range want {
		f := fs[i]
		if f.Name != w.name || f.LogicalType != w.lt || f.Id != w.id || f.ParentId != w.parent {
			t.Errorf("field %d = %v, want %+v", i, f, w)
		}
	}
	if string(fs[1].Metadata["k"]) != "v" || fs[0].Nullable || !fs[1].Nullable {
		t.Errorf("metadata/nullability lost: %v %v", fs[0], fs[1])
	}
	if fs[11].Nullable {
		t.Error("map key nullable")
	}
}

// Every logical type the writer produces parses back to the same Arrow type.
func TestWriteLogicalTypesRoundTrip(t *testing.T) {
	types := []arrow.DataType{
		arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int16,
		arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Int64,
		arrow.PrimitiveTypes.Uint64, arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
		arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary,
		arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
		&arrow.Decimal128Type{Precision: 18, Scale: 2}, &arrow.Decimal256Type{Precision: 60, Scale: 5},
		arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Time64ns,
		&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "+05:30"}, &arrow.TimestampType{Unit: arrow.Second},
		arrow.FixedWidthTypes.Duration_ms, &arrow.FixedSizeBinaryType{ByteWidth: 16},
		arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32),
		arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float64)),
	}
	for _, dt := range types {
		lt, err := logicalType(dt, "x")
		if err != nil {
			t.Errorf("%s: %v", dt, err)
			continue
		}
		back, err := parseLogicalType(lt, 0)
		if err != nil || !arrow.TypeEqual(back, dt) {
			t.Errorf("%s -> %q -> %v, %v", dt, lt, back, err)
		}
	}
	for _, dt := range []arrow.DataType{arrow.Null, arrow.FixedSizeListOf(2, arrow.BinaryTypes.String),
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}} {
		if _, err := logicalType(dt, "x"); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", dt, err)
		}
	}
}
