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
	s, err := lanceTableSummary(fsys, 2)
	require.NoError(t, err)
	require.Equal(t, "Lance table version 2, 2000 rows in 2 fragments", s)

	err = lanceTableValidate(fsys, 9)
	require.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
	err = lanceTableCat(&out, fsys, 0, []string{"nope"}, false)
	require.ErrorIs(t, err, lance.ErrInvalidArgument)
}
