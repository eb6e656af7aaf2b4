package at1

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	rootxz "github.com/therootcompany/xz"
	ulixz "github.com/ulikunitz/xz"
)

// benchData is a trades-like CSV of about 8 MB and the files built from
// it, made once per process.
type benchFiles struct {
	orig     []byte
	plainXZ  []byte // the original as one xz stream (ulikunitz writer)
	columnar []byte // columnar, every stream xz
	colZstd  []byte // columnar, every stream zstd
	colStore []byte // columnar, every stream stored: reconstruction alone
	qcolXZ   []byte // qcolumnar, xz-tagged blocks
	qcolZstd []byte // qcolumnar, zstd-tagged blocks
}

var (
	benchOnce sync.Once
	bench     benchFiles
)

func benchRows(n int) ([][]string, []qLine, string) {
	syms := []string{"AAPL", "MSFT", "GOOG", "AMZN", "TSLA", "NVDA", "META", "BRK.B"}
	venues := []string{"XNAS", "XNYS", "ARCX", "BATS"}
	rows := make([][]string, n)
	lines := make([]qLine, n)
	var sb strings.Builder
	ts := int64(1700000000000)
	seed := uint64(42)
	rnd := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	for i := range rows {
		ts += int64(rnd() % 250)
		price := 10000 + int64(rnd()%90000)
		row := []string{
			strconv.Itoa(5_000_000 + i),
			strconv.FormatInt(ts, 10),
			syms[rnd()%uint64(len(syms))],
			fmt.Sprintf("%d.%02d", price/100, price%100),
			strconv.FormatUint(1+rnd()%500, 10),
			venues[rnd()%uint64(len(venues))],
		}
		rows[i] = row
		lines[i] = qLine{row: row}
		sb.WriteString(strings.Join(row, ","))
		sb.WriteByte('\n')
	}
	return rows, lines, sb.String()
}

// liblzmaXZ compresses with the xz command (liblzma -6, what Python's
// lzma.compress and so the real AT-1 encoder write).
func liblzmaXZ(t testing.TB, data []byte) []byte {
	cmd := exec.Command("xz", "-6", "-c", "-T1")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xz -6: %v", err)
	}
	return out
}

// loadBench builds the benchmark files. With the xz command on PATH every
// xz stream and block is liblzma-made (as real files are), and the
// original is also compressed by it for BenchmarkXZCommand/BenchmarkVsXZ;
// AT1_BENCH_ULIKUNITZ=1 uses the pure-Go writer instead.
func loadBench(b *testing.B) *benchFiles {
	benchOnce.Do(func() {
		if _, err := exec.LookPath("xz"); err == nil && os.Getenv("AT1_BENCH_ULIKUNITZ") == "" {
			xzEncode = liblzmaXZ
			defer func() { xzEncode = nil }()
		}
		rows, lines, orig := benchRows(160_000)
		bench.orig = []byte(orig)
		bench.plainXZ = compress(b, BackendXZ, bench.orig)
		types := []string{"int", "int", "text", "dec2", "int", "text"}
		bench.columnar = columnarFile(b, BackendXZ, "", rows, types, true)
		bench.colZstd = columnarFile(b, BackendZstd, "", rows, types, true)
		bench.colStore = columnarFile(b, BackendStored, "", rows, types, true)
		qt := []byte{QInt, QInt, QText, QDecimal, QInt, QText}
		bench.qcolXZ = qFile(b, CodecQColumnar, ",", nil, nil, qt, 16384, lines, true, tagXZ)
		bench.qcolZstd = qFile(b, CodecQColumnar, ",", nil, nil, qt, 16384, lines, true, tagZstd)
		if p := os.Getenv("AT1_BENCH_WRITE"); p != "" {
			os.WriteFile(p, bench.orig, 0o644)
		}
	})
	return &bench
}

// reportCPU adds "cpuMB/s": original bytes per CPU second of this process
// (all threads), steadier than wall time when other jobs share the cores.
func reportCPU(b *testing.B, start time.Duration, n int) {
	if cpu := processCPU() - start; cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds()/1e6, "cpuMB/s")
	}
}

func benchDecode(b *testing.B, src []byte, opts ...Option) {
	f := loadBench(b)
	got, err := Decode(src, opts...)
	if err != nil || !bytes.Equal(got, f.orig) {
		b.Fatalf("decode: %v", err)
	}
	b.SetBytes(int64(len(f.orig)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(src, opts...); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu, len(f.orig))
}

// BenchmarkDecode measures whole-file decode of the same 8 MB original in
// each container; MB/s are of original bytes. Compare with
// BenchmarkPlainXZ (the original as one xz stream, same run).
func BenchmarkDecode(b *testing.B) {
	f := loadBench(b)
	b.Run("columnar", func(b *testing.B) { benchDecode(b, f.columnar) })
	b.Run("columnar-serial", func(b *testing.B) { benchDecode(b, f.columnar, WithConcurrency(1)) })
	b.Run("columnar-zstd", func(b *testing.B) { benchDecode(b, f.colZstd) })
	b.Run("columnar-stored", func(b *testing.B) { benchDecode(b, f.colStore) })
	b.Run("qcol-xz", func(b *testing.B) { benchDecode(b, f.qcolXZ) })
	b.Run("qcol-xz-serial", func(b *testing.B) { benchDecode(b, f.qcolXZ, WithConcurrency(1)) })
	b.Run("qcol-zstd", func(b *testing.B) { benchDecode(b, f.qcolZstd) })
}

// BenchmarkPlainXZ decodes the original compressed as one plain xz
// stream, with each Go xz decoder: the baseline for BenchmarkDecode.
// AT1_BENCH_XZFILE may name a liblzma-made .xz of the same original
// (AT1_BENCH_WRITE writes the original out) to decode as well.
func BenchmarkPlainXZ(b *testing.B) {
	f := loadBench(b)
	inputs := map[string][]byte{"ulikunitz-written": f.plainXZ}
	if p := os.Getenv("AT1_BENCH_XZFILE"); p != "" {
		x, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		inputs["liblzma-written"] = x
	}
	for name, src := range inputs {
		b.Run("therootcompany/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			z, _ := rootxz.NewReader(nil, 0)
			out := make([]byte, 0, len(f.orig))
			cpu := processCPU()
			defer func() { reportCPU(b, cpu, len(f.orig)) }()
			for i := 0; i < b.N; i++ {
				if err := z.Reset(bytes.NewReader(src)); err != nil {
					b.Fatal(err)
				}
				w := bytes.NewBuffer(out[:0])
				if _, err := io.Copy(w, z); err != nil || w.Len() != len(f.orig) {
					b.Fatal(err)
				}
			}
		})
		b.Run("ulikunitz/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			out := make([]byte, 0, len(f.orig))
			cpu := processCPU()
			defer func() { reportCPU(b, cpu, len(f.orig)) }()
			for i := 0; i < b.N; i++ {
				z, err := ulixz.NewReader(bytes.NewReader(src))
				if err != nil {
					b.Fatal(err)
				}
				w := bytes.NewBuffer(out[:0])
				if _, err := io.Copy(w, z); err != nil || w.Len() != len(f.orig) {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkXZCommand runs `xz -dc` on AT1_BENCH_XZFILE (a liblzma-made
// .xz of the benchmark original, see BenchmarkPlainXZ) in the same run,
// so its MB/s compare with BenchmarkDecode under the same machine load.
func BenchmarkXZCommand(b *testing.B) {
	f := loadBench(b)
	p := os.Getenv("AT1_BENCH_XZFILE")
	xzPath, err := exec.LookPath("xz")
	if err != nil {
		b.Skip("needs the xz command")
	}
	if p == "" {
		p = f.plainXZFile(b)
	}
	b.SetBytes(int64(len(f.orig)))
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(xzPath, "-dc", p)
		out, err := cmd.Output()
		if err != nil || len(out) != len(f.orig) {
			b.Fatalf("xz -dc: %v (%d bytes)", err, len(out))
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	// The child's CPU time, comparable with the decoders' cpuMB/s.
	b.ReportMetric(float64(len(f.orig))*float64(b.N)/cpu.Seconds()/1e6, "cpuMB/s")
}

// BenchmarkQuery measures a selective query on the qcolumnar files.
func BenchmarkQuery(b *testing.B) {
	f := loadBench(b)
	for name, src := range map[string][]byte{"xz": f.qcolXZ, "zstd": f.qcolZstd} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				file, err := Open(bytes.NewReader(src), int64(len(src)))
				if err != nil {
					b.Fatal(err)
				}
				rs, err := file.Query(Query{Columns: []int{2, 3}, Where: []Range{{Column: 0, Min: "5100000", Max: "5100100"}}})
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for _, err := range rs.All() {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != 101 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}

// plainXZFile writes the original's xz (liblzma-made when loadBench found
// the xz command) to a temporary file for the xz command to read.
func (f *benchFiles) plainXZFile(b *testing.B) string {
	p := filepath.Join(b.TempDir(), "orig.xz")
	if err := os.WriteFile(p, f.plainXZ, 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkVsXZ is the paired comparison for the speed target: each
// iteration runs `xz -dc` on the original's xz (liblzma -6) and then
// decodes the AT-1 file of the same original, timing both, so both see
// the same machine load. It reports each side's MB/s and their ratio
// (above 1: the AT-1 decode is faster than xz -dc).
func BenchmarkVsXZ(b *testing.B) {
	f := loadBench(b)
	xzPath, err := exec.LookPath("xz")
	if err != nil {
		b.Skip("needs the xz command")
	}
	p := f.plainXZFile(b)
	for _, tc := range []struct {
		name string
		src  []byte
	}{{"columnar", f.columnar}, {"qcol-xz", f.qcolXZ}, {"columnar-zstd", f.colZstd}, {"qcol-zstd", f.qcolZstd}} {
		b.Run(tc.name, func(b *testing.B) {
			if got, err := Decode(tc.src); err != nil || !bytes.Equal(got, f.orig) {
				b.Fatalf("decode: %v", err)
			}
			var tXZ, tAT1 time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				out, err := exec.Command(xzPath, "-dc", p).Output()
				if err != nil || len(out) != len(f.orig) {
					b.Fatalf("xz -dc: %v", err)
				}
				t1 := time.Now()
				if _, err := Decode(tc.src); err != nil {
					b.Fatal(err)
				}
				tXZ += t1.Sub(t0)
				tAT1 += time.Since(t1)
			}
			mb := float64(len(f.orig)) * float64(b.N) / 1e6
			b.ReportMetric(mb/tXZ.Seconds(), "xzMB/s")
			b.ReportMetric(mb/tAT1.Seconds(), "at1MB/s")
			b.ReportMetric(tXZ.Seconds()/tAT1.Seconds(), "x_vs_xz")
		})
	}
}

// BenchmarkDecodeFileVsXZ decodes the AT-1 files named in
// AT1_BENCH_DECODE_FILES (colon-separated; skipped when unset) with
// NewReader, as colfmt cat does, and in each iteration also runs xz -dc on
// a liblzma -6 .xz of the same original, so both see the same machine
// load. x_xz-dc is xz's CPU time over ours (above 1: less CPU than
// xz -dc); the process start of either side is not in it (xz's exec is
// about 1 ms, a Go program's start 5-20 ms on the test machine).
func BenchmarkDecodeFileVsXZ(b *testing.B) {
	paths, files := decodeBenchFiles(b)
	xzPath, err := exec.LookPath("xz")
	if err != nil {
		b.Skip("needs the xz command")
	}
	// xz writes to /dev/null itself, not through a pipe to us.
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	for k, p := range paths {
		src := files[k]
		orig, err := Decode(src)
		if err != nil {
			b.Fatal(err)
		}
		xzFile := filepath.Join(b.TempDir(), "orig.xz")
		if err := os.WriteFile(xzFile, liblzmaXZ(b, orig), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(p), func(b *testing.B) {
			b.SetBytes(int64(len(orig)))
			b.ReportAllocs()
			var xzCPU, ourCPU time.Duration
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(xzPath, "-dc", xzFile)
				cmd.Stdout = null
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				xzCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				c0 := processCPU()
				z, err := NewReader(bytes.NewReader(src))
				if err != nil {
					b.Fatal(err)
				}
				if n, err := z.WriteTo(io.Discard); err != nil || n != int64(len(orig)) {
					b.Fatal(err)
				}
				ourCPU += processCPU() - c0
			}
			b.ReportMetric(float64(ourCPU.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(xzCPU.Microseconds())/1e3/float64(b.N), "xz-cpu-ms/op")
			b.ReportMetric(xzCPU.Seconds()/ourCPU.Seconds(), "x_xz-dc")
		})
	}
}

// BenchmarkDecodeFile decodes the files named in AT1_BENCH_DECODE_FILES
// (colon-separated; skipped when unset) with NewReader and WriteTo, as
// colfmt cat does, without a peer: for profiles of the decode alone and
// CPU time (cpu-ns/op, the process's user+system time) under load.
func BenchmarkDecodeFile(b *testing.B) {
	benchEachFile(b, "", func(src []byte) (int64, error) {
		z, err := NewReader(bytes.NewReader(src))
		if err != nil {
			return 0, err
		}
		return z.WriteTo(io.Discard)
	})
}

// BenchmarkDecodeMem calls Decode (default options) on each file of
// AT1_BENCH_DECODE_FILES (skipped when unset) held in memory, as a
// program embedding the package pays per call: no process start, no
// output writes. cpu-ns/op is the process's user+system time per call
// (all threads, the collector included), the figure to set against
// liblzma's lzma_stream_buffer_decode of an xz -6 file of the same
// original in a C harness (doc.go, # Decode speed). With several files,
// "in-turn" decodes all of them, one after the other, per op.
// AT1_BENCH_CONCURRENCY=n decodes WithConcurrency(n).
func BenchmarkDecodeMem(b *testing.B) {
	_, files := decodeBenchFiles(b)
	var opts []Option
	if c := os.Getenv("AT1_BENCH_CONCURRENCY"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil {
			b.Fatal(err)
		}
		opts = append(opts, WithConcurrency(n))
	}
	benchEachFile(b, "", func(src []byte) (int64, error) {
		out, err := Decode(src, opts...)
		return int64(len(out)), err
	})
	if len(files) < 2 {
		return
	}
	// One op decodes every file in turn. Decoding one small file over and
	// over lets the CPU's branch predictor learn its bits by heart, which
	// flatters a branchy decoder (liblzma decoded 16 text pieces of 16 KB
	// 2.2x faster each repeated than in turn); in turn is what a program
	// decoding many different files sees.
	b.Run("in-turn", func(b *testing.B) {
		n := 0
		for _, src := range files {
			out, err := Decode(src)
			if err != nil {
				b.Fatal(err)
			}
			n += len(out)
		}
		b.SetBytes(int64(n))
		b.ReportAllocs()
		c0 := processCPU()
		for i := 0; i < b.N; i++ {
			for _, src := range files {
				if _, err := Decode(src, opts...); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64((processCPU()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkDecodeFileSerial decodes the files of AT1_BENCH_DECODE_FILES
// (skipped when unset) frame after frame on one goroutine, with Decode
// and WithConcurrency(1) and with File.Validate: the paths where the
// decoder's scratch is reused across frames.
func BenchmarkDecodeFileSerial(b *testing.B) {
	benchEachFile(b, "decode/", func(src []byte) (int64, error) {
		out, err := Decode(src, WithConcurrency(1))
		return int64(len(out)), err
	})
	benchEachFile(b, "validate/", func(src []byte) (int64, error) {
		f, err := Open(bytes.NewReader(src), int64(len(src)))
		if err != nil {
			return 0, err
		}
		return -1, f.Validate()
	})
}

// benchEachFile runs op, b.N times, on each file of AT1_BENCH_DECODE_FILES
// (skipped when unset) as a sub-benchmark named prefix and the file's
// base name; op returns the size it decoded (checked), or -1. cpu-ns/op
// is the process's user+system time per call (all threads, the collector
// included).
func benchEachFile(b *testing.B, prefix string, op func(src []byte) (int64, error)) {
	paths, files := decodeBenchFiles(b)
	for k, p := range paths {
		src := files[k]
		orig, err := Decode(src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(prefix+filepath.Base(p), func(b *testing.B) {
			b.SetBytes(int64(len(orig)))
			b.ReportAllocs()
			c0 := processCPU()
			for i := 0; i < b.N; i++ {
				if n, err := op(src); err != nil || n >= 0 && n != int64(len(orig)) {
					b.Fatalf("%v (%d bytes, want %d)", err, n, len(orig))
				}
			}
			b.ReportMetric(float64((processCPU()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkColumnarRows times the row phase of a whole-file columnar
// file from AT1_BENCH_DECODE_FILES (skipped when unset): its streams are
// decoded once, then each iteration decodes the columns from the values
// stream (lazily, as colfmt cat does), plans the rows and writes them to
// a 256 KiB buffer, without xz or the trailer hash.
func BenchmarkColumnarRows(b *testing.B) {
	for _, f := range benchStreamSets(b, CodecColumnar) {
		if err := f.ss.load(columnarStreams...); err != nil {
			b.Fatal(err)
		}
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cw := newChunkWriter(io.Discard, nopHash{}, 1<<40)
				if _, err := f.c.decoder().decodeColumnarFrom(nil, f.ss, 1<<40, nil, cw); err != nil {
					b.Fatal(err)
				}
				checkWritten(b, cw, len(f.orig))
			}
		})
	}
}

// benchSet is a whole-file container from AT1_BENCH_DECODE_FILES, parsed:
// its stream set (not loaded) and what it decodes to.
type benchSet struct {
	name  string
	c     *config
	codec Codec
	ss    *streamSet
	orig  []byte
}

// benchStreamSets returns the whole-file containers of AT1_BENCH_DECODE_FILES
// in one of codecs (the benchmark skips when the variable is unset).
func benchStreamSets(b *testing.B, codecs ...Codec) []benchSet {
	paths, files := decodeBenchFiles(b)
	var out []benchSet
	for k, p := range paths {
		src := files[k]
		c, err := newConfig(nil)
		if err != nil {
			b.Fatal(err)
		}
		pl, err := c.decoder().parse(memSource(src, 0))
		if err != nil {
			b.Fatal(err)
		}
		if pl.Framed || !slices.Contains(codecs, pl.Codec) {
			continue
		}
		ss, err := c.decoder().streamSetOf(memSource(src, 0), pl.Streams)
		if err != nil {
			b.Fatal(err)
		}
		orig, err := Decode(src)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, benchSet{filepath.Base(p), c, pl.Codec, ss, orig})
	}
	return out
}

// checkWritten fails b unless cw took n bytes, and releases cw.
func checkWritten(b *testing.B, cw *chunkWriter, n int) {
	if got := cw.n + int64(len(cw.buf)); got != int64(n) {
		b.Fatalf("wrote %d bytes, want %d", got, n)
	}
	cw.release()
}

// nopHash is a hash.Hash that hashes nothing.
type nopHash struct{}

func (nopHash) Write(p []byte) (int, error) { return len(p), nil }
func (nopHash) Sum(b []byte) []byte         { return b }
func (nopHash) Reset()                      {}
func (nopHash) Size() int                   { return 0 }
func (nopHash) BlockSize() int              { return 1 }

// decodeBenchFiles reads the AT-1 files named in AT1_BENCH_DECODE_FILES
// (colon-separated) for the decode benchmarks, which skip when it is
// unset.
func decodeBenchFiles(b *testing.B) (paths []string, files [][]byte) {
	list := os.Getenv("AT1_BENCH_DECODE_FILES")
	if list == "" {
		b.Skip("AT1_BENCH_DECODE_FILES not set")
	}
	for _, p := range strings.Split(list, ":") {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		paths, files = append(paths, p), append(files, src)
	}
	return paths, files
}

// BenchmarkQStreamLines times the line phase of a whole-file qcolumnar
// or qjson file from AT1_BENCH_DECODE_FILES (skipped when unset): its
// blocks are decoded once, then each iteration writes every line to a
// 256 KiB buffer (streamQuery's writeLines), without xz or the hash.
func BenchmarkQStreamLines(b *testing.B) {
	for _, f := range benchStreamSets(b, CodecQColumnar, CodecQJSON) {
		c := f.c
		t, blocks, boff, err := c.decoder().loadQTable(f.codec, f.ss, "")
		if err != nil {
			b.Fatal(err)
		}
		s, err := c.decoder().newQStreamer(t, blocks, max(boff, 0), 1<<40)
		if err != nil {
			b.Fatal(err)
		}
		s.setSlots(s.ngroups) // every group decoded once, kept
		for g := 0; g < s.ngroups; g++ {
			if dErr, cErr := s.acquire(g); dErr != nil || cErr != nil {
				b.Fatal(dErr, cErr)
			}
		}
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.orig)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.budget, s.released = 1<<62, 0
				for g := range s.done {
					s.done[g] = t.ncols
				}
				cw := newChunkWriter(io.Discard, nopHash{}, 1<<40)
				if err := s.writeLines(cw, 1<<40); err != nil {
					b.Fatal(err)
				}
				checkWritten(b, cw, len(f.orig))
			}
		})
	}
}
