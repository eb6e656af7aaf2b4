package intcomp

import (
	"encoding/binary"
	"errors"
)

// A test-only reference decoder: the stream format read one bit at a time
// with one code path for both word sizes, written from the format's
// description (package doc) rather than from the fast decoder. It accepts
// and refuses exactly what DecodeUint32/DecodeUint64 do.

var errRef = errors.New("reference: corrupt")

// refDecode decodes a stream of words of size ws (4 or 8) holding count
// values.
func refDecode(src []byte, count, ws int) ([]uint64, error) {
	if len(src)%ws != 0 || count < 0 {
		return nil, errRef
	}
	words := make([]uint64, len(src)/ws)
	for i := range words {
		if ws == 4 {
			words[i] = uint64(binary.LittleEndian.Uint32(src[4*i:]))
		} else {
			words[i] = binary.LittleEndian.Uint64(src[8*i:])
		}
	}
	if len(words) == 0 {
		if count == 0 {
			return nil, nil
		}
		return nil, errRef
	}
	bits := 8 * ws
	blockSize := 128
	if ws == 8 {
		blockSize = 256
	}
	body := words[:len(words)-1]
	var out []uint64
	pos, last := 0, -1
	for pos < len(body) {
		var n, blen, hdr int
		if ws == 4 {
			if pos+2 > len(body) {
				return nil, errRef
			}
			n, blen, hdr = int(body[pos]), int(body[pos+1]), 2
		} else {
			n, blen, hdr = int(uint32(body[pos])), int(body[pos]>>32), 1
		}
		if blen < hdr || blen > len(body)-pos || n > count-len(out) {
			return nil, errRef
		}
		blk := body[pos : pos+blen]
		var err error
		if n < blockSize {
			out, err = refVarByte(out, blk[hdr:], n, ws)
		} else {
			out, err = refPacked(out, blk[hdr:], n, ws, bits, blockSize)
		}
		if err != nil {
			return nil, err
		}
		last = pos
		pos += blen
	}
	if len(out) != count {
		return nil, errRef
	}
	if last >= 0 && words[len(words)-1] != uint64(len(body)-last) {
		return nil, errRef
	}
	return out, nil
}

func refVarByte(out, words []uint64, n, ws int) ([]uint64, error) {
	// The bytes of each word, most significant first.
	var b []byte
	for _, w := range words {
		for k := ws - 1; k >= 0; k-- {
			b = append(b, byte(w>>(8*k)))
		}
	}
	maxBytes := 5
	if ws == 8 {
		maxBytes = 10
	}
	var prev uint64
	i := 0
	for k := 0; k < n; k++ {
		var v uint64
		for j := 0; ; j++ {
			if j == maxBytes || i == len(b) {
				return nil, errRef
			}
			c := b[i]
			i++
			if 7*j < 64 {
				v |= uint64(c&0x7f) << (7 * j)
			}
			if c < 0x80 {
				break
			}
		}
		prev += v
		if ws == 4 {
			prev = uint64(uint32(prev))
		}
		out = append(out, prev)
	}
	if len(b)-i >= ws {
		return nil, errRef
	}
	for ; i < len(b); i++ {
		if b[i] != 0x80 {
			return nil, errRef
		}
	}
	return out, nil
}

// refPacked decodes the groups of a bit-packed block; words starts at its
// first value.
func refPacked(out, words []uint64, n, ws, bits, blockSize int) ([]uint64, error) {
	if n%blockSize != 0 || len(words) < 1 {
		return nil, errRef
	}
	mask := ^uint64(0) >> (64 - bits)
	prev := words[0]
	pos := 1
	groupLen := blockSize / 4
	for done := 0; done < n; done += blockSize {
		if pos >= len(words) {
			return nil, errRef
		}
		h := words[pos]
		pos++
		for g := 0; g < 4; g++ {
			gh := (h >> (24 - 8*g)) & 0xff
			ntz := 0
			if ws == 8 {
				ntz = int(h>>(56-8*g)) & 0xff
			}
			bitlen, zz := int(gh&0x7f), gh&0x80 != 0
			if bitlen > bits || ntz > bitlen {
				return nil, errRef
			}
			width := bitlen - ntz
			if pos+width > len(words) {
				return nil, errRef
			}
			grp := words[pos : pos+width]
			for i := 0; i < groupLen; i++ {
				if width == bits {
					prev = grp[i]
					out = append(out, prev)
					continue
				}
				var v uint64
				for k := 0; k < width; k++ {
					bit := i*width + k
					v |= (grp[bit/bits] >> (bit % bits) & 1) << k
				}
				if zz {
					v = (v >> 1) ^ (-(v & 1) & mask)
				}
				prev = (prev + v<<ntz) & mask
				out = append(out, prev)
			}
			pos += width
		}
	}
	if pos != len(words) {
		return nil, errRef
	}
	return out, nil
}
