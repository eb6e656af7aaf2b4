package lance

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// nnSchema declares non-nullable fields below the top level: a struct
// member info.city, list items tags[] and the member of a struct inside a
// list, pts[].x.
var nnSchema = arrow.NewSchema([]arrow.Field{
	{Name: "info", Type: arrow.StructOf(
		arrow.Field{Name: "city", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "zip", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
	{Name: "tags", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int64), Nullable: true},
	{Name: "pts", Type: arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64})), Nullable: true},
}, nil)

// nnBatch builds 3 rows of nnSchema. bad names the field that gets a
// visible null ("" none); hidden nulls (under a null struct, under a null
// list, outside every list) are always there and must be accepted.
func nnBatch(t testing.TB, bad string) arrow.RecordBatch {
	t.Helper()
	mem := memory.DefaultAllocator
	// info: row 1 is a null struct whose city is null (hidden).
	cb := array.NewStringBuilder(mem)
	cb.AppendValues([]string{"Oslo", "", "Bergen"}, []bool{true, false, bad != "info.city"})
	city := cb.NewArray()
	defer city.Release()
	zb := array.NewInt32Builder(mem)
	zb.AppendValues([]int32{1, 0, 3}, []bool{true, false, true})
	zip := zb.NewArray()
	defer zip.Release()
	st := nnSchema.Field(0).Type.(*arrow.StructType)
	infoData := array.NewData(st, 3, []*memory.Buffer{memory.NewBufferBytes([]byte{0b101})}, []arrow.ArrayData{city.Data(), zip.Data()}, 1, 0)
	info := array.MakeFromData(infoData)
	infoData.Release()
	defer info.Release()

	// tags: values [1, null, 2, 3, null]; row 0 = [1], row 1 = null over
	// [null] (hidden), row 2 = [2, 3]; value 4 (null) is in no list unless
	// bad puts it in row 2.
	vb := array.NewInt64Builder(mem)
	vb.AppendValues([]int64{1, 0, 2, 3, 0}, []bool{true, false, true, true, false})
	vals := vb.NewArray()
	defer vals.Release()
	end := int32(4)
	if bad == "tags[]" {
		end = 5
	}
	offs := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 2, end}))
	tagsData := array.NewData(nnSchema.Field(1).Type, 3, []*memory.Buffer{memory.NewBufferBytes([]byte{0b101}), offs}, []arrow.ArrayData{vals.Data()}, 1, 0)
	tags := array.MakeFromData(tagsData)
	tagsData.Release()
	defer tags.Release()

	// pts: one list of two structs, the second null when bad is
	// "pts[]" (the struct items are nullable: accepted), its x null when
	// bad is "pts[].x".
	lb := array.NewListBuilderWithField(mem, nnSchema.Field(2).Type.(*arrow.ListType).ElemField())
	defer lb.Release()
	sb := lb.ValueBuilder().(*array.StructBuilder)
	xb := sb.FieldBuilder(0).(*array.Float64Builder)
	lb.Append(true)
	sb.Append(true)
	xb.Append(1)
	switch bad {
	case "pts[].x":
		sb.Append(true)
		xb.AppendNull()
	case "pts[]":
		sb.AppendNull()
		xb.AppendNull() // under a null struct: hidden
	default:
		sb.Append(true)
		xb.Append(2)
	}
	lb.AppendNull()
	lb.Append(true)
	pts := lb.NewArray()
	defer pts.Release()
	return array.NewRecordBatch(nnSchema, []arrow.Array{info, tags, pts}, 3)
}

func TestAppendNestedNullability(t *testing.T) {
	db := t.TempDir()
	good := nnBatch(t, "")
	defer good.Release()
	tb, err := CreateTable(DirFS(db), "n.lance", nnSchema, Batches(good))
	require.NoError(t, err, "hidden nulls under null parents are accepted")
	require.Equal(t, []string{
		`{"info":{"city":"Oslo","zip":1},"tags":[1],"pts":[{"x":1},{"x":2}]}`,
		`{"info":null,"tags":null,"pts":null}`,
		`{"info":{"city":"Bergen","zip":3},"tags":[2,3],"pts":[]}`,
	}, tableRows(t, tb))
	before := listDir(t, filepath.Join(db, "n.lance", "data"))

	for _, c := range []struct{ bad, want string }{
		{"info.city", `column info.city is not nullable in the table but the batch has 1 nulls`},
		{"tags[]", `column tags[] is not nullable in the table but the batch has 1 nulls`},
		{"pts[].x", `column pts[].x is not nullable`},
	} {
		rec := nnBatch(t, c.bad)
		_, err := tb.Append(Batches(good, rec))
		rec.Release()
		require.ErrorIs(t, err, ErrInvalidArgument, c.bad)
		require.ErrorContains(t, err, c.want)
		// CreateTable checks the same way.
		rec = nnBatch(t, c.bad)
		_, err = CreateTable(DirFS(db), "c.lance", nnSchema, Batches(rec))
		rec.Release()
		require.ErrorIs(t, err, ErrInvalidArgument, c.bad)
		require.ErrorContains(t, err, c.want)
	}
	require.Equal(t, before, listDir(t, filepath.Join(db, "n.lance", "data")), "a failed append leaves data files")

	// A null struct item in a list of nullable structs is fine.
	rec := nnBatch(t, "pts[]")
	nt, err := tb.Append(Batches(rec))
	rec.Release()
	require.NoError(t, err)
	require.Contains(t, tableRows(t, nt), `{"info":{"city":"Oslo","zip":1},"tags":[1],"pts":[{"x":1},null]}`)
}
