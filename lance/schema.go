package lance

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

// fieldNode is one schema field with the physical columns it maps to.
type fieldNode struct {
	pb       *filepb.Field
	name     string
	path     string
	dt       arrow.DataType
	children []*fieldNode
	// col is the field's first column: the leaf, the struct header or the
	// list offsets column.
	col int
	// legacyList marks a 0.13 string/binary stored as List + u8 items.
	legacyList bool
	// 2.1+: the parent field, and packed marks a struct stored as one
	// column.
	parent *fieldNode
	packed bool
}

func (n *fieldNode) arrowField() arrow.Field {
	md := arrow.Metadata{}
	if len(n.pb.Metadata) > 0 {
		keys := make([]string, 0, len(n.pb.Metadata))
		vals := make([]string, 0, len(n.pb.Metadata))
		for k, v := range n.pb.Metadata {
			keys = append(keys, k)
			vals = append(vals, string(v))
		}
		md = arrow.NewMetadata(keys, vals)
	}
	return arrow.Field{Name: n.name, Type: n.dt, Nullable: n.pb.Nullable, Metadata: md}
}

// buildSchema turns the flattened pre-order field list into a tree, maps
// fields to columns the way 2.0 writers lay them out, and derives the
// Arrow schema.
func (f *File) buildSchema() error {
	pbFields := f.desc.GetSchema().GetFields()
	if len(pbFields) > f.cfg.maxColumns {
		return errs.TooLarge(ErrTooLarge, -1, "schema", "field count", uint64(len(pbFields)), int64(f.cfg.maxColumns))
	}
	byID := map[int32]*fieldNode{}
	depth := map[int32]int{}
	for _, p := range pbFields {
		n := &fieldNode{pb: p, name: p.Name}
		if p.ParentId == -1 {
			n.path = p.Name
			f.fields = append(f.fields, n)
			depth[p.Id] = 1
		} else {
			parent, ok := byID[p.ParentId]
			if !ok {
				return errs.At(ErrCorrupt, -1, "schema field "+p.Name, "parent id %d not defined before the field", p.ParentId)
			}
			if depth[p.ParentId] >= f.cfg.maxDepth {
				return errs.At(ErrTooLarge, -1, "schema field "+p.Name, "schema nested deeper than %d", f.cfg.maxDepth)
			}
			depth[p.Id] = depth[p.ParentId] + 1
			n.path = parent.path + "." + p.Name
			n.parent = parent
			parent.children = append(parent.children, n)
		}
		if _, dup := byID[p.Id]; dup {
			return errs.At(ErrCorrupt, -1, "schema field "+p.Name, "duplicate field id %d", p.Id)
		}
		byID[p.Id] = n
	}
	f.byID = byID
	next := 0
	for _, n := range f.fields {
		if err := f.mapField(n, &next, 0); err != nil {
			return err
		}
	}
	if next != len(f.columns) {
		return errs.At(ErrLength, -1, "schema", "schema needs %d columns but the file has %d", next, len(f.columns))
	}
	fields := make([]arrow.Field, len(f.fields))
	for i, n := range f.fields {
		fields[i] = n.arrowField()
	}
	md := arrow.Metadata{}
	if m := f.desc.GetSchema().GetMetadata(); len(m) > 0 {
		keys := make([]string, 0, len(m))
		vals := make([]string, 0, len(m))
		for k, v := range m {
			keys = append(keys, k)
			vals = append(vals, string(v))
		}
		md = arrow.NewMetadata(keys, vals)
	}
	f.schema = arrow.NewSchema(fields, &md)
	return nil
}

// mapField assigns columns depth-first and sets the Arrow type.
func (f *File) mapField(n *fieldNode, next *int, depth int) error {
	if depth > f.cfg.maxDepth {
		return errs.At(ErrTooLarge, -1, n.path, "schema nested deeper than %d", f.cfg.maxDepth)
	}
	lt := n.pb.LogicalType
	n.col = *next
	if metaTrue(n.pb.Metadata["lance-encoding:packed"]) || metaTrue(n.pb.Metadata["packed"]) {
		return errs.At(ErrUnsupported, -1, n.path, "packed struct fields are not in the 2.0 seed encodings")
	}
	if metaTrue(n.pb.Metadata["lance-encoding:blob"]) {
		return errs.At(ErrUnsupported, -1, n.path, "blob fields are not in the 2.0 seed encodings")
	}
	claim := func(k int) error {
		if *next+k > len(f.columns) {
			return errs.At(ErrLength, -1, n.path, "field needs column %d but the file has %d", *next+k-1, len(f.columns))
		}
		for i := 0; i < k; i++ {
			f.columns[*next+i].path = fmt.Sprintf("column %d (%s)", *next+i, n.path)
		}
		*next += k
		return nil
	}
	switch {
	case lt == "struct":
		if err := claim(1); err != nil {
			return err
		}
		fs := make([]arrow.Field, len(n.children))
		for i, c := range n.children {
			if err := f.mapField(c, next, depth+1); err != nil {
				return err
			}
			fs[i] = c.arrowField()
		}
		n.dt = arrow.StructOf(fs...)
		return nil
	case lt == "list" || lt == "large_list" || lt == "list.struct" || lt == "large_list.struct":
		if len(n.children) != 1 {
			return errs.At(ErrCorrupt, -1, n.path, "%s field has %d children, want 1", lt, len(n.children))
		}
		if err := claim(1); err != nil {
			return err
		}
		if err := f.mapField(n.children[0], next, depth+1); err != nil {
			return err
		}
		if strings.HasPrefix(lt, "large_") {
			n.dt = arrow.LargeListOfField(n.children[0].arrowField())
		} else {
			n.dt = arrow.ListOfField(n.children[0].arrowField())
		}
		return nil
	}
	dt, err := parseLogicalType(lt, 0)
	if err != nil {
		return errs.Locate(err, -1, n.path)
	}
	n.dt = dt
	if len(n.children) > 0 {
		if _, ok := dt.(*arrow.FixedSizeListType); !ok {
			return errs.At(ErrUnsupported, -1, n.path, "children under %s", lt)
		}
		return errs.At(ErrUnsupported, -1, n.path, "fixed_size_list of non-primitive items")
	}
	// A 0.13 writer stored strings as List + u8 items: sniff the first page.
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		if *next < len(f.columns) {
			if c := f.columns[*next]; len(c.pages) > 0 && c.pages[0].enc.GetList() != nil {
				n.legacyList = true
				return claim(2)
			}
		}
	}
	return claim(1)
}

func timeUnitOf(s string) (arrow.TimeUnit, bool) {
	switch s {
	case "s":
		return arrow.Second, true
	case "ms":
		return arrow.Millisecond, true
	case "us":
		return arrow.Microsecond, true
	case "ns":
		return arrow.Nanosecond, true
	}
	return 0, false
}

// parseLogicalType maps a Lance logical type string (lance-core
// datatypes.rs) to an Arrow type. Nested struct and list types are built
// by mapField from the child fields.
func parseLogicalType(s string, depth int) (arrow.DataType, error) {
	if depth > 16 {
		return nil, errs.Wrap(ErrUnsupported, "logical type %q nested too deeply", s)
	}
	switch s {
	case "null":
		return arrow.Null, nil
	case "bool":
		return arrow.FixedWidthTypes.Boolean, nil
	case "int8":
		return arrow.PrimitiveTypes.Int8, nil
	case "uint8":
		return arrow.PrimitiveTypes.Uint8, nil
	case "int16":
		return arrow.PrimitiveTypes.Int16, nil
	case "uint16":
		return arrow.PrimitiveTypes.Uint16, nil
	case "int32":
		return arrow.PrimitiveTypes.Int32, nil
	case "uint32":
		return arrow.PrimitiveTypes.Uint32, nil
	case "int64":
		return arrow.PrimitiveTypes.Int64, nil
	case "uint64":
		return arrow.PrimitiveTypes.Uint64, nil
	case "halffloat":
		return arrow.FixedWidthTypes.Float16, nil
	case "float":
		return arrow.PrimitiveTypes.Float32, nil
	case "double":
		return arrow.PrimitiveTypes.Float64, nil
	case "string":
		return arrow.BinaryTypes.String, nil
	case "large_string":
		return arrow.BinaryTypes.LargeString, nil
	case "binary":
		return arrow.BinaryTypes.Binary, nil
	case "large_binary":
		return arrow.BinaryTypes.LargeBinary, nil
	case "date32:day":
		return arrow.FixedWidthTypes.Date32, nil
	case "date64:ms":
		return arrow.FixedWidthTypes.Date64, nil
	}
	parts := strings.Split(s, ":")
	bad := func() (arrow.DataType, error) {
		return nil, errs.Wrap(ErrUnsupported, "logical type %q", s)
	}
	switch parts[0] {
	case "decimal":
		if len(parts) != 4 {
			return bad()
		}
		p, err1 := strconv.ParseInt(parts[2], 10, 32)
		sc, err2 := strconv.ParseInt(parts[3], 10, 32)
		if err1 != nil || err2 != nil {
			return bad()
		}
		switch parts[1] {
		case "128":
			if p < 1 || p > 38 {
				return bad()
			}
			return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(sc)}, nil
		case "256":
			if p < 1 || p > 76 {
				return bad()
			}
			return &arrow.Decimal256Type{Precision: int32(p), Scale: int32(sc)}, nil
		}
		return bad()
	case "time32", "time64":
		if len(parts) != 2 {
			return bad()
		}
		u, ok := timeUnitOf(parts[1])
		if !ok {
			return bad()
		}
		if parts[0] == "time32" && (u == arrow.Second || u == arrow.Millisecond) {
			return &arrow.Time32Type{Unit: u}, nil
		}
		if parts[0] == "time64" && (u == arrow.Microsecond || u == arrow.Nanosecond) {
			return &arrow.Time64Type{Unit: u}, nil
		}
		return bad()
	case "timestamp":
		if len(parts) < 3 {
			return bad()
		}
		u, ok := timeUnitOf(parts[1])
		if !ok {
			return bad()
		}
		tz := strings.Join(parts[2:], ":") // "+05:30" contains a colon
		if tz == "-" {
			tz = ""
		}
		return &arrow.TimestampType{Unit: u, TimeZone: tz}, nil
	case "duration":
		if len(parts) != 2 {
			return bad()
		}
		u, ok := timeUnitOf(parts[1])
		if !ok {
			return bad()
		}
		return &arrow.DurationType{Unit: u}, nil
	case "fixed_size_binary":
		if len(parts) != 2 {
			return bad()
		}
		n, err := strconv.ParseInt(parts[1], 10, 32)
		if err != nil || n < 1 {
			return bad()
		}
		return &arrow.FixedSizeBinaryType{ByteWidth: int(n)}, nil
	case "fixed_size_list":
		if len(parts) < 3 {
			return bad()
		}
		dim, err := strconv.ParseInt(parts[len(parts)-1], 10, 32)
		if err != nil || dim < 1 {
			return bad()
		}
		inner := strings.Join(parts[1:len(parts)-1], ":")
		var it arrow.DataType
		if inner == "lance.bfloat16" {
			// Arrow has no bfloat16: expose the 2-byte storage.
			it = &arrow.FixedSizeBinaryType{ByteWidth: 2}
		} else {
			it, err = parseLogicalType(inner, depth+1)
			if err != nil {
				return nil, err
			}
		}
		return arrow.FixedSizeListOfField(int32(dim), arrow.Field{Name: "item", Type: it, Nullable: true}), nil
	case "dict":
		if len(parts) < 4 {
			return bad()
		}
		key, err := parseLogicalType(parts[len(parts)-2], depth+1)
		if err != nil {
			return nil, err
		}
		if !arrow.IsInteger(key.ID()) {
			return bad()
		}
		val, err := parseLogicalType(strings.Join(parts[1:len(parts)-2], ":"), depth+1)
		if err != nil {
			return nil, err
		}
		return &arrow.DictionaryType{IndexType: key, ValueType: val, Ordered: parts[len(parts)-1] == "true"}, nil
	}
	return bad()
}

// metaTrue reads a boolean field-metadata flag as lance does (present and
// not "false").
func metaTrue(v []byte) bool {
	return v != nil && !strings.EqualFold(string(v), "false")
}
