package xz

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkEncodeFiles encodes the files named in XZ_BENCH_ENCODE_FILES
// (comma-separated paths) at the presets in XZ_BENCH_ENCODE_PRESETS
// (default "6e"), each against xz -T1 at the same preset, in the same run.
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
			b.Run(name+"/"+p, func(b *testing.B) { benchPreset(b, src, p) })
		}
	}
}
