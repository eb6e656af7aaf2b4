package lance

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// describe is the Describe text of file b, one line a column.
func describe(t testing.TB, b []byte) string {
	t.Helper()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := f.Describe(&sb); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// columnLine is the Describe text of column name's pages.
func columnLine(t testing.TB, desc, name string) string {
	t.Helper()
	_, after, ok := strings.Cut(desc, "("+name+"): ")
	if !ok {
		t.Fatalf("no column %s in\n%s", name, desc)
	}
	if i := strings.Index(after, "\n  column "); i >= 0 {
		after = after[:i]
	}
	return after
}

// lowCardRecord: 64-bit columns of 6 distinct random values (nulls in
// some), a 64-bit column of distinct values and one of 6 small ints.
func lowCardRecord(n int, seed uint64) (*arrow.Schema, arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_us, Nullable: true},
		{Name: "uniq", Type: arrow.PrimitiveTypes.Int64},
		{Name: "small", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	r := rand.New(rand.NewPCG(seed, 1))
	var ints [6]int64
	var floats [6]float64
	for i := range ints {
		ints[i] = int64(r.Uint64())
		floats[i] = r.NormFloat64() * 1e6
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := 0; i < n; i++ {
		k := r.IntN(6)
		if i%9 == 4 {
			b.Field(0).AppendNull()
			b.Field(2).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(ints[k])
			b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(ints[k] >> 8))
		}
		b.Field(1).(*array.Float64Builder).Append(floats[k])
		b.Field(3).(*array.Int64Builder).Append(int64(r.Uint64()))
		b.Field(4).(*array.Int64Builder).Append(int64(k))
	}
	return schema, b.NewRecordBatch()
}

// TestWriteDict64: in 2.2, pages of few distinct 64-bit values become
// dictionaries of flat{64} items (LZ4-compressed when that shrinks them),
// as lance 12 writes them; distinct values and small integers (bit-packing
// is smaller) do not, and 2.1 never writes them. Read back equal.
func TestWriteDict64(t *testing.T) {
	schema, rec := lowCardRecord(5000, 3)
	defer rec.Release()
	recs := []arrow.RecordBatch{rec}
	b := writeFile(t, schema, recs)
	checkRoundTrip(t, b, schema, recs)
	desc := describe(t, b)
	for _, col := range []string{"i64", "f64", "ts"} {
		if l := columnLine(t, desc, col); !strings.Contains(l, "dictionary=flat(64)") && !strings.Contains(l, "dictionary=general(LZ4, flat(64))") {
			t.Errorf("column %s is not a 64-bit dictionary: %s", col, l)
		}
	}
	for _, col := range []string{"uniq", "small"} {
		if l := columnLine(t, desc, col); strings.Contains(l, "dictionary=") {
			t.Errorf("column %s got a dictionary: %s", col, l)
		}
	}
	plain := writeFile(t, schema, recs, WithFormatVersion("2.1"))
	checkRoundTrip(t, plain, schema, recs)
	// 2.1 has no 64-bit dictionaries: lance 12 run-length encodes these
	// values (runs of 1.2 values, still smaller than flat), and so do we.
	if l := columnLine(t, describe(t, plain), "f64"); strings.Contains(l, "dictionary=") || !strings.Contains(l, "value=rle(flat(64), flat(8))") {
		t.Errorf("2.1 column f64: %s", l)
	}
	if len(b)*10 > len(plain)*8 {
		t.Errorf("2.2 file with dictionaries %d bytes, 2.1 without %d", len(b), len(plain))
	}
	// Several pages, and a page split inside the batch.
	b = writeFile(t, schema, recs, WithPageBytes(16<<10))
	checkRoundTrip(t, b, schema, recs)
}

// runsRecord: integer columns of long runs (some nulls, runs longer than
// 255 and across chunk and page boundaries), and a column without runs.
func runsRecord(n int, seed uint64) (*arrow.Schema, arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "r8", Type: arrow.PrimitiveTypes.Int8},
		{Name: "r16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "r32", Type: arrow.PrimitiveTypes.Int32},
		{Name: "r64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "noise", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	r := rand.New(rand.NewPCG(seed, 2))
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	var v int32
	left := 0
	for i := 0; i < n; i++ {
		if left == 0 {
			v, left = r.Int32(), 1+r.IntN(600)
		}
		left--
		b.Field(0).(*array.Int8Builder).Append(int8(v))
		if i%1000 == 7 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.Uint16Builder).Append(uint16(v >> 3))
		}
		b.Field(2).(*array.Int32Builder).Append(v)
		b.Field(3).(*array.Float64Builder).Append(float64(v) / 3)
		b.Field(4).(*array.Int32Builder).Append(r.Int32())
	}
	return schema, b.NewRecordBatch()
}

// TestWriteRLE: mini-block pages whose values run long are run-length
// encoded (rle{flat, flat{8}} in two chunk buffers) in 2.1 and 2.2, and
// read back equal; values without runs are not. In 2.2 def levels in long
// runs are RLE blocks too.
func TestWriteRLE(t *testing.T) {
	schema, rec := runsRecord(20000, 5)
	defer rec.Release()
	recs := []arrow.RecordBatch{rec}
	for _, v := range []string{"2.2", "2.1"} {
		for _, pb := range []int64{DefaultPageBytes, 8 << 10} {
			b := writeFile(t, schema, recs, WithFormatVersion(v), WithPageBytes(pb))
			checkRoundTrip(t, b, schema, recs)
			desc := describe(t, b)
			for _, col := range []string{"r8", "r16", "r32", "r64"} {
				if l := columnLine(t, desc, col); !strings.Contains(l, "value=rle(") {
					t.Errorf("%s pages of %d bytes: column %s is not RLE: %s", v, pb, col, l)
				}
			}
			// Def levels of rare nulls: RLE blocks in 2.2 (lance 12), packed in 2.1.
			if l := columnLine(t, desc, "r16"); strings.Contains(l, "def=rle(flat(16), flat(8))") != (v == "2.2") {
				t.Errorf("%s: def levels of r16: %s", v, l)
			}
			if l := columnLine(t, desc, "noise"); strings.Contains(l, "rle(") {
				t.Errorf("%s: column noise is RLE: %s", v, l)
			}
		}
	}
	// Runs cut at 255 and chunk ends.
	require := func(got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("got %d runs, want %d", got, want)
		}
	}
	require(rleRuns(make([]byte, 4*600), 4, 4096), 3)
	require(rleRuns(make([]byte, 4*4200), 4, 4096), 18)
	vals, lens := rleChunk([]byte{1, 1, 1, 2}, 1, 4)
	if string(vals) != "\x01\x02" || string(lens) != "\x03\x01" {
		t.Errorf("rleChunk: %x %x", vals, lens)
	}
}

// TestWriteBSS: with WithCompression, float pages whose byte streams
// compress better are byte-stream-split under General compression
// (general(ZSTD, byte_stream_split(flat(64)))), as lance 12 writes them;
// read back equal, and never without compression.
func TestWriteBSS(t *testing.T) {
	schema, rec := floatWalkRecord(6000, 9)
	defer rec.Release()
	recs := []arrow.RecordBatch{rec}
	for _, v := range []string{"2.2", "2.1"} {
		for _, sc := range []string{"zstd", "lz4"} {
			f := writeFile(t, schema, recs, WithFormatVersion(v), WithCompression(sc))
			checkRoundTrip(t, f, schema, recs)
			if sc != "zstd" {
				continue
			}
			desc := describe(t, f)
			for _, col := range []string{"f32", "f64"} {
				if l := columnLine(t, desc, col); !strings.Contains(l, "value=general(ZSTD, byte_stream_split(flat(") {
					t.Errorf("%s zstd: column %s is not byte-stream-split: %s", v, col, l)
				}
			}
		}
		f := writeFile(t, schema, recs, WithFormatVersion(v))
		checkRoundTrip(t, f, schema, recs)
		if strings.Contains(describe(t, f), "byte_stream_split") {
			t.Errorf("%s: byte-stream-split without compression", v)
		}
	}
	if got := bssChunk([]byte{1, 2, 3, 4, 5, 6}, 2, 3); string(got) != "\x01\x03\x05\x02\x04\x06" {
		t.Errorf("bssChunk: %x", got)
	}
}

// floatWalkRecord: n float32 (some null) and float64 values of a random
// walk.
func floatWalkRecord(n int, seed uint64) (*arrow.Schema, arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	r := rand.New(rand.NewPCG(seed, 9))
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	x := 100.0
	for i := 0; i < n; i++ {
		x += r.NormFloat64()
		if i%50 == 3 {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Float32Builder).Append(float32(x))
		}
		b.Field(1).(*array.Float64Builder).Append(x)
	}
	return schema, b.NewRecordBatch()
}
