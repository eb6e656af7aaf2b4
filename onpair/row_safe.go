//go:build purego || !(386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package onpair

// shortRow is the most codes AppendRow decodes inline; gatherRoomy's
// unrolled loop only starts paying off beyond eight.
const shortRow = 8

// AppendRow appends row i to dst. It may use dst's spare capacity beyond
// the returned length as scratch (up to 16 bytes per code of the row), so reusing one
// buffer across calls, dst = c.AppendRow(dst[:0], i), is the fast way.
func (c *Column) AppendRow(dst []byte, i int) ([]byte, error) {
	rows := c.rows
	if i < 0 || i >= len(rows)-1 {
		return c.badRow(dst, i)
	}
	codes := c.parts.Codes[rows[i]:rows[i+1]]
	l := len(dst)
	if len(codes) > shortRow || cap(dst)-l < MaxTokenSize*len(codes) {
		return c.appendRowLong(dst, codes), nil
	}
	// Short rows (most rows of short-string columns) copy inline: a call
	// and the unrolled kernel's setup would cost more than the few codes. The other
	// paths are tail calls, so nothing is spilled here. 16 bytes of room
	// per code: every store is in bounds, no tail needed.
	out, fat, lens := dst[l:cap(dst)], c.dec.rows, c.dec.lens
	_ = lens[0] // one nil check, not one per code
	w := 0
	for _, cd := range codes {
		n := int(lens[cd]) // loaded first: cd is then free for the shift
		copy(out[w:w+MaxTokenSize], fat[int(cd)<<4:int(cd)<<4+MaxTokenSize])
		w += n
	}
	return dst[:l+w], nil
}
