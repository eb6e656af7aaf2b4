package xz

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkEncodeFiles encodes the files named in XZ_BENCH_ENCODE_FILES
// (comma-separated paths) at the presets in XZ_BENCH_ENCODE_PRESETS
// (default "6e"), each against xz -T1 at the same preset, in the same run;
// with XZ_BENCH_NOXZ set, without xz (for perf stat of the encoder alone).
func BenchmarkEncodeFiles(b *testing.B) {
	files := os.Getenv("XZ_BENCH_ENCODE_FILES")
	if files == "" {
		b.Skip("XZ_BENCH_ENCODE_FILES not set")
	}
	presets := os.Getenv("XZ_BENCH_ENCODE_PRESETS")
	if presets == "" {
		presets = "6e"
	}
	for _, f := range strings.Split(files, ",") {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		name := f[strings.LastIndexByte(f, '/')+1:]
		for _, p := range strings.Split(presets, ",") {
			if os.Getenv("XZ_BENCH_NOXZ") != "" {
				b.Run(name+"/"+p, func(b *testing.B) { benchOurs(b, src, p) })
				continue
			}
			b.Run(name+"/"+p, func(b *testing.B) { benchPreset(b, src, p) })
		}
	}
}

// benchOurs encodes src at preset p ("6", "9e") without running xz.
func benchOurs(b *testing.B, src []byte, p string) {
	level, err := strconv.Atoi(strings.TrimSuffix(p, "e"))
	if err != nil {
		b.Fatal(err)
	}
	extreme := strings.HasSuffix(p, "e")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var out []byte
	for i := 0; i < b.N; i++ {
		out, err = AppendEncode(out[:0], src, WithPreset(level), WithExtreme(extreme))
		if err != nil {
			b.Fatal(err)
		}
	}
}
