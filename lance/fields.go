package lance

import "github.com/apache/arrow-go/v18/arrow"

// FieldInfo describes one schema field of a data file with its Lance
// field id, which a table's manifest uses to map fields onto data files.
type FieldInfo struct {
	ID, ParentID int32 // ParentID is -1 at the top level
	Name         string
	// Path is the dotted path from the top-level field ("info.city").
	Path     string
	Type     arrow.DataType
	Nullable bool
	// Column is the field's physical column: in 2.1/2.2 files the leaf
	// column (-1 for structs, lists and maps, whose structure travels in
	// their leaves' levels); in 2.0 files the field's first column (its
	// struct header, list offsets or values).
	Column int
}

// Fields lists every schema field, parents before children, in the
// file's schema order. ReadOptions.FieldIDs selects fields by these ids.
func (f *File) Fields() []FieldInfo {
	var out []FieldInfo
	var walk func(ns []*fieldNode)
	walk = func(ns []*fieldNode) {
		for _, n := range ns {
			out = append(out, FieldInfo{ID: n.pb.Id, ParentID: n.pb.ParentId, Name: n.name, Path: n.path,
				Type: n.dt, Nullable: n.pb.Nullable, Column: n.col})
			if !n.packed {
				walk(n.children)
			}
		}
	}
	walk(f.fields)
	return out
}
