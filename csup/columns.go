package csup

import (
	"strconv"
	"strings"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

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
	if f.v16 != nil {
		return f.v16Columns()
	}
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

// v16Columns describes each object's top-level values ("super<i>", or
// "object<k>.super<i>" after the first object).
func (f *File) v16Columns() []Column {
	var out []Column
	for k, o := range f.v16 {
		prefix := ""
		if k > 0 {
			prefix = "object" + strconv.Itoa(k) + "."
		}
		root := o.nodes[o.root]
		ids := []int{o.root}
		if root.kind == k16Dynamic {
			ids = root.kids
		}
		for i, id := range ids {
			out = append(out, o.describe(id, prefix+"super"+strconv.Itoa(i), 0))
		}
	}
	return out
}

func (o *v16Object) describe(id int, path string, depth int) Column {
	n := o.nodes[id]
	c := Column{Path: path, Kind: strings.ToLower(n.kind.String()), Type: n.typ}
	for _, s := range []Segment{n.segA, n.segB} {
		if s != (Segment{}) {
			c.Segments = append(c.Segments, s)
		}
	}
	if depth > 2*len(o.nodes)+8 {
		return c
	}
	for i, k := range n.kids {
		p := path
		switch n.kind {
		case k16Record:
			p = path + "." + errs.Quote(n.names[i])
		case k16Map:
			p = path + [...]string{"/keys", "/values"}[i]
		case k16Union:
			p = path + "/" + strconv.Itoa(i)
		}
		c.Children = append(c.Children, o.describe(k, p, depth+1))
	}
	return c
}
