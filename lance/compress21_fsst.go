package lance

// FSST as Lance serialises it (notes §10.5): a 2,312-byte table of a u64
// header, 256 u64 symbol slots and 256 length bytes; each string is
// decoded on its own.

import (
	"encoding/binary"

	"github.com/colfmt/colfmt/internal/errs"
)

const fsstMagic = 0x46535354

type fsstTable struct {
	n       int
	encoder bool // bit 24: off means the strings are stored raw
	sym     [255]uint64
	len     [255]uint8
}

func parseFsstTable(b []byte) (*fsstTable, error) {
	if len(b) < 8 {
		return nil, errs.Wrap(ErrCorrupt, "FSST symbol table of %d bytes", len(b))
	}
	h := binary.LittleEndian.Uint64(b)
	if h>>32 != fsstMagic {
		return nil, errs.Wrap(ErrCorrupt, "FSST symbol table without its magic (header %#x)", h)
	}
	t := &fsstTable{n: int(h & 0xff), encoder: h>>24&1 == 1}
	if t.n > 255 {
		return nil, errs.Wrap(ErrCorrupt, "FSST table of %d symbols (at most 255)", t.n)
	}
	if len(b) < 8+9*t.n {
		return nil, errs.Wrap(ErrCorrupt, "FSST table of %d symbols in %d bytes", t.n, len(b))
	}
	for i := 0; i < t.n; i++ {
		t.sym[i] = binary.LittleEndian.Uint64(b[8+8*i:])
		l := b[8+8*t.n+i]
		if l < 1 || l > 8 {
			return nil, errs.Wrap(ErrCorrupt, "FSST symbol %d of length %d (1..8)", i, l)
		}
		t.len[i] = l
	}
	return t, nil
}

// decodedLen is the exact length src decodes to, checking every code
// and escape (what decodeInto relies on).
func (t *fsstTable) decodedLen(src []byte) (int, error) {
	if !t.encoder {
		return len(src), nil
	}
	total := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == 255 {
			i++
			if i == len(src) {
				return 0, errs.Wrap(ErrCorrupt, "FSST escape at the end of a string")
			}
			total++
			continue
		}
		l := t.len[c] // 0 for a code past the table
		if l == 0 {
			return 0, errs.Wrap(ErrCorrupt, "FSST code %d of a %d-symbol table", c, t.n)
		}
		total += int(l)
	}
	return total, nil
}

// decodeInto decodes src, which decodedLen has checked, to dst[at:] and
// returns the end. Each symbol is one 8-byte store, so dst must have 7
// bytes of slack past the decoded end; the bytes past the end are junk.
// appendDecode is its exact twin (FuzzDiffFsst compares them).
func (t *fsstTable) decodeInto(dst []byte, at int, src []byte) int {
	if !t.encoder {
		return at + copy(dst[at:], src)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == 255 {
			i++
			dst[at] = src[i]
			at++
			continue
		}
		binary.LittleEndian.PutUint64(dst[at:at+8], t.sym[c])
		at += int(t.len[c])
	}
	return at
}

// appendDecode appends the decoded src to dst.
func (t *fsstTable) appendDecode(dst, src []byte) ([]byte, error) {
	if !t.encoder {
		return append(dst, src...), nil
	}
	var sym [8]byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == 255 {
			i++
			if i == len(src) {
				return dst, errs.Wrap(ErrCorrupt, "FSST escape at the end of a string")
			}
			dst = append(dst, src[i])
			continue
		}
		if int(c) >= t.n {
			return dst, errs.Wrap(ErrCorrupt, "FSST code %d of a %d-symbol table", c, t.n)
		}
		binary.LittleEndian.PutUint64(sym[:], t.sym[c])
		dst = append(dst, sym[:t.len[c]]...)
	}
	return dst, nil
}
