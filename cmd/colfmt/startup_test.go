package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// initBudget is the most a colfmt package may allocate in its package
// initialisation: tables and other prepared state are built on first use
// (sync.OnceValue), so starting the command costs little beyond the Go
// runtime and the dependencies' own inits (measured by scripts/startup.sh).
// The generated protobuf packages register their descriptors at init, as
// all protoc-gen-go output does; they get a larger budget.
const (
	initBudget   = 2 << 10
	initBudgetPB = 32 << 10
)

// initPending are packages over budget whose owners are making their init
// lazy; the test logs them instead of failing. Empty it as fixes land.
var initPending = map[string]string{}

// TestStartupInitsAreSmall reruns this test binary with
// GODEBUG=inittrace=1, which reports each package's init time and
// allocations, and checks the colfmt packages' allocations (deterministic,
// unlike times on a shared machine).
func TestStartupInitsAreSmall(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		// init github.com/colfmt/colfmt/csup @1.2 ms, 0.011 ms clock, 992 bytes, 8 allocs
		f := strings.Fields(line)
		if len(f) < 8 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/colfmt/colfmt") {
			continue
		}
		n, err := strconv.Atoi(f[7])
		require.NoError(t, err, line)
		budget := initBudget
		if strings.HasSuffix(f[1], "pb") { // generated protobuf packages
			budget = initBudgetPB
		}
		if why, ok := initPending[f[1]]; ok && n > budget {
			t.Logf("pending: %s allocates %d bytes at init (%s)", f[1], n, why)
		} else {
			require.LessOrEqual(t, n, budget, "%s allocates %d bytes at init: build it on first use", f[1], n)
		}
		seen++
	}
	require.Greater(t, seen, 5, "inittrace reported no colfmt package:\n%s", out)
}
