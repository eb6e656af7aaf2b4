package zstdenc

import "math/bits"

// Literal-length, match-length and offset codes (RFC 8878 3.1.1.3.2.1).

const (
	maxLLCode = 35
	maxMLCode = 52
	maxOFCode = 31
	minMatch  = 3
)

// llBase and llBits are the baseline and extra bits of each literal-length code.
var llBase = [maxLLCode + 1]uint32{
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
	8192, 16384, 32768, 65536}

var llBits = [maxLLCode + 1]uint8{
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
	13, 14, 15, 16}

// mlBase and mlBits are the baseline and extra bits of each match-length code.
var mlBase = [maxMLCode + 1]uint32{
	3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
	19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
	35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
	4099, 8195, 16387, 32771, 65539}

var mlBits = [maxMLCode + 1]uint8{
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
	12, 13, 14, 15, 16}

// llSmall and mlSmall map small lengths to their codes; larger ones
// follow from their top bit.
var llSmall, mlSmall = func() (ll [64]uint8, ml [128]uint8) {
	c := 0
	for i := range ll {
		for c < maxLLCode && llBase[c+1] <= uint32(i) {
			c++
		}
		ll[i] = uint8(c)
	}
	c = 0
	for i := range ml {
		for c < maxMLCode && mlBase[c+1] <= uint32(i+minMatch) {
			c++
		}
		ml[i] = uint8(c)
	}
	return
}()

// llCode is the code of literal length ll.
func llCode(ll uint32) uint8 {
	if ll < 64 {
		return llSmall[ll]
	}
	return uint8(bits.Len32(ll)-1) + 19
}

// mlCode is the code of match length ml (at least minMatch).
func mlCode(ml uint32) uint8 {
	b := ml - minMatch
	if b < 128 {
		return mlSmall[b]
	}
	return uint8(bits.Len32(b)-1) + 36
}

// ofCode is the code of offset value v (1..3 repeat codes, else offset+3).
func ofCode(v uint32) uint8 { return uint8(bits.Len32(v) - 1) }

// Predefined distributions (RFC 8878 3.1.1.3.2.2), -1 is "less than 1".
var (
	llPredef = []int16{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
		-1, -1, -1, -1}
	mlPredef = []int16{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1,
		-1, -1, -1, -1, -1}
	ofPredef = []int16{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}
)

const (
	llPredefLog = 6
	mlPredefLog = 6
	ofPredefLog = 5
	llMaxLog    = 9
	mlMaxLog    = 9
	ofMaxLog    = 8
)
