package testlimit

import (
	"testing"
)

var sink []byte

func TestBytesSeesAFreedAllocation(t *testing.T) {
	n := Bytes(func() { sink = make([]byte, 10<<20); sink = nil })
	if n < 10<<20 || n > 11<<20 {
		t.Fatalf("Bytes = %d, want about 10 MiB", n)
	}
	if n := Bytes(func() {}); n > 64<<10 { // the runtime and testing allocate a little meanwhile
		t.Fatalf("Bytes of an empty function = %d", n)
	}
}

func TestBytesPerRun(t *testing.T) {
	got := BytesPerRun(20, func() { sink = make([]byte, 1<<20) })
	if got < 1<<20 || got > 1<<20+4096 {
		t.Fatalf("BytesPerRun = %.0f, want about 1 MiB", got)
	}
}

// fakeTB records failures instead of failing the test.
type fakeTB struct {
	testing.TB
	failed string
}

func (f *fakeTB) Helper()                           {}
func (f *fakeTB) Errorf(format string, args ...any) { f.failed = format }

func TestAtMost(t *testing.T) {
	tb := &fakeTB{TB: t}
	AtMost(tb, 1<<20, func() { sink = make([]byte, 100) }, "small")
	if tb.failed != "" {
		t.Fatal("a 100-byte allocation failed a 1 MiB budget")
	}
	AtMost(tb, 1<<20, func() { sink = make([]byte, 8<<20) }, "decoder %d", 7)
	if tb.failed == "" {
		t.Fatal("an 8 MiB allocation passed a 1 MiB budget")
	}
}
