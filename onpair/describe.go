package onpair

import (
	"bufio"
	"fmt"
	"io"

	"github.com/colfmt/colfmt/internal/varint"
)

// Describe writes the column's structure, what `colfmt inspect` prints:
// framing version, rows, tokens, code width, codes, decoded size, the
// sizes of the spec's buffers and of the serialized column
// (MarshalBinary), whether the dictionary is conformant (full alphabet,
// unique sorted tokens) and the compression ratios. It returns the first
// write error.
func (c *Column) Describe(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := c.parts
	n := p.NumTokens()
	dictLen := 0
	if n > 0 {
		dictLen = int(p.DictOffsets[n-1]) + MaxTokenSize
	}
	packed := PackedLen(len(p.Codes), p.Bits)
	spec := dictLen + 4*(n+1) + packed
	size := c.marshaledLen()
	logical := 0
	if len(p.DictOffsets) > 0 {
		logical = int(p.DictOffsets[n])
	}
	fmt.Fprintf(bw, "format:        OnPair column (OPCOL framing v%d)\n", FormatVersion)
	fmt.Fprintf(bw, "rows:          %d\n", c.Len())
	fmt.Fprintf(bw, "tokens:        %d (logical dictionary %d bytes)\n", n, logical)
	fmt.Fprintf(bw, "bits:          %d\n", p.Bits)
	fmt.Fprintf(bw, "codes:         %d (%.2f bytes per code)\n", len(p.Codes), float64(c.DecodedLen())/float64(max(len(p.Codes), 1)))
	fmt.Fprintf(bw, "decoded bytes: %d\n", c.DecodedLen())
	fmt.Fprintf(bw, "sizes:         dict_bytes %d, dict_offsets %d, packed codes %d, serialized %d\n", dictLen, 4*(n+1), packed, size)
	conformant := "yes (full alphabet, unique sorted tokens)"
	if err := p.ValidateConformant(); err != nil {
		conformant = "no: " + err.Error()
	}
	fmt.Fprintf(bw, "conformant:    %s\n", conformant)
	fmt.Fprintf(bw, "ratio:         %.2f without the row index, %.2f serialized\n",
		float64(c.DecodedLen())/float64(max(spec, 1)), float64(c.DecodedLen())/float64(max(size, 1)))
	return bw.Flush()
}

// marshaledLen is len(MarshalBinary()) without building it.
func (c *Column) marshaledLen() int {
	p := c.parts
	n := p.NumTokens()
	dictLen := 0
	if n > 0 {
		dictLen = int(p.DictOffsets[n-1]) + MaxTokenSize
	}
	size := len(Magic) + 3 + varint.Size(uint64(n)) + 4*len(p.DictOffsets) +
		varint.Size(uint64(dictLen)) + dictLen +
		varint.Size(uint64(len(p.Codes))) + PackedLen(len(p.Codes), p.Bits) +
		varint.Size(uint64(c.Len()))
	for r := 0; r < c.Len(); r++ {
		size += varint.Size(uint64(c.rows[r+1] - c.rows[r]))
	}
	return size
}
