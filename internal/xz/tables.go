package xz

import (
	"unsafe"

	"github.com/colfmt/colfmt/internal/hugepage"
)

// makeTables returns n zeroed uint32s for a match finder's hash heads and
// links. From hugepage.Min bytes on they are requested as transparent
// huge pages: the tree walk and the hash heads read them at random, and
// with 4 KiB pages nearly every read of a table of tens of megabytes also
// misses the TLB, and every page touched for the first time costs a page
// fault (expensive on virtual machines): 0.87 to 0.89 of the CPU time
// with 4 KiB pages at -6 and -6e (see doc.go).
func makeTables(n int) []uint32 {
	if n < hugepage.Min/4 {
		return make([]uint32, n)
	}
	b := hugepage.Make(n * 4)
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// tablesDone ends the huge page request of tables from makeTables once a
// block has been encoded (the pages it touched stay huge; see
// hugepage.Done).
func tablesDone(t []uint32) {
	if cap(t) >= hugepage.Min/4 {
		t = t[:cap(t)]
		hugepage.Done(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t))), len(t)*4))
	}
}
