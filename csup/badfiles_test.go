package csup_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/bad_*.csup")

// badFiles says how each testdata/bad_*.csup is made and which error it
// must give, and where. Regenerate with: go test -run TestBadFiles -update
var badFiles = []struct {
	name   string
	make   func(t testing.TB) []byte
	want   error
	inPath string // substring of the error's location
	atScan bool   // Open succeeds; reading the values fails
}{
	{"bad_truncated.csup", func(t testing.TB) []byte {
		// A valid file cut short: the trailer is gone.
		b := writeCSUP(t, bigRows(50))
		return b[:len(b)-20]
	}, csup.ErrCorrupt, "trailer", false},
	{"bad_sections.csup", func(t testing.TB) []byte {
		// The trailer's sections do not end where the trailer starts.
		return buildSpecFile(t, helloData, helloReassembly(segmap(0, 16, 16, 0), segmap(0, 0, 0, 0), segmap(29, 2, 2, 0)), 1,
			func(s []int64) { s[0]-- })
	}, csup.ErrCorrupt, "trailer", false},
	{"bad_version.csup", func(t testing.TB) []byte {
		return buildSpecFile(t, helloData, helloReassembly(segmap(0, 16, 16, 0), segmap(0, 0, 0, 0), segmap(29, 2, 2, 0)), 99, nil)
	}, csup.ErrUnsupported, "trailer", false},
	{"bad_segment_range.csup", func(t testing.TB) []byte {
		// Column a's segment points past the 31-byte data section.
		return buildSpecFile(t, helloData, helloReassembly(segmap(20, 16, 16, 0), segmap(0, 0, 0, 0), segmap(29, 2, 2, 0)), 1, nil)
	}, csup.ErrCorrupt, "super0.a", false},
	{"bad_lz4.csup", func(t testing.TB) []byte {
		// Column a claims to be an LZ4 block; its bytes are not one.
		return buildSpecFile(t, helloData, helloReassembly(segmap(0, 16, 200, 1), segmap(0, 0, 0, 0), segmap(29, 2, 2, 0)), 1, nil)
	}, csup.ErrCorrupt, "super0.a", true},
	{"bad_presence.csup", func(t testing.TB) []byte {
		// Presence runs for column a say 1 present, 0 null, then nothing:
		// the second row has no run to read.
		data := append(append([]byte{}, helloData...), 0x02, 0x02, 0x01)
		return buildSpecFile(t, data, helloReassembly(segmap(0, 16, 16, 0), segmap(31, 2, 2, 0), segmap(29, 2, 2, 0)), 1, nil)
	}, csup.ErrCorrupt, "super0.a/presence", true},
	{"bad_super_id.csup", func(t testing.TB) []byte {
		// The super column names super type 5 of 1.
		data := append(append([]byte{}, helloData[:29]...), 0x02, 0x0a)
		return buildSpecFile(t, data, helloReassembly(segmap(0, 16, 16, 0), segmap(0, 0, 0, 0), segmap(29, 2, 2, 0)), 1, nil)
	}, csup.ErrCorrupt, "super", true},
	{"bad_reassembly.csup", func(t testing.TB) []byte {
		// 2N+1 broken: one typed null but no reassembly record.
		return buildSpecFile(t, helloData, helloReassembly(segmap(0, 16, 16, 0), segmap(0, 0, 0, 0), segmap(29, 2, 2, 0))[:2], 1, nil)
	}, csup.ErrCorrupt, "reassembly", false},
}

func TestBadFiles(t *testing.T) {
	for _, c := range badFiles {
		p := filepath.Join("testdata", c.name)
		if *update {
			require.NoError(t, os.WriteFile(p, c.make(t), 0o644))
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err, "run go test -run TestBadFiles -update")
		require.Equal(t, c.make(t), b, "%s is stale: go test -run TestBadFiles -update", c.name)
		f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
		if c.atScan {
			require.NoError(t, err, c.name)
			err = f.Validate()
		}
		require.Error(t, err, c.name)
		require.True(t, errors.Is(err, c.want), "%s: %v", c.name, err)
		var ce *csup.CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v has no location", c.name, err)
		require.Contains(t, ce.Path, c.inPath, "%s: %v", c.name, err)
	}
}

// Limits: sizes from the file are checked against the options before
// anything is allocated for them.
func TestLimits(t *testing.T) {
	b := writeCSUP(t, bigRows(3000), csup.WithCompression(false))
	_, err := csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithMaxSegmentSize(100))
	require.ErrorIs(t, err, csup.ErrTooLarge)
	_, err = csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithMaxReassemblySize(10))
	require.ErrorIs(t, err, csup.ErrTooLarge)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), csup.WithMaxElements(1))
	require.NoError(t, err)
	require.ErrorIs(t, f.Validate(), csup.ErrTooLarge)
	for _, o := range []csup.Option{csup.WithMaxSegmentSize(0), csup.WithMaxDepth(0), csup.WithMaxElements(-1), csup.WithSegmentThreshold(0), csup.WithSkewThreshold(0), csup.WithMaxReassemblySize(0)} {
		_, err := csup.Open(bytes.NewReader(b), int64(len(b)), o)
		require.ErrorIs(t, err, csup.ErrInvalidOption)
	}
	_, err = csup.Open(bytes.NewReader(nil), 0)
	require.ErrorIs(t, err, csup.ErrCorrupt)
}

// A size larger than the file: the bytes past the end read as missing.
func TestWrongSize(t *testing.T) {
	b := writeCSUP(t, bigRows(10))
	_, err := csup.Open(bytes.NewReader(b), int64(len(b))+100)
	require.ErrorIs(t, err, csup.ErrCorrupt)
	_, err = csup.Open(bytes.NewReader(b), -1)
	require.ErrorIs(t, err, csup.ErrInvalidArgument)
	require.NotErrorIs(t, err, csup.ErrCorrupt)
	_, err = csup.Open(nil, 10)
	require.ErrorIs(t, err, csup.ErrInvalidArgument)
	_, err = csup.NewWriter(nil)
	require.ErrorIs(t, err, csup.ErrInvalidArgument)
}
