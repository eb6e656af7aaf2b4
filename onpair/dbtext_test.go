package onpair

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

var dbtextFiles = []string{"c_name", "city", "credentials", "email", "firstname", "hex",
	"japanese", "l_comment", "lastname", "ps_comment", "street", "urls2"}

// loadDBText reads a dbtext file as Arrow-style rows: split on '\n',
// dropping the final empty element (notes §11).
func loadDBText(tb testing.TB, name string) ([]byte, []uint32) {
	tb.Helper()
	dir := shareddata.Path(tb, "onpair", "dbtext")
	raw, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(tb, err)
	data := make([]byte, 0, len(raw))
	offsets := []uint32{0}
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			i = len(raw)
		}
		data = append(data, raw[:i]...)
		offsets = append(offsets, uint32(len(data)))
		raw = raw[min(i+1, len(raw)):]
	}
	return data, offsets
}

// compressedSize is the spec's buffers: dictionary bytes (minimum
// padding), N+1 u32 offsets and the packed codes; withRows adds the R+1
// u32 code offsets.
func compressedSize(c *Column, withRows bool) int {
	p := c.Parts()
	n := p.NumTokens()
	size := 4 * (n + 1)
	if n > 0 {
		size += int(p.DictOffsets[n-1]) + MaxTokenSize
	}
	size += PackedLen(len(p.Codes), p.Bits)
	if withRows {
		size += 4 * (c.Len() + 1)
	}
	return size
}
