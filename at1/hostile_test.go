package at1

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// heapPeak runs f while sampling the live heap every millisecond and
// returns the highest heap size seen above the level before f, and the
// bytes f allocated in total.
func heapPeak(f func()) (peak, total uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	base := read()
	var mu sync.Mutex
	hi := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				v := read()
				mu.Lock()
				hi = max(hi, v)
				mu.Unlock()
			}
		}
	}()
	f()
	last := read()
	close(done)
	wg.Wait() // the sampler has stopped: hi is ours alone
	hi = max(hi, last)
	runtime.ReadMemStats(&after)
	return hi - base, after.TotalAlloc - before.TotalAlloc
}

func hostile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(shareddata.Path(t, "hostile"), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A 12-byte framed file declares a 1 GiB frame it does not have: every
// reader must fail as corrupt without allocating the declared size.
func TestHostileFramedPayloadLen1GiB(t *testing.T) {
	src := hostile(t, "at1_framed_payload_len_1GiB.at1")
	const most = 8 << 20
	check := func(what string, f func() error) {
		t.Helper()
		var err error
		_, total := heapPeak(func() { err = f() })
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", what, err)
		}
		if total > most {
			t.Errorf("%s allocated %d bytes for a %d-byte file (limit %d)", what, total, len(src), most)
		}
	}
	check("Decode", func() error { _, err := Decode(src); return err })
	check("Open", func() error { _, err := Open(bytes.NewReader(src), int64(len(src))); return err })
	check("NewReader", func() error {
		z, err := NewReader(bytes.NewReader(src))
		if err != nil {
			return err
		}
		_, err = z.WriteTo(io.Discard)
		return err
	})
}

// Two raw frames of 250 MiB of zeros each: streaming holds about one
// frame at a time, not the file.
func TestHostileFramedRawZerosStreamsOneFrame(t *testing.T) {
	src := hostile(t, "at1_framed_raw_2x250MiB_zeros.at1")
	const frame = 250 << 20
	var n int64
	var err error
	peak, _ := heapPeak(func() {
		var z *Reader
		if z, err = NewReader(bytes.NewReader(src)); err == nil {
			n, err = z.WriteTo(io.Discard)
		}
	})
	if err != nil || n != 2*frame {
		t.Fatalf("NewReader: %d bytes, %v; want %d bytes", n, err, 2*frame)
	}
	if peak > frame*3/2 {
		t.Errorf("streaming peak heap %d MiB, want about one frame (%d MiB)", peak>>20, frame>>20)
	}
	// A whole-output Decode under a smaller limit fails before holding
	// both frames.
	peak, _ = heapPeak(func() { _, err = Decode(src, WithMaxDecodedSize(100<<20)) })
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Decode with a 100 MiB limit: %v, want ErrTooLarge", err)
	}
	if peak > 64<<20 {
		t.Errorf("Decode peak heap %d MiB under a 100 MiB output limit whose frames declare 250 MiB", peak>>20)
	}
}

// Nine columnar streams of 250 MiB of zeros: the stream budget is charged
// from the declared sizes before decompressing, so the file fails with
// ErrTooLarge after at most the budget is allocated.
func TestHostileColumnarStreamsBudget(t *testing.T) {
	src := hostile(t, "at1_columnar_9streams_250MiB_zeros.at1")
	for _, lim := range []int64{DefaultMemoryLimit, 64 << 20} {
		var err error
		peak, _ := heapPeak(func() { _, err = Decode(src, WithMemoryLimit(lim)) })
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Decode (memory limit %d): %v, want ErrTooLarge", lim, err)
		}
		if peak > uint64(lim)+32<<20 {
			t.Errorf("Decode peak heap %d MiB, memory limit %d MiB", peak>>20, lim>>20)
		}
		f, err := Open(bytes.NewReader(src), int64(len(src)), WithMemoryLimit(lim))
		if err != nil {
			t.Fatal(err)
		}
		peak, _ = heapPeak(func() { err = f.Validate() })
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Validate: %v, want ErrTooLarge", err)
		}
		if peak > uint64(lim)+32<<20 {
			t.Errorf("Validate peak heap %d MiB, memory limit %d MiB", peak>>20, lim>>20)
		}
	}
}

func TestCallerMistakesAreInvalidArgument(t *testing.T) {
	src, err := AppendRaw(nil, []byte("x\n"), BackendStored)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(bytes.NewReader(src), -1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Open(r, -1): %v", err)
	}
	if _, err := Open(nil, 10); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Open(nil, 10): %v", err)
	}
	if _, err := NewReader(nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NewReader(nil): %v", err)
	}
	if _, err := AppendRaw(nil, src, 9); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("AppendRaw backend 9: %v", err)
	}
	if _, err := Decode(src, nil, WithMaxStreams(0)); !errors.Is(err, ErrInvalidArgument) || !errors.Is(err, ErrInvalidOption) {
		t.Errorf("bad option: %v, want ErrInvalidOption wrapping ErrInvalidArgument", err)
	}
	if got, err := Decode(src, nil); err != nil || string(got) != "x\n" {
		t.Errorf("nil option: %q, %v", got, err)
	}
}

// Decoding a large zstd stream must not leave its output pinned by the
// shared decoders once the caller drops it.
func TestDecodeReleasesLargeOutput(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	src, err := AppendRaw(nil, make([]byte, 64<<20), BackendZstd)
	if err != nil {
		t.Fatal(err)
	}
	base := heap()
	if base > before+16<<20 {
		t.Fatalf("%d MiB more allocated after encoding 64 MiB: the encoder keeps its buffers", (base-before)>>20)
	}
	for i := 0; i < 2; i++ {
		out, err := Decode(src)
		if err != nil || len(out) != 64<<20 {
			t.Fatalf("Decode: %d bytes, %v", len(out), err)
		}
	}
	if after := heap(); after > base+16<<20 {
		t.Fatalf("%d MiB more allocated after decoding 64 MiB twice and dropping it", (after-base)>>20)
	}
}
