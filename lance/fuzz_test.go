package lance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpenRead opens arbitrary bytes as a Lance file, validates it and
// reads every column: it must return an error or rows, never panic, and
// never allocate past the limits given.
func FuzzOpenRead(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.lance")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add(pagedFile())
	f.Fuzz(func(t *testing.T, b []byte) {
		opts := []Option{WithMaxBufferSize(4 << 20), WithMaxMetadataSize(1 << 20), WithMaxColumns(256), WithMaxDepth(16)}
		lf, err := Open(bytes.NewReader(b), int64(len(b)), opts...)
		if err != nil {
			checkErr(t, err)
			return
		}
		verr := lf.Validate()
		if verr != nil {
			checkErr(t, verr)
		}
		for rec, err := range lf.Records(ReadOptions{BatchRows: 7}) {
			if err != nil {
				checkErr(t, err)
				break
			}
			if verr != nil && errors.Is(verr, ErrCorrupt) {
				// Reads may succeed where Validate's extra checks fail.
				_ = verr
			}
			var buf bytes.Buffer
			_ = WriteJSONLines(&buf, rec, JSONOptions{})
			rec.Release()
		}
		var d bytes.Buffer
		_ = lf.Describe(&d)
	})
}

func checkErr(t *testing.T, err error) {
	if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("error wraps no package sentinel: %v", err)
	}
}

// fuzzTypes are the logical types FuzzPage decodes a fuzzed page as.
var fuzzTypes = []string{"int32", "bool", "string", "large_binary", "fixed_size_list:float:4",
	"dict:string:int8:false", "decimal:128:10:2", "fixed_size_binary:3", "halffloat", "timestamp:us:-"}

// FuzzPage feeds a fuzzed ArrayEncoding and three page buffers to the
// decoders under each logical type, so mutations reach the encoding trees
// rather than dying in the container.
func FuzzPage(f *testing.F) {
	for _, g := range goldens {
		b := g.build()
		lf, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			continue
		}
		for ci, c := range lf.columns {
			for _, p := range c.pages {
				var bufs [3][]byte
				for k := 0; k < len(p.buffers) && k < 3; k++ {
					bufs[k] = b[p.buffers[k].off : p.buffers[k].off+p.buffers[k].size]
				}
				f.Add(mustMarshal(p.enc), bufs[0], bufs[1], bufs[2], uint16(p.length), uint8(ci))
			}
		}
	}
	f.Fuzz(func(t *testing.T, enc, b0, b1, b2 []byte, length uint16, typ uint8) {
		lt := fuzzTypes[int(typ)%len(fuzzTypes)]
		tf := &tFile{rows: uint64(length), fields: top(fld(0, -1, "x", lt, true)),
			cols: []tCol{oneCol(tPage{bufs: [][]byte{b0, b1, b2}, length: uint64(length), rawEnc: enc})}}
		b := tf.bytes()
		lf, err := Open(bytes.NewReader(b), int64(len(b)), WithMaxBufferSize(1<<20), WithMaxDepth(16))
		if err != nil {
			checkErr(t, err)
			return
		}
		fast, errFast := readAllJSON(lf, false)
		slow, errSlow := readAllJSON(lf, true)
		if errFast != nil || errSlow != nil {
			// The direct path may refuse a page earlier (its buffer size
			// check covers the whole page); both must refuse it then.
			if errFast == nil || errSlow == nil {
				t.Fatalf("direct path error %v, general path error %v", errFast, errSlow)
			}
			checkErr(t, errFast)
			checkErr(t, errSlow)
			return
		}
		if fast != slow {
			t.Fatalf("direct path %q, general path %q", fast, slow)
		}
	})
}

// readAllJSON reads every row with the direct fixed-width path on or off.
func readAllJSON(f *File, general bool) (string, error) {
	nodes, schema, a, b, err := f.selection(ReadOptions{})
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
	if rec.NumRows() != f.NumRows() {
		return "", fmt.Errorf("%d rows, want %d", rec.NumRows(), f.NumRows())
	}
	var buf bytes.Buffer
	err = WriteJSONLines(&buf, rec, JSONOptions{})
	return buf.String(), err
}
