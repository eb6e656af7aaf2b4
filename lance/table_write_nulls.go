package lance

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/internal/errs"
)

// checkNulls fails with ErrInvalidArgument naming the column path (info.city,
// tags[]) when col, typed as the table field f, holds a visible null where
// the table declares a field non-nullable, at any level: a null counts when
// every level above it is a valid value (a struct member under a null struct,
// or a list item outside every valid list, is not seen by readers). Subtrees
// without any null are skipped without a pass over their values.
func checkNulls(col arrow.Array, f arrow.Field) error {
	if !needsNullCheck(col, f) {
		return nil
	}
	return checkNullsAt(col, f, f.Name, nil)
}

// needsNullCheck reports whether a non-nullable field of the subtree of col
// holds nulls at all.
func needsNullCheck(col arrow.Array, f arrow.Field) bool {
	if !f.Nullable && col.NullN() > 0 {
		return true
	}
	switch a := col.(type) {
	case *array.Struct:
		st := f.Type.(*arrow.StructType)
		for i := 0; i < a.NumField() && i < st.NumFields(); i++ {
			if needsNullCheck(a.Field(i), st.Field(i)) {
				return true
			}
		}
	case array.ListLike:
		if lt, ok := f.Type.(arrow.ListLikeType); ok {
			return needsNullCheck(a.ListValues(), lt.ElemField())
		}
	}
	return false
}

// checkNullsAt checks col against f where visible (nil: every slot) says
// which of col's slots readers see.
func checkNullsAt(col arrow.Array, f arrow.Field, p string, visible []bool) error {
	if !needsNullCheck(col, f) {
		return nil
	}
	n := col.Len()
	seen := func(i int) bool { return visible == nil || visible[i] }
	if !f.Nullable && col.NullN() > 0 {
		nulls := 0
		for i := 0; i < n; i++ {
			if seen(i) && col.IsNull(i) {
				nulls++
			}
		}
		if nulls > 0 {
			return fmt.Errorf("%w: column %s is not nullable in the table but the batch has %d nulls in it", ErrInvalidArgument, errs.Quote(p), nulls)
		}
	}
	switch a := col.(type) {
	case *array.Struct:
		st := f.Type.(*arrow.StructType)
		var child []bool
		if col.NullN() > 0 || visible != nil {
			child = make([]bool, n)
			for i := range child {
				child[i] = seen(i) && col.IsValid(i)
			}
		}
		for i := 0; i < a.NumField() && i < st.NumFields(); i++ {
			if err := checkNullsAt(a.Field(i), st.Field(i), p+"."+st.Field(i).Name, child); err != nil {
				return err
			}
		}
	case array.ListLike:
		lt, ok := f.Type.(arrow.ListLikeType)
		if !ok {
			return nil
		}
		vals := a.ListValues()
		child := make([]bool, vals.Len())
		for i := 0; i < n; i++ {
			if !seen(i) || col.IsNull(i) {
				continue
			}
			s, e := a.ValueOffsets(i)
			if s < 0 || e > int64(len(child)) || s > e {
				return fmt.Errorf("%w: column %s has list offsets %d..%d outside its %d values", ErrInvalidArgument, errs.Quote(p), s, e, len(child))
			}
			for j := s; j < e; j++ {
				child[j] = true
			}
		}
		return checkNullsAt(vals, lt.ElemField(), p+"[]", child)
	}
	return nil
}
