// Package varint implements unsigned LEB128 varints (7 bits per byte, low
// group first, high bit set on every byte but the last) and zigzag mapping of
// signed integers, as used by AT-1, Super Binary and others.
//
// An encoding is at most MaxLen (10) bytes; in the 10th byte only the lowest
// bit may be set, any larger value overflows uint64. Consume reports
// truncated input and overflow as distinct negative lengths, in the style of
// protowire, so hot loops need no error allocation.
package varint

import (
	"errors"
	"io"
	"math/bits"
)

// MaxLen is the longest encoding of a uint64.
const MaxLen = 10

// Results returned as n by Consume and ConsumeSigned on failure.
const (
	// Truncated means the input ended inside a varint.
	Truncated = -1
	// Overflow means the varint does not fit in 64 bits.
	Overflow = -2
)

// Append appends the LEB128 encoding of v to dst.
func Append(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// Size returns the encoded length of v, 1..10.
func Size(v uint64) int {
	// 1 + floor(bitlen-1 / 7), with bitlen of 0 treated as 1.
	return int(9*uint32(bits.Len64(v))+64) / 64
}

// Consume decodes a varint at the start of b. It returns the value and the
// number of bytes read; n is Truncated or Overflow (both negative) on failure.
// A 10th byte that is above 1 is Overflow whether or not more input follows
// (encoding/binary calls a 10th continuation byte at the end "truncated").
func Consume(b []byte) (v uint64, n int) {
	// Fast path for the common one- and two-byte cases.
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	if len(b) > 1 && b[1] < 0x80 {
		return uint64(b[0]&0x7f) | uint64(b[1])<<7, 2
	}
	var shift uint
	for i := 0; i < MaxLen; i++ {
		if i >= len(b) {
			return 0, Truncated
		}
		c := b[i]
		if i == MaxLen-1 && c > 1 {
			return 0, Overflow
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i + 1
		}
		shift += 7
	}
	return 0, Overflow
}

// EncodeZigzag maps a signed integer to an unsigned one so that values of
// small magnitude get short encodings: 0, -1, 1, -2 ... become 0, 1, 2, 3 ...
func EncodeZigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// DecodeZigzag inverts EncodeZigzag.
func DecodeZigzag(z uint64) int64 { return int64(z>>1) ^ -int64(z&1) }

// AppendSigned appends the zigzag varint encoding of v.
func AppendSigned(dst []byte, v int64) []byte { return Append(dst, EncodeZigzag(v)) }

// ConsumeSigned decodes a zigzag varint; n is as for Consume.
func ConsumeSigned(b []byte) (int64, int) {
	z, n := Consume(b)
	return DecodeZigzag(z), n
}

// SizeSigned returns the encoded length of the zigzag varint of v.
func SizeSigned(v int64) int { return Size(EncodeZigzag(v)) }

// ErrOverflow is returned by Read for a varint that does not fit in 64 bits.
var ErrOverflow = errors.New("varint: overflows 64 bits")

// Read decodes a varint from r, for stream readers that cannot look ahead.
// It returns the value and the number of bytes consumed. A stream that ends
// before the first byte returns io.EOF; one that ends inside the varint
// returns io.ErrUnexpectedEOF; other read errors are returned as they are.
func Read(r io.ByteReader) (v uint64, n int, err error) {
	var shift uint
	for i := 0; i < MaxLen; i++ {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF && i > 0 {
				err = io.ErrUnexpectedEOF
			}
			return 0, i, err
		}
		if i == MaxLen-1 && c > 1 {
			return 0, i + 1, ErrOverflow
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i + 1, nil
		}
		shift += 7
	}
	return 0, MaxLen, ErrOverflow
}
