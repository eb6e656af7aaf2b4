package onpair

import (
	"fmt"

	"github.com/colfmt/colfmt/internal/errs"
)

// decompressSafe is the exact, obviously correct twin of Decompress: the
// spec's loop over DictOffsets with a check per code and an exact copy per
// token. Tests and fuzzers compare the fast path against it.
func decompressSafe(p Parts) ([]byte, error) {
	if err := p.ValidateDictionary(); err != nil {
		return nil, err
	}
	n := p.NumTokens()
	var out []byte
	for i, c := range p.Codes {
		if int(c) >= n {
			return nil, errs.At(ErrCodeOutOfRange, -1, fmt.Sprintf("codes[%d]", i), "code %d with %d tokens", c, n)
		}
		out = append(out, p.DictBytes[p.DictOffsets[c]:p.DictOffsets[c+1]]...)
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}
