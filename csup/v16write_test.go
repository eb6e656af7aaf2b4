package csup_test

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/stretchr/testify/require"
)

// Writing the values of each file super v0.3.0 wrote gives the same bytes.
func TestCSUPv16WriterMatchesSuper(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "csup-v16_super-v0.3.0", "*.csup"))
	require.NoError(t, err)
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".csup")
		t.Run(name, func(t *testing.T) {
			want := readV16(t, name)
			_, vals := readCSUP(t, want)
			got := writeCSUP(t, vals, csup.WithLayout(csup.LayoutCSUP16))
			if !bytes.Equal(want, got) {
				t.Logf("want:\n%s\ngot:\n%s", hex.Dump(want), hex.Dump(got))
			}
			require.Equal(t, want, got)
		})
	}
	_ = bsup.JSONSuper
}
