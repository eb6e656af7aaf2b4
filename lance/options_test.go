package lance

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestOptionsValidate(t *testing.T) {
	b := goldenFlat()
	for _, o := range []Option{WithMaxBufferSize(0), WithMaxMetadataSize(-1), WithMaxColumns(0), WithMaxDepth(0), WithMaxDepth(5000), WithAllocator(nil)} {
		_, err := Open(bytes.NewReader(b), int64(len(b)), o)
		require.Error(t, err)
	}
	_, err := Open(bytes.NewReader(b), int64(len(b)), WithAllocator(memory.NewGoAllocator()), WithMaxDepth(8))
	require.NoError(t, err)
}

func TestLimits(t *testing.T) {
	b, err := os.ReadFile("testdata/v2_0_alltypes_5rows.lance")
	require.NoError(t, err)
	_, err = Open(bytes.NewReader(b), int64(len(b)), WithMaxColumns(14))
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = Open(bytes.NewReader(b), int64(len(b)), WithMaxMetadataSize(1000))
	require.ErrorIs(t, err, ErrTooLarge)
	f, err := Open(bytes.NewReader(b), int64(len(b)), WithMaxBufferSize(16))
	require.NoError(t, err) // metadata is not limited by the buffer size
	_, err = f.Read(ReadOptions{Columns: []string{"vec"}})
	require.ErrorIs(t, err, ErrTooLarge) // 80-byte vector buffer
	rec, err := f.Read(ReadOptions{Columns: []string{"flag"}})
	require.NoError(t, err)
	rec.Release()

	// A page claiming 2^40 all-null rows is refused before allocating.
	huge := (&tFile{rows: 1 << 40, fields: top(fld(0, -1, "x", "int64", true)),
		cols: []tCol{oneCol(tPage{length: 1 << 40, enc: allNull()})}}).bytes()
	f, err = Open(bytes.NewReader(huge), int64(len(huge)))
	require.NoError(t, err)
	_, err = f.Read(ReadOptions{Limit: 10})
	require.ErrorIs(t, err, ErrTooLarge)

	// Deep encoding trees stop at the depth limit.
	enc := flatE(32, pbuf(0))
	for i := 0; i < 40; i++ {
		enc = noNull(enc)
	}
	deep := int32File(tPage{bufs: [][]byte{u32s(1)}, length: 1, enc: enc}, 1)
	_, err = Open(bytes.NewReader(deep), int64(len(deep)), WithMaxDepth(8))
	require.ErrorIs(t, err, ErrProto)
	f, err = Open(bytes.NewReader(deep), int64(len(deep)))
	require.NoError(t, err)
	require.NoError(t, f.Validate())

	// Short and truncated inputs.
	for _, n := range []int{0, 3, 8, 39} {
		_, err := Open(bytes.NewReader(b[len(b)-n:]), int64(n))
		require.ErrorIs(t, err, ErrCorrupt, "%d bytes", n)
	}
	_, err = Open(bytes.NewReader(b[:100]), int64(len(b)))
	require.True(t, errors.Is(err, ErrCorrupt) || err != nil)
}

func TestVersions(t *testing.T) {
	b := goldenFlat()
	for _, v := range []struct {
		major, minor uint16
		ok           bool
		text         string
	}{{0, 3, true, ""}, {2, 0, true, ""}, {2, 1, false, "lance.encodings21.PageLayout"}, {2, 3, false, "version 2.3"},
		{0, 1, false, "version 0.1"}, {7, 9, false, "version 7.9"}} {
		c := append([]byte(nil), b...)
		c[len(c)-8], c[len(c)-7] = byte(v.major), 0
		c[len(c)-6], c[len(c)-5] = byte(v.minor), 0
		f, err := Open(bytes.NewReader(c), int64(len(c)))
		if v.ok {
			require.NoError(t, err)
			maj, min := f.Version()
			require.Equal(t, [2]uint16{v.major, v.minor}, [2]uint16{maj, min})
			continue
		}
		require.ErrorIs(t, err, ErrUnsupported)
		require.Contains(t, err.Error(), v.text)
	}
}

func TestJSONEdgeCases(t *testing.T) {
	mem := memory.NewGoAllocator()
	one := func(dt arrow.DataType, add func(array.Builder)) arrow.Array {
		bld := array.NewBuilder(mem, dt)
		defer bld.Release()
		add(bld)
		return bld.NewArray()
	}
	cases := []struct {
		a        arrow.Array
		want     string
		raw      string
		rawEqual bool
	}{
		{one(&arrow.TimestampType{Unit: arrow.Second, TimeZone: "+05:30"}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(0)
		}), `"1970-01-01T05:30:00+05:30"`, `0`, false},
		{one(&arrow.TimestampType{Unit: arrow.Millisecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(-1500)
		}), `"1969-12-31T23:59:58.500"`, `-1500`, false},
		{one(&arrow.DurationType{Unit: arrow.Nanosecond}, func(b array.Builder) {
			b.(*array.DurationBuilder).Append(arrow.Duration(math.MinInt64))
		}), `"-PT9223372036.854775808S"`, `-9223372036854775808`, false},
		{one(&arrow.DurationType{Unit: arrow.Second}, func(b array.Builder) {
			b.(*array.DurationBuilder).Append(arrow.Duration(90))
		}), `"PT90S"`, `90`, false},
		{one(arrow.FixedWidthTypes.Date64, func(b array.Builder) {
			b.(*array.Date64Builder).Append(arrow.Date64(1500))
		}), `"1970-01-01T00:00:01.500Z"`, `1500`, false},
		{one(arrow.BinaryTypes.String, func(b array.Builder) {
			b.(*array.StringBuilder).Append("a\x01\xffb</>")
		}), `"a\u0001\ufffdb</>"`, "", true},
		{one(arrow.PrimitiveTypes.Float64, func(b array.Builder) {
			b.(*array.Float64Builder).Append(1e300)
		}), `1e+300`, "", true},
	}
	for _, c := range cases {
		require.Equal(t, c.want, string(AppendJSONValue(nil, c.a, 0, JSONOptions{})))
		raw := c.raw
		if c.rawEqual {
			raw = c.want
		}
		require.Equal(t, raw, string(AppendJSONValue(nil, c.a, 0, JSONOptions{Raw: true})))
		c.a.Release()
	}
	_ = time.UTC
}

// TestCheckedAllocator reads every test file through a checked allocator:
// every Arrow allocation is released once the records are.
func TestCheckedAllocator(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.lance")
	files := map[string][]byte{"paged": pagedFile()}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		files[p] = b
	}
	for name, b := range files {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		f, err := Open(bytes.NewReader(b), int64(len(b)), WithAllocator(mem))
		if err != nil {
			continue
		}
		for _, bs := range []int64{0, 2} {
			for rec, err := range f.Records(ReadOptions{BatchRows: bs}) {
				if err != nil {
					break
				}
				rec.Release()
			}
		}
		_ = f.Validate()
		mem.AssertSize(t, 0)
		_ = name
	}
}

func TestPackedAndBlobRefused(t *testing.T) {
	for _, md := range []map[string][]byte{{"lance-encoding:packed": []byte("true")}, {"packed": []byte("true")}, {"lance-encoding:blob": []byte("true")}} {
		st := fld(0, -1, "st", "struct", true)
		st.Metadata = md
		b := (&tFile{rows: 1, fields: top(st, fld(1, 0, "a", "int32", true)), cols: []tCol{oneCol(flatPage(1, 32, u32s(1)))}}).bytes()
		_, err := Open(bytes.NewReader(b), int64(len(b)))
		require.ErrorIs(t, err, ErrUnsupported)
	}
	st := fld(0, -1, "st", "struct", true)
	st.Metadata = map[string][]byte{"packed": []byte("false")}
	b := (&tFile{rows: 1, fields: top(st, fld(1, 0, "a", "int32", true)),
		cols: []tCol{oneCol(tPage{length: 1, enc: structE()}), oneCol(flatPage(1, 32, u32s(1)))}}).bytes()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.NoError(t, f.Validate())
}

func TestLaterEncodingsRefused(t *testing.T) {
	// ArrayEncoding field 8 (fsst) with an empty message.
	b := (&tFile{rows: 1, fields: top(fld(0, -1, "s", "string", true)),
		cols: []tCol{oneCol(tPage{length: 1, rawEnc: []byte{0x42, 0x00}})}}).bytes()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	_, err = f.Read(ReadOptions{})
	require.ErrorIs(t, err, ErrUnsupported)
	require.Contains(t, err.Error(), "fsst")
}

func TestReadFooter(t *testing.T) {
	for name, want := range map[string]string{
		"v2_0_alltypes_5rows.lance": "2.0 (footer 0.3)", "v2_1_alltypes_5rows.lance": "2.1",
		"v2_2_alltypes_5rows.lance": "2.2", "v0_2_legacy_alltypes_5rows.lance": "legacy v1 (footer 0.2)",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(t, err)
		ft, err := ReadFooter(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		require.Equal(t, want, ft.String(), name)
		require.Equal(t, name != "v0_2_legacy_alltypes_5rows.lance", ft.Supported())
		if name == "v2_0_alltypes_5rows.lance" {
			// notes §2: column_meta_start 1847, cmo 3561, gbo 3801, 1 global buffer, 15 columns.
			require.Equal(t, Footer{1847, 3561, 3801, 1, 15, 0, 3}, ft)
		}
	}
	_, err := ReadFooter(bytes.NewReader([]byte("LANC")), 4)
	require.ErrorIs(t, err, ErrCorrupt)
}
