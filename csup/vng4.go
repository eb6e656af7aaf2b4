package csup

import (
	"encoding/binary"
	"errors"
	"io"
	"strconv"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/errs"
)

// VNG version 4 (zed v1.13–v1.18): a 16-byte header ("VNG\0", version 4,
// MetaSize u32, DataSize u32), one Super Binary (version 0) metadata value
// — a tree of nodes, not a DAG — and the data section its segments point
// into (offsets relative to its start). Nodes are those of VNG v3 with a
// single Segment per column instead of a segmap, plus Dict (one index byte
// per value), Const and a top-level Variant whose tags select the super
// type of each row.

const vng4HeaderSize = 16

func openVNG4(f *File, r io.ReaderAt, size int64, cfg config) error {
	var h [vng4HeaderSize]byte
	if _, err := r.ReadAt(h[:], 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	le := binary.LittleEndian
	meta, data := int64(le.Uint32(h[8:])), int64(le.Uint32(h[12:]))
	if vng4HeaderSize+meta+data != size {
		return errs.At(ErrCorrupt, 0, "header", "VNG header sizes meta %d + data %d do not add up to the %d-byte file", meta, data, size)
	}
	if meta > cfg.maxReassemblySize {
		return errs.TooLarge(ErrTooLarge, 8, "header", "metadata section", uint64(meta), cfg.maxReassemblySize)
	}
	buf := make([]byte, meta)
	if _, err := r.ReadAt(buf, vng4HeaderSize); err != nil && !(errors.Is(err, io.EOF) && meta == 0) {
		return err
	}
	vals, err := readStream(buf, vng4HeaderSize, cfg)
	if err != nil {
		return errs.Locate(err, vng4HeaderSize, "metadata")
	}
	if len(vals) != 1 {
		return errs.At(ErrCorrupt, vng4HeaderSize, "metadata", "VNG v4 metadata holds %d values, want 1", len(vals))
	}
	base := vng4HeaderSize + meta
	f.info.dataSize = base + data
	b := vngBuilder{f: &f.info, v4: true, base: base}
	root := unwrap(vals[0])
	if typeName(root) == "Variant" {
		if f.super, err = b.segmap(root, "tags", "super"); err != nil {
			return err
		}
		mv, _ := field(root, "values")
		list, ok := elems(mv)
		if !ok || len(list) == 0 {
			return errs.At(ErrCorrupt, -1, "super", "VNG Variant lacks Values")
		}
		for i, m := range list {
			c, err := b.node(m, "super"+strconv.Itoa(i), 0)
			if err != nil {
				return err
			}
			f.types = append(f.types, c.typ)
			f.cols = append(f.cols, c)
		}
		f.rootRows = -1
		return nil
	}
	c, err := b.node(root, "super0", 0)
	if err != nil {
		return err
	}
	f.types, f.cols = []*bsup.Type{c.typ}, []*node{c}
	if f.rootRows, err = vngLength(root, 0); err != nil {
		return err
	}
	return nil
}

// vngLength returns the number of values a v4 node yields.
func vngLength(v bsup.Value, depth int) (int64, error) {
	v = unwrap(v)
	for _, name := range []string{"length", "count"} {
		if lv, ok := field(v, name); ok {
			if n, ok := asInt(lv); ok && n >= 0 {
				if typeName(v) == "Nulls" {
					break // its Count is the nulls'
				}
				return n, nil
			}
		}
	}
	if depth < 64 {
		if cv, ok := field(v, "values"); ok && isRecord(cv) {
			n, err := vngLength(cv, depth+1)
			if err != nil {
				return 0, err
			}
			if typeName(v) == "Nulls" {
				nulls, _ := field(v, "count")
				k, _ := asInt(nulls)
				return n + k, nil
			}
			return n, nil
		}
	}
	return 0, errs.At(ErrCorrupt, -1, "super0", "cannot tell how many values the top-level node holds")
}
