//go:build linux && !race

package at1

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// The hostile files under an address-space cap, as the issue ran colfmt
// (prlimit --as=2147483648). Each runs in a child process (this test
// binary again) that streams the file as colfmt cat and validate do; a
// fatal "out of memory" there kills the child, which the parent sees.
const hostileChild = "AT1_HOSTILE_CHILD"

func TestHostileUnderAddressSpaceCap(t *testing.T) {
	if path := os.Getenv(hostileChild); path != "" {
		hostileChildMain(path)
		return
	}
	if testing.Short() {
		// make test-s390x runs -short under qemu-user, where the test
		// binary cannot re-execute itself; every other run checks this.
		t.Skip("re-executes the test binary under an address-space cap; skipped in -short runs")
	}
	files, _ := filepath.Glob(filepath.Join(shareddata.Path(t, "hostile"), "at1_*"))
	if len(files) == 0 {
		t.Fatal("no hostile at1 files")
	}
	for _, f := range files {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostileUnderAddressSpaceCap$")
		cmd.Env = append(os.Environ(), hostileChild+"="+f, "GOMAXPROCS=2")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: child failed (%v):\n%s", filepath.Base(f), err, out)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if strings.HasPrefix(line, "result ") {
				t.Logf("%s: %s", filepath.Base(f), line)
			}
		}
	}
}

// hostileChildMain caps the address space, then reads the file the way
// cat (NewReader) and validate (NewReader with WithStrict, File.Validate)
// do. Each must end in a result or an at1 error, never a crash.
func hostileChildMain(path string) {
	// The test binary reserves more address space at start than colfmt
	// (about 1.5 GB here), so the cap is what it holds at start plus
	// 1 GiB: stricter than the CLI's 2 GiB in total.
	start := vmSize()
	if start == 0 {
		fmt.Println("no /proc/self/status")
		os.Exit(3)
	}
	lim := syscall.Rlimit{Cur: start + 1<<30, Max: start + 1<<30}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(3)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	report := func(what string, n int64, err error) {
		// Each operation stands for one colfmt run: drop its garbage
		// before the next, as a new process would start empty.
		runtime.GC()
		debug.FreeOSMemory()
		if err != nil && !strings.HasPrefix(err.Error(), "at1:") {
			fmt.Printf("%s: error outside the package: %v\n", what, err)
			os.Exit(4)
		}
		fmt.Printf("result %s: %d bytes, %v\n", what, n, err)
	}
	for _, opts := range [][]Option{nil, {WithStrict()}} {
		z, err := NewReader(bytes.NewReader(src), opts...)
		var n int64
		if err == nil {
			n, err = z.WriteTo(io.Discard)
		}
		report(fmt.Sprintf("NewReader(strict=%v)", opts != nil), n, err)
	}
	f, err := Open(bytes.NewReader(src), int64(len(src)))
	if err == nil {
		err = f.Validate()
	}
	report("Validate", 0, err)
	os.Exit(0)
}

// vmSize is the process's address space in bytes (0 if unknown).
func vmSize() uint64 {
	st, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(st), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmSize:" && f[2] == "kB" {
			var kb uint64
			fmt.Sscan(f[1], &kb)
			return kb << 10
		}
	}
	return 0
}
