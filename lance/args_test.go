package lance

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestOpenCallerMistakes(t *testing.T) {
	if _, err := Open(nil, 10); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("Open(nil) = %v, want ErrInvalidArgument", err)
	}
	if _, err := Open(bytes.NewReader(nil), -1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("Open(r, -1) = %v, want ErrInvalidArgument", err)
	}
	if _, err := ReadFooter(nil, 10); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("ReadFooter(nil) = %v, want ErrInvalidArgument", err)
	}
	if _, err := ReadFooter(bytes.NewReader(nil), -1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("ReadFooter(r, -1) = %v, want ErrInvalidArgument", err)
	}
	if _, err := OpenTable(nil, "."); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("OpenTable(nil) = %v, want ErrInvalidArgument", err)
	}
	if !errors.Is(ErrInvalidOption, ErrInvalidArgument) {
		t.Fatal("ErrInvalidOption does not wrap ErrInvalidArgument")
	}
	data, err := os.ReadFile("testdata/v2_0_alltypes_5rows.lance")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)), nil, WithMaxDepth(8), nil)
	if err != nil {
		t.Fatalf("nil options are skipped: %v", err)
	}
	_, err = f.Read(ReadOptions{Columns: []string{"no\xffsuch"}})
	if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), `"no\xffsuch"`) {
		t.Fatalf("unknown column: %v", err)
	}
	if _, err := f.Read(ReadOptions{Offset: -1}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative offset: %v", err)
	}
	_, err = Open(bytes.NewReader(data), int64(len(data)), WithMemoryLimit(0))
	if !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), "WithMemoryLimit(0)") {
		t.Fatalf("WithMemoryLimit(0) = %v", err)
	}
}

// checkAlloc reports the bytes n values of a width need, rounded up, not
// one more: 960 one-byte values fit a 960-byte limit, 961 do not and are
// reported as 961.
func TestCheckAllocBoundary(t *testing.T) {
	f := &File{cfg: defaultConfig()}
	f.cfg.maxBuffer = 960
	w := &where{path: "p"}
	if err := f.checkAlloc(960, 8, w, "x"); err != nil {
		t.Fatalf("960 bytes under a 960-byte limit: %v", err)
	}
	if err := f.checkAlloc(7680, 1, w, "x"); err != nil {
		t.Fatalf("7680 bits under a 960-byte limit: %v", err)
	}
	err := f.checkAlloc(7681, 1, w, "x")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "961") {
		t.Fatalf("7681 bits: %v", err)
	}
	err = f.checkAlloc(961, 8, w, "x")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "961") || strings.Contains(err.Error(), "962") {
		t.Fatalf("961 bytes: %v", err)
	}
}
