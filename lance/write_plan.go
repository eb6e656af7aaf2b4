package lance

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/errs"
)

// stepKind is the kind of a node on the path from a top-level field down
// to a leaf column (2.1/2.2).
type stepKind uint8

const (
	stepStruct stepKind = iota // a struct; child is the field on the path
	stepList                   // list, large list or map
	stepLeaf                   // the leaf (also a fixed_size_list leaf)
)

type step struct {
	kind     stepKind
	child    int
	nullable bool
	dt       arrow.DataType
}

// plan21 adds the leaf columns of top-level field f (index top) in a
// depth-first walk.
func (w *Writer) plan21(f arrow.Field, top int, next *int) error {
	return w.walk21(f, top, nil, f.Name, next)
}

func (w *Writer) walk21(f arrow.Field, top int, steps []step, path string, next *int) error {
	id := w.fields[w.nextFld].Id
	w.nextFld++
	switch t := f.Type.(type) {
	case *arrow.StructType:
		for i, c := range t.Fields() {
			s := append(append([]step(nil), steps...), step{kind: stepStruct, child: i, nullable: f.Nullable, dt: f.Type})
			if err := w.walk21(c, top, s, path+"."+c.Name, next); err != nil {
				return err
			}
		}
		return nil
	case *arrow.ListType:
		s := append(append([]step(nil), steps...), step{kind: stepList, nullable: f.Nullable, dt: f.Type})
		return w.walk21(t.ElemField(), top, s, path+"."+t.ElemField().Name, next)
	case *arrow.LargeListType:
		s := append(append([]step(nil), steps...), step{kind: stepList, nullable: f.Nullable, dt: f.Type})
		return w.walk21(t.ElemField(), top, s, path+"."+t.ElemField().Name, next)
	case *arrow.MapType:
		if w.cfg.write.minor < 2 {
			return errs.Wrap(ErrUnsupported, "field %s: maps need file format 2.2", errs.Quote(path))
		}
		s := append(append([]step(nil), steps...), step{kind: stepList, nullable: f.Nullable, dt: f.Type})
		e := t.ElemField()
		e.Nullable = false
		return w.walk21(e, top, s, path+"."+e.Name, next)
	}
	s := append(append([]step(nil), steps...), step{kind: stepLeaf, nullable: f.Nullable, dt: f.Type})
	c, err := newLeaf21(w, top, s, path)
	if err != nil {
		return err
	}
	w.cols = append(w.cols, c)
	w.fieldIDs = append(w.fieldIDs, id)
	w.colIdx = append(w.colIdx, int32(*next))
	*next++
	return nil
}
