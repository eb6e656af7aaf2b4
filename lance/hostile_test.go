package lance

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// readBounded streams rows [off, off+limit) of a file in batches and fails
// if the live heap grows past maxHeap at any batch: Records must not hold
// more than a batch (and a page's worth of cache) at a time.
func readBounded(t *testing.T, f *File, o ReadOptions, maxHeap uint64) (rows int64) {
	t.Helper()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	for rec, err := range f.Records(o) {
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return rows
			}
			t.Fatal(err)
		}
		rows += rec.NumRows()
		runtime.GC() // count live memory only
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > base && ms.HeapAlloc-base > maxHeap {
			t.Fatalf("heap grew by %d bytes at row %d, limit %d", ms.HeapAlloc-base, rows, maxHeap)
		}
		rec.Release()
	}
	return rows
}

func openShared(t *testing.T, opts []Option, rel ...string) *File {
	t.Helper()
	p := shareddata.Path(t, rel...)
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(fh, st.Size(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Four all-null fixed_size_list<float,1024> columns of 250,000 rows in 693
// bytes: batches are cut by bytes, so a batch holds ~4096 rows (64 MiB),
// not 65536 (1 GiB).
func TestHostileAllNullFSL(t *testing.T) {
	f := openShared(t, nil, "hostile", "lance_allnull_4x_fsl1024_250krows.lance")
	rows := readBounded(t, f, ReadOptions{Limit: 50000}, 3*DefaultBatchBytes)
	if rows != 50000 {
		t.Fatalf("read %d rows, want 50000", rows)
	}
	// A memory limit below one batch's pages fails cleanly.
	f = openShared(t, []Option{WithMemoryLimit(1 << 20)}, "hostile", "lance_allnull_4x_fsl1024_250krows.lance")
	for _, err := range f.Records(ReadOptions{}) {
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("error %v, want ErrTooLarge", err)
		}
		break
	}
}

// One all-null int64 column of 10^8 rows in 199 bytes: valid, and streams
// in bounded memory (the first and the last batches are read).
func TestHostileAllNullManyRows(t *testing.T) {
	f := openShared(t, nil, "hostile", "lance_allnull_1cols_100000000rows.lance")
	if f.NumRows() != 100_000_000 {
		t.Fatalf("rows %d", f.NumRows())
	}
	for _, o := range []ReadOptions{{Limit: 8 * DefaultBatchRows}, {Offset: f.NumRows() - 8*DefaultBatchRows}} {
		if rows := readBounded(t, f, o, 64<<20); rows != 8*DefaultBatchRows {
			t.Fatalf("read %d rows, want %d", rows, 8*DefaultBatchRows)
		}
	}
}
