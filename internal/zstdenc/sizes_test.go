package zstdenc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// cliSize is the size of src compressed by the zstd CLI with args.
func cliSize(t testing.TB, src []byte, args ...string) int {
	t.Helper()
	// From a file, not stdin: the CLI then knows the size and tunes
	// its parameters to it, as it does for the files it compresses.
	f := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(f, src, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("zstd", append(args, "-c", "-q", "--no-check", f)...).Output()
	if err != nil {
		t.Fatalf("zstd %v: %v", args, err)
	}
	return len(out)
}

var kpBest, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithSingleSegment(true),
	zstd.WithEncoderCRC(false), zstd.WithEncoderConcurrency(1))

// smallCorpus reads the files named in the list at path (one a line).
func smallCorpus(t testing.TB, path string) map[string][]byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	m := map[string][]byte{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if b, err := os.ReadFile(name); err == nil && len(b) > 0 {
			m[name] = b
		}
	}
	return m
}

type sizeRow struct {
	name                  string
	n, ours, l19, l22, kp int
}

func measure(t testing.TB, files map[string][]byte) []sizeRow {
	var rows []sizeRow
	for name, src := range files {
		z := roundTrip(t, src)
		rows = append(rows, sizeRow{name, len(src), len(z), cliSize(t, src, "-19"), cliSize(t, src, "--ultra", "-22"),
			len(kpBest.EncodeAll(src, nil))})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	return rows
}

func report(t testing.TB, rows []sizeRow) (tot sizeRow, worst19 float64, worstName string) {
	for _, r := range rows {
		tot.n += r.n
		tot.ours += r.ours
		tot.l19 += r.l19
		tot.l22 += r.l22
		tot.kp += r.kp
		if q := float64(r.ours) / float64(r.l19); q > worst19 {
			worst19, worstName = q, r.name
		}
	}
	t.Logf("%d files, %d bytes: ours %d, zstd -19 %d (ratio %.4f), --ultra -22 %d (%.4f), klauspost best %d (%.4f); worst per file vs -19 %.4f (%s)",
		len(rows), tot.n, tot.ours, tot.l19, float64(tot.ours)/float64(tot.l19), tot.l22, float64(tot.ours)/float64(tot.l22),
		tot.kp, float64(tot.ours)/float64(tot.kp), worst19, worstName)
	return
}

func TestCorpusSizes(t *testing.T) {
	if _, err := exec.LookPath("zstd"); err != nil {
		t.Skip("zstd CLI not on PATH")
	}
	list := os.Getenv("ZSTDENC_CORPUS")
	if list == "" {
		t.Skip("ZSTDENC_CORPUS (a list of files) not set")
	}
	files := smallCorpus(t, list)
	rows := measure(t, files)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	ours, cli := cpuTimes(t, names, files)
	t.Logf("CPU: ours %v, zstd -19 %v (one process for all files): ratio %.2f", ours, cli, float64(ours)/float64(cli))
	if os.Getenv("ZSTDENC_VERBOSE") != "" {
		for _, r := range rows {
			fmt.Printf("%d %d %d %d %d %.4f %s\n", r.n, r.ours, r.l19, r.l22, r.kp, float64(r.ours)/float64(r.l19), r.name)
		}
	}
	tot, _, _ := report(t, rows)
	// The targets (issue 12): total within 1% of zstd -19, below
	// klauspost's best.
	if float64(tot.ours) > 1.01*float64(tot.l19) || tot.ours >= tot.kp {
		t.Errorf("total %d: want within 1%% of zstd -19's %d and below klauspost's %d", tot.ours, tot.l19, tot.kp)
	}
	if os.Getenv("ZSTDENC_THOROUGH") != "" {
		th, over := 0, 0
		for _, r := range rows {
			z := roundTrip(t, files[r.name], WithThorough(true))
			th += len(z)
			if len(z) > r.kp {
				over++
			}
		}
		t.Logf("WithThorough: %d (ratio to zstd -19 %.4f), %d files larger than klauspost's best", th, float64(th)/float64(tot.l19), over)
	}
}

// cpuTimes compares the CPU our encoder takes on files with the CPU of
// one zstd -19 process compressing them all (one frame each, parameters
// tuned to each file's size as for single files).
func cpuTimes(t testing.TB, names []string, files map[string][]byte) (ours, cli time.Duration) {
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for _, n := range names {
		if _, err := AppendEncode(nil, files[n]); err != nil {
			t.Fatal(err)
		}
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	ours = time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	cmd := exec.Command("zstd", append([]string{"-19", "-q", "--no-check", "-c"}, names...)...)
	if err := cmd.Run(); err != nil {
		t.Fatalf("zstd -19: %v", err)
	}
	cli = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return ours, cli
}
