package lance

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/internal/errs"
)

// joinBudget counts, as page parts are appended, the bytes the largest
// buffers of their join will take, so a read spanning many pages cannot
// return a result past WithMaxBufferSize: values at their fixed width,
// the bytes strings span, a list's offsets and items.
type joinBudget struct {
	f       *File
	path    string
	values  int64 // values, string bytes or list items
	offsets int64 // offsets of strings and lists
}

func (j *joinBudget) add(a arrow.Array) error {
	v, o := partBytes(a)
	j.values += v
	j.offsets += o
	if m := max(j.values, j.offsets); m > j.f.cfg.maxBuffer {
		return errs.TooLarge(ErrTooLarge, -1, j.path, "joined pages", uint64(m), j.f.cfg.maxBuffer)
	}
	return nil
}

// partBytes returns the value and offset bytes a (possibly sliced) array
// adds to a join.
func partBytes(a arrow.Array) (values, offsets int64) {
	n := int64(a.Len())
	switch x := a.(type) {
	case *array.String:
		return span32(x.ValueOffsets()), 4 * (n + 1)
	case *array.Binary:
		return span32(x.ValueOffsets()), 4 * (n + 1)
	case *array.LargeString:
		return span64(x.ValueOffsets()), 8 * (n + 1)
	case *array.LargeBinary:
		return span64(x.ValueOffsets()), 8 * (n + 1)
	case *array.List: // parts of lists are built from exactly their items
		v, _ := partBytes(x.ListValues())
		return v, 4 * (n + 1)
	case *array.LargeList:
		v, _ := partBytes(x.ListValues())
		return v, 8 * (n + 1)
	case *array.Dictionary:
		w, _ := bitWidth(x.Indices().DataType())
		return (n*int64(w) + 7) / 8, 0
	}
	if per, ok := fixedRowBytes(a.DataType()); ok {
		return n * per, 0
	}
	if w, ok := bitWidth(a.DataType()); ok {
		return (n*int64(w) + 7) / 8, 0
	}
	return 0, 0
}

func span32(o []int32) int64 {
	if len(o) == 0 {
		return 0
	}
	return int64(o[len(o)-1] - o[0])
}

func span64(o []int64) int64 {
	if len(o) == 0 {
		return 0
	}
	return o[len(o)-1] - o[0]
}
