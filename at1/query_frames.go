package at1

import "iter"

// queryFrames runs a query on each frame of a framed qcolumnar/qjson file
// in order; row indexes count structured lines across the frames.
func (f *File) queryFrames(q Query) (*Rows, error) {
	rs := &Rows{f: f}
	mixed := f.mixedColumns()
	for _, p := range f.parts {
		sub, err := p.query(q, mixed)
		if err != nil {
			return nil, err
		}
		rs.subs = append(rs.subs, sub)
	}
	return rs, nil
}

// allFrames yields the rows of each frame's query in turn.
func (rs *Rows) allFrames() iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		rs.stats = QueryStats{}
		var base int64
		for i, sub := range rs.subs {
			stop := false
			for row, err := range sub.All() {
				if err != nil {
					yield(Row{}, err)
					return
				}
				row.Index += base
				if !yield(row, nil) {
					stop = true
					break
				}
			}
			st := sub.Stats()
			rs.stats.Groups += st.Groups
			rs.stats.GroupsSkipped += st.GroupsSkipped
			rs.stats.BlocksRead += st.BlocksRead
			rs.stats.BlocksSkipped += st.BlocksSkipped
			rs.stats.BytesRead += st.BytesRead
			rs.stats.Rows += st.Rows
			if stop {
				return
			}
			base += int64(rs.f.parts[i].t.nStruct)
		}
	}
}
