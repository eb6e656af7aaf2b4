package at1

import (
	"crypto/sha256"
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
// decode work, judged by the columns' zstd sizes (cutWeight). Sizes,
// the file's before -> after, when it applies (the vega tables and
// JSON Lines, the apt tables; 2026-11-28): zipcodes.csv +0.07%,
// flights-20k.jsonl +0.02%, flights-200k.jsonl +0.04%, oui.csv +0.40%.
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
	// The column boundary closest to half the weight, unless it leaves
	// either block less than valuesCutShare of it (a cut inside a column
	// balances better but costs more: +3.4% on oui.csv, whose text
	// columns share words, against +0.4% at a column boundary).
	best, bestDiff, sum := 0, -1, 0
	for k := 0; k+1 < len(ends); k++ {
		sum += weights[k]
		d := total - 2*sum
		if d < 0 {
			d = -d
		}
		if bestDiff < 0 || d < bestDiff {
			best, bestDiff = ends[k], d
		}
	}
	if float64(bestDiff) > (1-2*valuesCutShare)*float64(total) || best <= 0 || best >= len(values) {
		return vi, 0
	}
	return vi, best
}

// valuesCutShare is the least share of the values stream's weight the
// smaller block must take for the stream to be cut.
const valuesCutShare = 0.25

// cutWeight is a column's weight for valuesCut: its size under zstd at
// estLevel, as estSize gives it (pickChunk has ranked most columns
// already, and the cache answers), or for a column the cache does not
// hold and larger than cutSample, that of cutSamplePieces pieces spread
// over it, scaled (estSize of oui.csv's text columns took 150 ms, 6% of
// its encode).
func cutWeight(chunk []byte) int {
	if n, ok := cachedEstSize(sha256.Sum256(chunk)); ok {
		return n
	}
	if len(chunk) <= cutSample {
		return estSize(chunk)
	}
	sample := spreadSample(chunk, cutSample, cutSamplePieces)
	return int(float64(len(zstdCompress(nil, sample, estLevel))) * float64(len(chunk)) / float64(len(sample)))
}

const (
	cutSample       = 64 << 10
	cutSamplePieces = 4
)
