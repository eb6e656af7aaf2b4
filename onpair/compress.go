package onpair

import (
	"fmt"
	"math/bits"

	"github.com/colfmt/colfmt/internal/errs"
)

// Dictionary is a trained OnPair dictionary together with its
// longest-prefix matcher: the reusable parser. Train once (Train,
// TrainStrings) and compress any number of columns with it (Compress,
// CompressStrings, AppendCodes). It is safe for concurrent use.
type Dictionary struct {
	m     *matcher
	parts Parts // DictBytes (min padding), DictOffsets, Bits; no codes
}

// Train trains a dictionary on the Arrow-style rows
// data[offsets[r]:offsets[r+1]] (len(offsets) = rows+1, non-decreasing,
// offsets[rows] <= len(data); offsets[0] need not be 0). Options:
// WithBits, WithPairThreshold, WithSampleFraction, WithSeed.
func Train(data []byte, offsets []uint32, opts ...Option) (*Dictionary, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := checkInputOffsets(data, offsets); err != nil {
		return nil, err
	}
	return newDictionary(train(data, offsets, &cfg))
}

// TrainStrings is Train on a slice of strings.
func TrainStrings(values []string, opts ...Option) (*Dictionary, error) {
	data, offsets, err := flatten(values)
	if err != nil {
		return nil, err
	}
	return Train(data, offsets, opts...)
}

// NewDictionary makes a Dictionary from the dictionary of existing Parts
// (p.Codes is ignored), to compress more data with it. It must be valid
// and contain all 256 single-byte tokens, so that every input can be
// parsed (ErrUnsupported otherwise).
func NewDictionary(p Parts) (*Dictionary, error) {
	if err := p.ValidateDictionary(); err != nil {
		return nil, err
	}
	n := p.NumTokens()
	toks := make([][]byte, n)
	var single [256]bool
	for i := range toks {
		toks[i] = p.Token(i)
		if len(toks[i]) == 1 {
			single[toks[i][0]] = true
		}
	}
	for b, ok := range single {
		if !ok {
			return nil, fmt.Errorf("%w: dictionary lacks the single-byte token 0x%02x, so it cannot parse every input", ErrUnsupported, b)
		}
	}
	return newDictionary(toks)
}

// newDictionary builds the matcher and spec buffers for toks, in order.
func newDictionary(toks [][]byte) (*Dictionary, error) {
	m := newMatcher(len(toks))
	offs := make([]uint32, 1, len(toks)+1)
	var dict []byte
	for _, t := range toks {
		if _, dup := m.lookup(t); dup {
			return nil, fmt.Errorf("%w: duplicate token %q", ErrUnsupported, t)
		}
		m.insert(t)
		dict = append(dict, t...)
		offs = append(offs, uint32(len(dict)))
	}
	if n := len(toks); n > 0 {
		dict = append(dict, make([]byte, MaxTokenSize-len(toks[n-1]))...)
	}
	return &Dictionary{m: m, parts: Parts{DictBytes: dict, DictOffsets: offs, Bits: codeBits(len(toks))}}, nil
}

// codeBits is the written code width: max(9, ceil(log2 n)) (notes §5 #2).
func codeBits(n int) uint32 {
	if n <= 1 {
		return 9
	}
	return uint32(max(9, bits.Len(uint(n-1))))
}

// Len returns the number of tokens.
func (d *Dictionary) Len() int { return d.m.size() }

// Token returns token i (shared, do not modify).
func (d *Dictionary) Token(i int) []byte { return d.m.token(uint16(i)) }

// Bits returns the code width columns compressed with d use.
func (d *Dictionary) Bits() uint32 { return d.parts.Bits }

// Parts returns the dictionary's spec buffers (Codes is nil).
func (d *Dictionary) Parts() Parts { return d.parts }

// AppendCodes parses row greedily with longest-prefix matching and
// appends its codes to dst.
func (d *Dictionary) AppendCodes(dst []uint16, row []byte) []uint16 {
	for pos := 0; pos < len(row); {
		id, l := d.m.match(row, pos, len(row))
		dst = append(dst, id)
		pos += l
	}
	return dst
}

// Compress parses the Arrow-style rows with d and returns the column.
// Tokens never span rows.
func (d *Dictionary) Compress(data []byte, offsets []uint32) (*Column, error) {
	if err := checkInputOffsets(data, offsets); err != nil {
		return nil, err
	}
	rows := len(offsets) - 1
	total := int(offsets[rows] - offsets[0])
	codes := make([]uint16, 0, total/3+16)
	rowOffs := make([]uint32, rows+1)
	m := d.m
	for r := 0; r < rows; r++ {
		end := int(offsets[r+1])
		for pos := int(offsets[r]); pos < end; {
			id, l := m.match(data, pos, end)
			codes = append(codes, id)
			pos += l
		}
		rowOffs[r+1] = uint32(len(codes))
	}
	p := d.parts
	p.Codes = codes
	cfg := defaultConfig()
	cfg.maxDecodedSize = int64(^uint64(0) >> 1)
	return newColumn(p, rowOffs, &cfg)
}

// CompressStrings is Compress on a slice of strings.
func (d *Dictionary) CompressStrings(values []string) (*Column, error) {
	data, offsets, err := flatten(values)
	if err != nil {
		return nil, err
	}
	return d.Compress(data, offsets)
}

// Compress trains a dictionary on the Arrow-style rows
// data[offsets[r]:offsets[r+1]] and compresses them with it. With the same
// input and options the output is always the same (the default seed is
// fixed). Options: WithBits, WithPairThreshold, WithSampleFraction, WithSeed.
func Compress(data []byte, offsets []uint32, opts ...Option) (*Column, error) {
	d, err := Train(data, offsets, opts...)
	if err != nil {
		return nil, err
	}
	return d.Compress(data, offsets)
}

// CompressStrings is Compress on a slice of strings.
func CompressStrings(values []string, opts ...Option) (*Column, error) {
	data, offsets, err := flatten(values)
	if err != nil {
		return nil, err
	}
	return Compress(data, offsets, opts...)
}

func checkInputOffsets(data []byte, offsets []uint32) error {
	if len(offsets) == 0 {
		return invalidArg("offsets are empty (R rows need R+1 offsets)")
	}
	for i := 1; i < len(offsets); i++ {
		if offsets[i] < offsets[i-1] {
			return invalidArg("offsets[%d] = %d is below offsets[%d] = %d", i, offsets[i], i-1, offsets[i-1])
		}
	}
	if last := offsets[len(offsets)-1]; uint64(last) > uint64(len(data)) {
		return invalidArg("last offset %d is past the %d data bytes", last, len(data))
	}
	return nil
}

func flatten(values []string) ([]byte, []uint32, error) {
	total := 0
	for _, v := range values {
		total += len(v)
	}
	if uint64(total) > uint64(^uint32(0)) {
		return nil, nil, errs.Wrap(ErrTooLarge, "%d input bytes exceed the 4 GiB that uint32 offsets address", total)
	}
	data := make([]byte, 0, total)
	offsets := make([]uint32, 1, len(values)+1)
	for _, v := range values {
		data = append(data, v...)
		offsets = append(offsets, uint32(len(data)))
	}
	return data, offsets, nil
}
