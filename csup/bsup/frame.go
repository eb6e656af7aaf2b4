package bsup

import (
	"github.com/colfmt/colfmt/internal/varint"
)

// Frame layout: a code byte (bit 7 clear; 0xff is end of stream), then a
// uvarint hi, then the payload of hi<<4 | code&0x0f bytes. Bit 6 of the
// code says the payload is compressed and bits 5-4 give the frame type.
const (
	frameTypes   = 0
	frameValues  = 1
	frameControl = 2

	codeEOS        = 0xff
	codeCompressed = 0x40

	compressionLZ4 = 0
)

// frameHeader parses the header at the front of b. ok is false when b is
// too short or the header is malformed (bit 7 set on a non-EOS code, frame
// type 3, or a length that does not fit in 63 bits).
func frameHeader(b []byte) (code byte, length uint64, n int, ok bool) {
	if len(b) == 0 {
		return 0, 0, 0, false
	}
	code = b[0]
	if code&0x80 != 0 || (code>>4)&3 == 3 {
		return code, 0, 0, false
	}
	hi, k := varint.Consume(b[1:])
	if k < 0 || hi > 1<<58 {
		return code, 0, 0, false
	}
	return code, hi<<4 | uint64(code&0x0f), 1 + k, true
}

// IsStream reports whether b starts with a well-formed sequence of frames
// that ends with an end-of-stream byte inside b. It reads only headers; it
// is how a trailer stream is found when scanning a file backward.
func IsStream(b []byte) bool {
	_, ok := StreamLen(b)
	return ok
}

// StreamLen returns the length of the frames-then-EOS stream at the front
// of b, walking frame headers only.
func StreamLen(b []byte) (int, bool) {
	off := 0
	for off < len(b) {
		if b[off] == codeEOS {
			return off + 1, true
		}
		_, length, n, ok := frameHeader(b[off:])
		if !ok || length > uint64(len(b)-off-n) {
			return 0, false
		}
		off += n + int(length)
	}
	return 0, false
}
