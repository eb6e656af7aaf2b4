package onpair

import "math/bits"

// pairCounts is the training's table of saturating u8 counts for adjacent
// token pairs, keyed by prev<<16 | cur: open addressing with linear
// probing, grown at half load. "Deleting" a merged pair sets its count to
// 0, which is equivalent: its next occurrence counts from 1 again.
type pairCounts struct {
	keys  []uint32 // emptyPair marks a free slot
	vals  []uint8
	used  int
	shift uint
}

// emptyPair cannot be a real key: id 65535 exists only once the dictionary
// is full, and training stops then.
const emptyPair = ^uint32(0)

func newPairCounts() *pairCounts {
	p := &pairCounts{}
	p.alloc(1 << 14)
	return p
}

func (p *pairCounts) alloc(n int) {
	p.keys = make([]uint32, n)
	for i := range p.keys {
		p.keys[i] = emptyPair
	}
	p.vals = make([]uint8, n)
	p.used = 0
	p.shift = uint(64 - bits.Len(uint(n-1)))
}

// incr adds one (saturating at 255) to key's count and returns it.
func (p *pairCounts) incr(key uint32) uint8 {
	mask := uint64(len(p.keys) - 1)
	for h := (uint64(key) * 0x9E3779B97F4A7C15) >> p.shift; ; h = (h + 1) & mask {
		switch p.keys[h] {
		case key:
			if p.vals[h] < 255 {
				p.vals[h]++
			}
			return p.vals[h]
		case emptyPair:
			p.keys[h], p.vals[h] = key, 1
			p.used++
			if 2*p.used > len(p.keys) {
				p.grow()
			}
			return 1
		}
	}
}

// reset sets key's count to 0 (the key is present: incr just returned it).
func (p *pairCounts) reset(key uint32) {
	mask := uint64(len(p.keys) - 1)
	for h := (uint64(key) * 0x9E3779B97F4A7C15) >> p.shift; ; h = (h + 1) & mask {
		if p.keys[h] == key {
			p.vals[h] = 0
			return
		}
		if p.keys[h] == emptyPair {
			return
		}
	}
}

func (p *pairCounts) grow() {
	keys, vals := p.keys, p.vals
	p.alloc(2 * len(keys))
	mask := uint64(len(p.keys) - 1)
	for i, k := range keys {
		if k == emptyPair || vals[i] == 0 {
			continue // zero counts need no slot
		}
		h := (uint64(k) * 0x9E3779B97F4A7C15) >> p.shift
		for p.keys[h] != emptyPair {
			h = (h + 1) & mask
		}
		p.keys[h], p.vals[h] = k, vals[i]
		p.used++
	}
}
