package at1

import (
	"bytes"
	"crypto/sha256"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"

	"github.com/colfmt/colfmt/internal/varint"
)

// parseCanonInt parses v as an INT value: -?(0|[1-9][0-9]*), not "-0",
// within int64, so that formatting the result gives v back.
func parseCanonInt(v []byte) (int64, bool) {
	if len(v) == 0 || len(v) > 20 {
		return 0, false
	}
	s := v
	if s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || n == 0 && v[0] == '-' {
		return 0, false
	}
	return n, true
}

// parseCanonDec parses v as a DEC value with its own scale d: digits, a
// dot, d digits; value x 10^d within int64; formatting gives v back
// ("-0.00" does not: negative zero has no representation).
func parseCanonDec(v []byte) (n int64, d int, ok bool) {
	dot := bytes.IndexByte(v, '.')
	if dot <= 0 {
		return 0, 0, false
	}
	d = len(v) - dot - 1
	if d > maxScale {
		return 0, 0, false
	}
	ip := v[:dot]
	neg := ip[0] == '-'
	if neg {
		ip = ip[1:]
	}
	if len(ip) == 0 || ip[0] == '0' && len(ip) > 1 {
		return 0, 0, false
	}
	var mag uint64
	for _, part := range [][]byte{ip, v[dot+1:]} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return 0, 0, false
			}
			hi, lo := bits.Mul64(mag, 10)
			if hi != 0 || lo+uint64(c-'0') < lo {
				return 0, 0, false
			}
			mag = lo + uint64(c-'0')
		}
	}
	if mag > math.MaxInt64 || neg && mag == 0 {
		return 0, 0, false
	}
	n = int64(mag)
	if neg {
		n = -n
	}
	return n, d, true
}

// subOverflows reports whether a-b overflows int64 (the reference's C
// accumulator would then overflow, which is undefined behaviour there).
func subOverflows(a, b int64) bool {
	d := a - b
	return (a^b)&(a^d) < 0
}

// colCandidates returns the encodings of one column that round-trip, as
// (type, chunk) pairs; TEXT is always first.
func colCandidates(vals column) []candidate {
	n := vals.len()
	size := max(n-1, 0)
	for _, x := range vals.cells {
		size += int(x.n >> 1)
	}
	text := make([]byte, 0, size)
	for i := range vals.cells {
		if i > 0 {
			text = append(text, '\n')
		}
		text = append(text, vals.val(i)...)
	}
	out := []candidate{{colText, text}}
	if n == 0 {
		return out
	}
	// Numbers: which values are INT, which DEC and at what scale. A
	// value is one or the other: nums[i] is value i as an INT when
	// scale[i] is scaleInt, as a DEC of scale scale[i] when that is
	// not negative (-1: neither).
	const scaleInt = -2
	nums := make([]int64, n)
	scale := make([]int8, n)
	nInt := 0
	scaleCount := map[int]int{}
	for i := range vals.cells {
		v0 := vals.val(i)
		scale[i] = -1
		if v, ok := parseCanonInt(v0); ok {
			nums[i], scale[i] = v, scaleInt
			nInt++
			continue
		}
		if v, d, ok := parseCanonDec(v0); ok {
			nums[i], scale[i] = v, int8(d)
			scaleCount[d]++
		}
	}
	bestScale, bestCount := -1, 0
	for d, k := range scaleCount {
		if k > bestCount || k == bestCount && d < bestScale {
			bestScale, bestCount = d, k
		}
	}
	if nInt == n {
		if c, ok := intChunk(nums); ok {
			out = append(out, candidate{colInt, c})
		}
		if c, ok := shufChunk(nums); ok {
			out = append(out, candidate{colShuf, c})
		}
	}
	if bestCount == n && bestScale >= 0 {
		if c, ok := intChunk(nums); ok {
			out = append(out, candidate{colDec, append([]byte{byte(bestScale)}, c...)})
		}
	}
	// NUMEXC: the larger numeric kind, the rest as exceptions.
	if nInt < n && nInt*2 >= n && nInt >= bestCount {
		if c, ok := numexcChunk(vals, func(i int) (int64, bool) { return nums[i], scale[i] == scaleInt }, -1); ok {
			out = append(out, candidate{colNumExc, c})
		}
	} else if bestCount < n && bestCount*2 >= n {
		if c, ok := numexcChunk(vals, func(i int) (int64, bool) { return nums[i], int(scale[i]) == bestScale }, bestScale); ok {
			out = append(out, candidate{colNumExc, c})
		}
	}
	if c, ok := dictChunk(vals); ok {
		out = append(out, candidate{colDict, c})
	}
	return out
}

type candidate struct {
	typ   byte
	chunk []byte
}

// intChunk is the sv delta chain of vs, unless a delta overflows.
func intChunk(vs []int64) ([]byte, bool) {
	out := make([]byte, 0, len(vs)*2)
	var prev int64
	for _, v := range vs {
		if subOverflows(v, prev) {
			return nil, false
		}
		out = varint.AppendSigned(out, v-prev)
		prev = v
	}
	return out, true
}

// shufChunk stores vs - min in W byte planes (W <= 7, so min + x never
// overflows in the reference's signed arithmetic).
func shufChunk(vs []int64) ([]byte, bool) {
	lo, hi := slices.Min(vs), slices.Max(vs)
	if subOverflows(hi, lo) {
		return nil, false
	}
	span := uint64(hi - lo)
	w := max(1, (bits.Len64(span)+7)/8)
	if w > 7 {
		return nil, false
	}
	out := varint.Append(nil, uint64(len(vs)))
	out = varint.AppendSigned(out, lo)
	out = append(out, byte(w))
	for j := 0; j < w; j++ {
		for _, v := range vs {
			out = append(out, byte(uint64(v-lo)>>(8*j)))
		}
	}
	return out, true
}

// numexcChunk writes a NUMEXC column: num(i) gives entry i's scaled value
// when it is numeric of the chosen kind (scale < 0: INT).
func numexcChunk(vals column, num func(int) (int64, bool), scale int) ([]byte, bool) {
	n := vals.len()
	out := []byte{0}
	if scale >= 0 {
		out = []byte{1, byte(scale)}
	}
	out = varint.Append(out, uint64(n))
	bitmap := make([]byte, (n+7)/8)
	var exc [][]byte
	var deltas []byte
	var prev int64
	for i := range vals.cells {
		v, ok := num(i)
		if ok && !subOverflows(v, prev) {
			bitmap[i/8] |= 1 << (i % 8)
			deltas = varint.AppendSigned(deltas, v-prev)
			prev = v
			continue
		}
		exc = append(exc, vals.val(i))
	}
	out = append(out, bitmap...)
	out = varint.Append(out, uint64(len(exc)))
	for _, e := range exc {
		out = varint.Append(out, uint64(len(e)))
		out = append(out, e...)
	}
	return append(out, deltas...), true
}

// dictChunk writes a DICT column when it has few distinct values; the
// dictionary is ordered by falling frequency (then first appearance), so
// the common values get one-byte indices.
func dictChunk(vals column) ([]byte, bool) {
	n := vals.len()
	ids := map[string]int{}
	var order []string
	var freq []int
	vid := make([]int32, n) // each value's entry, in first-appearance order
	entryBytes := 0
	for i := range vals.cells {
		v := vals.val(i)
		id, ok := ids[string(v)]
		if !ok {
			id = len(order)
			s := string(v)
			ids[s] = id
			order = append(order, s)
			freq = append(freq, 0)
			entryBytes += len(s)
			if len(order) > 1<<16 || len(order)*2 > n+16 {
				return nil, false
			}
		}
		freq[id]++
		vid[i] = int32(id)
	}
	rank := make([]int, len(order))
	for i := range rank {
		rank[i] = i
	}
	slices.SortStableFunc(rank, func(a, b int) int { return freq[b] - freq[a] })
	idx := make([]int, len(order))
	// Sized once: at most 3 bytes an index (1<<16 entries) and 3 a
	// length below 1<<21.
	out := make([]byte, 0, 2*varint.MaxLen+entryBytes+3*len(order)+3*n)
	out = varint.Append(out, uint64(n))
	out = varint.Append(out, uint64(len(order)))
	for pos, id := range rank {
		idx[id] = pos
		out = varint.Append(out, uint64(len(order[id])))
		out = append(out, order[id]...)
	}
	for _, id := range vid {
		out = varint.Append(out, uint64(idx[id]))
	}
	return out, true
}

// quoteMode is a column's quotemodes byte and, for a mixed column, its
// bitmap (LSB first, one bit per value).
func quoteMode(vals column) (byte, []byte) {
	nq := 0
	for i := range vals.cells {
		if vals.quoted(i) {
			nq++
		}
	}
	switch {
	case nq == 0:
		return 0, nil
	case nq == vals.len():
		return 1, nil
	}
	bm := make([]byte, (vals.len()+7)/8)
	for i := range vals.cells {
		if vals.quoted(i) {
			bm[i/8] |= 1 << (i % 8)
		}
	}
	return 2, bm
}

// pickChunk chooses the candidate that compresses smallest, estimated with
// zstd at estLevelOf(small) (the values stream is compressed as a whole
// later).
func pickChunk(cands []candidate, small bool) candidate {
	if len(cands) == 1 {
		return cands[0] // TEXT alone: nothing to compare
	}
	level := estLevelOf(small)
	best, bestSize := cands[0], -1
	for _, c := range cands {
		size := len(c.chunk)
		if size >= 48 {
			size = estSize(c.chunk, level)
		}
		if bestSize < 0 || size < bestSize {
			best, bestSize = c, size
		}
	}
	return best
}

// estSize is the size of chunk under zstd at level. The layouts of a
// table (split, token table, the trials of cuts and joins) rank the
// same column's candidates again and again: about half the bytes
// pickChunk ranks had been ranked before in the same Encode. Sizes are
// kept by the chunk's SHA-256 and the level in a cache shared by every
// Encode (the size depends on those alone), emptied when it holds
// estCacheMax sizes.
func estSize(chunk []byte, level int) int {
	return cachedSize(estKey{sha256.Sum256(chunk), level}, func() int {
		return len(zstdCompress(nil, chunk, level))
	})
}

// estKey names an estimate: the chunk's SHA-256 and the zstd level.
type estKey struct {
	sum   [32]byte
	level int
}

// cachedEstSize is estSize of the chunk and level key names, if cached.
func cachedEstSize(key estKey) (int, bool) {
	estCache.Lock()
	defer estCache.Unlock()
	n, ok := estCache.m[key]
	return n, ok
}

// cachedSize is the size key names: from the cache, else size() kept
// there (the cache is emptied when it holds estCacheMax sizes).
func cachedSize(key estKey, size func() int) int {
	if n, ok := cachedEstSize(key); ok {
		return n
	}
	n := size()
	estCache.Lock()
	if len(estCache.m) >= estCacheMax || estCache.m == nil {
		estCache.m = make(map[estKey]int)
	}
	estCache.m[key] = n
	estCache.Unlock()
	return n
}

const estCacheMax = 1 << 14

var estCache struct {
	sync.Mutex
	m map[estKey]int
}

// columnarStreamsOf lays out a table as the streams of codec 4, in the
// notes' order.
func (c *encoder) columnarStreamsOf(t *table) []namedStream {
	ncols := len(t.cols)
	meta := varint.Append(nil, uint64(len(t.rowModes)))
	meta = append(meta, b2u(t.trailing), b2u(t.hasHeader))
	if t.noDelim {
		meta = append(meta, 0)
	} else {
		meta = append(meta, 1, t.delim)
	}
	meta = varint.Append(meta, uint64(ncols))
	var fieldcounts []byte
	for _, n := range t.counts {
		fieldcounts = varint.Append(fieldcounts, uint64(n))
	}
	chosen := make([]candidate, ncols)
	// zchosen[k] is pickChunk's choice where xzRank chose another: the
	// layouts are compared by fast zstd (estimateStreams), which prefers
	// it, so the values stream is estimated with those.
	zchosen := make([]candidate, ncols)
	ids := derivedIDs(t.cols, c.concurrency)
	parallel(c.concurrency, ncols, func(k int) error {
		cands := colCandidates(t.cols[k])
		if d, ok := derivedChunk(t.cols, ids, k); ok {
			cands = append(cands, candidate{colDerived, d})
		}
		chosen[k] = pickChunk(cands, t.cols[k].small)
		if len(t.src) >= xzRankMin {
			z := chosen[k]
			if chosen[k] = xzRank(t.cols[k], cands, z); chosen[k].typ != z.typ {
				zchosen[k] = z
			}
		}
		return nil
	})
	var estValues []byte
	if slices.ContainsFunc(zchosen, func(z candidate) bool { return z.chunk != nil }) {
		for k, z := range zchosen {
			if z.chunk == nil {
				z = chosen[k]
			}
			estValues = append(estValues, z.chunk...)
		}
	}
	coltypes := make([]byte, ncols)
	var colIndex, values, quotemodes, quotebits []byte
	for k, ch := range chosen {
		coltypes[k] = ch.typ
		colIndex = varint.Append(colIndex, uint64(len(ch.chunk)))
		values = append(values, ch.chunk...)
		m, bm := quoteMode(t.cols[k])
		quotemodes = append(quotemodes, m)
		quotebits = append(quotebits, bm...)
	}
	return []namedStream{
		{name: "meta", data: meta},
		{name: "row_modes", data: t.rowModes},
		{name: "fieldcounts", data: fieldcounts},
		{name: "coltypes", data: coltypes},
		{name: "col_index", data: colIndex},
		{name: "values", data: values, est: estValues},
		{name: "quotemodes", data: quotemodes},
		{name: "quotebits", data: quotebits},
		{name: "verbatim", data: bytes.Join(t.verbatim, []byte{'\n'})},
		{name: "header", data: t.header},
	}
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// estLevel is the zstd level that estimates a column candidate's size:
// the best level ranks candidates more as xz will code them than a fast
// one (which favours SHUF planes and cut digit runs over DICT): on the
// vega-datasets tables 1-10% smaller (flights-airport.csv 0.708 to
// 0.641 x xz -9e), a few bytes larger on two.
//
// Tables of at most estSmallMax bytes are ranked at estLevelSmall
// instead. The best level's encoder has 34 MB of hash tables, and a
// small table's few thousand positions fault in most of their pages:
// in a fresh process (every colfmt pack) that was 60-70% of a 2 KB
// table's encode CPU, 70 ms of page faults here. Level 6's tables are
// 4 MB, and the RAW baseline at the default level builds that encoder
// anyway. On the first 1 to 64 KiB of 56 real tables (391 files) the
// output was 0.15% smaller in all at 0.60x the CPU (each size class
// within 0.2%; per file -14% to +6.5%); above 64 KiB level 6 ranked
// worse (flights-20k.jsonl +17%, zipcodes.csv +1.6%).
const (
	estLevel      = 9
	estLevelSmall = 6
	estSmallMax   = 64 << 10
)

// estSmall reports whether a table of n input bytes is ranked at
// estLevelSmall.
func estSmall(n int) bool { return n <= estSmallMax }

// estLevelOf is the zstd level that ranks a column's candidates, by its
// small field.
func estLevelOf(small bool) int {
	if small {
		return estLevelSmall
	}
	return estLevel
}

// xzRank is the candidate that xz codes smallest among cands whose zstd
// estimate is within xzRankClose of best's (pickChunk's choice), when it
// is at most xzRankMargin of best's size under xz; else best. zstd's
// Huffman literals price the bytes of a delta chain (NUMEXC, DEC) higher
// against digit text than xz's literal coder does: breast_cancer.csv's
// mixed-precision decimals went from TEXT to NUMEXC and the file from
// 0.846 to 0.822x xz -9e. Each candidate is coded alone (over the first
// xzEstimateRows values, fewer past xzEstimateBytes of text, as
// xzEstimateCols does), which misses what the stream shares across
// columns: hence the margin (a temperature column 2% smaller alone as
// DICT made weather.csv 2.5% larger). It runs when the streams are laid
// out, not in the trials of cuts and joins, where it cost 30-50% more
// CPU.
func xzRank(col column, cands []candidate, best candidate) candidate {
	if len(cands) < 2 {
		return best
	}
	level := estLevelOf(col.small)
	zsize := func(c candidate) int {
		if len(c.chunk) < 48 {
			return len(c.chunk)
		}
		return estSize(c.chunk, level)
	}
	bs := zsize(best)
	if bs < 64 {
		return best
	}
	var close []candidate
	for _, c := range cands {
		if c.typ != best.typ && float64(zsize(c)) <= xzRankClose*float64(bs) {
			close = append(close, c)
		}
	}
	if len(close) == 0 {
		return best
	}
	// Past the sample, rank the sample's candidates of the same types
	// (DERIVED, which needs the other columns, on its whole chunk).
	rows, text := 0, 0
	for _, x := range col.cells {
		if rows == xzEstimateRows || text > xzEstimateBytes {
			break
		}
		rows++
		text += int(x.n>>1) + 1
	}
	chunkOf := func(c candidate) []byte { return c.chunk }
	if rows < col.len() {
		sample := map[byte][]byte{}
		for _, c := range colCandidates(col.slice(0, rows)) {
			sample[c.typ] = c.chunk
		}
		chunkOf = func(c candidate) []byte {
			if c.typ == colDerived {
				return c.chunk
			}
			return sample[c.typ] // nil: the sample has no such candidate
		}
	}
	bc := chunkOf(best)
	if bc == nil {
		return best
	}
	pick, pickSize := best, float64(xzEstSize(bc))*xzRankMargin
	for _, c := range close {
		if ch := chunkOf(c); ch != nil {
			if n := float64(xzEstSize(ch)); n <= pickSize {
				pick, pickSize = c, n
			}
		}
	}
	return pick
}

// xzRankClose and xzRankMargin are xzRank's bounds: the zstd estimate
// within which a candidate is ranked again, and the fraction of the
// chosen one's xz size it must reach. Tables under xzRankMin bytes are
// not ranked again: their values stream is as often zstd as xz (xz's
// framing costs about 50 bytes more), and xz's ranking made a 1 KB
// table's 6% larger in zstd.
const (
	xzRankClose  = 1.15
	xzRankMargin = 0.95
	xzRankMin    = 4 << 10
)

// xzEstSize is the size of chunk under xz level 6, cached as estSize's
// are (under level xzEstLevel).
func xzEstSize(chunk []byte) int {
	return cachedSize(estKey{sha256.Sum256(chunk), xzEstLevel}, func() int {
		x, err := xzCompress(nil, chunk, 6, false)
		if err != nil {
			return math.MaxInt
		}
		return len(x)
	})
}

// xzEstLevel keys xzEstSize's sizes in the estimate cache, apart from
// zstd's levels.
const xzEstLevel = -6
