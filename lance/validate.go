package lance

import (
	"bytes"
	"context"

	"github.com/colfmt/colfmt/internal/errs"
)

// Validate checks the whole file deeply: every buffer lies inside the file
// (checked by Open), every page decodes with buffer sizes matching its
// rows and bit widths, list and binary offsets are monotone within the
// null-adjustment rules, dictionary indices are in range, struct headers
// and list item columns have the row counts their parents imply, and zone
// maps decode. It returns the first problem found.
//
// For 2.1/2.2 files Open has already checked every page layout against
// the grammar; Validate decodes every page, checks the levels and value
// counts against the layers and row counts, and reports pages whose
// layouts this reader refuses.
func (f *File) Validate() error {
	if f.structural() {
		for _, c := range f.columns {
			for _, p := range c.pages {
				if p.layout.err != nil {
					return p.layout.err
				}
			}
		}
		for rec, err := range f.records(context.Background(), ReadOptions{}, true) {
			if err != nil {
				return err
			}
			rec.Release()
		}
		return nil
	}
	for _, n := range f.fields {
		if err := f.checkLengths(n, f.numRows); err != nil {
			return err
		}
	}
	for rec, err := range f.records(context.Background(), ReadOptions{}, true) {
		if err != nil {
			return err
		}
		rec.Release()
	}
	for _, c := range f.columns {
		if c.zone != nil {
			zm, err := f.ZoneMap(c.index)
			if err != nil {
				return err
			}
			zm.Record.Release()
		}
	}
	return nil
}

// checkLengths verifies that each column of n holds the rows its parent
// implies (items, under a list).
func (f *File) checkLengths(n *fieldNode, rows int64) error {
	col := f.columns[n.col]
	if col.rows != rows {
		return errs.At(ErrLength, col.metaOff, col.path, "column has %d rows, %d expected", col.rows, rows)
	}
	if n.legacyList || isListNode(n) {
		var items int64
		for _, p := range col.pages {
			le := p.enc.GetList()
			if le == nil {
				return errs.At(ErrCorrupt, col.metaOff, col.path, "page %d of a list column is not a List encoding", p.index)
			}
			if le.NumItems > 1<<62 || items+int64(le.NumItems) > 1<<62 {
				return errs.At(ErrOffsets, col.metaOff, col.path, "page %d: %d items", p.index, le.NumItems)
			}
			items += int64(le.NumItems)
		}
		if n.legacyList {
			ic := f.columns[n.col+1]
			if ic.rows != items {
				return errs.At(ErrLength, ic.metaOff, ic.path, "item column has %d rows, the offsets reference %d", ic.rows, items)
			}
			return nil
		}
		return f.checkLengths(n.children[0], items)
	}
	for _, c := range n.children {
		if err := f.checkLengths(c, rows); err != nil {
			return err
		}
	}
	return nil
}

func isListNode(n *fieldNode) bool {
	switch n.pb.LogicalType {
	case "list", "large_list", "list.struct", "large_list.struct":
		return true
	}
	return false
}

// ValidateBytes opens and validates a whole file held in memory.
func ValidateBytes(b []byte, opts ...Option) error {
	f, err := Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return err
	}
	return f.Validate()
}
