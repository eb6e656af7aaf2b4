package lance

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// expectedValue renders element i of a as the JSON value the data README
// documents (what LanceDB returns), decoded into Go values so it can be
// compared with the expected JSON structurally.
func expectedValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	num := func(f float64) any { return f }
	flt := func(f float64) any {
		switch {
		case math.IsNaN(f):
			return "NaN"
		case math.IsInf(f, 1):
			return "Infinity"
		case math.IsInf(f, -1):
			return "-Infinity"
		case f == 0 && math.Signbit(f):
			return "-0"
		}
		return f
	}
	switch v := a.(type) {
	case *array.Int8:
		return num(float64(v.Value(i)))
	case *array.Int16:
		return num(float64(v.Value(i)))
	case *array.Int32:
		return num(float64(v.Value(i)))
	case *array.Uint8:
		return num(float64(v.Value(i)))
	case *array.Uint16:
		return num(float64(v.Value(i)))
	case *array.Uint32:
		return num(float64(v.Value(i)))
	case *array.Int64:
		return strconv.FormatInt(v.Value(i), 10)
	case *array.Uint64:
		return strconv.FormatUint(v.Value(i), 10)
	case *array.Float16:
		return flt(halfToFloat64(v.Value(i).Uint16()))
	case *array.Float32:
		return flt(float64(v.Value(i)))
	case *array.Float64:
		return flt(v.Value(i))
	case *array.Boolean:
		return v.Value(i)
	case *array.String:
		return v.Value(i)
	case *array.LargeString:
		return v.Value(i)
	case *array.Binary:
		return base64.StdEncoding.EncodeToString(v.Value(i))
	case *array.LargeBinary:
		return base64.StdEncoding.EncodeToString(v.Value(i))
	case *array.FixedSizeBinary:
		return base64.StdEncoding.EncodeToString(v.Value(i))
	case *array.Date32:
		return time.Unix(int64(v.Value(i))*86400, 0).UTC().Format("2006-01-02")
	case *array.Timestamp:
		return time.UnixMicro(int64(v.Value(i))).UTC().Format("2006-01-02T15:04:05.000000Z")
	case *array.Decimal128:
		n := v.Value(i)
		b := n.BigInt()
		s := v.DataType().(*arrow.Decimal128Type).Scale
		neg := b.Sign() < 0
		digits := new(big.Int).Abs(b).String()
		for len(digits) <= int(s) {
			digits = "0" + digits
		}
		out := digits[:len(digits)-int(s)]
		if s > 0 {
			out += "." + digits[len(digits)-int(s):]
		}
		if neg {
			out = "-" + out
		}
		return out
	case *array.Map:
		s, e := v.ValueOffsets(i)
		keys, items := v.Keys(), v.Items()
		out := []any{}
		for k := s; k < e; k++ {
			out = append(out, []any{expectedValue(keys, int(k)), expectedValue(items, int(k))})
		}
		return out
	case *array.List:
		s, e := v.ValueOffsets(i)
		out := []any{}
		for k := s; k < e; k++ {
			out = append(out, expectedValue(v.ListValues(), int(k)))
		}
		return out
	case *array.LargeList:
		s, e := v.ValueOffsets(i)
		out := []any{}
		for k := s; k < e; k++ {
			out = append(out, expectedValue(v.ListValues(), int(k)))
		}
		return out
	case *array.FixedSizeList:
		d := int(v.DataType().(*arrow.FixedSizeListType).Len())
		out := []any{}
		for k := 0; k < d; k++ {
			out = append(out, expectedValue(v.ListValues(), (i+v.Offset())*d+k-v.Offset()*d+v.Offset()*d))
		}
		return out
	case *array.Struct:
		out := map[string]any{}
		st := v.DataType().(*arrow.StructType)
		for k := 0; k < v.NumField(); k++ {
			out[st.Field(k).Name] = expectedValue(v.Field(k), i)
		}
		return out
	case *array.Null:
		return nil
	}
	panic(fmt.Sprintf("no rendering for %s", a.DataType()))
}

// halfToFloat64 converts IEEE half-precision bits exactly (subnormals
// included).
func halfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+m, e-25)
}

// readExpected parses <table>.expected.jsonl into generic rows.
func readExpected(t *testing.T, p string) []map[string]any {
	t.Helper()
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, m)
	}
	return rows
}

// normalize passes a value through JSON so numbers compare as float64.
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// Single-fragment tables without deletions: the one data file reads back
// exactly LanceDB's rows (multipage: minus the dropped pad column).
func TestV21ExpectedRows(t *testing.T) {
	root := shareddata.Path(t, "lance21")
	for _, v := range []string{"2.1", "2.2"} {
		for _, table := range []string{"primitives", "strings", "nested", "wide", "extras", "multipage"} {
			files, _ := filepath.Glob(filepath.Join(root, v, table+".lance", "data", "*.lance"))
			if len(files) == 0 {
				continue
			}
			t.Run(v+"/"+table, func(t *testing.T) {
				if len(files) != 1 {
					t.Fatalf("%d data files", len(files))
				}
				want := readExpected(t, filepath.Join(root, v, table+".expected.jsonl"))
				data, err := os.ReadFile(files[0])
				if err != nil {
					t.Fatal(err)
				}
				f, err := Open(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					t.Fatal(err)
				}
				if got := int(f.NumRows()); got != len(want) {
					t.Fatalf("%d rows, want %d", got, len(want))
				}
				var cols []string
				for _, fd := range f.Schema().Fields() {
					if _, ok := want[0][fd.Name]; ok {
						cols = append(cols, fd.Name)
					}
				}
				if len(cols) != len(want[0]) {
					t.Fatalf("file has columns %v, expected rows have %d keys", cols, len(want[0]))
				}
				row := 0
				for rec, err := range f.Records(ReadOptions{Columns: cols, BatchRows: 333}) {
					if err != nil {
						t.Fatal(err)
					}
					for i := 0; i < int(rec.NumRows()); i++ {
						for c, name := range cols {
							got := normalize(expectedValue(rec.Column(c), i))
							if w := want[row][name]; !reflect.DeepEqual(got, w) {
								t.Fatalf("row %d column %s: got %v, want %v", row, name, got, w)
							}
						}
						row++
					}
					rec.Release()
				}
				if row != len(want) {
					t.Fatalf("read %d rows, want %d", row, len(want))
				}
			})
		}
	}
}
