package xz

// Memory reports an upper bound, in bytes, on what a Writer made with opts
// allocates at once: per block being compressed, the match finder tables
// (see the table in the package documentation), the parser's window and
// the block's compressed output; plus the input buffer of concurrency x
// block size bytes. AppendEncode needs the same less the input buffer
// (it reads src in place) and plus the returned slice's growth.
func Memory(opts ...Option) (int64, error) {
	c, err := newConfig(opts)
	if err != nil {
		return 0, err
	}
	bs := c.effBlockSize()
	perBlock := blockMemory(c.params(), bs)
	return int64(c.concurrency) * (perBlock + int64(bs)), nil
}

// Upper bounds of the sizes of optimal (52 bytes on 64-bit platforms),
// encoder (about 40 KiB: the model, price tables and queues), arrival
// and arrivals (the multi-arrival parser's); TestMemoryStructSizes keeps
// them true.
const (
	optimalBytes  = 64
	encoderBytes  = 64 << 10
	arrivalBytes  = 32
	arrivalsBytes = 16 + MaxArrivals*arrivalBytes
)

// blockMemory bounds the allocations of appendBlock for a block of n bytes.
func blockMemory(p params, n int) int64 {
	m := memoryFor(p, n)
	if !p.fast {
		m += optsSize * optimalBytes
	}
	if p.arrivals > 1 {
		// Its window, its pool grown by appends up to poolMax (at most
		// twice that allocated in all) and a distance-price row per
		// match.
		m += optsSize*arrivalsBytes + 2*poolMax*arrivalBytes + matchLenMax*distStates*4
	}
	m += encoderBytes
	// The LZMA2 data (a stored chunk costs 3 bytes per 64 KiB, an LZMA
	// chunk is never larger than its input), the range coder's chunk
	// buffer, the block once framed (header, padding, check) and the
	// batch's output that the framed blocks are joined into.
	lz := int64(n) + int64(n)/(chunkCompMax)*6 + 64
	return m + 3*lz + chunkCompMax + chunkMargin + 64
}
