package xz

import (
	"encoding/binary"
	"hash/crc32"
	"hash/crc64"
	"sync"
)

// The .xz container (The .xz File Format 1.2.1): stream header, blocks,
// index, stream footer. Every integer in headers and the index is a
// little-endian base-128 varint.

var (
	headerMagic = []byte{0xFD, '7', 'z', 'X', 'Z', 0x00}
	footerMagic = []byte{'Y', 'Z'}
	// crc64Tab is built on first use (16 KiB) so that importing the package costs nothing.
	crc64Tab = sync.OnceValue(func() *crc64.Table { return crc64.MakeTable(crc64.ECMA) })
)

const (
	filterLZMA2     = 0x21
	streamHeaderLen = 12
)

func appendVarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

func appendUint32(dst []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(dst, v) }

func appendStreamHeader(dst []byte, check Check) []byte {
	dst = append(dst, headerMagic...)
	flags := []byte{0x00, byte(check)}
	dst = append(dst, flags...)
	return appendUint32(dst, crc32.ChecksumIEEE(flags))
}

// dictByte encodes dictionary size d as the LZMA2 property byte: the
// smallest 2^n or 3*2^(n-1) >= d, at least 4 KiB.
func dictByte(d uint32) byte {
	for b := 0; b < 40; b++ {
		if uint64(2|b&1)<<(b/2+11) >= uint64(d) {
			return byte(b)
		}
	}
	return 40
}

// blockRecord is one index entry.
type blockRecord struct {
	unpadded     uint64
	uncompressed uint64
}

// appendBlock appends one block (header, LZMA2 data, padding, check)
// holding data, compressed with p; s (not nil) holds the buffers reused
// from block to block. The header records both sizes when sizes is set;
// a stream's only block leaves them out (the index has them, and there is
// nothing to decode in parallel), which saves 4 bytes on a block of 128
// bytes or more, as single-threaded xz does.
func appendBlock(dst, data []byte, p params, check Check, sizes bool, s *scratch) ([]byte, blockRecord) {
	lz := appendLZMA2(s.lz[:0], data, p, s)
	s.lz = lz
	return appendBlockLZ(dst, data, lz, p, check, sizes)
}

// appendBlockLZ is appendBlock with data already compressed as lz.
func appendBlockLZ(dst, data, lz []byte, p params, check Check, sizes bool) ([]byte, blockRecord) {
	start := len(dst)
	if sizes {
		dst = append(dst, 0, 0xC0) // size byte later; one filter, both sizes present
		dst = appendVarint(dst, uint64(len(lz)))
		dst = appendVarint(dst, uint64(len(data)))
	} else {
		dst = append(dst, 0, 0x00) // one filter, no sizes
	}
	dst = append(dst, filterLZMA2, 1, dictByte(effectiveDict(p.dictSize, len(data))))
	for (len(dst)-start)%4 != 0 {
		dst = append(dst, 0)
	}
	hlen := len(dst) - start + 4
	dst[start] = byte(hlen/4 - 1)
	dst = appendUint32(dst, crc32.ChecksumIEEE(dst[start:]))
	dst = append(dst, lz...)
	for (len(dst)-start)%4 != 0 {
		dst = append(dst, 0)
	}
	switch check {
	case CheckCRC32:
		dst = appendUint32(dst, crc32.ChecksumIEEE(data))
	case CheckCRC64:
		dst = binary.LittleEndian.AppendUint64(dst, crc64.Checksum(data, crc64Tab()))
	}
	return dst, blockRecord{
		unpadded:     uint64(hlen + len(lz) + check.size()),
		uncompressed: uint64(len(data)),
	}
}

// appendIndexAndFooter ends a stream.
func appendIndexAndFooter(dst []byte, recs []blockRecord, check Check) []byte {
	start := len(dst)
	dst = append(dst, 0x00)
	dst = appendVarint(dst, uint64(len(recs)))
	for _, r := range recs {
		dst = appendVarint(dst, r.unpadded)
		dst = appendVarint(dst, r.uncompressed)
	}
	for (len(dst)-start)%4 != 0 {
		dst = append(dst, 0)
	}
	dst = appendUint32(dst, crc32.ChecksumIEEE(dst[start:]))
	indexSize := len(dst) - start
	var tail [6]byte
	binary.LittleEndian.PutUint32(tail[:4], uint32(indexSize/4-1))
	tail[4], tail[5] = 0x00, byte(check)
	dst = appendUint32(dst, crc32.ChecksumIEEE(tail[:]))
	dst = append(dst, tail[:]...)
	return append(dst, footerMagic...)
}
