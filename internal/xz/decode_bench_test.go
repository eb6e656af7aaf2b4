package xz

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	rootxz "github.com/therootcompany/xz"
	ulixz "github.com/ulikunitz/xz"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// decodeBenchFile is one benchmark input and its .xz (made by the xz
// command, liblzma -6, when it is installed, as real files are; else by
// this package's encoder).
type decodeBenchFile struct {
	name     string
	orig, xz []byte
	path     string // the .xz on disk, for xz -dc
}

func decodeBenchFiles(b *testing.B) []decodeBenchFile {
	if env := os.Getenv("XZ_BENCH_DECODE_FILES"); env != "" {
		return decodeBenchEnvFiles(b, env)
	}
	dir := shareddata.Path(b, "onpair", "dbtext")
	tmp := b.TempDir()
	var files []decodeBenchFile
	for _, f := range benchFiles {
		orig, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			b.Fatal(err)
		}
		var enc []byte
		if path, err := exec.LookPath("xz"); err == nil {
			cmd := exec.Command(path, "-c", "-6", "-T1")
			cmd.Stdin = bytes.NewReader(orig)
			if enc, err = cmd.Output(); err != nil {
				b.Fatal(err)
			}
		} else if enc, err = Encode(orig); err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(tmp, f+".xz")
		if err := os.WriteFile(p, enc, 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, decodeBenchFile{f, orig, enc, p})
	}
	return files
}

// decodeBenchEnvFiles reads the .xz files named in XZ_BENCH_DECODE_FILES
// (comma-separated paths) in place of the dbtext files: real streams, such
// as the values streams of AT-1 files, decoded as they are. The expected
// output is this package's decoding, checked against xz -dc when the xz
// command is installed.
func decodeBenchEnvFiles(b *testing.B, env string) []decodeBenchFile {
	var files []decodeBenchFile
	for _, p := range strings.Split(env, ",") {
		enc, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		orig, err := Decode(enc)
		if err != nil {
			b.Fatalf("%s: %v", p, err)
		}
		if path, err := exec.LookPath("xz"); err == nil {
			want, err := exec.Command(path, "-dc", p).Output()
			if err != nil {
				b.Fatal(err)
			}
			if !bytes.Equal(orig, want) {
				b.Fatalf("%s: decoding differs from xz -dc", p)
			}
		}
		name := strings.TrimSuffix(filepath.Base(p), ".xz")
		files = append(files, decodeBenchFile{name, orig, enc, p})
	}
	return files
}

// devNull is /dev/null opened for writing: xz -dc writes there itself, as
// it would from a shell, not through a pipe to the benchmark.
func devNull(b *testing.B) *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}

func reportCPUSpeed(b *testing.B, cpu0 time.Duration, n int) {
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds()/1e6, "cpuMB/s")
	}
}

// BenchmarkDecode decodes liblzma -6 files with this package, with
// therootcompany/xz (a reader reused through Reset, as at1 did) and with
// ulikunitz/xz, and runs xz -dc on them (its CPU time, as cpuMB/s), all in
// the same run: compare the cpuMB/s of the four.
func BenchmarkDecode(b *testing.B) {
	null := devNull(b)
	for _, f := range decodeBenchFiles(b) {
		b.Run("colfmt/"+f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			out := make([]byte, 0, len(f.orig))
			b.ResetTimer()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				got, err := AppendDecode(out[:0], f.xz)
				if err != nil || len(got) != len(f.orig) {
					b.Fatal(err)
				}
			}
			reportCPUSpeed(b, cpu0, len(f.orig))
		})
		b.Run("therootcompany/"+f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			out := make([]byte, len(f.orig))
			z, err := rootxz.NewReader(nil, 64<<20)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				if err := z.Reset(bytes.NewReader(f.xz)); err != nil {
					b.Fatal(err)
				}
				if n, err := io.ReadFull(z, out); err != nil || n != len(f.orig) {
					b.Fatal(err)
				}
			}
			reportCPUSpeed(b, cpu0, len(f.orig))
		})
		b.Run("ulikunitz/"+f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			out := make([]byte, len(f.orig))
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				z, err := ulixz.NewReader(bytes.NewReader(f.xz))
				if err != nil {
					b.Fatal(err)
				}
				if n, err := io.ReadFull(z, out); err != nil || n != len(f.orig) {
					b.Fatal(err)
				}
			}
			reportCPUSpeed(b, cpu0, len(f.orig))
		})
		b.Run("xz-dc/"+f.name, func(b *testing.B) {
			path, err := exec.LookPath("xz")
			if err != nil {
				b.Skip("xz not installed")
			}
			b.SetBytes(int64(len(f.orig)))
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(path, "-dc", f.path)
				cmd.Stdout = null
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(len(f.orig))*float64(b.N)/cpu.Seconds()/1e6, "cpuMB/s")
		})
	}
}

// BenchmarkDecodeVsXZ is the paired comparison: each iteration runs
// xz -dc on the file (the child's CPU time) and then decodes it here (this
// process's CPU time), so both see the same machine load. x_xz-dc is xz's
// CPU time over ours: above 1, this package uses less CPU than xz -dc.
func BenchmarkDecodeVsXZ(b *testing.B) {
	path, err := exec.LookPath("xz")
	if err != nil {
		b.Skip("xz not installed")
	}
	null := devNull(b)
	for _, f := range decodeBenchFiles(b) {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			out := make([]byte, 0, len(f.orig))
			var xzCPU, ourCPU time.Duration
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(path, "-dc", f.path)
				cmd.Stdout = null
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				xzCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				c0 := processCPU()
				if _, err := AppendDecode(out[:0], f.xz); err != nil {
					b.Fatal(err)
				}
				ourCPU += processCPU() - c0
			}
			b.ReportMetric(xzCPU.Seconds()/ourCPU.Seconds(), "x_xz-dc")
		})
	}
}
