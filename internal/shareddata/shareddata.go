// Package shareddata locates the project's shared test corpus, the
// ../shared/data folder beside the repository (or $COLFMT_SHARED/data).
// Tests that read third-party files from it skip cleanly when it is absent,
// as it is in a user's fresh clone.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of ../shared/data/<rel...>, or "" if the
// shared folder cannot be found.
func Dir(rel ...string) string {
	root := os.Getenv("COLFMT_SHARED")
	if root == "" {
		mod := ModuleRoot()
		if mod == "" {
			return ""
		}
		root = filepath.Join(filepath.Dir(mod), "shared")
	}
	p := filepath.Join(append([]string{root, "data"}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// Path is Dir for tests: it skips tb when the path does not exist, unless
// COLFMT_REQUIRE_SHARED is set (CI sets it so a missing corpus fails loudly).
func Path(tb testing.TB, rel ...string) string {
	tb.Helper()
	p := Dir(rel...)
	if p == "" {
		if os.Getenv("COLFMT_REQUIRE_SHARED") != "" {
			tb.Fatalf("shared test data %v not found (COLFMT_REQUIRE_SHARED is set)", rel)
		}
		tb.Skipf("shared test data %v not found; it lives in ../shared/data beside the repository", rel)
	}
	return p
}

// ModuleRoot walks up from the working directory to the folder holding
// go.mod ("" if none): tests run in their package folder, and the scripts
// and shared data are found from the module root.
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
