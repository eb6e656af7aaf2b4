package main

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

// sharedInputs lists the real files (by extension) and table directories
// of ../shared/data the command reads, relative to root; hostile/ (files
// of hundreds of MB made to exhaust memory) is left out.
func sharedInputs(t *testing.T, root string) (files, tables []string) {
	t.Helper()
	exts := map[string]bool{".at1": true, ".csup": true, ".vng": true, ".zst": true, ".lance": true}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && rel == "hostile":
			return filepath.SkipDir
		case d.IsDir() && strings.HasSuffix(rel, ".lance"):
			tables = append(tables, rel)
			return filepath.SkipDir
		case !d.IsDir() && exts[filepath.Ext(rel)]:
			files = append(files, rel)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	require.NotEmpty(t, tables)
	return files, tables
}

// sameRun runs the command on the local path and on the URL and requires
// the same exit status, output and messages (the URL named where the
// path was).
func sameRun(t *testing.T, local, url string, args ...string) {
	t.Helper()
	run := func(p string) (int, string, string) {
		a := make([]string, len(args))
		for i, s := range args {
			if s == "@" {
				s = p
			}
			a[i] = s
		}
		return runCLI(t, a...)
	}
	wcode, wout, werr := run(local)
	gcode, gout, gerr := run(url)
	what := strings.Join(args, " ") + " " + url
	require.Equal(t, wcode, gcode, "%s: exit status; stderr local %q, remote %q", what, werr, gerr)
	require.Equal(t, wout, strings.ReplaceAll(gout, url, local), what)
	require.Equal(t, werr, strings.ReplaceAll(gerr, url, local), what)
}

// TestRemoteInput: every command that takes a path prints, for an http://
// URL of every real file and table directory, what it prints for the
// local path: cat, inspect, validate (tables at every version too), the
// query commands and grep.
func TestRemoteInput(t *testing.T) {
	root := shareddata.Path(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()
	checkRemoteCommands(t, root, func(rel string) string { return srv.URL + "/" + rel })

	code, _, stderr := runCLI(t, "cat", srv.URL+"/missing.lance")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "not exist")
	code, _, stderr = runCLI(t, "cat", "--version", "2", srv.URL+"/at1/")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, srv.URL+"/at1/")
	code, _, stderr = runCLI(t, "cat", "gs://bucket/t.lance")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "gs:// is not supported yet in this build")

	// file:// URLs: a file and a table.
	for _, rel := range []string{"at1/qcol.at1", "lance21/2.1/versions.lance"} {
		sameRun(t, filepath.Join(root, rel), "file://"+filepath.ToSlash(filepath.Join(root, rel)), "cat", "@")
	}
	sameRun(t, filepath.Join(root, "lance21/2.1/versions.lance"), "file://"+filepath.ToSlash(filepath.Join(root, "lance21/2.1/versions.lance")), "cat", "--version", "3", "@")
}

// checkRemoteCommands runs every command on the local path and on
// urlOf(path) for every shared input.
func checkRemoteCommands(t *testing.T, root string, urlOf func(rel string) string) {
	files, tables := sharedInputs(t, root)
	for _, rel := range files {
		for _, cmd := range []string{"cat", "inspect", "validate"} {
			sameRun(t, filepath.Join(root, rel), urlOf(rel), cmd, "@")
		}
	}
	for _, rel := range tables {
		local := filepath.Join(root, rel)
		for _, cmd := range []string{"cat", "inspect", "validate"} {
			sameRun(t, local, urlOf(rel), cmd, "@")
		}
		ents, err := os.ReadDir(filepath.Join(local, "_versions"))
		require.NoError(t, err)
		for v := 1; v < len(ents); v++ { // the manifests; the hint is one more entry
			sameRun(t, local, urlOf(rel), "cat", "--version", strconv.Itoa(v), "@")
			sameRun(t, local, urlOf(rel), "validate", "--version", strconv.Itoa(v), "@")
		}
		sameRun(t, local, urlOf(rel), "cat", "--version", "99", "@")
	}
	sameRun(t, filepath.Join(root, "lance21/2.1/nested.lance"), urlOf("lance21/2.1/nested.lance"), "cat", "--columns", "id", "@")
	sameRun(t, filepath.Join(root, "lance/v2_2_alltypes_5rows.lance"), urlOf("lance/v2_2_alltypes_5rows.lance"), "cat", "--columns", "id", "@")

	// The query commands.
	for _, rel := range []string{"at1/qcol.at1", "at1/qjson.at1"} {
		sameRun(t, filepath.Join(root, rel), urlOf(rel), "query", "@", "--stats")
		sameRun(t, filepath.Join(root, rel), urlOf(rel), "query", "@", "--cols", "0", "--where", "0>=5")
	}
	for _, rel := range files {
		if strings.HasSuffix(rel, ".csup") || strings.HasSuffix(rel, ".vng") {
			sameRun(t, filepath.Join(root, rel), urlOf(rel), "csup-query", "@", "--stats")
		}
	}
}

// TestRemoteGrep: grep over an http:// URL of an OnPair column (packed
// from a shared text) prints what it prints for the local file.
func TestRemoteGrep(t *testing.T) {
	src := filepath.Join(shareddata.Path(t, "onpair", "dbtext"), "city")
	dir := t.TempDir()
	col := filepath.Join(dir, "city.onpair")
	code, _, stderr := runCLI(t, "pack", "--format", "onpair", "--out", col, src)
	require.Equal(t, 0, code, stderr)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	sameRun(t, col, srv.URL+"/city.onpair", "grep", "--count", "AN", "@")
	sameRun(t, col, srv.URL+"/city.onpair", "grep", "--prefix", "SAN", "@")
	sameRun(t, col, srv.URL+"/city.onpair", "cat", "@")
}

// TestRemotePrefetch: cat of a remote Lance table and data file (8 to 14
// pages a column) sends fewer requests with the prefetch (remote/lancefetch)
// than without, and prints the same.
func TestRemotePrefetch(t *testing.T) {
	root := shareddata.Path(t, "lance21", "2.1")
	var mu sync.Mutex
	requests := 0
	fsrv := http.FileServer(http.Dir(root))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		fsrv.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ents, err := os.ReadDir(filepath.Join(root, "multipage.lance", "data"))
	require.NoError(t, err)
	defer func() { remotePrefetch = true }()
	for _, args := range [][]string{
		{"cat", "--columns", "s", srv.URL + "/multipage.lance"},
		{"cat", srv.URL + "/multipage.lance"},
		{"cat", "--columns", "s", srv.URL + "/multipage.lance/data/" + ents[0].Name()},
		{"validate", srv.URL + "/multipage.lance/data/" + ents[0].Name()},
	} {
		var outs [2]string
		var counts [2]int
		for i, on := range []bool{false, true} {
			remotePrefetch = on
			mu.Lock()
			requests = 0
			mu.Unlock()
			code, out, stderr := runCLI(t, args...)
			require.Equal(t, 0, code, stderr)
			mu.Lock()
			outs[i], counts[i] = out, requests
			mu.Unlock()
		}
		require.Equal(t, outs[0], outs[1], args)
		require.Less(t, counts[1], counts[0], "%v: requests with prefetch vs without", args)
		t.Logf("%v: %d requests without prefetch, %d with", args[:len(args)-1], counts[0], counts[1])
	}
}
