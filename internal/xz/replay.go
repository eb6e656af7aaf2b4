package xz

// Several encodings of one block that differ only in the literal model
// (lc, pb) share the match finder's work: find and skip change the
// finder's tables the same way, so the matches found at a position do
// not depend on which positions the parser skipped, and the literal model
// does not enter the finder at all. The matches at every position are
// recorded once and each encoding replays them: the same output as
// separate AppendEncode calls, for one match-finder pass instead of one
// per model (on a 64 KiB text block at preset 6e, match finding is about
// half of an encoding's CPU).

// matchRec is the match finder's output at every position of a block:
// the matches at position i are ms[off[i]:off[i+1]].
type matchRec struct {
	off []uint32
	ms  []match
}

// recordMatches runs the match finder of p over buf, finding at every
// position. The record is s's: valid until s is used again.
func recordMatches(p params, buf []byte, s *scratch) *matchRec {
	mf := newMatchFinder(p, buf, s)
	defer tablesDone(mf.tables)
	r := &s.rec
	if cap(r.off) < len(buf)+1 {
		r.off = make([]uint32, len(buf)+1)
	}
	r.off = r.off[:len(buf)+1]
	r.off[0] = 0
	if cap(r.ms) < len(buf) {
		r.ms = make([]match, 0, len(buf))
	}
	r.ms = r.ms[:0]
	m := s.found[:0]
	for i := range buf {
		m = mf.find(m)
		r.ms = append(r.ms, m...)
		r.off[i+1] = uint32(len(r.ms))
	}
	s.found = m
	return r
}

// replayFind is mf.find from the record: the matches at mf.pos, then
// advance.
func (e *encoder) replayFind() {
	p := e.mf.pos
	e.matches = e.matches[:0]
	if p < len(e.rec.off)-1 {
		e.matches = append(e.matches, e.rec.ms[e.rec.off[p]:e.rec.off[p+1]]...)
	}
	e.mf.pos++
}

// LiteralModel is an LZMA literal model: context bits, literal position
// bits and position bits (see WithLiteralModel).
type LiteralModel struct{ LC, LP, PB int }

func (m LiteralModel) option() Option { return WithLiteralModel(m.LC, m.LP, m.PB) }

// EncodeModels returns one .xz stream of src per literal model in
// models, each the same as AppendEncode(nil, src, opts...) with
// WithLiteralModel(m.LC, m.LP, m.PB) added (so that a caller can keep the
// smallest): when src is one block, the match finder runs once for all
// of them. It is meant for small inputs (at1 passes at most 256 KiB): the
// recorded matches take 4 bytes per input byte plus 8 per match found,
// several per byte on repetitive text at the extreme presets.
func EncodeModels(src []byte, models []LiteralModel, opts ...Option) ([][]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	cs := make([]config, len(models))
	for i, m := range models {
		cs[i] = c
		if err := m.option()(&cs[i]); err != nil {
			return nil, err
		}
	}
	out := make([][]byte, len(models))
	if len(src) == 0 || len(src) > c.effBlockSize() || len(models) < 2 {
		for i := range models {
			out[i], _ = AppendEncode(nil, src, append(opts[:len(opts):len(opts)], models[i].option())...)
		}
		return out, nil
	}
	s := scratchPool.Get().(*scratch)
	defer putScratch(s)
	rec := recordMatches(c.params(), src, s)
	for i := range cs {
		p := cs[i].params()
		lz := appendLZMA2Rec(s.lz[:0], src, p, s, rec)
		s.lz = lz
		// The stream header, block header and padding, check, index and
		// footer take at most 80 bytes.
		dst := appendStreamHeader(make([]byte, 0, len(lz)+96), c.check)
		var r blockRecord
		dst, r = appendBlockLZ(dst, src, lz, p, c.check, false)
		out[i] = appendIndexAndFooter(dst, []blockRecord{r}, c.check)
	}
	return out, nil
}
