package lance

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestKeepRunsMatchesSliceAndJoin checks keepRuns against slicing each run
// and joining them with array.Concatenate, on sliced arrays of every type
// it copies directly, with nulls.
func TestKeepRunsMatchesSliceAndJoin(t *testing.T) {
	mem := memory.NewGoAllocator()
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 300
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true})
	types := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8, arrow.FixedWidthTypes.Float16,
		arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String, arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary,
		&arrow.FixedSizeBinaryType{ByteWidth: 3}, &arrow.Decimal128Type{Precision: 18, Scale: 2}, st}
	for _, dt := range types {
		require.True(t, canKeepRuns(dt), dt.String())
		b := array.NewBuilder(mem, dt)
		for i := 0; i < n; i++ {
			if rng.IntN(5) == 0 {
				b.AppendNull()
				continue
			}
			switch bb := b.(type) {
			case *array.StructBuilder:
				bb.Append(true)
				bb.FieldBuilder(0).(*array.Int32Builder).Append(int32(i))
				bb.FieldBuilder(1).(*array.LargeStringBuilder).Append(string(rune('a' + i%26)))
			default:
				require.NoError(t, b.AppendValueFromString(sample(dt, i)), dt.String())
			}
		}
		whole := b.NewArray()
		b.Release()
		a := array.NewSlice(whole, 7, n-5) // keepRuns must honour the offset
		var runs []keepRun
		var kept int64
		for r := int64(0); r < int64(a.Len()); {
			e := min(int64(a.Len()), r+1+rng.Int64N(4))
			if rng.IntN(3) > 0 {
				runs = append(runs, keepRun{r, e})
				kept += e - r
			}
			r = e + rng.Int64N(3)
		}
		got, err := keepRuns(a, runs, kept)
		require.NoError(t, err)
		parts := make([]arrow.Array, len(runs))
		for i, r := range runs {
			parts[i] = array.NewSlice(a, r.a, r.b)
		}
		want, err := array.Concatenate(parts, mem)
		require.NoError(t, err)
		require.True(t, array.Equal(want, got), "%s:\nwant %v\ngot  %v", dt, want, got)
		require.Equal(t, want.NullN(), got.NullN(), dt.String())
		got.Release()
		want.Release()
		a.Release()
		whole.Release()
		for _, p := range parts {
			p.Release()
		}
	}
	require.False(t, canKeepRuns(arrow.ListOf(arrow.PrimitiveTypes.Int32)))
	require.False(t, canKeepRuns(arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)))
}

func sample(dt arrow.DataType, i int) string {
	switch dt.ID() {
	case arrow.BOOL:
		return []string{"true", "false"}[i%2]
	case arrow.FIXED_SIZE_BINARY:
		return "YWJj" // base64 "abc"
	case arrow.BINARY, arrow.LARGE_BINARY:
		return "aGk=" // base64 "hi"
	case arrow.STRING, arrow.LARGE_STRING:
		return string(rune('a'+i%26)) + "xyz"[:i%4]
	case arrow.UINT8:
		return "7"
	case arrow.DECIMAL128:
		return "12.5"
	}
	return "3"
}
