package shareddata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDirFindsSharedOrSkips(t *testing.T) {
	p := Path(t) // skips in a clone without ../shared
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	require.Equal(t, "data", filepath.Base(p))
	require.Empty(t, Dir("no-such-folder-here"))
}

func TestEnvOverride(t *testing.T) {
	tmp := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, "data", "x"), 0o755))
	t.Setenv("COLFMT_SHARED", tmp)
	require.Equal(t, filepath.Join(tmp, "data", "x"), Dir("x"))
}
