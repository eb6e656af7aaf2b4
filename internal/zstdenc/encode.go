package zstdenc

import (
	"encoding/binary"

	"github.com/klauspost/compress/huff0"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
)

const (
	magic    = 0xFD2FB528
	blockMax = 128 << 10
	// maxPasses is how many times a block is parsed per seed: the first
	// under the seed's prices, each next one under the statistics of the
	// previous one's encoding, while the block gets smaller.
	maxPasses         = 3
	maxPassesThorough = 6
)

// AppendEncode appends one zstd frame holding src to dst: single-segment
// (so the frame header carries the content size, even for empty input),
// no content checksum, no dictionary; blocks of at most 128 KiB.
func AppendEncode(dst, src []byte, opts ...Option) ([]byte, error) {
	cfg := defaultConfig()
	if err := opt.Apply(&cfg, opts); err != nil {
		return dst, err
	}
	if len(src) > cfg.maxInput {
		return dst, errs.TooLarge(ErrTooLarge, 0, "", "input", uint64(len(src)), int64(cfg.maxInput))
	}
	dst = appendFrameHeader(dst, uint64(len(src)))
	if len(src) == 0 {
		return appendBlockHeader(dst, true, 0, 0), nil
	}
	e := encoder{
		ps:     parser{src: src, prev: buildChains(src), depth: cfg.depth},
		reps:   [3]uint32{1, 4, 8},
		seeds:  seeds,
		passes: maxPasses,
	}
	if cfg.thorough {
		e.seeds, e.passes = thoroughSeeds, maxPassesThorough
	}
	for bs := 0; bs < len(src); bs += blockMax {
		be := min(bs+blockMax, len(src))
		dst = e.appendBlock(dst, bs, be, be == len(src))
	}
	return dst, nil
}

func appendFrameHeader(dst []byte, size uint64) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, magic)
	const single = 1 << 5
	switch {
	case size < 256:
		return append(dst, single, byte(size))
	case size < 65536+256:
		s := size - 256
		return append(dst, 1<<6|single, byte(s), byte(s>>8))
	case size <= 0xFFFFFFFF:
		return append(dst, 2<<6|single, byte(size), byte(size>>8), byte(size>>16), byte(size>>24))
	}
	dst = append(dst, 3<<6|single)
	for i := 0; i < 8; i++ {
		dst = append(dst, byte(size>>(8*i)))
	}
	return dst
}

// appendBlockHeader appends a block header: typ 0 raw, 1 RLE, 2 compressed.
func appendBlockHeader(dst []byte, last bool, typ byte, size int) []byte {
	v := uint32(typ)<<1 | uint32(size)<<3
	if last {
		v |= 1
	}
	return append(dst, byte(v), byte(v>>8), byte(v>>16))
}

type encoder struct {
	ps     parser
	seeds  []seed
	passes int
	reps   [3]uint32
	hs     huff0.Scratch
	lits   []byte
	ofv    []uint32
}

// appendBlock appends the block [bs, be) as the smallest of compressed,
// RLE and raw.
func (e *encoder) appendBlock(dst []byte, bs, be int, last bool) []byte {
	block := e.ps.src[bs:be]
	same := true
	for _, b := range block[1:] {
		if b != block[0] {
			same = false
			break
		}
	}
	if same && len(block) > 1 {
		return append(appendBlockHeader(dst, last, 1, len(block)), block[0])
	}
	var best []byte
	var bestReps [3]uint32
	if len(block) >= 8 {
		e.ps.reset(bs, be)
		// Parses are compared by their size with Huffman's default
		// code-length limit; only the best is encoded trying them all.
		bestSize := -1
		var bestSeqs []seq
		bestTail := 0
		for _, sd := range e.seeds {
			var pm priceModel
			if sd.predefined {
				seedPrices(&pm, block)
			} else {
				seedFreqPrices(&pm, block)
			}
			for i := range pm.lit {
				pm.lit[i] = pm.lit[i] * sd.litScale / 4
			}
			prev := -1
			for pass := 0; pass < e.passes; pass++ {
				seqs, tail := e.ps.parse(bs, be, &pm, e.reps)
				body, _ := e.encodeBody(bs, be, seqs, tail, false)
				if bestSize < 0 || len(body) < bestSize {
					bestSize = len(body)
					bestSeqs = append(bestSeqs[:0], seqs...)
					bestTail = tail
				}
				if prev >= 0 && len(body) >= prev {
					break
				}
				prev = len(body)
				e.freqModel(&pm, seqs)
			}
		}
		best, bestReps = e.encodeBody(bs, be, bestSeqs, bestTail, true)
		if len(block) <= dropMax && !noDropSeqs {
			if seqs, tail := e.dropSeqs(bs, be, bestSeqs, bestTail); len(seqs) < len(bestSeqs) {
				if b, reps := e.encodeBody(bs, be, seqs, tail, true); len(b) < len(best) {
					best, bestReps = b, reps
				}
			}
		}
		// All literals, no sequences: on inputs of a few hundred bytes
		// the sequences' section header and tables can cost more than
		// their matches save, which the parser's prices do not see.
		if lit, reps := e.encodeBody(bs, be, nil, be-bs, true); len(lit) < len(best) {
			best, bestReps = lit, reps
		}
	}
	if best == nil || len(best) >= len(block) {
		return append(appendBlockHeader(dst, last, 0, len(block)), block...)
	}
	e.reps = bestReps
	return append(appendBlockHeader(dst, last, 2, len(best)), best...)
}

// encodeBody encodes the block [bs, be) as seqs then tail literals
// (trying every Huffman code-length limit when full); it
// returns the block content and the repeat offsets after it.
func (e *encoder) encodeBody(bs, be int, seqs []seq, tail int, full bool) ([]byte, [3]uint32) {
	src := e.ps.src
	reps := e.reps
	lits := e.lits[:0]
	ofv := e.ofv[:0]
	p := bs
	for _, s := range seqs {
		lits = append(lits, src[p:p+int(s.litLen)]...)
		p += int(s.litLen) + int(s.matchLen)
		v := offsetValue(s.off, s.litLen, &reps)
		updateReps(&reps, v, s.litLen, s.off)
		ofv = append(ofv, v)
	}
	lits = append(lits, src[p:p+tail]...)
	e.lits, e.ofv = lits, ofv
	body := appendLiterals(nil, lits, &e.hs, full)
	body = appendSequences(body, seqs, ofv)
	return body, reps
}

// seed is a first-pass price model: the predefined tables, or
// libzstd-like smoothed frequencies, with literal prices scaled by
// litScale/4. Each seed is refined by up to maxPasses passes and the
// smallest encoding of all is kept: the passes settle in a local optimum,
// and literals priced higher at the start lead to parses with more and
// cheaper matches, which on some inputs (binary tables, keyword lists)
// are 5-10% smaller than the local optimum the plain seeds find.
type seed struct {
	predefined bool
	litScale   int32
}

// seeds are the default seeds; thoroughSeeds are WithThorough's.
var (
	seeds         = []seed{{true, 4}, {false, 9}}
	thoroughSeeds = []seed{{true, 4}, {false, 9}, {false, 4}, {false, 6}}
)

// freqModel sets pm to the smoothed frequencies of the last encoding's
// literals and codes.
func (e *encoder) freqModel(pm *priceModel, seqs []seq) {
	var cnt [256]uint32
	for _, b := range e.lits {
		cnt[b] = cnt[b] + 2
	}
	for i := range cnt {
		cnt[i]++
	}
	setFreq(pm.lit[:], cnt[:], nil)
	var llCnt [maxLLCode + 1]uint32
	var mlCnt [maxMLCode + 1]uint32
	var ofCnt [maxOFCode + 1]uint32
	for i, s := range seqs {
		llCnt[llCode(s.litLen)]++
		mlCnt[mlCode(s.matchLen)]++
		ofCnt[ofCode(e.ofv[i])]++
	}
	for _, c := range [][]uint32{llCnt[:], mlCnt[:], ofCnt[:]} {
		for i := range c {
			c[i]++
		}
	}
	setFreq(pm.ll[:], llCnt[:], llExtra)
	setFreq(pm.ml[:], mlCnt[:], mlExtra)
	setFreq(pm.of[:], ofCnt[:], ofExtra)
}

// dropMax is the largest block dropSeqs refines.
const dropMax = 1 << 10

// noDropSeqs turns dropSeqs off (tests compare with it on).
var noDropSeqs = false

// dropSeqs turns sequences of a small block back into literals while
// the block gets smaller, one at a time, the best drop first: on a few
// hundred bytes the parser's prices (estimated before the block's
// Huffman and FSE tables are known) can keep a match that costs more in
// the sequences section than its bytes cost as literals.
func (e *encoder) dropSeqs(bs, be int, seqs []seq, tail int) ([]seq, int) {
	if len(seqs) == 0 || len(seqs) > 64 {
		return seqs, tail
	}
	body, _ := e.encodeBody(bs, be, seqs, tail, false)
	size := len(body)
	trial := make([]seq, 0, len(seqs))
	for len(seqs) > 0 {
		bestK, bestSize := -1, size
		for k := range seqs {
			trial, t := dropSeq(trial[:0], seqs, tail, k)
			if b, _ := e.encodeBody(bs, be, trial, t, false); len(b) < bestSize {
				bestK, bestSize = k, len(b)
			}
		}
		if bestK < 0 {
			break
		}
		var t int
		seqs, t = dropSeq(nil, seqs, tail, bestK)
		tail, size = t, bestSize
	}
	return seqs, tail
}

// dropSeq appends seqs without seqs[k] to dst, its literals and match
// bytes becoming literals of the next sequence (or of the tail).
func dropSeq(dst []seq, seqs []seq, tail, k int) ([]seq, int) {
	n := seqs[k].litLen + seqs[k].matchLen
	dst = append(dst, seqs[:k]...)
	if k+1 < len(seqs) {
		next := seqs[k+1]
		next.litLen += n
		dst = append(dst, next)
		dst = append(dst, seqs[k+2:]...)
		return dst, tail
	}
	return dst, tail + int(n)
}
