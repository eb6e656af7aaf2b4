package lance

import (
	"fmt"

	"github.com/colfmt/colfmt/internal/errs"
	"io"
	"strings"

	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// Describe writes the file's structure: version, schema, and per column
// its pages with row ranges, buffers and encoding trees.
func (f *File) Describe(w io.Writer) error {
	var b strings.Builder
	ver := "2.0"
	if f.structural() {
		ver = fmt.Sprintf("%d.%d", f.major, f.minor)
	}
	fmt.Fprintf(&b, "Lance file format %s (footer version %d.%d), %d bytes, %d rows, %d columns, %d global buffers\n",
		ver, f.major, f.minor, f.size, f.numRows, len(f.columns), len(f.globals))
	b.WriteString("schema:\n")
	var walk func(ns []*fieldNode, indent string)
	walk = func(ns []*fieldNode, indent string) {
		for _, n := range ns {
			null := ""
			if !n.pb.Nullable {
				null = " not null"
			}
			extra := ""
			if n.legacyList {
				extra = ", 0.13 List+u8 layout"
			}
			col := fmt.Sprintf("column %d", n.col)
			if n.col < 0 {
				col = "levels in its leaves"
			}
			if n.packed {
				extra += ", packed"
			}
			fmt.Fprintf(&b, "%s%s: %s%s (lance %q, id %d, %s%s)\n", indent, errs.Quote(n.name), n.dt, null, n.pb.LogicalType, n.pb.Id, col, extra)
			if !n.packed {
				walk(n.children, indent+"  ")
			}
		}
	}
	walk(f.fields, "  ")
	b.WriteString("columns:\n")
	for _, c := range f.columns {
		fmt.Fprintf(&b, "  %s: metadata at %d (%d bytes), %d rows in %d pages", c.path, c.metaOff, c.metaLen, c.rows, len(c.pages))
		if len(c.buffers) > 0 {
			fmt.Fprintf(&b, ", column buffers %s", ranges(c.buffers))
		}
		b.WriteByte('\n')
		if c.zone != nil {
			fmt.Fprintf(&b, "    zone index: %d rows per zone, map in %s\n", c.zone.RowsPerZone, bufString(c.zone.ZoneMapBuffer))
		}
		for _, p := range c.pages {
			fmt.Fprintf(&b, "    page %d: rows %d..%d, buffers %s\n      %s\n", p.index, p.rowStart, p.rowStart+p.length, ranges(p.buffers), pageEncoding(p))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pageEncoding renders a page's encoding: the 2.0 tree or the 2.1/2.2
// layout.
func pageEncoding(p *page) string {
	if p.layout != nil {
		return p.layout.describe()
	}
	return encodingString(p.enc)
}

func ranges(rs []bufRange) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%d+%d", r.off, r.size)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func bufString(b *encpb.Buffer) string {
	if b == nil {
		return "<no buffer>"
	}
	return fmt.Sprintf("%s[%d]", b.BufferType, b.BufferIndex)
}

// encodingString renders an encoding tree compactly, for example
// "nullable(some_nulls(validity=flat(1, page[0]), values=flat(32, page[1])))".
func encodingString(e *encpb.ArrayEncoding) string {
	var b strings.Builder
	writeEncoding(&b, e, 0)
	return b.String()
}

func writeEncoding(b *strings.Builder, e *encpb.ArrayEncoding, depth int) {
	if depth > 32 {
		b.WriteString("…")
		return
	}
	switch x := e.GetArrayEncoding().(type) {
	case *encpb.ArrayEncoding_Flat:
		fmt.Fprintf(b, "flat(%d, %s", x.Flat.BitsPerValue, bufString(x.Flat.Buffer))
		if s := x.Flat.GetCompression().GetScheme(); s != "" {
			fmt.Fprintf(b, ", %s", s)
		}
		b.WriteByte(')')
	case *encpb.ArrayEncoding_Nullable:
		b.WriteString("nullable(")
		switch y := x.Nullable.GetNullability().(type) {
		case *encpb.Nullable_NoNulls:
			b.WriteString("no_nulls(")
			writeEncoding(b, y.NoNulls.GetValues(), depth+1)
			b.WriteByte(')')
		case *encpb.Nullable_AllNulls:
			b.WriteString("all_nulls")
		case *encpb.Nullable_SomeNulls:
			b.WriteString("some_nulls(validity=")
			writeEncoding(b, y.SomeNulls.GetValidity(), depth+1)
			b.WriteString(", values=")
			writeEncoding(b, y.SomeNulls.GetValues(), depth+1)
			b.WriteByte(')')
		}
		b.WriteByte(')')
	case *encpb.ArrayEncoding_Binary:
		b.WriteString("binary(indices=")
		writeEncoding(b, x.Binary.GetIndices(), depth+1)
		b.WriteString(", bytes=")
		writeEncoding(b, x.Binary.GetBytes(), depth+1)
		fmt.Fprintf(b, ", null_adjustment=%d)", x.Binary.NullAdjustment)
	case *encpb.ArrayEncoding_List:
		b.WriteString("list(offsets=")
		writeEncoding(b, x.List.GetOffsets(), depth+1)
		fmt.Fprintf(b, ", null_offset_adjustment=%d, num_items=%d)", x.List.NullOffsetAdjustment, x.List.NumItems)
	case *encpb.ArrayEncoding_FixedSizeList:
		fmt.Fprintf(b, "fixed_size_list(%d, ", x.FixedSizeList.Dimension)
		writeEncoding(b, x.FixedSizeList.GetItems(), depth+1)
		b.WriteByte(')')
	case *encpb.ArrayEncoding_Struct:
		b.WriteString("struct")
	case *encpb.ArrayEncoding_Dictionary:
		b.WriteString("dictionary(indices=")
		writeEncoding(b, x.Dictionary.GetIndices(), depth+1)
		b.WriteString(", items=")
		writeEncoding(b, x.Dictionary.GetItems(), depth+1)
		fmt.Fprintf(b, ", num_dictionary_items=%d)", x.Dictionary.NumDictionaryItems)
	default:
		b.WriteString("<unknown encoding>")
	}
}
