//go:build !purego && (386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package onpair

import (
	"sync/atomic"
	"unsafe"
)

// rowKeep[k] keeps the first k of four 16-bit lanes.
var rowKeep = [5]uint64{0, 0xffff, 0xffffffff, 0xffffffffffff, ^uint64(0)}

// AppendRow appends row i to dst. It may use dst's spare capacity beyond
// the returned length as scratch (up to 16 bytes per code of the row, at
// least 129 bytes), so reusing one buffer across calls,
// dst = c.AppendRow(dst[:0], i), is the fast way.
//
// The first call builds the short-row table (8 bytes a row; see
// WithRowTable): a row of up to four codes is then one 8-byte load of
// its codes, padded with the length-0 code n, and four tokens copied
// unconditionally (two in columns of nearly all one- and two-code rows).
// Rows of five to eight codes come from the row offsets and the codes in
// two 8-byte loads, padded the same way, and eight tokens are copied; so
// a row's code count costs no mispredicted loop exit.
func (c *Column) AppendRow(dst []byte, i int) ([]byte, error) {
	l := len(dst)
	// inlineRows is 0 when the inline paths are off (no length-0 pad
	// code, or a zero Column), so this one compare also covers that.
	if uint(i) >= c.inlineRows || cap(dst)-l <= 8*MaxTokenSize {
		return c.appendRowSlow(dst, i)
	}
	fat := unsafe.Pointer(unsafe.SliceData(c.dec.rows))
	lens := c.dec.lens
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), l)
	o := d
	sp := (*uint64)(atomic.LoadPointer(&c.short))
	if sp == nil {
		sp = c.shortRows()
	}
	var a, k uint
	if *sp&shortOn != 0 {
		v := *(*uint64)(unsafe.Add(unsafe.Pointer(sp), 8*i+8))
		if v>>48 != shortLong {
			if *sp&shortLanes2 != 0 && v>>32 == c.pad4>>32 {
				o = copy2(o, fat, lens, v)
				return dst[:l+int(uintptr(o)-uintptr(d))], nil
			}
			o = copy2(copy2(o, fat, lens, v), fat, lens, v>>32)
			return dst[:l+int(uintptr(o)-uintptr(d))], nil
		}
		// A longer row's entry holds its code offset and count (the
		// count capped at 0xffff), so the row offsets are not read.
		a, k = uint(uint32(v)), uint(uint16(v>>32))
	} else {
		rp := unsafe.Pointer(unsafe.SliceData(c.rows))
		a = uint(*(*uint32)(unsafe.Add(rp, 4*i)))
		k = uint(*(*uint32)(unsafe.Add(rp, 4*i+4))) - a // >= 0: the offsets were validated
	}
	if k > 8 || a >= c.inlineCodes {
		return c.appendRowSlow(dst, i)
	}
	cs := unsafe.Add(unsafe.Pointer(unsafe.SliceData(c.parts.Codes)), 2*a)
	v := *(*uint64)(cs)
	if k <= 4 {
		keep := rowKeep[k]
		v = v&keep | c.pad4&^keep
	} else {
		keep := rowKeep[k-4]
		u := *(*uint64)(unsafe.Add(cs, 8))
		u = u&keep | c.pad4&^keep
		o = copy2(copy2(o, fat, lens, v), fat, lens, v>>32)
		v = u
	}
	o = copy2(copy2(o, fat, lens, v), fat, lens, v>>32)
	return dst[:l+int(uintptr(o)-uintptr(d))], nil
}

// copy2 copies the tokens of the codes in v's two low 16-bit lanes to o,
// each as 16 bytes (fat holds every token padded to 16), and returns o
// advanced by their lengths. It is inlined (keep it under the inliner's
// budget): AppendRow's fast paths are made of it.
func copy2(o, fat unsafe.Pointer, lens *[MaxTokens]uint8, v uint64) unsafe.Pointer {
	*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v))<<4))
	o = unsafe.Add(o, lens[uint16(v)])
	*(*[16]byte)(o) = *(*[16]byte)(unsafe.Add(fat, uintptr(uint16(v>>16))<<4))
	return unsafe.Add(o, lens[uint16(v>>16)])
}

// appendRowSlow is AppendRow for what its inline path does not take: a
// bad row number, rows of more than eight codes, a row within eight codes
// of the end, too little spare capacity. It is out of line so that the
// inline path keeps few registers and no calls of its own.
func (c *Column) appendRowSlow(dst []byte, i int) ([]byte, error) {
	rows := c.rows
	if i < 0 || i+1 >= len(rows) {
		return c.badRow(dst, i)
	}
	a, b := int(rows[i]), int(rows[i+1])
	k := uint(b - a)
	l := len(dst)
	codes := c.parts.Codes
	if rowAsm && k > 8 && c.padOK && a+int(k+3)&^3 <= len(codes) {
		// Long rows: the assembly loop, one loop exit a row.
		dst = grow(dst, MaxTokenSize*(int(k)+1))
		d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), l)
		e := gatherRowAsm(d, unsafe.Pointer(&codes[a]), int(k), c.pad4, unsafe.Pointer(unsafe.SliceData(c.dec.rows)), c.dec.lens)
		return dst[:l+int(e-uintptr(d))], nil
	}
	return c.appendRowLong(dst, codes[a:b]), nil
}
