// Package hugepage asks the kernel to back large, freshly allocated
// byte buffers with transparent huge pages.
//
// Why: a decoder's output buffer is written once, front to back, right
// after it is allocated, and every fresh 4 KiB page of it costs a page
// fault. On virtual machines a fault is expensive (about 15-18 us on the
// test machines against well under 1 us for the copy into the page), so
// a 10 MB stream costs 40 ms of faults on top of its decode. With huge
// pages the same buffer takes five faults.
//
// Linux only gives anonymous memory huge pages on request when
// /sys/kernel/mm/transparent_hugepage/enabled is "madvise" (the common
// default). Make then advises MADV_HUGEPAGE on the 2 MiB-aligned part of
// the buffer, and Done advises MADV_NOHUGEPAGE once it is filled, so
// that when the Go runtime later returns part of that memory to the
// kernel, khugepaged does not fill it back in (the reason the Go runtime
// itself stopped asking for huge pages). With "always" the kernel
// already uses huge pages and with "never" it cannot; on other systems
// both functions only allocate and return.
package hugepage

// Min is the smallest capacity Make advises: below it the buffer may
// hold no whole aligned huge page.
const Min = 4 << 20

// Make returns make([]byte, 0, n). When n >= Min and the kernel gives
// huge pages on request, the pages of the returned buffer that cover
// whole aligned 2 MiB ranges are requested as huge pages; call Done when
// the buffer has been written.
func Make(n int) []byte {
	b := make([]byte, 0, n)
	if n >= Min {
		advise(b, true)
	}
	return b
}

// Done ends the huge page request of a buffer from Make (or any buffer:
// it does nothing below Min). The pages already faulted in stay as they
// are.
func Done(b []byte) {
	if cap(b) >= Min {
		advise(b, false)
	}
}
