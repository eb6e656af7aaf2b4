package lance

// The column model of Lance 2.1/2.2 (notes §3): only leaf fields own a
// column, in a depth-first pre-order walk; structs, lists and maps travel
// as repetition/definition levels inside their leaves. A struct with
// `lance-encoding:packed` metadata is one leaf column.

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/errs"
)

func (f *File) buildSchema21() error {
	pbFields := f.desc.GetSchema().GetFields()
	if len(pbFields) > f.cfg.maxColumns {
		return errs.TooLarge(ErrTooLarge, -1, "schema", "field count", uint64(len(pbFields)), int64(f.cfg.maxColumns))
	}
	byID := map[int32]*fieldNode{}
	depth := map[int32]int{}
	for _, p := range pbFields {
		n := &fieldNode{pb: p, name: p.Name, col: -1}
		if _, dup := byID[p.Id]; dup {
			return errs.At(ErrCorrupt, -1, "schema field "+errs.Quote(p.Name), "duplicate field id %d", p.Id)
		}
		if p.ParentId == -1 {
			n.path = p.Name
			f.fields = append(f.fields, n)
			depth[p.Id] = 1
		} else {
			parent, ok := byID[p.ParentId]
			if !ok {
				return errs.At(ErrCorrupt, -1, "schema field "+errs.Quote(p.Name), "parent id %d not defined before the field", p.ParentId)
			}
			if depth[p.ParentId] >= f.cfg.maxDepth {
				return errs.At(ErrTooLarge, -1, "schema field "+errs.Quote(p.Name), "schema nested deeper than %d", f.cfg.maxDepth)
			}
			depth[p.Id] = depth[p.ParentId] + 1
			n.path = parent.path + "." + p.Name
			n.parent = parent
			parent.children = append(parent.children, n)
		}
		byID[p.Id] = n
	}
	f.byID = byID
	next := 0
	for _, n := range f.fields {
		if err := f.mapField21(n, &next, 0); err != nil {
			return err
		}
	}
	if next != len(f.columns) {
		return errs.At(ErrLength, -1, "schema", "schema needs %d leaf columns but the file has %d", next, len(f.columns))
	}
	fields := make([]arrow.Field, len(f.fields))
	for i, n := range f.fields {
		fields[i] = n.arrowField()
	}
	md := schemaMetadata(f)
	f.schema = arrow.NewSchema(fields, &md)
	for _, c := range f.columns {
		if c.rows != f.numRows {
			return errs.At(ErrLength, c.metaOff, c.path, "column has %d rows, the file %d", c.rows, f.numRows)
		}
	}
	return nil
}

func schemaMetadata(f *File) arrow.Metadata {
	m := f.desc.GetSchema().GetMetadata()
	if len(m) == 0 {
		return arrow.Metadata{}
	}
	keys := make([]string, 0, len(m))
	vals := make([]string, 0, len(m))
	for k, v := range m {
		keys = append(keys, k)
		vals = append(vals, string(v))
	}
	return arrow.NewMetadata(keys, vals)
}

func (f *File) mapField21(n *fieldNode, next *int, depth int) error {
	if depth > f.cfg.maxDepth {
		return errs.At(ErrTooLarge, -1, errs.Quote(n.path), "schema nested deeper than %d", f.cfg.maxDepth)
	}
	lt := n.pb.LogicalType
	leaf := func() error {
		if *next >= len(f.columns) {
			return errs.At(ErrLength, -1, errs.Quote(n.path), "field needs column %d but the file has %d", *next, len(f.columns))
		}
		n.col = *next
		f.columns[*next].path = "column " + itoa(*next) + " (" + errs.Quote(n.path) + ")"
		f.columns[*next].field = n
		*next++
		return nil
	}
	childFields := func() ([]arrow.Field, error) {
		fs := make([]arrow.Field, len(n.children))
		for i, c := range n.children {
			if err := f.mapField21(c, next, depth+1); err != nil {
				return nil, err
			}
			fs[i] = c.arrowField()
		}
		return fs, nil
	}
	switch {
	case lt == "struct":
		if len(n.children) == 0 {
			return errs.At(ErrUnsupported, -1, errs.Quote(n.path), "struct without fields")
		}
		if metaTrue(n.pb.Metadata["lance-encoding:packed"]) || metaTrue(n.pb.Metadata["packed"]) {
			fs := make([]arrow.Field, len(n.children))
			for i, c := range n.children {
				if len(c.children) > 0 {
					return errs.At(ErrUnsupported, -1, errs.Quote(c.path), "nested field in a packed struct")
				}
				dt, err := parseLogicalType(c.pb.LogicalType, 0)
				if err != nil {
					return errs.Locate(err, -1, errs.Quote(c.path))
				}
				c.dt = dt
				fs[i] = c.arrowField()
			}
			n.dt = arrow.StructOf(fs...)
			n.packed = true
			return leaf()
		}
		fs, err := childFields()
		if err != nil {
			return err
		}
		n.dt = arrow.StructOf(fs...)
		return nil
	case lt == "list" || lt == "large_list" || lt == "list.struct" || lt == "large_list.struct":
		if len(n.children) != 1 {
			return errs.At(ErrCorrupt, -1, errs.Quote(n.path), "%s field has %d children, want 1", lt, len(n.children))
		}
		if _, err := childFields(); err != nil {
			return err
		}
		if strings.HasPrefix(lt, "large_") {
			n.dt = arrow.LargeListOfField(n.children[0].arrowField())
		} else {
			n.dt = arrow.ListOfField(n.children[0].arrowField())
		}
		return nil
	case lt == "map":
		if len(n.children) != 1 || len(n.children[0].children) != 2 || n.children[0].pb.LogicalType != "struct" {
			return errs.At(ErrCorrupt, -1, errs.Quote(n.path), "map field without an entries struct of key and value")
		}
		if _, err := childFields(); err != nil {
			return err
		}
		e := n.children[0]
		kf := e.children[0].arrowField()
		kf.Nullable = false // Arrow map keys are never null
		mt := arrow.MapOfFields(kf, e.children[1].arrowField())
		n.dt = mt
		return nil
	}
	if metaTrue(n.pb.Metadata["lance-encoding:blob"]) {
		// The column exists (BlobLayout pages); reading it is refused.
		n.dt = arrow.BinaryTypes.LargeBinary
		return leaf()
	}
	dt, err := parseLogicalType(lt, 0)
	if err != nil {
		return errs.Locate(err, -1, errs.Quote(n.path))
	}
	if len(n.children) > 0 {
		if _, ok := dt.(*arrow.FixedSizeListType); !ok {
			return errs.At(ErrUnsupported, -1, errs.Quote(n.path), "children under %s", lt)
		}
		return errs.At(ErrUnsupported, -1, errs.Quote(n.path), "fixed_size_list of struct items")
	}
	if _, ok := dt.(*arrow.DictionaryType); ok {
		return errs.At(ErrUnsupported, -1, errs.Quote(n.path), "dictionary field in a 2.1+ file")
	}
	n.dt = dt
	return leaf()
}

func itoa(i int) string {
	var b [20]byte
	p := len(b)
	if i == 0 {
		return "0"
	}
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	return string(b[p:])
}
