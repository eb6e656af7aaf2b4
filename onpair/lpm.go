package onpair

import (
	"math/bits"

	"github.com/colfmt/colfmt/internal/le"
)

// matcher finds the longest dictionary token that prefixes the input
// (longest-prefix matching, LPM), as the reference does (notes §7.5), with
// one more filter: lenMask[first two bytes] has bit l-1 set when some token
// of length l >= 3 starts with those bytes, so a lookup probes only the
// lengths that exist.
//
//   - 1-byte tokens: a direct table; all 256 always exist, so a match is
//     always found.
//   - 2-byte tokens: a direct table indexed by the two bytes.
//   - 3..8 bytes: an open-addressing hash of (masked 8-byte LE prefix, len).
//   - 9..16 bytes: the reference keeps buckets keyed by the first 8 bytes
//     and scans them; columns such as "Customer#000..." put thousands of
//     tokens in one bucket, so here the bucket is just the set of suffix
//     lengths present, and each (prefix, suffix, length) is hashed:
//     a lookup probes only the lengths that exist, longest first.
type matcher struct {
	toks [][MaxTokenSize]byte
	lens []uint8

	single  [256]uint16
	pair    []uint32 // 1<<16 entries: id+1, or 0
	lenMask []uint16 // 1<<16 entries: bit l-1 for lengths 3..16

	shortKeys []uint64
	shortVals []uint32 // id<<5 | len; 0 = empty slot
	shortMask uint64

	// 9..16 bytes: prefixKeys/prefixLens map a token's first 8 bytes to
	// the set of suffix lengths (bit slen-1) present under it; longKeys/
	// longVals map (prefix, suffix, slen) to id<<5|slen (0 = empty slot).
	prefixKeys []uint64
	prefixLens []uint8
	longKeys   [][2]uint64
	longVals   []uint32
	longMask   uint64
}

func newMatcher(capacity int) *matcher {
	slots := 1024
	for slots < 2*capacity {
		slots <<= 1
	}
	return &matcher{
		toks:       make([][MaxTokenSize]byte, 0, capacity),
		lens:       make([]uint8, 0, capacity),
		pair:       make([]uint32, 1<<16),
		lenMask:    make([]uint16, 1<<16),
		shortKeys:  make([]uint64, slots),
		shortVals:  make([]uint32, slots),
		shortMask:  uint64(slots - 1),
		prefixKeys: make([]uint64, slots),
		prefixLens: make([]uint8, slots),
		longKeys:   make([][2]uint64, slots),
		longVals:   make([]uint32, slots),
		longMask:   uint64(slots - 1),
	}
}

func (m *matcher) size() int { return len(m.toks) }

func (m *matcher) token(id uint16) []byte { return m.toks[id][:m.lens[id]] }

func hashKey(v uint64, l int) uint64 {
	return (v ^ uint64(l)*0x9E3779B97F4A7C15) * 0xff51afd7ed558ccd >> 17
}

func maskBytes(l int) uint64 {
	if l >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*uint(l)) - 1
}

func load8(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// insert adds tok (1..16 bytes, not already present) and returns its id.
func (m *matcher) insert(tok []byte) uint16 {
	id := uint16(len(m.toks))
	var t [MaxTokenSize]byte
	copy(t[:], tok)
	m.toks = append(m.toks, t)
	m.lens = append(m.lens, uint8(len(tok)))
	l := len(tok)
	switch {
	case l == 1:
		m.single[tok[0]] = id
		return id
	case l == 2:
		m.pair[uint16(tok[0])|uint16(tok[1])<<8] = uint32(id) + 1
		return id
	}
	m.lenMask[uint16(tok[0])|uint16(tok[1])<<8] |= 1 << (l - 1)
	if l <= 8 {
		v := load8(tok)
		for h := hashKey(v, l) & m.shortMask; ; h = (h + 1) & m.shortMask {
			if m.shortVals[h] == 0 {
				m.shortKeys[h], m.shortVals[h] = v, uint32(id)<<5|uint32(l)
				return id
			}
		}
	}
	prefix, suffix, slen := load8(tok[:8]), load8(tok[8:]), l-8
	h := hashKey(prefix, 0) & m.longMask
	for m.prefixLens[h] != 0 && m.prefixKeys[h] != prefix {
		h = (h + 1) & m.longMask
	}
	m.prefixKeys[h] = prefix
	m.prefixLens[h] |= 1 << (slen - 1)
	for h := hashLong(prefix, suffix, slen) & m.longMask; ; h = (h + 1) & m.longMask {
		if m.longVals[h] == 0 {
			m.longKeys[h] = [2]uint64{prefix, suffix}
			m.longVals[h] = uint32(id)<<5 | uint32(slen)
			return id
		}
	}
}

func hashLong(prefix, suffix uint64, slen int) uint64 {
	return hashKey(prefix^bits.RotateLeft64(suffix*0xc2b2ae3d27d4eb4f, 31), slen)
}

// lookup returns the id of tok if it is in the dictionary.
func (m *matcher) lookup(tok []byte) (uint16, bool) {
	if len(tok) == 0 || m.size() == 0 {
		return 0, false
	}
	id, l := m.match(tok, 0, len(tok))
	return id, l == len(tok) && int(id) < m.size() && string(m.token(id)) == string(tok)
}

// match returns the longest token that prefixes b[pos:end] (pos < end <=
// len(b)) and its length.
func (m *matcher) match(b []byte, pos, end int) (uint16, int) {
	rem := end - pos
	if rem >= 2 {
		var v uint64
		if pos+8 <= len(b) {
			v = le.Uint64(b, pos)
		} else {
			v = load8(b[pos:])
		}
		if rem < 8 {
			v &= maskBytes(rem)
		}
		mask := m.lenMask[uint16(v)]
		if rem < MaxTokenSize {
			mask &= 1<<uint(rem) - 1
		}
		if mask>>8 != 0 {
			if id, l, ok := m.matchLong(b, pos, rem, v); ok {
				return id, l
			}
		}
		for mask &= 0xfc; mask != 0; {
			l := bits.Len16(mask)
			mask &^= 1 << (l - 1)
			key := v & maskBytes(l)
			for h := hashKey(key, l) & m.shortMask; ; h = (h + 1) & m.shortMask {
				sv := m.shortVals[h]
				if sv == 0 {
					break
				}
				if int(sv&31) == l && m.shortKeys[h] == key {
					return uint16(sv >> 5), l
				}
			}
		}
		if p := m.pair[uint16(v)]; p != 0 {
			return uint16(p - 1), 2
		}
	}
	return m.single[b[pos]], 1
}

func (m *matcher) matchLong(b []byte, pos, rem int, prefix uint64) (uint16, int, bool) {
	h := hashKey(prefix, 0) & m.longMask
	for {
		lens := m.prefixLens[h]
		if lens == 0 {
			return 0, 0, false
		}
		if m.prefixKeys[h] == prefix {
			break
		}
		h = (h + 1) & m.longMask
	}
	srem := min(rem-8, 8)
	lens := uint(m.prefixLens[h]) & (1<<uint(srem) - 1)
	if lens == 0 {
		return 0, 0, false
	}
	var suf uint64
	if pos+16 <= len(b) {
		suf = le.Uint64(b, pos+8)
	} else {
		suf = load8(b[pos+8 : pos+8+srem])
	}
	for lens != 0 {
		slen := bits.Len(lens)
		lens &^= 1 << (slen - 1)
		key := suf & maskBytes(slen)
		for h := hashLong(prefix, key, slen) & m.longMask; ; h = (h + 1) & m.longMask {
			v := m.longVals[h]
			if v == 0 {
				break
			}
			if int(v&31) == slen && m.longKeys[h] == [2]uint64{prefix, key} {
				return uint16(v >> 5), 8 + slen, true
			}
		}
	}
	return 0, 0, false
}
