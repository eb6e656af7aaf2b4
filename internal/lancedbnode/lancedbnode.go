// Package lancedbnode finds LanceDB for Node (npm @lancedb/lancedb 0.39 with
// apache-arrow 18.1) for the tests and benchmarks that check colfmt's Lance
// files against LanceDB itself. It is test support, not part of the API.
//
// The packages are looked up in $COLFMT_LANCEDB_NODE_MODULES (a
// node_modules folder), else in scripts/lancedb/node_modules of the module
// (`npm install --ignore-scripts --prefix scripts/lancedb`). Without node or
// the packages the caller is skipped with a message saying how to install
// them, or failed when $COLFMT_REQUIRE_LANCEDB is set (CI sets it once it
// has installed them).
package lancedbnode

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// Env is what Find returns: the node binary, the node_modules folder, and
// the folder of the scripts (scripts/lancedb).
type Env struct {
	Node, Modules, Scripts string
}

// Find locates node and LanceDB, or skips (fails under
// $COLFMT_REQUIRE_LANCEDB) tb.
func Find(tb testing.TB) Env {
	tb.Helper()
	miss := func(format string, args ...any) {
		tb.Helper()
		format += " (install: npm install --ignore-scripts --prefix scripts/lancedb, or set COLFMT_LANCEDB_NODE_MODULES)"
		if os.Getenv("COLFMT_REQUIRE_LANCEDB") != "" {
			tb.Fatalf("LanceDB interop required but "+format, args...)
		}
		tb.Skipf("LanceDB interop skipped: "+format, args...)
	}
	root := shareddata.ModuleRoot()
	if root == "" {
		miss("module root not found")
	}
	scripts := filepath.Join(root, "scripts", "lancedb")
	node, err := exec.LookPath("node")
	if err != nil {
		miss("node is not on PATH")
	}
	mods := os.Getenv("COLFMT_LANCEDB_NODE_MODULES")
	if mods == "" {
		mods = filepath.Join(scripts, "node_modules")
	}
	for _, pkg := range []string{"@lancedb/lancedb", "apache-arrow"} {
		if _, err := os.Stat(filepath.Join(mods, pkg, "package.json")); err != nil {
			miss("no %s in %s", pkg, mods)
		}
	}
	return Env{Node: node, Modules: mods, Scripts: scripts}
}

// Command runs script (a file in scripts/lancedb, or a path) with node, with
// NODE_PATH and COLFMT_LANCEDB_NODE_MODULES set to the modules folder.
func (e Env) Command(script string, args ...string) *exec.Cmd {
	if !filepath.IsAbs(script) {
		script = filepath.Join(e.Scripts, script)
	}
	cmd := exec.Command(e.Node, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+e.Modules, "COLFMT_LANCEDB_NODE_MODULES="+e.Modules)
	return cmd
}
