package xz

// LZMA's adaptive binary range coder: 11-bit probabilities that move by
// 1/32 of the distance to the bound after every bit.
const (
	probBits      = 11
	probInit      = 1 << (probBits - 1)
	moveBits      = 5
	topValue      = 1 << 24
	priceShift    = 4 // prices are in 1/16 bit
	moveReduce    = 4 // price table index = prob >> moveReduce
	infinityPrice = 1 << 30
)

type prob uint16

// rangeEncoder writes one LZMA2 chunk's range-coded payload into buf.
type rangeEncoder struct {
	low       uint64
	rng       uint32
	cache     byte
	cacheSize int64
	buf       []byte
}

func (rc *rangeEncoder) reset() {
	rc.low = 0
	rc.rng = 0xFFFFFFFF
	rc.cache = 0
	rc.cacheSize = 1
	rc.buf = rc.buf[:0]
}

// pending is the number of bytes the chunk holds once flushed.
func (rc *rangeEncoder) pending() int { return len(rc.buf) + int(rc.cacheSize) + 4 }

func (rc *rangeEncoder) shiftLow() {
	if uint32(rc.low) < 0xFF000000 || rc.low>>32 != 0 {
		carry := byte(rc.low >> 32)
		temp := rc.cache
		for {
			rc.buf = append(rc.buf, temp+carry)
			temp = 0xFF
			rc.cacheSize--
			if rc.cacheSize == 0 {
				break
			}
		}
		rc.cache = byte(rc.low >> 24)
	}
	rc.cacheSize++
	rc.low = (rc.low & 0x00FFFFFF) << 8
}

func (rc *rangeEncoder) flush() {
	for i := 0; i < 5; i++ {
		rc.shiftLow()
	}
}

func (rc *rangeEncoder) bit(p *prob, b uint32) {
	bound := (rc.rng >> probBits) * uint32(*p)
	if b == 0 {
		rc.rng = bound
		*p += ((1 << probBits) - *p) >> moveBits
	} else {
		rc.low += uint64(bound)
		rc.rng -= bound
		*p -= *p >> moveBits
	}
	for rc.rng < topValue {
		rc.rng <<= 8
		rc.shiftLow()
	}
}

func (rc *rangeEncoder) direct(v uint32, n int) {
	for n > 0 {
		n--
		rc.rng >>= 1
		if (v>>uint(n))&1 != 0 {
			rc.low += uint64(rc.rng)
		}
		for rc.rng < topValue {
			rc.rng <<= 8
			rc.shiftLow()
		}
	}
}

// tree encodes the low n bits of v, most significant first, through the
// bit tree probs (1-based).
func (rc *rangeEncoder) tree(probs []prob, n int, v uint32) {
	m := uint32(1)
	for i := n - 1; i >= 0; i-- {
		b := (v >> uint(i)) & 1
		rc.bit(&probs[m], b)
		m = m<<1 | b
	}
}

// reverseTree encodes the low n bits of v, least significant first.
func (rc *rangeEncoder) reverseTree(probs []prob, n int, v uint32) {
	m := uint32(1)
	for i := 0; i < n; i++ {
		b := v & 1
		v >>= 1
		rc.bit(&probs[m], b)
		m = m<<1 | b
	}
}

// bitPrices[p>>moveReduce] is about -log2(p/2048) in 1/16 bit, computed
// as liblzma does (an integer log2 by repeated squaring), which rounds up:
// the parser's ties then fall the same way as xz's.
var bitPrices = func() (t [(1 << probBits) >> moveReduce]uint32) {
	for i := uint32(1<<moveReduce) / 2; i < 1<<probBits; i += 1 << moveReduce {
		w, bitCount := i, uint32(0)
		for j := 0; j < priceShift; j++ {
			w *= w
			bitCount <<= 1
			for w >= 1<<16 {
				w >>= 1
				bitCount++
			}
		}
		t[i>>moveReduce] = probBits<<priceShift - 15 - bitCount
	}
	return
}()

func price0(p prob) uint32 { return bitPrices[p>>moveReduce] }

// price1 indexes by p^2047, as liblzma does, not by 2048-p: the two
// differ when p is a multiple of 16 (the initial 1024 among them), and
// that one step made the parser choose differently from xz's.
func price1(p prob) uint32 { return bitPrices[(p^(1<<probBits-1))>>moveReduce] }
func priceBit(p prob, b uint32) uint32 {
	if b == 0 {
		return price0(p)
	}
	return price1(p)
}

func treePrice(probs []prob, n int, v uint32) uint32 {
	var price uint32
	m := uint32(1)
	for i := n - 1; i >= 0; i-- {
		b := (v >> uint(i)) & 1
		price += priceBit(probs[m], b)
		m = m<<1 | b
	}
	return price
}

func reverseTreePrice(probs []prob, n int, v uint32) uint32 {
	var price uint32
	m := uint32(1)
	for i := 0; i < n; i++ {
		b := v & 1
		v >>= 1
		price += priceBit(probs[m], b)
		m = m<<1 | b
	}
	return price
}

func initProbs(p []prob) {
	for i := range p {
		p[i] = probInit
	}
}
