package lance

import (
	"bytes"
	"testing"
)

// pagedShapeFile builds a file with a list<int32> column and a string
// column over rows described by shape (one byte per row: list length,
// list null, string length, string null), each split into two pages.
// Nudges move each page's adjustment and item count off the writer's
// values, so the checks' edges are reached too.
func pagedShapeFile(shape []byte, split uint8, nudge [4]int8, large bool) []byte {
	n := len(shape)
	cut := 0
	if n > 0 {
		cut = int(split) % (n + 1)
	}
	lt, st := "list", "string"
	if large {
		lt, st = "large_list", "large_string"
	}
	nudged := func(v uint64, d int8) uint64 {
		if d < 0 && uint64(-int64(d)) > v {
			return 0
		}
		return uint64(int64(v) + int64(d))
	}
	var lcol, scol, icol tCol
	totalItems := uint64(0)
	item := uint32(0)
	for k, rows := range [][]byte{shape[:cut], shape[cut:]} {
		if len(rows) == 0 {
			continue
		}
		var ends, sends []uint64
		var end, send uint64
		var data []byte
		for _, c := range rows {
			end += uint64(c & 7)
			ends = append(ends, end)
			l := int(c>>3) & 7
			for j := 0; j < l; j++ {
				data = append(data, 'a'+byte(j))
			}
			send += uint64(l)
			sends = append(sends, send)
		}
		adj, sadj := nudged(end+1, nudge[2*k]), nudged(send+1, nudge[2*k+1])
		num := nudged(end, nudge[2*k]/2)
		for i, c := range rows {
			if c&0x80 != 0 {
				ends[i] += adj
			}
			if c&0x40 != 0 {
				sends[i] += sadj
			}
		}
		lcol.pages = append(lcol.pages, tPage{bufs: [][]byte{u64s(ends...)}, length: uint64(len(rows)), enc: listE(noNull(flatE(64, pbuf(0))), adj, num)})
		scol.pages = append(scol.pages, tPage{bufs: [][]byte{u64s(sends...), data}, length: uint64(len(rows)),
			enc: binaryE(noNull(flatE(64, pbuf(0))), flatE(8, pbuf(1)), sadj)})
		var items []uint32
		for j := uint64(0); j < num; j++ {
			items = append(items, item)
			item++
		}
		icol.pages = append(icol.pages, flatPage(num, 32, u32s(items...)))
		totalItems += num
	}
	if len(lcol.pages) == 0 {
		lcol.pages = []tPage{{bufs: [][]byte{nil}, enc: listE(noNull(flatE(64, pbuf(0))), 1, 0)}}
		scol.pages = []tPage{stringPage(nil)}
		icol.pages = []tPage{flatPage(0, 32, nil)}
	}
	tf := &tFile{rows: uint64(n), fields: top(fld(0, -1, "l", lt, true), fld(1, 0, "item", "int32", true), fld(2, -1, "s", st, true)),
		cols: []tCol{lcol, icol, scol}}
	return tf.bytes()
}

// readRange reads rows [a, b) of every column as JSON Lines, with the
// direct paths on or off.
func readRange(f *File, general bool, a, b int64) (string, error) {
	nodes, schema, _, _, err := f.selection(ReadOptions{})
	if err != nil {
		return "", err
	}
	r := f.newReader()
	r.general = general
	defer r.release()
	rec, err := r.record(nodes, schema, a, b)
	if err != nil {
		return "", err
	}
	defer rec.Release()
	var buf bytes.Buffer
	err = WriteJSONLines(&buf, rec, JSONOptions{})
	return buf.String(), err
}

// FuzzDiffDirectPaths compares the direct list and string paths with the
// general decoders on multi-page columns, for the whole file and for a
// fuzzed row range.
func FuzzDiffDirectPaths(f *testing.F) {
	f.Add([]byte{0x01, 0x82, 0x0b, 0x40, 0x13, 0xc4, 0x05}, uint8(3), int8(0), int8(0), int8(0), int8(0), false, uint8(1), uint8(4))
	f.Add([]byte{0x80, 0x00, 0x3f, 0x41}, uint8(2), int8(0), int8(-1), int8(1), int8(0), true, uint8(0), uint8(2))
	f.Add([]byte{0x07, 0x07, 0x07}, uint8(1), int8(2), int8(0), int8(-2), int8(0), false, uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, shape []byte, split uint8, n0, n1, n2, n3 int8, large bool, lo, cnt uint8) {
		if len(shape) > 300 {
			shape = shape[:300]
		}
		b := pagedShapeFile(shape, split, [4]int8{n0, n1, n2, n3}, large)
		lf, err := Open(bytes.NewReader(b), int64(len(b)), WithMaxBufferSize(1<<20))
		if err != nil {
			checkErr(t, err)
			return
		}
		rows := lf.NumRows()
		a := int64(lo) % (rows + 1)
		e := min(rows, a+int64(cnt))
		for _, rg := range [][2]int64{{0, rows}, {a, e}} {
			fast, errFast := readRange(lf, false, rg[0], rg[1])
			slow, errSlow := readRange(lf, true, rg[0], rg[1])
			if (errFast == nil) != (errSlow == nil) {
				t.Fatalf("rows %v: direct path error %v, general path error %v", rg, errFast, errSlow)
			}
			if errFast != nil {
				checkErr(t, errFast)
				checkErr(t, errSlow)
				continue
			}
			if fast != slow {
				t.Fatalf("rows %v: direct path %q, general path %q", rg, fast, slow)
			}
		}
	})
}
