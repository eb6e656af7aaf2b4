package at1

import (
	"crypto/sha256"
	"math/bits"
	"sync"
)

// A columnar file keeps every column in one values stream, so its xz
// decode is one serial job. To use a second core, the column decoders
// work on the stream's prefix while the rest is still being decoded:
// column k needs only the bytes up to the end of its chunk.

// progressive is a byte stream being decoded by another goroutine.
type progressive struct {
	mu   sync.Mutex
	cond sync.Cond
	data []byte // decoded so far
	done bool
	err  error
}

func newProgressive() *progressive {
	p := &progressive{}
	p.cond.L = &p.mu
	return p
}

func (p *progressive) publish(b []byte) {
	p.mu.Lock()
	p.data = b
	p.mu.Unlock()
	p.cond.Broadcast()
}

func (p *progressive) finish(b []byte, err error) {
	p.mu.Lock()
	if b != nil {
		p.data = b
	}
	p.done, p.err = true, err
	p.mu.Unlock()
	p.cond.Broadcast()
}

// upTo blocks until n bytes are decoded or the stream has ended, and
// returns the bytes decoded so far.
func (p *progressive) upTo(n int) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.data) < n && !p.done {
		p.cond.Wait()
	}
	return p.data
}

// wait blocks until the stream has ended and returns it.
func (p *progressive) wait() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.done {
		p.cond.Wait()
	}
	return p.data, p.err
}

// startValues starts decoding the values stream in the background when
// that pays: xz, with its size known from the stream's index, and more
// than one goroutine allowed. It returns nil otherwise.
func (dc *decoder) startValues(ss *streamSet) *progressive {
	i := ss.find("values")
	if dc.concurrency <= 1 || dc.safe || i < 0 || ss.streams[i].Backend != BackendXZ {
		return nil
	}
	src := ss.data[i]
	if n, ok := xzIndexSize(src); !ok || n < 2*progressChunk {
		return nil
	}
	p := newProgressive()
	go func() {
		d, err := ss.decompress(i, p.publish)
		p.finish(d, err)
	}()
	return p
}

// The encoder writes a large values stream as two xz blocks, so that
// the decoder decodes both halves at once (internal/xz's decoder with
// concurrency) while the column decoders follow the first. The cut is
// placed at the column boundary that best balances the two blocks'
// decode work, judged by the columns' zstd sizes (cutWeight), unless
// that splits columns that repeat each other (cutCrossings). Sizes, the
// file's uncut -> cut, when it applies (the vega tables and JSON Lines,
// the corpus; 2026-12-01): zipcodes.csv +0.07%, flights-20k.jsonl
// +0.02%, flights-200k.jsonl +0.002%, mysql-zips.jsonl +0.07%,
// cities.jsonl -0.007%, oui.csv +0.40%.
// UnicodeData.txt is not cut (one column, the names, holds most of the
// weight: cut after it, +1.4%).

// valuesSplitMin is the smallest values stream cut in two blocks.
var valuesSplitMin = 512 << 10

// valuesCut returns the index of the values stream among a columnar
// layout's streams (-1: none) and the offset where its second xz block
// starts (0: one block).
func valuesCut(streams []namedStream) (vi, cut int) {
	vi, ci := -1, -1
	for k, s := range streams {
		switch {
		case s.name == "values" && vi < 0:
			vi = k
		case s.name == "col_index" && ci < 0:
			ci = k
		}
	}
	if vi < 0 || ci < 0 || len(streams[vi].data) < valuesSplitMin {
		return vi, 0
	}
	values := streams[vi].data
	cur := &cursor{b: streams[ci].data}
	var ends []int
	for end := 0; len(cur.b) > cur.off; {
		n, err := cur.uv("length")
		if err != nil || n > uint64(len(values)-end) {
			return vi, 0
		}
		end += int(n)
		ends = append(ends, end)
	}
	if len(ends) < 2 || ends[len(ends)-1] != len(values) {
		return vi, 0
	}
	weights := make([]int, len(ends))
	total := 0
	for k, end := range ends {
		from := 0
		if k > 0 {
			from = ends[k-1]
		}
		weights[k] = end - from
		if weights[k] >= 48 {
			weights[k] = cutWeight(values[from:end])
		}
		total += weights[k]
	}
	// The column boundary closest to half the weight, among those that
	// leave each block at least valuesCutShare of it (a cut inside a
	// column balances better but costs more: +3.4% on oui.csv, whose text
	// columns share words, against +0.4% at a column boundary) and break
	// few matches between the blocks (cutCrossings).
	cross, distinct := cutCrossings(values, ends)
	best, bestDiff, sum := 0, -1, 0
	for k := 0; k+1 < len(ends); k++ {
		sum += weights[k]
		d := total - 2*sum
		if d < 0 {
			d = -d
		}
		if float64(d) > (1-2*valuesCutShare)*float64(total) || float64(cross[k]) > valuesCutLoss*float64(distinct) {
			continue
		}
		if bestDiff < 0 || d < bestDiff {
			best, bestDiff = ends[k], d
		}
	}
	if bestDiff < 0 || best <= 0 || best >= len(values) {
		return vi, 0
	}
	return vi, best
}

// valuesCutShare is the least share of the values stream's weight the
// smaller block must take for the stream to be cut.
const valuesCutShare = 0.25

// valuesCutLoss is the largest share of the values stream's distinct
// sampled strings a cut may leave on both sides of it (cutCrossings):
// the second block cannot refer to the first, so each such string is
// coded again. airport-codes.csv (ident, gps_code and local_code mostly
// equal, the last two after every balancing boundary) was 5.2% larger
// cut, with 0.053 of its strings crossing; of the other files over
// valuesSplitMin in the vega, JSON Lines and corpus sets, none has a
// chosen boundary crossed by more than 0.0013 (oui.csv's 0.4% is words
// shared between columns, shorter than the sampled strings).
const valuesCutLoss = 0.01

// cutCrossings samples the w-byte strings of values (those whose hash
// has its top bits zero, about one in 2^shift, at most cutSamples or so
// in all) and returns, for each column boundary k (after column k), how
// many distinct sampled strings occur both before and after it, and how
// many distinct sampled strings there are. A string on both sides is a
// match the second xz block loses; the distinct strings stand for the
// content that is not repeated, which is what xz spends its bytes on.
func cutCrossings(values []byte, ends []int) (cross []int, distinct int) {
	const (
		w     = 16
		prime = 0x100000001b3
	)
	shift := max(4, bits.Len(uint(len(values)/cutSamples)))
	pow := uint64(1)
	for range w {
		pow *= prime
	}
	type span struct{ first, last int32 }
	spans := make(map[uint64]span, min(len(values)>>shift, cutSamples)+1)
	var h uint64
	col := 0
	for i, b := range values {
		for col < len(ends)-1 && i >= ends[col] {
			col++
		}
		h = h*prime + uint64(b)
		if i >= w {
			h -= pow * uint64(values[i-w])
		} else if i < w-1 {
			continue
		}
		f := h * 0x9E3779B97F4A7C15
		if f>>(64-shift) != 0 {
			continue
		}
		if sp, ok := spans[f]; ok {
			sp.last = int32(col)
			spans[f] = sp
		} else {
			spans[f] = span{int32(col), int32(col)}
		}
	}
	// A string first seen in column a and last in column b crosses the
	// boundaries a..b-1.
	diff := make([]int, len(ends)+1)
	for _, sp := range spans {
		diff[sp.first]++
		diff[sp.last]--
	}
	cross = make([]int, len(ends))
	run := 0
	for k := range cross {
		run += diff[k]
		cross[k] = run
	}
	return cross, len(spans)
}

// cutSamples bounds cutCrossings' samples (and its map).
const cutSamples = 1 << 17

// cutWeight is a column's weight for valuesCut: its size under zstd at
// estLevel, as estSize gives it (pickChunk has ranked most columns
// already, and the cache answers), or for a column the cache does not
// hold and larger than cutSample, that of cutSamplePieces pieces spread
// over it, scaled (estSize of oui.csv's text columns took 150 ms, 6% of
// its encode).
func cutWeight(chunk []byte) int {
	if n, ok := cachedEstSize(estKey{sha256.Sum256(chunk), estLevel}); ok {
		return n
	}
	if len(chunk) <= cutSample {
		return estSize(chunk, estLevel)
	}
	sample := spreadSample(chunk, cutSample, cutSamplePieces)
	return int(float64(len(zstdCompress(nil, sample, estLevel))) * float64(len(chunk)) / float64(len(sample)))
}

const (
	cutSample       = 64 << 10
	cutSamplePieces = 4
)
