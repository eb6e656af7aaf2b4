package onpair

// The one-shot decoders take bare Parts. They check the dictionary (O(N),
// 4 bytes read per token) and decode straight from the spec layout (token
// c at DictBytes[o[c]:o[c+1]], read 16 bytes at a time), checking codes as
// they go, so no table proportional to the dictionary is built per call.
// Decoder is the prepared form for many calls with one dictionary.
//
// When the codes outnumber the tokens by fatRatio or more, laying out the
// fat table (pooled) costs at most a small fraction of the decode and its
// single load per code beats the spec layout's dependent pair, so the
// one-shot decoders switch to it: either way the per-call work is
// proportional to the codes plus the dictionary check.
const fatRatio = 8

func useFat(p Parts) bool { return len(p.Codes) >= fatRatio*len(p.DictOffsets) }

// grow returns dst with room for at least n more bytes (len unchanged).
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	return append(dst, make([]byte, n)...)[:len(dst)]
}

// specTail is the exact, checked tail of the spec-layout decoder: it
// decodes codes[i:] into out[w:] with a 16-byte copy while 16 bytes of out
// remain and an exact copy after, and stops at the first code >= N or the
// first token that does not fit, returning its index.
func specTail(out []byte, w int, p Parts, i int) (int, int) {
	dict, offs, codes := p.DictBytes, p.DictOffsets, p.Codes
	n := len(offs) - 1
	for ; i < len(codes); i++ {
		c := int(codes[i])
		if c >= n {
			break
		}
		a, b := int(offs[c]), int(offs[c+1])
		if w+MaxTokenSize <= len(out) {
			copy(out[w:w+MaxTokenSize], dict[a:a+MaxTokenSize])
		} else if w+b-a <= len(out) {
			copy(out[w:w+b-a], dict[a:b])
		} else {
			break
		}
		w += b - a
	}
	return w, i
}

// specLen sums the token lengths of p.Codes, checking each code < N; the
// dictionary is validated.
func specLen(p Parts) (int, error) {
	offs := p.DictOffsets
	n := len(offs) - 1
	total := 0
	for i, c := range p.Codes {
		if int(c) >= n {
			return 0, checkCodes(p.Codes[i:], n, i)
		}
		total += int(offs[int(c)+1] - offs[c]) // int: c+1 overflows uint16 at 65535
	}
	return total, nil
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
	n, err := DecompressedLen(p)
	if err != nil {
		return dst, err
	}
	if useFat(p) {
		t, err := acquireTable(p, 1)
		if err != nil {
			return dst, err
		}
		defer tablePool.Put(t)
		return t.appendValid(dst, p.Codes, n), nil
	}
	l := len(dst)
	dst = grow(dst, n+MaxTokenSize-1)
	out := dst[l:cap(dst)]
	w, i := gatherSpec(out, 0, p.DictBytes, p.DictOffsets, p.Codes, 0)
	w, _ = specTail(out, w, p, i)
	return dst[:l+w], nil
}

// DecompressInto decodes p into dst, which must hold at least
// DecompressedLen(p) bytes (exactly that many is fine), and returns the
// number of bytes written. Bytes of dst past that length are not touched
// when len(dst) is exact, and may be overwritten otherwise. One pass over
// the codes, checked as they are decoded (on amd64, a chunk at a time by
// a vector pass, as Decoder.DecodeInto); on error dst's contents are
// unspecified.
func DecompressInto(dst []byte, p Parts) (int, error) {
	var w, i int
	if useFat(p) {
		t, err := acquireTable(p, 1)
		if err != nil {
			return 0, err
		}
		var bad uint8
		w, i, bad = t.decode(dst, p.Codes)
		tablePool.Put(t)
		if bad >= 0x80 {
			return 0, checkCodes(p.Codes, p.NumTokens(), 0)
		}
	} else {
		if err := p.ValidateDictionary(); err != nil {
			return 0, err
		}
		w, i = gatherSpec(dst, 0, p.DictBytes, p.DictOffsets, p.Codes, 0)
		w, i = specTail(dst, w, p, i)
	}
	if i < len(p.Codes) {
		n, err := specLen(p) // an out-of-range code, or dst too short
		if err != nil {
			return 0, err
		}
		return 0, shortDst("DecompressInto", n, len(dst))
	}
	return w, nil
}

// DecompressedLen validates the dictionary and the codes and returns the
// decoded length, the sum of the lengths of the tokens the codes name.
func DecompressedLen(p Parts) (int, error) {
	if err := p.ValidateDictionary(); err != nil {
		return 0, err
	}
	return specLen(p)
}
