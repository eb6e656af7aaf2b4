//go:build linux

package hugepage

import (
	"bytes"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugeSize = 2 << 20

// onRequest reports whether the kernel backs anonymous memory with
// huge pages only where asked.
var onRequest = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
})

// interior is the part of b's capacity made of whole aligned huge pages.
func interior(b []byte) []byte {
	b = b[:cap(b)]
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + hugeSize - 1) &^ (hugeSize - 1)
	hi := (p + uintptr(len(b))) &^ (hugeSize - 1)
	if hi <= lo {
		return nil
	}
	return b[lo-p : hi-p]
}

func advise(b []byte, on bool) {
	if !onRequest() {
		return
	}
	in := interior(b)
	if len(in) == 0 {
		return
	}
	advice := unix.MADV_NOHUGEPAGE
	if on {
		advice = unix.MADV_HUGEPAGE
	}
	// Advice only: an error (an old kernel, a seccomp filter) leaves the
	// buffer as make left it.
	_ = unix.Madvise(in, advice)
}
