package onpair

import (
	"bufio"
	"go/build/constraint"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/le"
)

// TestKernelArchListIsLes: the kernels' build lines select exactly as
// internal/le's do, for every architecture Go supports, with and without
// -tags purego, so internal/le stays the one list of where unchecked wide
// loads are built.
func TestKernelArchListIsLes(t *testing.T) {
	require.Equal(t, le.Unsafe, kernelUnsafe, "this build")
	archs := []string{"386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64", "mips64le",
		"ppc64", "ppc64le", "riscv64", "s390x", "wasm"}
	for _, pair := range [][2]string{
		{"kernel_unsafe.go", "../internal/le/le_unsafe.go"},
		{"kernel_safe.go", "../internal/le/le_purego.go"},
		{"kernel_packed_unsafe.go", "../internal/le/le_unsafe.go"},
		{"row_unsafe.go", "../internal/le/le_unsafe.go"},
		{"row_safe.go", "../internal/le/le_purego.go"},
	} {
		ours, theirs := buildLine(t, pair[0]), buildLine(t, pair[1])
		for _, arch := range archs {
			for _, purego := range []bool{false, true} {
				ok := func(tag string) bool { return tag == arch || (purego && tag == "purego") }
				require.Equal(t, theirs.Eval(ok), ours.Eval(ok), "%s vs %s: GOARCH=%s purego=%v", pair[0], pair[1], arch, purego)
			}
		}
	}
}

func buildLine(t *testing.T, path string) constraint.Expr {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); constraint.IsGoBuild(line) {
			x, err := constraint.Parse(line)
			require.NoError(t, err)
			return x
		}
		if strings.HasPrefix(sc.Text(), "package ") {
			break
		}
	}
	t.Fatalf("%s: no //go:build line", path)
	return nil
}
