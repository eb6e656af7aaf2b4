package jsonarrow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// ParseSchema reads an Arrow schema written in JSON: an object with
// "fields" (or just the array of fields). A field is
//
//	{"name": "vec", "type": T, "nullable": true, "children": [fields...]}
//
// where nullable defaults to true and T is either a type name or an object
// of the Arrow integration-test JSON format ({"name": "int", "bitWidth":
// 32, "isSigned": true}, {"name": "floatingpoint", "precision": "SINGLE"},
// {"name": "fixedsizelist", "listSize": 768}, ...). Type names: bool,
// int8..int64, uint8..uint64, float16, float32, float64 (also halffloat,
// float, double), string (utf8), large_string, binary, large_binary,
// date32, timestamp[s|ms|us|ns] (optionally timestamp[us, UTC]), and
// list, large_list, fixed_size_list:N and struct, whose item or members
// are the children (a list's single child is its item; it defaults to a
// nullable "item" of the type given as "item": T when children are
// omitted).
func ParseSchema(b []byte) (*arrow.Schema, error) {
	var top struct {
		Fields []jsonField `json:"fields"`
	}
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		if err := json.Unmarshal(b, &top.Fields); err != nil {
			return nil, fmt.Errorf("jsonarrow: schema: %v", err)
		}
	} else if err := json.Unmarshal(b, &top); err != nil {
		return nil, fmt.Errorf("jsonarrow: schema: %v", err)
	}
	if len(top.Fields) == 0 {
		return nil, fmt.Errorf("jsonarrow: schema has no fields")
	}
	fs := make([]arrow.Field, len(top.Fields))
	seen := map[string]bool{}
	for i := range top.Fields {
		f, err := top.Fields[i].arrow("", 0)
		if err != nil {
			return nil, err
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("jsonarrow: schema: field %q twice", f.Name)
		}
		seen[f.Name] = true
		fs[i] = f
	}
	return arrow.NewSchema(fs, nil), nil
}

type jsonField struct {
	Name     string          `json:"name"`
	Type     json.RawMessage `json:"type"`
	Item     json.RawMessage `json:"item"`
	Nullable *bool           `json:"nullable"`
	Children []jsonField     `json:"children"`
}

type jsonType struct {
	Name      string `json:"name"`
	BitWidth  int    `json:"bitWidth"`
	IsSigned  bool   `json:"isSigned"`
	Precision string `json:"precision"`
	Unit      string `json:"unit"`
	Timezone  string `json:"timezone"`
	ListSize  int    `json:"listSize"`
}

func (f *jsonField) arrow(parent string, depth int) (arrow.Field, error) {
	p := parent + f.Name
	if f.Name == "" {
		return arrow.Field{}, fmt.Errorf("jsonarrow: schema: a field under %q has no name", parent)
	}
	if depth > DefaultMaxDepth {
		return arrow.Field{}, fmt.Errorf("jsonarrow: schema: field %q nested deeper than %d", p, DefaultMaxDepth)
	}
	bad := func(format string, args ...any) (arrow.Field, error) {
		return arrow.Field{}, fmt.Errorf("jsonarrow: schema: field %q: %s", p, fmt.Sprintf(format, args...))
	}
	var name string
	var jt jsonType
	if len(f.Type) == 0 {
		return bad("no type")
	}
	if f.Type[0] == '"' {
		if err := json.Unmarshal(f.Type, &name); err != nil {
			return bad("%v", err)
		}
	} else {
		if err := json.Unmarshal(f.Type, &jt); err != nil {
			return bad("%v", err)
		}
		var err error
		if name, err = jt.shorthand(); err != nil {
			return bad("%v", err)
		}
	}
	nullable := f.Nullable == nil || *f.Nullable
	children := func(want int) ([]arrow.Field, error) {
		cs := f.Children
		if len(cs) == 0 && len(f.Item) > 0 && want == 1 {
			cs = []jsonField{{Name: "item", Type: f.Item}}
		}
		if want > 0 && len(cs) != want {
			return nil, fmt.Errorf("jsonarrow: schema: field %q: %s needs %d child, has %d", p, name, want, len(cs))
		}
		out := make([]arrow.Field, len(cs))
		for i := range cs {
			c, err := cs[i].arrow(p+".", depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	var dt arrow.DataType
	switch n := strings.ToLower(strings.TrimSpace(name)); {
	case n == "list" || n == "large_list":
		cs, err := children(1)
		if err != nil {
			return arrow.Field{}, err
		}
		if n == "list" {
			dt = arrow.ListOfField(cs[0])
		} else {
			dt = arrow.LargeListOfField(cs[0])
		}
	case strings.HasPrefix(n, "fixed_size_list:"):
		size, err := strconv.Atoi(strings.TrimPrefix(n, "fixed_size_list:"))
		if err != nil || size <= 0 || size > 1<<20 {
			return bad("bad list size in %q", name)
		}
		cs, err := children(1)
		if err != nil {
			return arrow.Field{}, err
		}
		dt = arrow.FixedSizeListOfField(int32(size), cs[0])
	case n == "struct":
		cs, err := children(0)
		if err != nil {
			return arrow.Field{}, err
		}
		if len(cs) == 0 {
			return bad("struct without children")
		}
		dt = arrow.StructOf(cs...)
	default:
		var ok bool
		if dt, ok = scalarType(strings.TrimSpace(name)); !ok {
			return bad("unknown type %q", name)
		}
		if len(f.Children) > 0 {
			return bad("%s has no children", name)
		}
	}
	return arrow.Field{Name: f.Name, Type: dt, Nullable: nullable}, nil
}

// shorthand maps an integration-format type object to a type name.
func (t jsonType) shorthand() (string, error) {
	switch strings.ToLower(t.Name) {
	case "int":
		if t.BitWidth != 8 && t.BitWidth != 16 && t.BitWidth != 32 && t.BitWidth != 64 {
			return "", fmt.Errorf("int bitWidth %d", t.BitWidth)
		}
		if t.IsSigned {
			return "int" + strconv.Itoa(t.BitWidth), nil
		}
		return "uint" + strconv.Itoa(t.BitWidth), nil
	case "floatingpoint":
		switch strings.ToUpper(t.Precision) {
		case "HALF":
			return "float16", nil
		case "SINGLE":
			return "float32", nil
		case "DOUBLE":
			return "float64", nil
		}
		return "", fmt.Errorf("floatingpoint precision %q", t.Precision)
	case "utf8":
		return "string", nil
	case "largeutf8":
		return "large_string", nil
	case "largebinary":
		return "large_binary", nil
	case "largelist":
		return "large_list", nil
	case "fixedsizelist":
		return "fixed_size_list:" + strconv.Itoa(t.ListSize), nil
	case "date":
		if strings.ToUpper(t.Unit) != "DAY" {
			return "", fmt.Errorf("date unit %q (only DAY)", t.Unit)
		}
		return "date32", nil
	case "timestamp":
		u := map[string]string{"SECOND": "s", "MILLISECOND": "ms", "MICROSECOND": "us", "NANOSECOND": "ns"}[strings.ToUpper(t.Unit)]
		if u == "" {
			return "", fmt.Errorf("timestamp unit %q", t.Unit)
		}
		if t.Timezone != "" {
			return "timestamp[" + u + ", " + t.Timezone + "]", nil
		}
		return "timestamp[" + u + "]", nil
	case "bool", "binary", "list", "struct":
		return strings.ToLower(t.Name), nil
	}
	return "", fmt.Errorf("type %q", t.Name)
}

func scalarType(name string) (arrow.DataType, bool) {
	n := strings.ToLower(name)
	switch n {
	case "bool", "boolean":
		return arrow.FixedWidthTypes.Boolean, true
	case "int8":
		return arrow.PrimitiveTypes.Int8, true
	case "int16":
		return arrow.PrimitiveTypes.Int16, true
	case "int32":
		return arrow.PrimitiveTypes.Int32, true
	case "int64":
		return arrow.PrimitiveTypes.Int64, true
	case "uint8":
		return arrow.PrimitiveTypes.Uint8, true
	case "uint16":
		return arrow.PrimitiveTypes.Uint16, true
	case "uint32":
		return arrow.PrimitiveTypes.Uint32, true
	case "uint64":
		return arrow.PrimitiveTypes.Uint64, true
	case "float16", "halffloat":
		return arrow.FixedWidthTypes.Float16, true
	case "float32", "float":
		return arrow.PrimitiveTypes.Float32, true
	case "float64", "double":
		return arrow.PrimitiveTypes.Float64, true
	case "string", "utf8":
		return arrow.BinaryTypes.String, true
	case "large_string", "large_utf8":
		return arrow.BinaryTypes.LargeString, true
	case "binary":
		return arrow.BinaryTypes.Binary, true
	case "large_binary":
		return arrow.BinaryTypes.LargeBinary, true
	case "date32":
		return arrow.FixedWidthTypes.Date32, true
	}
	if strings.HasPrefix(n, "timestamp[") && strings.HasSuffix(n, "]") {
		rest := name[len("timestamp["):]
		unit, tz, _ := strings.Cut(strings.TrimSuffix(rest, "]"), ",")
		units := map[string]arrow.TimeUnit{"s": arrow.Second, "ms": arrow.Millisecond, "us": arrow.Microsecond, "ns": arrow.Nanosecond}
		u, ok := units[strings.ToLower(strings.TrimSpace(unit))]
		if !ok {
			return nil, false
		}
		tz = strings.TrimSpace(tz)
		if strings.EqualFold(tz, "utc") {
			tz = "UTC"
		}
		return &arrow.TimestampType{Unit: u, TimeZone: tz}, true
	}
	return nil, false
}
