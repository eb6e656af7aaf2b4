//go:build amd64 && !purego

package onpair

import "golang.org/x/sys/cpu"

// The SIMD check pass: the largest code of a []uint16 in one vector pass
// (maxcode_amd64.s), so the decoders check a block of codes with a
// compare per 16 codes and then run the unchecked kernel. AVX2 or SSE4.1,
// detected at run time; without either (or under -tags purego, or off
// amd64) the decoders keep the fused per-block check (maxcode_other.go).

//go:noescape
func maxCodeAVX2(s []uint16) uint16

//go:noescape
func maxCodeSSE41(s []uint16) uint16

// maxCodeFunc is the selected implementation, nil when neither is usable.
var maxCodeFunc = func() func([]uint16) uint16 {
	switch {
	case cpu.X86.HasAVX2:
		return maxCodeAVX2
	case cpu.X86.HasSSE41:
		return maxCodeSSE41
	}
	return nil
}()

// maxCodeImpls lists the implementations this CPU runs, by name, for the
// tests and benchmarks that compare each with the Go twin.
func maxCodeImpls() map[string]func([]uint16) uint16 {
	m := map[string]func([]uint16) uint16{}
	if cpu.X86.HasAVX2 {
		m["avx2"] = maxCodeAVX2
	}
	if cpu.X86.HasSSE41 {
		m["sse41"] = maxCodeSSE41
	}
	return m
}

// unpackTab is the per-width layout unpackMaxAVX2 reads (offsets fixed in
// maxcode_amd64.s): the VPSHUFB control gathering each code's 4 bytes
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
func unpackMaxAVX2(dst *uint16, src *byte, groups int, tab *unpackTab) uint16

// packedSIMD reports whether the packed decoders use gatherPackedSIMD.
var packedSIMD = cpu.X86.HasAVX2

// packedChunk is how many codes gatherPackedSIMD unpacks into its stack
// scratch at a time (2 KiB, in L1 when the decode loop reads it).
const packedChunk = 256

// gatherPackedSIMD is gatherFatPacked by unpacking: codes i.. (i a
// multiple of 16) of a stream packed at width bits are unpacked 1024 at a
// time into a stack buffer by unpackMaxAVX2, which also returns their
// maximum, and decoded by the unchecked kernel (gatherValid) when the
// maximum is < n. It stops at the first chunk holding a code >= n with
// bad's top bit set, when out has no room for a whole block, or before
// the last codes (under 16, or whose loads would pass the end of packed),
// which the caller's exact tail decodes.
func (t *fatTable) gatherPackedSIMD(out []byte, w int, packed []byte, width uint, m int, i int) (int, int, uint8) {
	if i < 0 || i%16 != 0 || width < 8 || width > 16 {
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
	var scratch [packedChunk]uint16
	for g := i / 16; g < groups; {
		k := min(groups-g, packedChunk/16)
		if int(unpackMaxAVX2(&scratch[0], &packed[2*wd*g], k, tab)) >= t.n {
			return w, i, 0x80
		}
		var j int
		w, j = t.gatherValid(out, w, scratch[:16*k], 0)
		i += j
		if j < 16*k {
			break // no room for a whole block
		}
		g += k
	}
	return w, i, 0
}
