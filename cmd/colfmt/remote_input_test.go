package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

// TestRemoteInput: cat, inspect and validate of an http:// URL print what
// they print for the local file.
func TestRemoteInput(t *testing.T) {
	root := shareddata.Path(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()
	for _, rel := range []string{
		"lance/v2_2_alltypes_5rows.lance",
		"csup/csup-v16_super-v0.3.0/nested.csup",
		"at1/qcol.at1",
	} {
		for _, cmd := range []string{"cat", "inspect", "validate"} {
			code, want, stderr := runCLI(t, cmd, root+"/"+rel)
			require.Equal(t, 0, code, stderr)
			code, got, stderr := runCLI(t, cmd, srv.URL+"/"+rel)
			require.Equal(t, 0, code, stderr)
			// inspect and validate name the input; the rest is the same.
			require.NotEmpty(t, got)
			require.Equal(t, want, strings.ReplaceAll(got, srv.URL+"/"+rel, root+"/"+rel), cmd+" "+rel)
		}
	}
	code, _, stderr := runCLI(t, "cat", srv.URL+"/missing.lance")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "not exist")
}
