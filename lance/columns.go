package lance

// ByteRange is a (position, size) pair in the file.
type ByteRange struct {
	Offset, Size int64
}

// PageInfo describes one page of a column.
type PageInfo struct {
	// RowStart and Rows place the page in its column (items, for a list's
	// item column).
	RowStart, Rows int64
	// Buffers are the page's buffers in index order.
	Buffers []ByteRange
	// Encoding is the page's encoding tree, rendered compactly, as Describe prints it.
	Encoding string
}

// ColumnInfo describes one physical column: its place in the schema and
// where its metadata and pages lie, for callers that fetch byte ranges
// themselves (object stores, caches).
type ColumnInfo struct {
	Index int
	// Path names the column and the field it belongs to, e.g.
	// "column 9 (ls)" or "column 10 (ls.item)".
	Path     string
	Metadata ByteRange
	Rows     int64
	// Buffers are column-level buffers (zone maps, dictionaries).
	Buffers []ByteRange
	Pages   []PageInfo
	// ZoneIndex reports a ZoneIndex wrapper (see File.ZoneMap).
	ZoneIndex bool
}

// GlobalBuffers returns the file's global buffers; number 0 is the schema.
func (f *File) GlobalBuffers() []ByteRange { return byteRanges(f.globals) }

// Columns describes every physical column, in file order.
func (f *File) Columns() []ColumnInfo {
	out := make([]ColumnInfo, len(f.columns))
	for i, c := range f.columns {
		ci := ColumnInfo{Index: i, Path: c.path, Metadata: ByteRange{c.metaOff, c.metaLen}, Rows: c.rows,
			Buffers: byteRanges(c.buffers), ZoneIndex: c.zone != nil}
		for _, p := range c.pages {
			ci.Pages = append(ci.Pages, PageInfo{RowStart: p.rowStart, Rows: p.length, Buffers: byteRanges(p.buffers), Encoding: pageEncoding(p)})
		}
		out[i] = ci
	}
	return out
}

func byteRanges(rs []bufRange) []ByteRange {
	if len(rs) == 0 {
		return nil
	}
	out := make([]ByteRange, len(rs))
	for i, r := range rs {
		out[i] = ByteRange{r.off, r.size}
	}
	return out
}
