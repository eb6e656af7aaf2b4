package xz

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"sync"
	"sync/atomic"
)

// Parallel decoding. A stream of several blocks whose index lists each
// block's sizes can be decoded a block per goroutine, each straight into
// its own region of the output (reserved from the index). The serial
// path in appendStream stays the reference: whenever the parallel path
// cannot apply (the footer is not at the end of the input, the index is
// damaged or implausible, one block) or finds anything wrong with a
// block, it gives up and the serial path decodes the stream again, so
// errors (which block, which offset, which message) are exactly the
// serial path's whatever the concurrency.

// parallelRecord is one block as the index places it.
type parallelRecord struct {
	at       int // the block's offset in the stream
	unpadded int
	size     int // uncompressed size
	outAt    int // its offset in the stream's output
}

// parallelIndex reads the index of the stream that starts src and ends
// exactly at its end (flags are the stream header's flags) and places
// the blocks it lists. ok is false unless the footer and index are
// intact, the blocks it lists tile the space between the stream header
// and the index, there are at least two of them, and the total output
// fits within budget, the plausibility bound of appendStream and an int
// past have bytes.
func parallelIndex(src, flags []byte, budget int64, have int) (recs []parallelRecord, total int, ok bool) {
	if len(src) < 2*streamHeaderLen+8 {
		return nil, 0, false
	}
	f := src[len(src)-streamHeaderLen:]
	if !bytes.Equal(f[10:], footerMagic) || f[8] != flags[0] || f[9] != flags[1] ||
		crc32.ChecksumIEEE(f[4:10]) != binary.LittleEndian.Uint32(f[:4]) {
		return nil, 0, false
	}
	isize := (uint64(binary.LittleEndian.Uint32(f[4:8])) + 1) * 4
	if isize > uint64(len(src)-2*streamHeaderLen) {
		return nil, 0, false
	}
	istart := len(src) - streamHeaderLen - int(isize)
	idx := src[istart : len(src)-streamHeaderLen]
	if idx[0] != 0 || crc32.ChecksumIEEE(idx[:len(idx)-4]) != binary.LittleEndian.Uint32(idx[len(idx)-4:]) {
		return nil, 0, false
	}
	body := idx[:len(idx)-4]
	q := 1
	n, ok := readVarint(body, &q)
	// Each record takes at least two bytes.
	if !ok || n < 2 || n > uint64(len(body)/2) {
		return nil, 0, false
	}
	recs = make([]parallelRecord, n)
	p := streamHeaderLen
	var sum uint64
	for i := range recs {
		up, ok1 := readVarint(body, &q)
		un, ok2 := readVarint(body, &q)
		// A block takes at least its 8-byte header and one byte of
		// LZMA2 data.
		if !ok1 || !ok2 || up < 9 || up > uint64(istart-p) {
			return nil, 0, false
		}
		padded := int((up + 3) &^ 3)
		if padded > istart-p || un > 1<<62 || sum+un < sum {
			return nil, 0, false
		}
		recs[i] = parallelRecord{at: p, unpadded: int(up), outAt: int(sum)}
		sum += un
		p += padded
	}
	for ; q < len(body); q++ {
		if body[q] != 0 {
			return nil, 0, false
		}
	}
	if p != istart || sum > uint64(budget) || sum > uint64(len(src))*1024+1<<20 || sum > uint64(math.MaxInt-have) {
		return nil, 0, false
	}
	for i := range recs {
		if i+1 < len(recs) {
			recs[i].size = recs[i+1].outAt - recs[i].outAt
		} else {
			recs[i].size = int(sum) - recs[i].outAt
		}
	}
	return recs, int(sum), true
}

// appendStreamParallel is appendStream for a stream of several blocks,
// up to c.concurrency at once (the caller checked the stream header;
// check is its check type). ok false means the stream was not decoded:
// the serial path must decode it (and report its error, if any). tried
// says whether any block was decoded (and progress may have been called).
func appendStreamParallel(out, src []byte, base int64, c *config, budget int64, check Check) (_ []byte, n int, tried, ok bool) {
	recs, total, ok := parallelIndex(src, src[6:8], budget, len(out))
	if !ok {
		return out, 0, false, false
	}
	csize := checkSize(byte(check))
	start := len(out)
	if cap(out)-len(out) < total {
		nb := make([]byte, len(out), len(out)+total)
		copy(nb, out)
		out = nb
	}
	full := out[:start+total]

	var (
		mu     sync.Mutex
		done   = make([]bool, len(recs))
		prefix int // blocks done from the first on
		failed atomic.Bool
		next   atomic.Int64
	)
	finished := func(i int) {
		mu.Lock()
		defer mu.Unlock()
		done[i] = true
		old := prefix
		for prefix < len(done) && done[prefix] {
			prefix++
		}
		// The first block reported its chunks as it went.
		if c.progress != nil && prefix > max(old, 1) {
			r := recs[prefix-1]
			c.progress(full[c.origin : start+r.outAt+r.size])
		}
	}
	var first config
	if c.progress != nil {
		first.origin = c.origin
		first.progress = func(b []byte) {
			mu.Lock()
			if prefix == 0 {
				c.progress(b)
			}
			mu.Unlock()
		}
	}
	var plain config
	block := func(d *lzmaDec, i int) bool {
		r := recs[i]
		if src[r.at] == 0 {
			return false
		}
		bh, err := parseBlockHeader(src[:r.at+r.unpadded], r.at, base)
		if err != nil || bh.size+csize >= r.unpadded ||
			bh.comp >= 0 && bh.comp != int64(r.unpadded-bh.size-csize) ||
			bh.uncomp >= 0 && bh.uncomp != int64(r.size) {
			return false
		}
		at := start + r.outAt
		cfg := &plain
		if i == 0 {
			cfg = &first
		}
		data := r.at + bh.size
		region, m, err := d.decodeLZMA2(full[:at:at+r.size], src[data:], bh.dict, at, int64(r.size), base+int64(data), cfg)
		if err != nil || len(region) != at+r.size || bh.size+m+csize != r.unpadded {
			return false
		}
		// Padding, then the check.
		p := data + m
		for ; (p-r.at)%4 != 0; p++ {
			if src[p] != 0 {
				return false
			}
		}
		return verify(check, full[at:at+r.size], src[p:p+csize])
	}
	work := func() {
		d := decoders.Get().(*lzmaDec)
		defer decoders.Put(d)
		for !failed.Load() {
			i := int(next.Add(1) - 1)
			if i >= len(recs) {
				return
			}
			if !block(d, i) {
				failed.Store(true)
				return
			}
			finished(i)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < min(c.concurrency, len(recs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	if failed.Load() {
		return out[:start], 0, true, false
	}
	return full, len(src), true, true
}
