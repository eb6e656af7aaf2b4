package xz

// LZMA2 chunking. An LZMA2 stream is a series of chunks, each either
// stored ("uncompressed") or LZMA with at most 2 MiB of input and 64 KiB
// of output, ended by a 0x00 byte. The first chunk resets the dictionary;
// the first LZMA chunk also carries the properties byte. Between LZMA
// chunks the model, state and reps carry over (control 0x80) and only the
// range coder restarts. A chunk that does not shrink is stored instead,
// and since the decoder then never saw its symbols, the next LZMA chunk
// resets the state (control 0xA0) and the encoder resets its model too.
const (
	chunkCompMax   = 1 << 16
	chunkUncompMax = 1 << 21
	// chunkMargin bounds the range coder output of one symbol (the longest
	// match at the worst probabilities is about 20 bytes).
	chunkMargin = 64
)

// appendLZMA2 appends the LZMA2 encoding of buf to dst, reusing s's
// tables when s is not nil.
func appendLZMA2(dst, buf []byte, p params, s *scratch) []byte {
	return appendLZMA2Rec(dst, buf, p, s, nil)
}

// appendLZMA2Rec is appendLZMA2 replaying the matches of rec (from
// recordMatches of buf) instead of running a match finder, when rec is
// not nil.
func appendLZMA2Rec(dst, buf []byte, p params, s *scratch, rec *matchRec) []byte {
	if len(buf) == 0 {
		return append(dst, 0x00)
	}
	e := newEncoder(p, buf, s, rec)
	defer e.release()
	defer tablesDone(e.mf.tables)
	needDictReset, needProps, needStateReset := true, true, false
	for e.pos < len(buf) {
		start := e.pos
		e.rc.reset()
		for e.pos < len(buf) && e.pos-start <= chunkUncompMax-matchLenMax && e.rc.pending() < chunkCompMax-chunkMargin {
			s := e.next()
			e.encodeSymbol(s)
			e.readAhead -= int(s.len)
		}
		e.rc.flush()
		u := e.pos - start
		c := len(e.rc.buf)
		if c >= u {
			// Stored: u <= c <= 64 KiB fits the 16-bit size field.
			for off := start; off < e.pos; {
				n := min(e.pos-off, chunkCompMax)
				ctrl := byte(0x02)
				if needDictReset {
					ctrl = 0x01
				}
				dst = append(dst, ctrl, byte((n-1)>>8), byte(n-1))
				dst = append(dst, buf[off:off+n]...)
				off += n
				needDictReset = false
			}
			e.resetState()
			e.rebaseQueue()
			needStateReset = true
			continue
		}
		var ctrl byte
		switch {
		case needDictReset:
			ctrl = 0xE0
		case needProps:
			ctrl = 0xC0
		case needStateReset:
			ctrl = 0xA0
		default:
			ctrl = 0x80
		}
		ctrl |= byte((u - 1) >> 16)
		dst = append(dst, ctrl, byte((u-1)>>8), byte(u-1), byte((c-1)>>8), byte(c-1))
		if needProps {
			dst = append(dst, e.propsByte())
		}
		dst = append(dst, e.rc.buf...)
		needDictReset, needProps, needStateReset = false, false, false
	}
	return append(dst, 0x00)
}
