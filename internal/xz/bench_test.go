package xz

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// benchFiles are dbtext files of different kinds (names, comments, hex,
// URLs, Japanese).
var benchFiles = []string{"c_name", "l_comment", "hex", "urls2", "japanese"}

// runXZ compresses src with the xz tool (liblzma, one thread) and returns
// the output size, the wall time and the CPU time (user+system).
func runXZ(tb testing.TB, src []byte, args ...string) (int, time.Duration, time.Duration) {
	tb.Helper()
	path, err := exec.LookPath("xz")
	if err != nil {
		tb.Skip("xz not installed")
	}
	cmd := exec.Command(path, append([]string{"-c", "-T1"}, args...)...)
	cmd.Stdin = bytes.NewReader(src)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		tb.Fatalf("xz %v: %v", args, err)
	}
	wall := time.Since(start)
	return out.Len(), wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// BenchmarkEncode compresses dbtext files at -6 and -9e and reports, from
// the same run, the size and speed ratios against xz (liblzma, -T1):
// size/xz > 1 means larger output; speed/xz < 1 means slower (wall time);
// cpuspeed/xz is the same from CPU time, steadier on a shared machine.
func BenchmarkEncode(b *testing.B) {
	dir := shareddata.Path(b, "onpair", "dbtext")
	for _, f := range benchFiles {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range []string{"6", "9e"} {
			b.Run(f+"/"+p, func(b *testing.B) { benchPreset(b, src, p) })
		}
	}
}

// BenchmarkEncodePresets gives the speed and size figures of every preset
// on one file (c_name, 1.9 MB), each against xz at the same preset.
func BenchmarkEncodePresets(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(shareddata.Path(b, "onpair", "dbtext"), "c_name"))
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "3e", "6e", "9e"} {
		b.Run(p, func(b *testing.B) { benchPreset(b, src, p) })
	}
}

// benchPreset encodes src at preset p ("6", "9e") and compares with xz.
func benchPreset(b *testing.B, src []byte, p string) {
	extreme := strings.HasSuffix(p, "e")
	level, err := strconv.Atoi(strings.TrimSuffix(p, "e"))
	if err != nil {
		b.Fatal(err)
	}
	args := []string{"-" + strings.TrimSuffix(p, "e")}
	if extreme {
		args = append(args, "-e")
	}
	xzSize, xzTime, xzCPU := runXZ(b, src, args...)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	var out []byte
	for i := 0; i < b.N; i++ {
		out, err = AppendEncode(out[:0], src, WithPreset(level), WithExtreme(extreme))
		if err != nil {
			b.Fatal(err)
		}
	}
	per := b.Elapsed() / time.Duration(b.N)
	if cpu := (processCPU() - cpu0) / time.Duration(b.N); cpu > 0 {
		b.ReportMetric(float64(xzCPU)/float64(cpu), "cpuspeed/xz")
		b.ReportMetric(float64(cpu)/1e6, "cpu-ms/op")
		b.ReportMetric(float64(xzCPU)/1e6, "xzcpu-ms")
	}
	b.ReportMetric(float64(len(out)), "bytes")
	b.ReportMetric(float64(len(out))/float64(xzSize), "size/xz")
	b.ReportMetric(float64(xzTime)/float64(per), "speed/xz")
}

// BenchmarkEncodeParallel compresses all dbtext files concatenated twice
// (31 MB, two 24 MiB blocks at -6) with two workers, against xz -T2 -6,
// which splits at the same block size.
func BenchmarkEncodeParallel(b *testing.B) {
	dir := shareddata.Path(b, "onpair", "dbtext")
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var src []byte
	for _, e := range ents {
		d, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		src = append(src, d...)
	}
	src = append(src, src...)
	path, err := exec.LookPath("xz")
	if err != nil {
		b.Skip("xz not installed")
	}
	cmd := exec.Command(path, "-c", "-T2", "-6")
	cmd.Stdin = bytes.NewReader(src)
	var xzOut bytes.Buffer
	cmd.Stdout = &xzOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	xzTime := time.Since(start)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	var out []byte
	for i := 0; i < b.N; i++ {
		out, err = AppendEncode(out[:0], src, WithPreset(6), WithConcurrency(2))
		if err != nil {
			b.Fatal(err)
		}
	}
	per := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(len(out))/float64(xzOut.Len()), "size/xz")
	b.ReportMetric(float64(xzTime)/float64(per), "speed/xz")
}

// BenchmarkEncodeSmall encodes a 200-byte input, the size of a small AT-1
// stream: the cost is dominated by setting up the model and tables.
func BenchmarkEncodeSmall(b *testing.B) {
	src := []byte(strings.Repeat("id,name,city\n1,Ada,London\n2,Bob,Paris\n", 6))[:200]
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var out []byte
	var err error
	for i := 0; i < b.N; i++ {
		out, err = AppendEncode(out[:0], src, WithPreset(9), WithExtreme(true))
		if err != nil {
			b.Fatal(err)
		}
	}
}
