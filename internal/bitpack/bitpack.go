// Package bitpack packs unsigned integers of a fixed width (1..64 bits)
// LSB-first into a stream of little-endian u64 words: value j occupies bits
// [j*width, (j+1)*width) of the stream, and a value may straddle two words.
// This is the layout of OnPair's packed codes and of Lance's 1-bit validity
// bitmaps and bit-width Flat buffers.
//
// The packed size of n values is exactly PackedLen(n, width) =
// ceil(n*width/8) bytes: Append writes no padding word and Unpack requires
// none, ignoring any bytes past that length. Unpack reads the bulk with
// whole 8-byte loads and switches to an exact tail for the last values whose
// load would cross the end of the input.
package bitpack

import (
	"errors"
	"fmt"

	"github.com/colfmt/colfmt/internal/le"
)

// Unsigned is the set of element types that can be packed.
type Unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Errors returned by Unpack; callers wrap them in their package's sentinels.
var (
	ErrWidth = errors.New("bitpack: bit width out of range")
	ErrShort = errors.New("bitpack: packed input too short")
)

// PackedLen returns ceil(n*width/8), the exact packed size in bytes, or -1
// if it overflows int.
func PackedLen(n int, width uint) int {
	if n < 0 {
		return -1
	}
	bitsHi, bitsLo := mul64(uint64(n), uint64(width))
	if bitsHi != 0 {
		return -1
	}
	bytes := bitsLo/8 + (bitsLo%8+7)/8
	if bytes > uint64(int(^uint(0)>>1)) {
		return -1
	}
	return int(bytes)
}

func mul64(a, b uint64) (hi, lo uint64) {
	lo = a * b
	if a != 0 && lo/a != b {
		return 1, lo
	}
	return 0, lo
}

func sizeOf[T Unsigned]() uint {
	var z T
	z--
	switch uint64(z) {
	case 0xff:
		return 8
	case 0xffff:
		return 16
	case 0xffffffff:
		return 32
	}
	return 64
}

func maskOf(width uint) uint64 {
	if width >= 64 {
		return ^uint64(0)
	}
	return 1<<width - 1
}

// Append packs vals at width bits each and appends exactly
// PackedLen(len(vals), width) bytes to dst. Bits of a value above width are
// dropped. It panics if width is not in 1..64, a programming error.
func Append[T Unsigned](dst []byte, vals []T, width uint) []byte {
	if width < 1 || width > 64 {
		panic(fmt.Sprintf("bitpack: Append with width %d", width))
	}
	mask := maskOf(width)
	var acc uint64
	var nacc uint // bits held in acc, 0..63
	for _, x := range vals {
		v := uint64(x) & mask
		acc |= v << nacc
		if nacc+width >= 64 {
			dst = appendWord(dst, acc)
			if nacc == 0 {
				acc = 0
			} else {
				acc = v >> (64 - nacc)
			}
			nacc = nacc + width - 64
		} else {
			nacc += width
		}
	}
	for ; nacc > 0; nacc -= min(nacc, 8) {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

func appendWord(dst []byte, w uint64) []byte {
	return append(dst, byte(w), byte(w>>8), byte(w>>16), byte(w>>24),
		byte(w>>32), byte(w>>40), byte(w>>48), byte(w>>56))
}

// Unpack appends the n values packed at width bits in src to dst. src must
// hold at least PackedLen(n, width) bytes; bytes beyond are ignored. It
// returns ErrWidth if width is not in 1..64 or wider than T, and ErrShort if
// src is too short; nothing is appended on error.
func Unpack[T Unsigned](dst []T, src []byte, width uint, n int) ([]T, error) {
	if width < 1 || width > 64 || width > sizeOf[T]() {
		return dst, fmt.Errorf("%w: %d bits into %d-bit values", ErrWidth, width, sizeOf[T]())
	}
	need := PackedLen(n, width)
	if need < 0 || len(src) < need {
		return dst, fmt.Errorf("%w: %d values at %d bits need %d bytes, have %d", ErrShort, n, width, need, len(src))
	}
	if n == 0 {
		return dst, nil
	}
	src = src[:need]
	start := len(dst)
	dst = grow(dst, n)
	out := dst[start : start+n]
	mask := maskOf(width)

	// Bulk: values whose 8-byte load at bit>>3 lies inside src. For widths up
	// to 57 a single load covers the value (shift <= 7).
	i := 0
	if width <= 57 && len(src) >= 8 {
		last := (uint64(len(src)-8)*8 + 7) / uint64(width) // last index with an in-range load
		nFast := n
		if last+1 < uint64(n) {
			nFast = int(last + 1)
		}
		i = unpackFast(out[:nFast], src, width, mask)
	}
	// Exact tail (and every value for widths above 57).
	for ; i < n; i++ {
		out[i] = T(Get(src, width, i))
	}
	return dst, nil
}

// unpackFast unpacks len(out) values; the caller has checked that each load
// is in range. It returns len(out).
//
// Eight values at width bits are exactly width bytes, so each group of eight
// starts on a byte boundary and the byte offset and shift of its k-th value
// are the same for every group: they are computed once.
func unpackFast[T Unsigned](out []T, src []byte, width uint, mask uint64) int {
	var off [8]int
	var sh [8]uint
	for k := range off {
		off[k] = int(uint(k) * width >> 3)
		sh[k] = uint(k) * width & 7
	}
	i, base := 0, 0
	for ; i+8 <= len(out); i += 8 {
		o := out[i : i+8 : i+8]
		o[0] = T(le.Uint64(src, base+off[0]) >> sh[0] & mask)
		o[1] = T(le.Uint64(src, base+off[1]) >> sh[1] & mask)
		o[2] = T(le.Uint64(src, base+off[2]) >> sh[2] & mask)
		o[3] = T(le.Uint64(src, base+off[3]) >> sh[3] & mask)
		o[4] = T(le.Uint64(src, base+off[4]) >> sh[4] & mask)
		o[5] = T(le.Uint64(src, base+off[5]) >> sh[5] & mask)
		o[6] = T(le.Uint64(src, base+off[6]) >> sh[6] & mask)
		o[7] = T(le.Uint64(src, base+off[7]) >> sh[7] & mask)
		base += int(width)
	}
	for k := 0; i < len(out); i, k = i+1, k+1 {
		out[i] = T(le.Uint64(src, base+off[k]) >> sh[k] & mask)
	}
	return len(out)
}

// Get returns value i of a stream packed at width bits, reading only the
// bytes that hold it. The caller guarantees that width is in 1..64 and that
// src holds PackedLen(i+1, width) bytes.
func Get(src []byte, width uint, i int) uint64 {
	bit := uint64(i) * uint64(width)
	off := int(bit >> 3)
	shift := uint(bit & 7)
	nbytes := int((uint64(shift) + uint64(width) + 7) / 8) // 1..9
	var v uint64
	for k := 0; k < nbytes && k < 8; k++ {
		v |= uint64(src[off+k]) << (8 * k)
	}
	v >>= shift
	if nbytes == 9 {
		v |= uint64(src[off+8]) << (64 - shift)
	}
	return v & maskOf(width)
}

func grow[T Unsigned](s []T, n int) []T {
	if cap(s)-len(s) < n {
		ns := make([]T, len(s), len(s)+n)
		copy(ns, s)
		s = ns
	}
	return s[:len(s)+n]
}
