//go:build amd64 && !purego

package onpair

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// unpackTab is the per-width layout gatherPackedAVX2 reads (offsets fixed
// in packed_amd64.s): the VPSHUFB control gathering each code's 4 bytes
// into its dword lane, each lane's right shift, the code mask, h (the
// byte offset of code 4 of a half-group) and the width.
type unpackTab struct {
	ctrl  [32]byte
	shift [8]uint32
	mask  [8]uint32
	h     int64
	width int64
}

// unpackTabs holds the tables of widths 8..16.
var unpackTabs = func() (tabs [17]unpackTab) {
	for w := 8; w <= 16; w++ {
		t := &tabs[w]
		t.h, t.width = int64(4*w/8), int64(w)
		for j := 0; j < 8; j++ {
			lane := j / 4
			s := j*w - lane*8*int(t.h) // bit offset from the lane's load
			for k := 0; k < 4; k++ {
				t.ctrl[16*lane+4*(j%4)+k] = byte(s>>3 + k)
			}
			t.shift[j] = uint32(s & 7)
			t.mask[j] = 1<<w - 1
		}
	}
	return tabs
}()

//go:noescape
func gatherPackedAVX2(o unsafe.Pointer, end uintptr, src unsafe.Pointer, groups int, rows unsafe.Pointer, lens *[MaxTokens]uint8, tab *unpackTab) (uintptr, int, uint16)

// packedSIMD reports whether the packed decoders use gatherPackedSIMD
// (a variable so the benchmarks can time the Go loop beside it).
var packedSIMD = cpu.X86.HasAVX2

// gatherPackedSIMD is gatherFatPacked with the codes unpacked by AVX2 in
// the decode loop (gatherPackedAVX2) and checked by their maximum after:
// codes i.. (i a multiple of 16) in groups of 16 while a whole group of
// output fits in out, up to the last group whose loads lie within packed.
// A code >= n sets bad's top bit (the output is then garbage; the caller
// reports the code). The caller's exact tail decodes the rest.
func (t *fatTable) gatherPackedSIMD(out []byte, w int, packed []byte, width uint, m int, i int) (int, int, uint8) {
	if len(t.rows) < (int(t.mask)+1)*MaxTokenSize || int(t.mask) < 1<<width-1 || i < 0 || i%16 != 0 || width < 8 || width > 16 || w < 0 || w > len(out)-16*MaxTokenSize-1 {
		return w, i, 0
	}
	tab := &unpackTabs[width]
	wd := int(width)
	// Groups whose four 16-byte loads lie within packed: group g's last
	// load ends at 2*wd*g + wd + h + 16.
	groups := m / 16
	if lim := len(packed) - wd - int(tab.h) - 16; lim < 0 {
		groups = 0
	} else {
		groups = min(groups, lim/(2*wd)+1)
	}
	g := i / 16
	if g >= groups {
		return w, i, 0
	}
	d := unsafe.Pointer(unsafe.SliceData(out))
	end := uintptr(d) + uintptr(len(out)-16*MaxTokenSize-1)
	e, k, mx := gatherPackedAVX2(unsafe.Add(d, w), end, unsafe.Pointer(&packed[2*wd*g]), groups-g, unsafe.Pointer(unsafe.SliceData(t.rows)), t.lens, tab)
	var bad uint8
	if k > 0 && int(mx) >= t.n {
		bad = 0x80
	}
	return int(e - uintptr(d)), i + 16*k, bad
}
