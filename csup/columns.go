package csup

import "github.com/colfmt/colfmt/csup/bsup"

// Column describes one column of a file, for inspection: its shape, the
// type of its values and the segments it reads.
type Column struct {
	Path     string     // e.g. "super0.user.addr.zip"
	Kind     string     // primitive, record, array, map, union, nulls, all-null
	Type     *bsup.Type // type of the values
	Segments []Segment  // data, lengths, tags or presence runs, by Kind
	Children []Column
}

// Columns returns the column tree of each super type, in super-ID order.
func (f *File) Columns() []Column {
	out := make([]Column, len(f.cols))
	for i, n := range f.cols {
		out[i] = describe(n)
	}
	return out
}

// SuperColumn returns the segments of the super column (the per-row super
// IDs; for VNG v3 the root column of metadata indexes).
func (f *File) SuperColumn() []Segment { return f.super }

func describe(n *node) Column {
	c := Column{Path: n.path, Kind: n.kindName(), Type: n.typ, Segments: n.segs}
	for _, ch := range n.fields {
		c.Children = append(c.Children, describe(ch))
	}
	for _, ch := range []*node{n.elem, n.val} {
		if ch != nil {
			c.Children = append(c.Children, describe(ch))
		}
	}
	for _, ch := range n.members {
		c.Children = append(c.Children, describe(ch))
	}
	return c
}
