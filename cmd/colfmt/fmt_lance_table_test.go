package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/lance"
)

func TestLanceTableFunctions(t *testing.T) {
	dir := shareddata.Path(t, "lance21", "2.2")
	fsys := os.DirFS(filepath.Join(dir, "versions.lance"))
	for _, c := range []struct {
		version uint64
		file    string
	}{{0, "versions.expected.jsonl"}, {3, "versions.v3.expected.jsonl"}, {6, "versions.v6.expected.jsonl"}} {
		var out bytes.Buffer
		require.NoError(t, lanceTableCat(&out, fsys, c.version, nil, false))
		want, err := os.ReadFile(filepath.Join(dir, c.file))
		require.NoError(t, err)
		require.Equal(t, string(want), out.String(), c.file)
	}
	var out bytes.Buffer
	require.NoError(t, lanceTableCat(&out, fsys, 1, []string{"tag", "id"}, false))
	require.True(t, strings.HasPrefix(out.String(), `{"tag":"a","id":0}`+"\n"), out.String()[:40])

	out.Reset()
	require.NoError(t, lanceTableInspect(&out, fsys, 4))
	require.Contains(t, out.String(), "Lance table, version 4 of 7")
	require.Contains(t, out.String(), "mini-block")

	require.NoError(t, lanceTableValidate(fsys, 0))
	err := lanceTableValidate(fsys, 9)
	require.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
	err = lanceTableCat(&out, fsys, 0, []string{"nope"}, false)
	require.ErrorIs(t, err, lance.ErrInvalidArgument)
}

// TestLanceTableCommands: colfmt cat|inspect|validate on every shared
// LanceDB table directory, at every version with expected rows, prints
// exactly LanceDB's rows.
func TestLanceTableCommands(t *testing.T) {
	for _, fv := range []string{"2.1", "2.2"} {
		dir := shareddata.Path(t, "lance21", fv)
		files, err := filepath.Glob(filepath.Join(dir, "*.expected.jsonl"))
		require.NoError(t, err)
		for _, f := range files {
			base := strings.TrimSuffix(filepath.Base(f), ".expected.jsonl")
			table, ver, _ := strings.Cut(base, ".v")
			args := []string{"cat"}
			if ver != "" {
				args = append(args, "--version", ver)
			}
			code, stdout, stderr := runCLI(t, append(args, filepath.Join(dir, table+".lance"))...)
			require.Equal(t, 0, code, stderr)
			want, err := os.ReadFile(f)
			require.NoError(t, err)
			require.Equal(t, string(want), stdout, "%s/%s", fv, base)
		}
	}
	table := filepath.Join(shareddata.Path(t, "lance21", "2.1"), "bitmap_deletes.lance")
	code, stdout, stderr := runCLI(t, "inspect", "--version", "2", table)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "Lance table, version 2 of 3")
	require.Contains(t, stdout, "6500 deleted (_deletions/0-1-")
	code, stdout, stderr = runCLI(t, "validate", table)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, table+": valid Lance table directory, version 3 (data storage version 2.1)\n", stdout)
	// --version N names the version it checked, not the latest.
	code, stdout, stderr = runCLI(t, "validate", "--version", "2", table)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, table+": valid Lance table directory, version 2 (data storage version 2.1)\n", stdout)
	code, _, stderr = runCLI(t, "cat", "--version", "4", table)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no version 4")
}
