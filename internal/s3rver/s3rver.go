// Package s3rver starts s3rver, an S3-compatible server from the npm
// registry (Node), on a free loopback port for tests, so object-store
// reads are checked against a real server over the network and not only
// the in-process gofakes3.
//
// Install it once outside the module's Go code:
//
//	npm install --prefix scripts/s3   # scripts/s3/package.json pins s3rver 3.7.1
//
// Start finds node on PATH and s3rver in $COLFMT_S3RVER_DIR (a folder
// holding node_modules/s3rver) or else in scripts/s3 of the module; when
// either is missing the test is skipped with a message saying how to
// install it (failed when COLFMT_REQUIRE_S3RVER is set).
package s3rver

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// Credentials s3rver accepts (its defaults).
const (
	AccessKey = "S3RVER"
	SecretKey = "S3RVER"
)

// Start runs s3rver on 127.0.0.1 with a fresh data directory and the
// given buckets, and returns its endpoint (http://127.0.0.1:PORT). The
// server is stopped when tb ends. It sets the AWS credential and region
// variables for tb, so s3blob signs with the keys s3rver checks.
func Start(tb testing.TB, buckets ...string) string {
	tb.Helper()
	skip := func(format string, args ...any) {
		tb.Helper()
		msg := fmt.Sprintf(format, args...) + "; install it with: npm install --prefix scripts/s3 (or set COLFMT_S3RVER_DIR to a folder holding node_modules/s3rver)"
		if os.Getenv("COLFMT_REQUIRE_S3RVER") != "" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("s3rver: node not found on PATH")
	}
	bin := ""
	for _, dir := range []string{os.Getenv("COLFMT_S3RVER_DIR"), filepath.Join(shareddata.ModuleRoot(), "scripts", "s3")} {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, "node_modules", "s3rver", "bin", "s3rver.js")
		if _, err := os.Stat(p); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		skip("s3rver: package not installed")
	}
	args := []string{bin, "-d", tb.TempDir(), "-a", "127.0.0.1", "-p", "0", "--silent"}
	for _, b := range buckets {
		args = append(args, "--configure-bucket", b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		tb.Fatalf("s3rver: %v", err)
	}
	tb.Cleanup(func() {
		cancel() // kills the node process started above
		cmd.Wait()
	})
	// It prints "S3rver listening on 127.0.0.1:PORT" once it serves.
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`listening on (127\.0\.0\.1:\d+)`)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
				break
			}
		}
		close(addr)
		for sc.Scan() { // keep the pipe drained
		}
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			tb.Fatal("s3rver exited before listening")
		}
		tb.Setenv("AWS_ACCESS_KEY_ID", AccessKey)
		tb.Setenv("AWS_SECRET_ACCESS_KEY", SecretKey)
		tb.Setenv("AWS_REGION", "us-east-1")
		return "http://" + a
	case <-time.After(60 * time.Second):
		tb.Fatal("s3rver did not start within 60s")
	}
	return ""
}

// BucketQuery is the s3blob URL query that points a bucket at endpoint.
func BucketQuery(endpoint string) string {
	return "?endpoint=" + endpoint + "&use_path_style=true&disable_https=true&region=us-east-1"
}
