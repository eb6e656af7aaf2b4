package lance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// genOpts steer the random record generator.
type genOpts struct {
	pNull   float64 // chance of a null at a nullable level
	pEmpty  float64 // chance of an empty list
	maxList int     // longest list
	maxStr  int     // longest string
	card    int     // > 0: strings and ints drawn from this many values
	// noStructNull: structs are never null (file format 2.0)
	noStructNull bool
}

// appendRandom appends one random value of b's type.
func appendRandom(b array.Builder, dt arrow.DataType, nullable bool, r *rand.Rand, g genOpts) {
	if _, isStruct := dt.(*arrow.StructType); isStruct && g.noStructNull {
		nullable = false
	}
	if nullable && r.Float64() < g.pNull {
		b.AppendNull()
		return
	}
	pick := func(n int64) int64 {
		if g.card > 0 {
			return r.Int64N(int64(g.card))
		}
		return r.Int64N(n)
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		bb.Append(r.IntN(2) == 1)
	case *array.Int8Builder:
		bb.Append(int8(pick(256) - 128))
	case *array.Uint8Builder:
		bb.Append(uint8(pick(256)))
	case *array.Int16Builder:
		bb.Append(int16(pick(1 << 16)))
	case *array.Uint16Builder:
		bb.Append(uint16(pick(1 << 16)))
	case *array.Int32Builder:
		bb.Append(int32(pick(1<<31) - 1<<30))
	case *array.Uint32Builder:
		bb.Append(uint32(pick(1 << 32)))
	case *array.Int64Builder:
		bb.Append(pick(1<<62) - 1<<61)
	case *array.Uint64Builder:
		bb.Append(uint64(pick(1<<62)) * 3)
	case *array.Float16Builder:
		bb.Append(float16.New(float32(pick(1000)) / 8))
	case *array.Float32Builder:
		bb.Append(float32(pick(1<<20)) / 7)
	case *array.Float64Builder:
		bb.Append(float64(pick(1<<40)) / 3)
	case *array.Date32Builder:
		bb.Append(arrow.Date32(pick(40000)))
	case *array.Date64Builder:
		bb.Append(arrow.Date64(pick(1 << 40)))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(pick(86400)))
	case *array.Time64Builder:
		bb.Append(arrow.Time64(pick(86400e6)))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(pick(1 << 50)))
	case *array.DurationBuilder:
		bb.Append(arrow.Duration(pick(1 << 40)))
	case *array.Decimal128Builder:
		bb.Append(decimal128.FromI64(pick(1 << 50)))
	case *array.FixedSizeBinaryBuilder:
		v := make([]byte, dt.(*arrow.FixedSizeBinaryType).ByteWidth)
		x := pick(1 << 40)
		for i := range v {
			v[i] = byte(x >> (i % 8 * 8))
		}
		bb.Append(v)
	case *array.StringBuilder:
		bb.Append(randString(r, g, pick))
	case *array.LargeStringBuilder:
		bb.Append(randString(r, g, pick))
	case *array.BinaryBuilder:
		bb.Append([]byte(randString(r, g, pick)))
	case *array.FixedSizeListBuilder:
		t := dt.(*arrow.FixedSizeListType)
		bb.Append(true)
		for range t.Len() {
			appendRandom(bb.ValueBuilder(), t.Elem(), t.ElemField().Nullable, r, g)
		}
	case *array.MapBuilder:
		t := dt.(*arrow.MapType)
		n := r.IntN(g.maxList + 1)
		if r.Float64() < g.pEmpty {
			n = 0
		}
		bb.Append(true)
		for i := range n {
			bb.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("k%d", i))
			appendRandom(bb.ItemBuilder(), t.ItemType(), t.ItemField().Nullable, r, g)
		}
	case *array.ListBuilder:
		t := dt.(*arrow.ListType)
		n := r.IntN(g.maxList + 1)
		if r.Float64() < g.pEmpty {
			n = 0
		}
		bb.Append(true)
		for range n {
			appendRandom(bb.ValueBuilder(), t.Elem(), t.ElemField().Nullable, r, g)
		}
	case *array.LargeListBuilder:
		t := dt.(*arrow.LargeListType)
		n := r.IntN(g.maxList + 1)
		if r.Float64() < g.pEmpty {
			n = 0
		}
		bb.Append(true)
		for range n {
			appendRandom(bb.ValueBuilder(), t.Elem(), t.ElemField().Nullable, r, g)
		}
	case *array.StructBuilder:
		t := dt.(*arrow.StructType)
		bb.Append(true)
		for i, f := range t.Fields() {
			appendRandom(bb.FieldBuilder(i), f.Type, f.Nullable, r, g)
		}
	default:
		panic(fmt.Sprintf("appendRandom: %T", b))
	}
}

func randString(r *rand.Rand, g genOpts, pick func(int64) int64) string {
	if g.card > 0 {
		return fmt.Sprintf("value-%d", pick(0))
	}
	n := r.IntN(g.maxStr + 1)
	var sb strings.Builder
	for range n {
		sb.WriteByte(byte('a' + r.IntN(26)))
	}
	return sb.String()
}

func randRecord(schema *arrow.Schema, rows int, r *rand.Rand, g genOpts) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		fb := b.Field(i)
		for range rows {
			appendRandom(fb, f.Type, f.Nullable, r, g)
		}
	}
	return b.NewRecordBatch()
}

// writeFile writes recs with opts and returns the file bytes.
func writeFile(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch, opts ...Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkRoundTrip reads b back and compares it with recs.
func checkRoundTrip(t testing.TB, b []byte, schema *arrow.Schema, recs []arrow.RecordBatch) {
	t.Helper()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if err := f.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	if f.NumRows() != rows {
		t.Fatalf("file has %d rows, wrote %d", f.NumRows(), rows)
	}
	got, err := f.Read(ReadOptions{})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	defer got.Release()
	for i, fld := range schema.Fields() {
		var parts []arrow.Array
		for _, r := range recs {
			parts = append(parts, r.Column(i))
		}
		want, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		g := got.Column(i)
		if !arrow.TypeEqual(g.DataType(), want.DataType()) {
			t.Fatalf("column %s: type %s, want %s", fld.Name, g.DataType(), want.DataType())
		}
		if !array.Equal(want, g) {
			for k := 0; k < want.Len(); k++ {
				if !array.SliceEqual(want, int64(k), int64(k+1), g, int64(k), int64(k+1)) {
					t.Fatalf("column %s row %d: got %s, want %s", fld.Name, k, sliceStr(g, k), sliceStr(want, k))
				}
			}
			t.Fatalf("column %s differs", fld.Name)
		}
		want.Release()
	}
}

func sliceStr(a arrow.Array, k int) string {
	s := array.NewSlice(a, int64(k), int64(k+1))
	defer s.Release()
	return fmt.Sprint(s)
}

func allTypesSchema() *arrow.Schema {
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "f16", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ls", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "d32", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "d64", Type: arrow.FixedWidthTypes.Date64, Nullable: true},
		{Name: "t32", Type: arrow.FixedWidthTypes.Time32s, Nullable: true},
		{Name: "t64", Type: arrow.FixedWidthTypes.Time64ns, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "dur", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 18, Scale: 2}, Nullable: true},
		{Name: "fsb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 16}, Nullable: true},
		{Name: "vec", Type: arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "vnn", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int16)}, // Lance types cannot say "items not null"
		{Name: "fslfsl", Type: arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32)), Nullable: true},
		{Name: "li", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "lnn", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int64)},
		{Name: "lstr", Type: arrow.LargeListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "lli", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), Nullable: true},
		{Name: "st", Type: st, Nullable: true},
		{Name: "lst", Type: arrow.ListOf(st), Nullable: true},
		{Name: "stl", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32},
			arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true}), Nullable: true},
		{Name: "lfsl", Type: arrow.ListOf(arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float32)), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
}

func TestWriteRoundTripAllTypes(t *testing.T) {
	schema := allTypesSchema()
	for _, g := range []genOpts{
		{pNull: 0.2, pEmpty: 0.2, maxList: 4, maxStr: 12},
		{pNull: 0, pEmpty: 0, maxList: 3, maxStr: 5},
		{pNull: 1, maxList: 3, maxStr: 5},
		{pNull: 0.05, pEmpty: 0.5, maxList: 2, maxStr: 40, card: 3},
		{pNull: 0.1, pEmpty: 0.1, maxList: 2, maxStr: 4, card: 1},
	} {
		t.Run(fmt.Sprintf("null%v_empty%v_card%d", g.pNull, g.pEmpty, g.card), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(g.card)))
			recs := []arrow.RecordBatch{randRecord(schema, 300, r, g), randRecord(schema, 0, r, g), randRecord(schema, 1, r, g), randRecord(schema, 5000, r, g)}
			for _, v := range []string{"2.2", "2.1"} {
				s := schema
				if v == "2.1" {
					s = arrow.NewSchema(schema.Fields()[:len(schema.Fields())-1], nil) // no maps in 2.1
					var rs []arrow.RecordBatch
					for _, rec := range recs {
						rs = append(rs, array.NewRecordBatch(s, rec.Columns()[:len(rec.Columns())-1], rec.NumRows()))
					}
					b := writeFile(t, s, rs, WithFormatVersion(v))
					checkRoundTrip(t, b, s, rs)
					continue
				}
				b := writeFile(t, s, recs, WithFormatVersion(v))
				checkRoundTrip(t, b, s, recs)
			}
		})
	}
}

// schema20 is allTypesSchema without what 2.0 cannot store (maps, nested
// fixed-size lists).
func schema20() *arrow.Schema {
	var fs []arrow.Field
	for _, f := range allTypesSchema().Fields() {
		if f.Name != "m" && f.Name != "fslfsl" {
			fs = append(fs, f)
		}
	}
	return arrow.NewSchema(fs, nil)
}

func TestWriteRoundTrip20(t *testing.T) {
	schema := schema20()
	for _, g := range []genOpts{
		{pNull: 0.2, pEmpty: 0.2, maxList: 4, maxStr: 12, noStructNull: true},
		{pNull: 0, maxList: 3, maxStr: 5},
		{pNull: 1, maxList: 3, maxStr: 5, noStructNull: true},
	} {
		t.Run(fmt.Sprintf("null%v", g.pNull), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 6))
			recs := []arrow.RecordBatch{randRecord(schema, 300, r, g), randRecord(schema, 0, r, g), randRecord(schema, 2000, r, g)}
			b := writeFile(t, schema, recs, WithFormatVersion("2.0"), WithPageBytes(8<<10))
			checkRoundTrip(t, b, schema, recs)
		})
	}
}

func TestWriteRoundTripCompression(t *testing.T) {
	for _, v := range []string{"2.2", "2.1", "2.0"} {
		schema := allTypesSchema()
		g := genOpts{pNull: 0.1, pEmpty: 0.1, maxList: 3, maxStr: 30}
		if v != "2.2" {
			schema = schema20()
			g.noStructNull = v == "2.0"
		}
		for _, sc := range []string{"lz4", "zstd"} {
			t.Run(v+"/"+sc, func(t *testing.T) {
				r := rand.New(rand.NewPCG(8, 9))
				recs := []arrow.RecordBatch{randRecord(schema, 2000, r, g), randRecord(schema, 3000, r, genOpts{pNull: 0.1, maxList: 2, maxStr: 30, card: 4, noStructNull: true})}
				plain := writeFile(t, schema, recs, WithFormatVersion(v))
				b := writeFile(t, schema, recs, WithFormatVersion(v), WithCompression(sc))
				checkRoundTrip(t, b, schema, recs)
				if len(b) >= len(plain) {
					t.Errorf("%s: compressed file %d bytes, plain %d", sc, len(b), len(plain))
				}
				t.Logf("%s %s: %d -> %d bytes", v, sc, len(plain), len(b))
			})
		}
	}
}

// Small pages: every column gets several pages (2.0 item columns cut
// independently of their offsets), lists longer than a mini-block chunk
// and a page, strings of 300 B (full-zip) and 1 MiB.
func TestWriteMultiPage(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "big", Type: arrow.BinaryTypes.LargeBinary, Nullable: true},
		{Name: "li", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "vec", Type: arrow.FixedSizeListOf(96, arrow.PrimitiveTypes.Float32), Nullable: true},
	}, nil)
	mem := memory.DefaultAllocator
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	r := rand.New(rand.NewPCG(11, 12))
	long := strings.Repeat("x", 300)
	huge := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	for i := range 3000 {
		b.Field(0).(*array.Int64Builder).Append(int64(i) * 1000003)
		switch i % 7 {
		case 0:
			b.Field(1).AppendNull()
		case 1:
			b.Field(1).(*array.StringBuilder).Append(long + fmt.Sprint(i))
		default:
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprint("s", i))
		}
		switch {
		case i == 5 || i == 2999:
			b.Field(2).(*array.BinaryBuilder).Append(huge)
		case i%3 == 0:
			b.Field(2).AppendNull()
		default:
			b.Field(2).(*array.BinaryBuilder).Append([]byte(fmt.Sprint(i)))
		}
		lb := b.Field(3).(*array.ListBuilder)
		switch {
		case i%11 == 0:
			lb.AppendNull()
		case i == 100 || i == 2000:
			lb.Append(true) // one list far longer than a chunk and a page
			for k := range 50000 {
				lb.ValueBuilder().(*array.Int32Builder).Append(int32(k))
			}
		default:
			lb.Append(true)
			for k := range i % 5 {
				lb.ValueBuilder().(*array.Int32Builder).Append(int32(i + k))
			}
		}
		vb := b.Field(4).(*array.FixedSizeListBuilder)
		if i%13 == 0 {
			vb.AppendNull()
		} else {
			vb.Append(true)
			for range 96 {
				vb.ValueBuilder().(*array.Float32Builder).Append(r.Float32())
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	recs := []arrow.RecordBatch{rec.NewSlice(0, 1000), rec.NewSlice(1000, 1000), rec.NewSlice(1000, 3000)}
	for _, v := range []string{"2.2", "2.1", "2.0"} {
		t.Run(v, func(t *testing.T) {
			data := writeFile(t, schema, recs, WithFormatVersion(v), WithPageBytes(16<<10))
			checkRoundTrip(t, data, schema, recs)
			f, err := Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range f.Columns() {
				if len(c.Pages) < 2 {
					t.Errorf("column %d has %d pages, want several", i, len(c.Pages))
				}
			}
		})
	}
}

// A million rows of ints, strings and lists round-trip.
func TestWriteMillionRows(t *testing.T) {
	if testing.Short() {
		t.Skip("1M rows: skipped in -short")
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "li", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16), Nullable: true},
	}, nil)
	r := rand.New(rand.NewPCG(1, 1))
	var recs []arrow.RecordBatch
	for range 8 {
		recs = append(recs, randRecord(schema, 125000, r, genOpts{pNull: 0.05, pEmpty: 0.1, maxList: 3, maxStr: 8}))
	}
	for _, v := range []string{"2.2", "2.0"} {
		data := writeFile(t, schema, recs, WithFormatVersion(v))
		checkRoundTrip(t, data, schema, recs)
	}
}

func TestWriteErrors(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	var buf bytes.Buffer
	if _, err := NewWriter(nil, schema); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil writer: %v", err)
	}
	if _, err := NewWriter(&buf, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil schema: %v", err)
	}
	for _, o := range []Option{WithFormatVersion("2.3"), WithFormatVersion(""), WithPageBytes(0), WithPageBytes(1 << 40), WithCompression("gzip")} {
		if _, err := NewWriter(&buf, schema, o); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("bad option: %v", err)
		}
	}
	dict := arrow.NewSchema([]arrow.Field{{Name: "d", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}}}, nil)
	if _, err := NewWriter(&buf, dict); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "field d:") {
		t.Errorf("dictionary field: %v", err)
	}
	m := arrow.NewSchema([]arrow.Field{{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)}}, nil)
	for _, v := range []string{"2.0", "2.1"} {
		if _, err := NewWriter(&buf, m, WithFormatVersion(v)); !errors.Is(err, ErrUnsupported) {
			t.Errorf("map in %s: %v", v, err)
		}
	}
	w, err := NewWriter(&buf, schema)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil record: %v", err)
	}
	other := arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.PrimitiveTypes.Int32}}, nil)
	rec := randRecord(other, 3, rand.New(rand.NewPCG(1, 1)), genOpts{})
	if err := w.Write(rec); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("other schema: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := w.Write(randRecord(schema, 1, rand.New(rand.NewPCG(1, 1)), genOpts{})); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Write after Close: %v", err)
	}
	// 2.0 refuses null structs, naming the field.
	st := arrow.NewSchema([]arrow.Field{{Name: "st", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}), Nullable: true}}, nil)
	w, err = NewWriter(&buf, st, WithFormatVersion("2.0"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(randRecord(st, 50, rand.New(rand.NewPCG(1, 1)), genOpts{pNull: 0.5})); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "field st:") {
		t.Errorf("null struct in 2.0: %v", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed Write succeeded")
	}
}

// The writer holds about one page per column, not the file: writing 256
// MB in batches keeps the heap far below that.
func TestWriteBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("256 MB write: skipped in -short")
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "vec", Type: arrow.FixedSizeListOf(128, arrow.PrimitiveTypes.Float32)},
	}, nil)
	w, err := NewWriter(io.Discard, schema, WithPageBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 2))
	rec := randRecord(schema, 4096, r, genOpts{maxStr: 100})
	defer rec.Release()
	var peak uint64
	var ms runtime.MemStats
	for range 120 { // 120 x 2.3 MB
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if peak > 96<<20 {
		t.Errorf("heap reached %d MB writing %d rows", peak>>20, w.NumRows())
	}
	t.Logf("peak heap %d MB for %d rows", peak>>20, w.NumRows())
}
