package onpair

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// partsFromSpecBuffers reads fuzz input as the spec's buffers: bits, N+1
// u32 LE offsets, dict bytes, M and packed codes. It returns the Parts
// (codes unpacked when possible), the packed codes and M.
func partsFromSpecBuffers(data []byte) (p Parts, packed []byte, m int, ok bool) {
	if len(data) < 4 {
		return p, nil, 0, false
	}
	p.Bits = uint32(data[0] & 31)
	nOff := int(data[1])
	dictLen := int(data[2])
	m = int(data[3]) * 4
	data = data[4:]
	if len(data) < 4*nOff {
		return p, nil, 0, false
	}
	p.DictOffsets = make([]uint32, nOff)
	for i := range p.DictOffsets {
		p.DictOffsets[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	data = data[4*nOff:]
	dictLen = min(dictLen, len(data))
	p.DictBytes, packed = data[:dictLen], data[dictLen:]
	return p, packed, m, true
}

// FuzzDiffDecompress reads the spec's buffers from arbitrary bytes (so
// validation sees every kind of bad input) and compares the one-shot
// decoders, from unpacked and packed codes, with the exact twin.
func FuzzDiffDecompress(f *testing.F) {
	ex, _ := workedExample()
	seed := []byte{9, 5, byte(len(ex.DictBytes)), 2}
	for _, o := range ex.DictOffsets {
		seed = binary.LittleEndian.AppendUint32(seed, o)
	}
	seed = append(seed, ex.DictBytes...)
	seed = append(seed, PackCodes([]uint16{0, 1, 3, 0, 1, 2, 3, 3}, 9)...)
	f.Add(seed)
	f.Add([]byte{12, 1, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{16, 2, 20, 1, 0, 0, 0, 0, 17, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, packed, m, ok := partsFromSpecBuffers(data)
		if !ok {
			return
		}
		codes, uerr := UnpackCodes(packed, p.Bits, m)
		fromPacked, perr := DecompressPacked(p, packed, m)
		if uerr != nil {
			if perr == nil {
				t.Fatalf("DecompressPacked accepted codes UnpackCodes refused: %v", uerr)
			}
			return
		}
		p.Codes = codes
		verr := p.Validate()
		got, err := Decompress(p)
		want, serr := decompressSafe(p)
		if (err == nil) != (serr == nil) {
			t.Fatalf("fast err %v, safe err %v", err, serr)
		}
		if verr == nil && (err != nil || perr != nil) {
			t.Fatalf("valid parts failed: %v / %v", err, perr)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("fast %q != safe %q", got, want)
		}
		if perr == nil && !bytes.Equal(fromPacked, want) {
			t.Fatalf("packed %q != safe %q", fromPacked, want)
		}
		n, err := DecompressedLen(p)
		if err != nil || n != len(want) {
			t.Fatalf("DecompressedLen %d, %v; want %d", n, err, len(want))
		}
		buf := bytes.Repeat([]byte{0xC3}, n+16)
		w, err := DecompressInto(buf[:n], p)
		if err != nil || w != n || !bytes.Equal(buf[:n], want) || !bytes.Equal(buf[n:], bytes.Repeat([]byte{0xC3}, 16)) {
			t.Fatalf("DecompressInto: %d, %v", w, err)
		}
	})
}

// FuzzDiffFastSafe builds always-well-formed dictionaries from the input
// (token lengths and codes drawn from it) so the fuzzer spends its time in
// the decode loops rather than in validation, and compares the fat-read
// decoder with the exact twin.
func FuzzDiffFastSafe(f *testing.F) {
	f.Add([]byte("\x03\x10\x01hello world, this is a token soup"), []byte{0, 1, 2, 2, 1, 0, 1, 2, 0, 0, 0, 1, 2, 1, 2, 1, 0, 2, 1})
	f.Add([]byte{1, 1}, []byte{})
	f.Fuzz(func(t *testing.T, dictSpec []byte, codeBytes []byte) {
		if len(dictSpec) < 1 {
			return
		}
		n := int(dictSpec[0])%64 + 1
		offs := []uint32{0}
		var dict []byte
		for i := 0; i < n; i++ {
			l := 1
			if 1+i < len(dictSpec) {
				l = int(dictSpec[1+i])%MaxTokenSize + 1
			}
			for k := 0; k < l; k++ {
				b := byte(i*31 + k)
				if j := 1 + n + len(dict); j < len(dictSpec) {
					b = dictSpec[j]
				}
				dict = append(dict, b)
			}
			offs = append(offs, uint32(len(dict)))
		}
		pad := MaxTokenSize - int(offs[n]-offs[n-1])
		dict = append(dict, bytes.Repeat([]byte{0xEE}, pad)...)
		codes := make([]uint16, len(codeBytes))
		for i, b := range codeBytes {
			codes[i] = uint16(int(b) % n)
		}
		p := Parts{DictBytes: dict, DictOffsets: offs, Codes: codes, Bits: 16}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		want, err := decompressSafe(p)
		if err != nil {
			t.Fatal(err)
		}
		buf := bytes.Repeat([]byte{0x77}, len(want)+MaxTokenSize)
		w, err := DecompressInto(buf[:len(want)], p)
		if err != nil || !bytes.Equal(buf[:w], want) || w != len(want) {
			t.Fatalf("fast %q, %v; safe %q", buf[:w], err, want)
		}
		if !bytes.Equal(buf[len(want):], bytes.Repeat([]byte{0x77}, MaxTokenSize)) {
			t.Fatal("DecompressInto wrote past an exact dst")
		}
		got, err := AppendDecompress(make([]byte, 3, 5), p)
		if err != nil || !bytes.Equal(got[3:], want) {
			t.Fatalf("AppendDecompress %q, %v", got, err)
		}
		// Rows: split the codes into rows of 0..20 codes (the code bytes
		// pick the lengths), so AppendRow's inline short-row path, its
		// roomy-kernel path and its growing path all meet the safe decoder.
		rows := []uint32{0}
		for k := 0; int(rows[len(rows)-1]) < len(codes); k++ {
			step := 0
			if len(codeBytes) > 0 {
				step = int(codeBytes[k%len(codeBytes)]) % 21
				switch codeBytes[0] & 3 {
				case 1: // 0..2 codes: the short-row table's two-token path
					step %= 3
				case 2: // 0..8 codes: its four-code and longer-row entries
					step %= 9
				}
			}
			if k%3 == 2 {
				step++ // never stall
			}
			rows = append(rows, uint32(min(int(rows[len(rows)-1])+step, len(codes))))
		}
		col, err := NewColumn(p, rows)
		if err != nil {
			t.Fatal(err)
		}
		noTable, err := NewColumn(p, rows, WithRowTable(false))
		if err != nil {
			t.Fatal(err)
		}
		var reused []byte
		for r := 0; r < col.Len(); r++ {
			q := p
			q.Codes = codes[rows[r]:rows[r+1]]
			wantRow, _ := decompressSafe(q)
			room := MaxTokenSize * len(q.Codes)
			for _, c := range []*Column{col, noTable} {
				for _, dst := range [][]byte{nil, make([]byte, 2, 2+room), make([]byte, 2, max(2, 1+room)), reused[:0]} {
					pre := append([]byte(nil), dst...)
					got, err := c.AppendRow(dst, r)
					if err != nil || !bytes.Equal(got[:len(pre)], pre) || !bytes.Equal(got[len(pre):], wantRow) {
						t.Fatalf("row %d (cap %d, table %v): got %q, %v; want %q", r, cap(dst), c == col, got, err, wantRow)
					}
				}
			}
			reused, _ = col.AppendRow(reused[:0], r)
		}
		data, ends := col.AppendArrow([]byte("pre"), nil)
		if !bytes.Equal(data[3:], want) || len(ends) != col.Len() {
			t.Fatalf("AppendArrow %q (%d ends), want %q", data, len(ends), want)
		}
		for r, row := range col.All() {
			start := 0
			if r > 0 {
				start = int(ends[r-1])
			}
			if !bytes.Equal(row, data[3+start:3+int(ends[r])]) {
				t.Fatalf("All row %d %q, AppendArrow %q", r, row, data[3+start:3+int(ends[r])])
			}
		}
	})
}

// FuzzDiffDecoder compares the prepared Decoder (block kernel plus exact
// tail, from []uint16 and fused from packed codes) and the one-shot
// spec-layout decoders with the exact twin, on well-formed dictionaries and
// codes that are sometimes out of range. reps repeats the code bytes so the
// 8-code block kernels run on long streams too.
func FuzzDiffDecoder(f *testing.F) {
	f.Add([]byte("\x05\x01\x10\x03\x07\x02hello world, this is a token soup"), []byte{0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 1, 2}, uint8(40), uint8(9))
	f.Add([]byte{3, 16, 16, 16}, []byte{0, 1, 2, 2, 1, 0, 3}, uint8(20), uint8(12))
	f.Add([]byte{1, 1}, []byte{}, uint8(0), uint8(16))
	f.Fuzz(func(t *testing.T, dictSpec []byte, codeBytes []byte, reps uint8, bits uint8) {
		if len(dictSpec) < 1 {
			return
		}
		n := int(dictSpec[0])%200 + 1
		offs := []uint32{0}
		var dict []byte
		for i := 0; i < n; i++ {
			l := 1
			if 1+i < len(dictSpec) {
				l = int(dictSpec[1+i])%MaxTokenSize + 1
			}
			for k := 0; k < l; k++ {
				b := byte(i*31 + k)
				if j := 1 + n + len(dict); j < len(dictSpec) {
					b = dictSpec[j]
				}
				dict = append(dict, b)
			}
			offs = append(offs, uint32(len(dict)))
		}
		dict = append(dict, bytes.Repeat([]byte{0xEE}, MaxTokenSize-int(offs[n]-offs[n-1])+int(reps%3))...)
		width := uint32(8 + bits%9)
		codes := make([]uint16, 0, len(codeBytes)*(int(reps)+1))
		for r := 0; r <= int(reps); r++ {
			for i, b := range codeBytes {
				c := (int(b) + r*7 + i) % (n + 1) // n itself is out of range
				if c == n && (b&3 != 0 || r > 0) {
					c = int(b) % n // keep most streams valid
				}
				codes = append(codes, uint16(c)&uint16(1<<width-1))
			}
		}
		p := Parts{DictBytes: dict, DictOffsets: offs, Codes: codes, Bits: width}
		want, serr := decompressSafe(p)
		d, err := NewDecoder(p)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, got []byte, err error) {
			t.Helper()
			if serr != nil {
				if !errors.Is(err, ErrCodeOutOfRange) {
					t.Fatalf("%s: err %v, want ErrCodeOutOfRange (%v)", name, err, serr)
				}
				return
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s: %q, %v; want %q", name, got, err, want)
			}
		}
		size := len(want)
		if serr != nil {
			size = 16 * len(codes)
		}
		buf := bytes.Repeat([]byte{0x5A}, size+MaxTokenSize)
		w, err := d.DecodeInto(buf[:size], codes)
		check("DecodeInto", buf[:w], err)
		if !bytes.Equal(buf[size:], bytes.Repeat([]byte{0x5A}, MaxTokenSize)) {
			t.Fatal("DecodeInto wrote past dst")
		}
		w, err = DecompressInto(buf[:size], p)
		check("DecompressInto", buf[:w], err)
		if !bytes.Equal(buf[size:], bytes.Repeat([]byte{0x5A}, MaxTokenSize)) {
			t.Fatal("DecompressInto wrote past dst")
		}
		got, err := d.AppendDecode([]byte("x"), codes)
		check("AppendDecode", got[1:], err)
		got, err = AppendDecompress(nil, p)
		check("AppendDecompress", got, err)
		// A column sharing the Decoder's table, rows of 0..6 codes.
		rows := []uint32{0}
		for k := 0; int(rows[len(rows)-1]) < len(codes); k++ {
			rows = append(rows, uint32(min(int(rows[len(rows)-1])+k%7, len(codes))))
		}
		col, err := d.NewColumn(codes, rows)
		if width == 8 && n > 256 {
			if !errors.Is(err, ErrTooManyTokens) {
				t.Fatalf("NewColumn with %d tokens at 8 bits: %v", n, err)
			}
		} else if serr != nil {
			check("NewColumn", nil, err)
		} else {
			if err != nil {
				t.Fatalf("NewColumn: %v", err)
			}
			check("Column.AppendAll", col.AppendAll(nil), nil)
			var all []byte
			for _, row := range col.All() {
				all = append(all, row...)
			}
			check("Column.All", all, nil)
		}
		if n > 1<<width {
			return
		}
		packed := PackCodes(codes, width)
		got, err = d.AppendDecodePacked(make([]byte, 1, 3), packed, len(codes))
		check("AppendDecodePacked", got[1:], err)
		got, err = DecompressPacked(p, packed, len(codes))
		check("DecompressPacked", got, err)
		// The Go loops where the assembly ones are built (packedAsmOn).
		if packedAsmOn {
			packedAsmOn = false
			got, err = d.AppendDecodePacked(make([]byte, 1, 3), packed, len(codes))
			packedAsmOn = true
			check("AppendDecodePacked (Go loop)", got[1:], err)
		}
	})
}
