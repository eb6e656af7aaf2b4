package onpair

import (
	"fmt"
	"io"
	"sync"

	"github.com/colfmt/colfmt/internal/le"
)

// decoder is a validated dictionary laid out for the fat-read loop: token i
// occupies fat.Rows[16i:16i+16] (its bytes, then whatever followed it in
// DictBytes) and lens[i] is its true length; fat.Lens is lens[:]. Indexing
// lens by a uint16 code needs no bounds check, and lens[c] is 0 for c >= n.
type decoder struct {
	n    int
	fat  le.Fat
	lens *[MaxTokens]uint8
}

// newDecoder validates p's dictionary and builds the fat table, O(N).
func newDecoder(p Parts) (*decoder, error) {
	if err := p.ValidateDictionary(); err != nil {
		return nil, err
	}
	d := &decoder{lens: new([MaxTokens]uint8)}
	d.fill(p, true)
	return d, nil
}

// decoderPool recycles the tables of the one-shot entry points
// (Decompress, DecompressInto, ...): building a decoder allocates 64 KiB of
// lengths plus 16 bytes per token, which on a small column costs as much
// as decoding it. A Column keeps its own decoder.
var decoderPool sync.Pool

// acquireDecoder is newDecoder for use within one call; the caller hands
// the decoder back with decoderPool.Put and must not keep it. Without fat
// only the lengths are filled in (enough for decodedLen).
func acquireDecoder(p Parts, fat bool) (*decoder, error) {
	if err := p.ValidateDictionary(); err != nil {
		return nil, err
	}
	d, _ := decoderPool.Get().(*decoder)
	if d == nil {
		d = &decoder{lens: new([MaxTokens]uint8)}
	}
	d.fill(p, fat)
	return d, nil
}

// fill lays out p's validated dictionary in d, reusing d's storage.
func (d *decoder) fill(p Parts, fat bool) {
	n := p.NumTokens()
	lens := d.lens
	if d.n > n {
		clear(lens[n:d.n]) // keep lens[c] == 0 for every c >= n
	}
	var rows []byte
	if fat {
		if cap(d.fat.Rows) >= n*MaxTokenSize {
			rows = d.fat.Rows[:n*MaxTokenSize]
		} else {
			rows = make([]byte, n*MaxTokenSize)
		}
	}
	for i := 0; i < n; i++ {
		// ValidateDictionary proved o[i]+16 <= o[N-1]+16 <= len(DictBytes).
		o := int(p.DictOffsets[i])
		if fat {
			copy(rows[i*MaxTokenSize:(i+1)*MaxTokenSize], p.DictBytes[o:o+MaxTokenSize])
		}
		lens[i] = uint8(p.DictOffsets[i+1] - p.DictOffsets[i])
	}
	d.n = n
	d.fat.Lens = lens[:]
	if fat {
		d.fat.Rows = rows
	}
}

// decodedLen sums the token lengths of codes and checks every code < n;
// base is codes[0]'s index in the column, for error messages.
//
// Tokens are 1..16 bytes and lens[c] is 0 exactly when c >= n, so a code
// is out of range iff lens[c]-1 wraps to 255: OR-ing those into bad keeps
// the check off the loop's critical path (a running max is a compare and a
// conditional move per code, serially dependent). Unrolled by four.
func (d *decoder) decodedLen(codes []uint16, base int) (int, error) {
	lens := d.lens
	_ = lens[0] // one nil check, not one per code
	total := 0
	var bad uint8
	i := 0
	for ; i+4 <= len(codes); i += 4 {
		c := (*[4]uint16)(codes[i : i+4])
		l0, l1, l2, l3 := lens[c[0]], lens[c[1]], lens[c[2]], lens[c[3]]
		total += int(l0) + int(l1) + int(l2) + int(l3)
		bad |= (l0 - 1) | (l1 - 1) | (l2 - 1) | (l3 - 1)
	}
	for _, c := range codes[i:] {
		l := lens[c]
		total += int(l)
		bad |= l - 1
	}
	if bad >= 0x80 {
		return 0, checkCodes(codes, d.n, base)
	}
	return total, nil
}

// decode writes the tokens of codes to out and returns the bytes written.
// The caller guarantees every code < d.n and len(out) >= the decoded length
// of codes. Bytes of out past the returned length may be overwritten.
//
// Every code but the last 15 is followed by at least 15 one-byte-or-longer
// tokens, so its 16-byte store ends within the decoded length: those run
// the branchless fat copy. The last 15 use the fat copy while 16 bytes of
// out remain and an exact copy after, so an exactly sized out works.
func (d *decoder) decode(out []byte, codes []uint16) int {
	if len(out) >= MaxTokenSize*len(codes) {
		// 16 bytes of room per code (a row decoded into a roomy buffer):
		// every store is in bounds, no exact tail needed.
		return d.fat.Gather16(out, codes)
	}
	fat, lens := d.fat.Rows, d.lens
	w := 0
	i := 0
	if len(codes) >= MaxTokenSize {
		i = len(codes) - (MaxTokenSize - 1)
		// The hot loop: a 16-byte copy per code, advancing by the token's
		// length (le.Fat.Gather16 walks raw pointers so it stays in
		// registers). Every code < N and every store ends within out.
		w = d.fat.Gather16(out, codes[:i])
	}
	for _, c := range codes[i:] {
		l, s := int(lens[c]), int(c)<<4
		if w+MaxTokenSize <= len(out) {
			le.Copy16(out, w, fat, s)
		} else {
			copy(out[w:w+l], fat[s:s+l])
		}
		w += l
	}
	return w
}

// appendDecode appends the tokens of the (validated) codes to dst, using
// dst's spare capacity as the fat loop's slack.
func (d *decoder) appendDecode(dst []byte, codes []uint16, n int) []byte {
	l := len(dst)
	dst = grow(dst, n+MaxTokenSize-1)
	w := d.decode(dst[l:cap(dst)], codes)
	return dst[:l+w]
}

// grow returns dst with room for at least n more bytes (len unchanged).
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	return append(dst, make([]byte, n)...)[:len(dst)]
}

// Decompress validates p and returns the decoded bytes: the tokens named by
// p.Codes, concatenated. p.Bits is not consulted (it only describes the
// packed form); use Validate for the full check.
func Decompress(p Parts) ([]byte, error) {
	return AppendDecompress(nil, p)
}

// AppendDecompress is Decompress appending to dst. It may use dst's spare
// capacity beyond the returned length as scratch.
func AppendDecompress(dst []byte, p Parts) ([]byte, error) {
	d, err := acquireDecoder(p, true)
	if err != nil {
		return dst, err
	}
	defer decoderPool.Put(d)
	n, err := d.decodedLen(p.Codes, 0)
	if err != nil {
		return dst, err
	}
	return d.appendDecode(dst, p.Codes, n), nil
}

// DecompressInto decodes p into dst, which must hold at least
// DecompressedLen(p) bytes (exactly that many is fine), and returns the
// number of bytes written. Bytes of dst past that length are not touched
// when len(dst) is exact, and may be overwritten otherwise.
func DecompressInto(dst []byte, p Parts) (int, error) {
	d, err := acquireDecoder(p, true)
	if err != nil {
		return 0, err
	}
	defer decoderPool.Put(d)
	n, err := d.decodedLen(p.Codes, 0)
	if err != nil {
		return 0, err
	}
	if len(dst) < n {
		return 0, fmt.Errorf("%w: DecompressInto needs %d bytes, dst has %d: %w", ErrInvalidArgument, n, len(dst), io.ErrShortBuffer)
	}
	return d.decode(dst, p.Codes), nil
}
