//go:build !purego && (386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package onpair

import "unsafe"

// rowKeep[k] keeps the first k of four 16-bit lanes.
var rowKeep = [5]uint64{0, 0xffff, 0xffffffff, 0xffffffffffff, ^uint64(0)}

// AppendRow appends row i to dst. It may use dst's spare capacity beyond
// the returned length as scratch (up to 16 bytes per code of the row, at
// least 129 bytes), so reusing one buffer across calls,
// dst = c.AppendRow(dst[:0], i), is the fast way.
//
// Rows of up to eight codes decode without a loop: their codes come in one
// or two 8-byte loads, the lanes past the row's end are replaced by the
// length-0 code n, and four (or eight) tokens are copied unconditionally,
// so the row's code count costs no mispredicted loop exit.
func (c *Column) AppendRow(dst []byte, i int) ([]byte, error) {
	rows := c.rows
	if i < 0 || i+1 >= len(rows) {
		return c.badRow(dst, i)
	}
	a, b := int(rows[i]), int(rows[i+1])
	k := uint(b - a) // b >= a: the offsets were validated
	l := len(dst)
	codes := c.parts.Codes
	if k > 8 || a+8 > len(codes) || cap(dst)-l <= 8*MaxTokenSize || !c.padOK {
		if rowAsm && k > 8 && c.padOK && a+int(k+3)&^3 <= len(codes) {
			// Long rows: the assembly loop, one loop exit a row.
			dst = grow(dst, MaxTokenSize*(int(k)+1))
			d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), l)
			e := gatherRowAsm(d, unsafe.Pointer(&codes[a]), int(k), c.pad4, unsafe.Pointer(unsafe.SliceData(c.dec.rows)), c.dec.lens)
			return dst[:l+int(e-uintptr(d))], nil
		}
		return c.appendRowLong(dst, codes[a:b]), nil
	}
	cs := unsafe.Pointer(unsafe.SliceData(codes))
	v := *(*uint64)(unsafe.Add(cs, 2*a))
	fat := unsafe.Pointer(unsafe.SliceData(c.dec.rows))
	lens := c.dec.lens
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), l)
	o := d
	if k <= 4 {
		keep := rowKeep[k]
		v = v&keep | c.pad4&^keep
	} else {
		keep := rowKeep[k-4]
		u := *(*uint64)(unsafe.Add(cs, 2*a+8))
		u = u&keep | c.pad4&^keep
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v))<<4))
		o = unsafe.Add(o, lens[uint16(v)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v>>16))<<4))
		o = unsafe.Add(o, lens[uint16(v>>16)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v>>32))<<4))
		o = unsafe.Add(o, lens[uint16(v>>32)])
		*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v>>48))<<4))
		o = unsafe.Add(o, lens[uint16(v>>48)])
		v = u
	}
	*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v))<<4))
	o = unsafe.Add(o, lens[uint16(v)])
	*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v>>16))<<4))
	o = unsafe.Add(o, lens[uint16(v>>16)])
	*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v>>32))<<4))
	o = unsafe.Add(o, lens[uint16(v>>32)])
	*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v>>48))<<4))
	o = unsafe.Add(o, lens[uint16(v>>48)])
	return dst[:l+int(uintptr(o)-uintptr(d))], nil
}
