package onpair

import (
	"bytes"
	"encoding/binary"
	"iter"
	"math/bits"
	"slices"
	"sync"
)

// RowSet is the set of rows a predicate matched, as a dense bitset: row r
// is bit r%64 of Words()[r/64]. A bitset rather than a compressed bitmap
// (roaring) because the predicates produce it in one sequential row scan,
// where setting a bit is one OR, it costs R/8 bytes whatever the
// selectivity (1/16 of the 2-byte first-code table the search keeps
// anyway), and it needs no dependency; callers wanting roaring can add the
// rows (or the words) to one.
type RowSet struct {
	words []uint64
	n     int
}

func newRowSet(n int) RowSet { return RowSet{words: make([]uint64, (n+63)/64), n: n} }

func (s *RowSet) add(r int) { s.words[r>>6] |= 1 << (r & 63) }

// Len returns the number of rows of the column searched (matched or not).
func (s RowSet) Len() int { return s.n }

// Count returns the number of matching rows.
func (s RowSet) Count() int {
	k := 0
	for _, w := range s.words {
		k += bits.OnesCount64(w)
	}
	return k
}

// Has reports whether row r matched.
func (s RowSet) Has(r int) bool {
	return r >= 0 && r < s.n && s.words[r>>6]&(1<<(r&63)) != 0
}

// Words returns the bitset (shared, not copied).
func (s RowSet) Words() []uint64 { return s.words }

// All iterates over the matching rows in increasing order.
func (s RowSet) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i, w := range s.words {
			for w != 0 {
				if !yield(i*64 + bits.TrailingZeros64(w)) {
					return
				}
				w &= w - 1
			}
		}
	}
}

// search holds what the predicates build once per column: the first code
// of every row (2 bytes a row; 0 for an empty row, which the checks then
// reject on its length), built on the first search.
type search struct {
	once  sync.Once
	first []uint16

	// sig[t] has bit sigBit[ch] set for every byte ch of token t (8 bytes
	// a token, built on the first Contains; 0 for the tokens the column
	// does not use): a token whose signature misses every needle byte
	// resets the matcher, known without reading it.
	sigOnce sync.Once
	sig     []uint64
	bytes   [4]uint64 // every byte of the tokens the column uses
	// bigrams has bit a<<8|b set if byte b follows byte a somewhere in
	// the codes' text (within a token or across two adjacent codes, rows
	// not told apart: a superset), 8 KiB: a needle with a pair of bytes
	// outside it is in no row.
	bigrams *[1 << 10]uint64
	// logCount[ch] is about 8*log2 of how many times byte ch occurs in
	// the column (counted over the codes' tokens): the rarity of a
	// needle's pieces.
	logCount [256]uint16

	// starts has bit i set if code i starts a row, and before[i] counts
	// the row starts in codes [0, 64i): a code's row is a rank (built on
	// the first sparse pair scan; nil if the column has an empty row,
	// whose start no bit can mark).
	startsOnce sync.Once
	starts     []uint64
	before     []uint32
	// ends[t] describes token t's ends, for the pair scan to work out
	// verdicts only for the tokens whose ends can meet the needle: its
	// first and last three bytes hashed (tri3, bits 0..11 and 12..23),
	// its first two bytes (24..39) and last two (40..55), its length
	// (56..60) and, bit 61, whether it is shorter than three bytes.
	ends []uint64
	// byFirst and byLast list the used tokens of three bytes or more as
	// key<<16 | token, sorted, the key being the first three bytes in
	// order (byFirst) or the last three from the last (byLast), so that a
	// range holds the tokens starting (ending) with three, two or one
	// given bytes; short the
	// used tokens of one or two bytes; byLen[:longFrom[l]] the used tokens
	// of at least l bytes (3 <= l <= 16).
	byFirst, byLast []uint64
	short           []uint16
	byLen           []uint16
	longFrom        [MaxTokenSize + 1]int
}

// key3 is the 3-byte key of the token indexes byFirst and byLast.
func key3(a, b, c byte) uint64 { return uint64(a)<<16 | uint64(b)<<8 | uint64(c) }

// tri3 hashes a 3-byte key to a bit of a 4096-bit table.
func tri3(k uint32) uint32 { return k * 0x9E3779B1 >> 20 }

// dictHasBytes reports whether every byte of s occurs in some token the
// column uses: if one does not, no row can contain s.
func (c *Column) dictHasBytes(s []byte) bool {
	c.tokenSigs()
	set := &c.search.bytes
	for _, ch := range s {
		if set[ch>>6]&(1<<(ch&63)) == 0 {
			return false
		}
	}
	bg := c.search.bigrams
	for i := 1; i < len(s); i++ {
		if k := uint(s[i-1])<<8 | uint(s[i]); bg[k>>6]&(1<<(k&63)) == 0 {
			return false
		}
	}
	return true
}

// buildBigrams returns the column's bigram set (see search.bigrams):
// the pairs within each used token, and for each two adjacent codes the
// last byte of the first token and the first of the second.
func (c *Column) buildBigrams(uses []uint32) *[1 << 10]uint64 {
	bg := new([1 << 10]uint64)
	n := c.dec.n
	first, last := make([]uint8, max(n, 1)), make([]uint8, max(n, 1))
	for t := range n {
		if uses[t] == 0 {
			continue
		}
		tok := c.token(uint16(t))
		if len(tok) == 0 { // an empty token joins its neighbours: no filter
			for i := range bg {
				bg[i] = ^uint64(0)
			}
			return bg
		}
		first[t], last[t] = tok[0], tok[len(tok)-1]
		for i := 1; i < len(tok); i++ {
			k := uint(tok[i-1])<<8 | uint(tok[i])
			bg[k>>6] |= 1 << (k & 63)
		}
	}
	codes := c.parts.Codes
	for i := 1; i < len(codes); i++ {
		k := uint(last[codes[i-1]])<<8 | uint(first[codes[i]])
		bg[k>>6] |= 1 << (k & 63)
	}
	return bg
}

// sigBit maps a byte to its bit of a token signature: letters (either
// case) to bits 0..25 and digits to 26..35, each apart, other ASCII bytes
// to 36..51 and the rest to 52..63, shared. (ch&63 put '/' on 'o', digits
// on letters' neighbours and UTF-8 continuation bytes on ASCII, so a
// needle like "org" met most URL tokens.)
var sigBit = func() (m [256]uint8) {
	for ch := range 256 {
		switch {
		case 'a' <= ch && ch <= 'z':
			m[ch] = uint8(ch - 'a')
		case 'A' <= ch && ch <= 'Z':
			m[ch] = uint8(ch - 'A')
		case '0' <= ch && ch <= '9':
			m[ch] = uint8(26 + ch - '0')
		case ch < 0x80:
			m[ch] = uint8(36 + ch%16)
		default:
			m[ch] = uint8(52 + ch%12)
		}
	}
	return m
}()

func (c *Column) tokenSigs() []uint64 {
	c.search.sigOnce.Do(func() {
		sig := make([]uint64, max(c.dec.n, 1))
		// Tokens the codes never use keep an empty signature and add no
		// byte to the set: a trained dictionary holds every single byte,
		// whether the column has it or not.
		uses := make([]uint32, max(c.dec.n, 1))
		for _, cd := range c.parts.Codes {
			uses[cd]++
		}
		set := &c.search.bytes
		var count [256]uint64
		for t := range c.dec.n {
			if uses[t] == 0 {
				continue
			}
			for _, ch := range c.token(uint16(t)) {
				sig[t] |= 1 << sigBit[ch]
				set[ch>>6] |= 1 << (ch & 63)
				count[ch] += uint64(uses[t])
			}
		}
		ends := make([]uint64, max(c.dec.n, 1))
		for t := range c.dec.n {
			l := int(c.dec.lens[t])
			x := uint64(l) << 56
			if l < 3 {
				x |= 1 << 61
			} else {
				tok := c.token(uint16(t))
				f := uint32(tok[0]) | uint32(tok[1])<<8 | uint32(tok[2])<<16
				z := uint32(tok[l-3]) | uint32(tok[l-2])<<8 | uint32(tok[l-1])<<16
				x |= uint64(tri3(f)) | uint64(tri3(z))<<12 | uint64(f&0xffff)<<24 | uint64(z>>8)<<40
			}
			ends[t] = x
		}
		c.search.ends = ends
		c.search.bigrams = c.buildBigrams(uses)
		// The used tokens indexed by their ends and length, for the pair
		// scan to visit only the tokens an end of which can meet the
		// needle.
		var byFirst, byLast []uint64
		var short []uint16
		var longer [MaxTokenSize + 2][]uint16
		for t := range c.dec.n {
			if uses[t] == 0 {
				continue
			}
			l := int(c.dec.lens[t])
			if l < 3 {
				short = append(short, uint16(t))
				continue
			}
			tok := c.token(uint16(t))
			byFirst = append(byFirst, key3(tok[0], tok[1], tok[2])<<16|uint64(t))
			byLast = append(byLast, key3(tok[l-1], tok[l-2], tok[l-3])<<16|uint64(t))
			longer[l] = append(longer[l], uint16(t))
		}
		slices.Sort(byFirst)
		slices.Sort(byLast)
		var byLen []uint16 // by length, longest first
		for l := MaxTokenSize; l >= 3; l-- {
			byLen = append(byLen, longer[l]...)
			c.search.longFrom[l] = len(byLen)
		}
		c.search.byFirst, c.search.byLast, c.search.short, c.search.byLen = byFirst, byLast, short, byLen
		for ch, n := range count {
			// 8*log2(n+1), to within one: the position of the top bit
			// and the next three bits.
			l := bits.Len64(n + 1)
			frac := (n + 1) << (64 - l) >> 60 & 7 // the three bits after the top one
			c.search.logCount[ch] = uint16(8*(l-1)) + uint16(frac)
		}
		c.search.sig = sig
	})
	return c.search.sig
}

func (c *Column) firstCodes() []uint16 {
	c.search.once.Do(func() {
		first := make([]uint16, len(c.rows)-1)
		codes := c.parts.Codes
		for r := range first {
			if a := c.rows[r]; a < c.rows[r+1] {
				first[r] = codes[a]
			}
		}
		c.search.first = first
	})
	return c.search.first
}

// token returns token t's bytes from the fat table.
func (c *Column) token(t uint16) []byte {
	s := int(t) << 4
	return c.dec.rows[s : s+int(c.dec.lens[t])]
}

// First-code verdicts, computed on demand for the codes that start rows.
const (
	fcUnknown = iota
	fcNo      // no row starting with this code can match
	fcMaybe   // check the rest of the row
	fcYes     // every row starting with this code matches
)

// Equal returns the rows whose value is exactly value. It runs on the
// codes: a row is considered only if its first token is a prefix of value
// and its last token a suffix (verdicts computed once per distinct code),
// and then compared token by token, stopping at the first difference;
// nothing is decoded.
func (c *Column) Equal(value []byte) RowSet {
	set := newRowSet(c.Len())
	if len(value) == 0 {
		for r := 0; r < c.Len(); r++ {
			if c.rows[r] == c.rows[r+1] {
				set.add(r)
			}
		}
		return set
	}
	first := c.firstCodes()
	// Two verdicts a token, computed once per distinct code: bit 0 "is a
	// prefix of value" (for first codes), bit 1 "is a suffix of value"
	// (for last codes); bit 2 or 3 marks each as known. A row is compared
	// token by token only if both its ends agree with value.
	verdict := make([]uint8, max(c.dec.n, 1))
	codes, rows := c.parts.Codes, c.rows
	for r, fc := range first {
		v := verdict[fc]
		if v&4 == 0 {
			if bytes.HasPrefix(value, c.token(fc)) {
				v |= 1
			}
			v |= 4
			verdict[fc] = v
		}
		if v&1 == 0 || rows[r] == rows[r+1] { // an empty row's first code is 0
			continue
		}
		lc := codes[rows[r+1]-1]
		w := verdict[lc]
		if w&8 == 0 {
			if bytes.HasSuffix(value, c.token(lc)) {
				w |= 2
			}
			w |= 8
			verdict[lc] = w
		}
		if w&2 != 0 && c.rowEqual(r, value) {
			set.add(r)
		}
	}
	return set
}

func (c *Column) rowEqual(r int, value []byte) bool {
	pos := 0
	for _, cd := range c.parts.Codes[c.rows[r]:c.rows[r+1]] {
		t := c.token(cd)
		if pos+len(t) > len(value) || string(t) != string(value[pos:pos+len(t)]) {
			return false
		}
		pos += len(t)
	}
	return pos == len(value)
}

// HasPrefix returns the rows whose value starts with prefix. A row's first
// token decides most rows alone: it either disagrees with prefix (no
// match), covers all of it (match), or is a proper prefix of it (compare
// the next tokens until prefix is used up).
func (c *Column) HasPrefix(prefix []byte) RowSet {
	set := newRowSet(c.Len())
	if len(prefix) == 0 {
		for r := 0; r < c.Len(); r++ {
			set.add(r)
		}
		return set
	}
	first := c.firstCodes()
	verdict := make([]uint8, max(c.dec.n, 1))
	for r, fc := range first {
		v := verdict[fc]
		if v == fcUnknown {
			t := c.token(fc)
			switch {
			case bytes.HasPrefix(t, prefix):
				v = fcYes
			case bytes.HasPrefix(prefix, t):
				v = fcMaybe
			default:
				v = fcNo
			}
			verdict[fc] = v
		}
		if v == fcNo {
			continue
		}
		// Empty rows have first code 0: check the row is not empty.
		if c.rows[r] == c.rows[r+1] {
			continue
		}
		if v == fcYes || c.rowHasPrefix(r, prefix) {
			set.add(r)
		}
	}
	return set
}

func (c *Column) rowHasPrefix(r int, prefix []byte) bool {
	pos := 0
	for _, cd := range c.parts.Codes[c.rows[r]:c.rows[r+1]] {
		t := c.token(cd)
		if rest := prefix[pos:]; len(t) >= len(rest) {
			return string(t[:len(rest)]) == string(rest)
		}
		if string(t) != string(prefix[pos:pos+len(t)]) {
			return false
		}
		pos += len(t)
	}
	return false
}

// Contains returns the rows whose value contains substr. Nothing is
// decoded. If a byte of substr occurs in no token the column uses, or two
// adjacent bytes of it never follow each other in the column (bigrams), it
// returns at once; needles of up to 8 bytes go through the pair scan
// (containsPairs), longer ones through the pair scan on their rarest
// 8-byte piece, whose candidate rows are then checked (containsLong).
func (c *Column) Contains(substr []byte) RowSet {
	if len(substr) > 0 && !c.dictHasBytes(substr) {
		return newRowSet(c.Len())
	}
	if len(substr) > 0 && len(substr) <= pairMax {
		return c.containsPairs(substr, pairBlock)
	}
	if len(substr) > pairMax {
		return c.containsLong(substr, pairBlock)
	}
	set := newRowSet(c.Len()) // the empty needle: every row
	for i := range set.words {
		set.words[i] = ^uint64(0)
	}
	if r := c.Len() & 63; r != 0 {
		set.words[len(set.words)-1] = 1<<r - 1
	}
	return set
}

// containsLong is Contains for needles longer than pairMax: a row holding
// the needle holds each of its pieces, so the pair scan on one piece of
// pairMax bytes (exact for the piece) gives the candidate rows, and only
// they are checked for the whole needle. The piece is the one whose bytes
// are rarest in the column (tokenSigs' byte counts), so that on most
// columns the candidates are few beyond the rows that match.
func (c *Column) containsLong(substr []byte, block int) RowSet {
	k := c.rarestPiece(substr, pairMax)
	set := c.containsPairs(substr[k:k+pairMax], block)
	var buf []byte
	for i, w := range set.words {
		for v := w; v != 0; v &= v - 1 {
			r := i*64 + bits.TrailingZeros64(v)
			buf, _ = c.AppendRow(buf[:0], r)
			if !bytes.Contains(buf, substr) {
				w &^= 1 << (r & 63)
			}
		}
		set.words[i] = w
	}
	return set
}

// rarestPiece returns the start of the n-byte piece of s whose bytes are
// least frequent in the column: the least sum of their log counts.
func (c *Column) rarestPiece(s []byte, n int) int {
	c.tokenSigs()
	lg := &c.search.logCount
	var sum, best uint32
	at := 0
	for j, ch := range s {
		sum += uint32(lg[ch])
		if j >= n {
			sum -= uint32(lg[s[j-n]])
		}
		if j == n-1 || j >= n && sum < best {
			best, at = sum, j-n+1
		}
	}
	return at
}

// always is the bit of the bitap state that is always set.
const always = 1 << 63

// bitapToken is one token's affine map for the shift-and (bitap) matcher
// run on tokens (bitapRow): the state D has bit j set when the last j+1
// bytes read equal the needle's first j+1, and feeding the token is D' =
// D<<l & a | c; a match ends in the token iff D & h != 0 (h's bit 63, which
// D always has, if the token holds the needle). After k bytes of the
// token, D_k = (D<<k) & P_k | Q_k with P_0 = ^0, Q_0 = 0, P_k =
// (P_{k-1}<<1) & B[t_k], Q_k = (Q_{k-1}<<1 | 1) & B[t_k] (B[ch] has bit j
// if needle[j] == ch): a = P_l, c = Q_l | always, and h has bit top>>k
// when P_k has top (the token's first k bytes end the needle). pairVerdicts
// works them out (tokenBits).
type bitapToken struct {
	a, c, h, l uint64
}

// Contains' pair scan, for needles of up to pairMax bytes. The verdict
// bits, in a byte (needles of up to pairNarrow bytes) or 16 bits:
const (
	pairMax    = 8    // the needle length less one pair states: 7 bits a field in 16
	pairNarrow = 4    // 3 bits a field in a byte
	pairBlock  = 8192 // codes a block: its codes and bits stay in L1

	yExact  = 0x07 // a match spans the previous token and this one
	yAny    = 0x38 // a longer one may pass through them
	yWithin = 0x80 // this token holds the needle
	yUsed   = yExact | yAny | yWithin

	// The same in 16 bits, for needles of 5..8 bytes.
	wExact  = 0x007f
	wAny    = 0x3f80
	wWithin = 0x8000
	wUsed   = wExact | wAny | wWithin
)

// pairScratch is containsPairs' per-call scratch, pooled (the table is
// 128 KiB, of which the column's tokens use the first entries).
type pairScratch struct {
	e     [MaxTokens]uint16
	ew    *[MaxTokens]uint32 // 16-bit verdicts, allocated for the first needle of 5..8 bytes
	bits  yBits
	bt    [256]uint64 // the needle's byte masks, at the top of the word
	list  [MaxTokens]uint16
	cand  [MaxTokens]uint16
	tri   [4096]uint8  // the needle's 3-byte pieces, hashed (tri3); zero between calls
	tab   []bitapToken // the maps of the tokens that meet part of the needle
	built []uint64     // which entries of tab are set, a bit a token
	seen  []uint64     // the tokens the verdicts' index walk has met
}

var pairPool sync.Pool

// containsPairs is Contains for needles of 1..pairMax bytes. A match lies
// within one token, or spans two (its first j bytes end one token, the
// rest start the next), or spans three or more, whose middle tokens lie
// strictly inside the needle ("middle pieces", A). So for each token it
// works out, once per call from the token's bytes (the bitap map of
// build: its q, p and h), one byte for the token after it, sb, and one
// for the token before it, hf: bit j-1 of sb if the token ends with the
// needle's first j bytes (in two fields, yExact and yAny, the same bits
// shifted), of hf if it starts with the rest (yExact); in hf's yAny
// field, a token that can be a middle piece has bit i-1 for each offset i
// of the needle it can start at (p's states short of the end). yWithin
// marks a token holding the needle (in hf; always set in sb). Needles of
// 5..8 bytes need 7 bits a field: their verdicts are 16 bits (ew[t] = hf
// | sb<<16, fillBitsWide, four codes a word), the rest is the same. One flat
// branch-free pass over a block of codes works out Y[k] = sb[code k-1] &
// hf[code k] (e[t] = hf | sb<<8 holds both), eight codes at a time, and
// keeps two bits a code: h if Y has yWithin or a yExact bit, l if it has
// a yAny bit. A row matches if it has an h bit (past its first code,
// whose Y came from the row before: there only the token's yWithin
// counts), exactly: that match lies within one token or spans exactly
// those two. A match of any other shape has a first token t1 and a middle
// piece after it at the offset where t1 ends, which sets a yAny bit: the
// rows with l bits but no h bit, and only they, are checked by running the
// matcher over their tokens (bitapRow). Rows are then read from the bits:
// every row where matches are dense (with the first-code table first,
// when it settles most rows), else only the rows holding a set bit, found
// up to 64 codes at a time.
func (c *Column) containsPairs(needle []byte, block int) RowSet {
	set := newRowSet(c.Len())
	sc, _ := pairPool.Get().(*pairScratch)
	if sc == nil {
		sc = new(pairScratch)
	}
	defer pairPool.Put(sc)
	var nsig uint64
	for _, ch := range needle {
		nsig |= 1 << sigBit[ch]
	}
	m := len(needle)
	block = min(block, pairBlock)
	if cap(sc.tab) < c.dec.n {
		sc.tab = make([]bitapToken, c.dec.n)
		sc.built = make([]uint64, (c.dec.n+63)/64)
		sc.seen = make([]uint64, (c.dec.n+63)/64)
	}
	built := sc.built[:(c.dec.n+63)/64]
	clear(built)
	c.tokenSigs()
	ps := pairScan{c: c, e: &sc.e, pb: &sc.bits, tab: sc.tab[:c.dec.n], built: built, words: set.words}
	if ps.wide = m > pairNarrow; ps.wide && sc.ew == nil {
		sc.ew = new([MaxTokens]uint32)
	}
	e, ew := ps.e, sc.ew
	ps.ew = ew
	within, pairs := uint16(yWithin), uint16(yExact|yAny)
	if ps.wide {
		within, pairs = wWithin, wExact|wAny
	}
	hAny, sAny := pairVerdicts(c, needle, sc, ps.tab, ps.built, nsig, e, ew, ps.wide)
	if hAny&within == 0 && sAny&hAny&pairs == 0 {
		return set // no token holds the needle or ends a part of it that another starts
	}
	rows, codes, nr := c.rows, c.parts.Codes, c.Len()
	pb := ps.pb
	dense, first := true, true // the first block tries the first codes
	for r := 0; r < nr; {
		s0 := int(rows[r])
		if int(rows[r+1])-s0 > block { // a row longer than a block, alone
			hit, look := uint8(0), uint8(0)
			prev := ps.start()
			rc := codes[s0:rows[r+1]]
			for i := 0; i < len(rc); i += block {
				part := rc[i:min(i+block, len(rc))]
				prev, _ = ps.fill(part, prev, false)
				for j := 0; j < (len(part)+7)>>3; j++ {
					hit |= pb.h[j]
					look |= pb.l[j]
				}
			}
			if hit != 0 || look != 0 && ps.bitapRow(r) {
				set.add(r)
			}
			r++
			continue
		}
		// The rows r..r1-1 whose codes fit in a block.
		lo, hi := r+1, nr
		for lo < hi {
			mid := int(uint(lo+hi+1) >> 1)
			if int(rows[mid])-s0 <= block {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		r1 := lo
		n := int(rows[r1]) - s0
		var looked int
		switch {
		case !dense:
			_, ps.anyL = ps.fill(codes[s0:s0+n], ps.start(), true)
			if starts, before := c.rowStarts(); starts != nil {
				looked = ps.rowsRank(starts, before, r, n)
			} else {
				looked = ps.rowsSparse(r, n)
			}
		case first:
			// Rows whose first token holds the needle, from the
			// first-code table: where they are most rows (c_name),
			// the block's codes need not be read at all.
			settled := ps.first(r, r1)
			first = settled*2 >= r1-r
			looked = settled
			if settled == r1-r {
				break
			}
			fallthrough
		default:
			// The fill's modes give the same bits; the first block,
			// whose density is not known yet, skips the groups of codes
			// with no bit to set (on japanese, where the needles are
			// rare, the dense fill of the first block was a tenth of
			// the time).
			_, ps.anyL = ps.fill(codes[s0:s0+n], ps.start(), r == 0)
			looked = ps.rowsDense(r, r1)
		}
		dense = looked*pairDense >= r1-r
		r = r1
	}
	return set
}

// pairVerdicts works out every token's verdicts (see containsPairs), hf
// | sb<<8 in e, or hf | sb<<16 in ew if wide, and returns the OR of the
// hf and of the sb fields. Apart from containsPairs so that its loop keeps
// the matcher's words in registers.
func pairVerdicts(c *Column, needle []byte, sc *pairScratch, tab []bitapToken, built []uint64, nsig uint64, e *[MaxTokens]uint16, ew *[MaxTokens]uint32, wide bool) (hAny, sAny uint16) {
	// The fields: yExact and yAny, 3 bits each, and yWithin in a byte;
	// wExact, wAny (7 bits) and wWithin in 16 bits.
	fs, within := uint(3), uint16(yWithin)
	if wide {
		fs, within = 7, wWithin
	}
	m := len(needle)
	low := uint64(1)<<(m-1) - 1
	wsh := uint(64 - m)
	lb := uint64(1) << wsh
	bt := &sc.bt
	clear(bt[:])
	for j, ch := range needle {
		bt[ch] |= lb << j
	}
	// A token of three bytes or more can end a part of the needle (q),
	// start one (h), lie within it (mid) or hold it only if its first or
	// last three bytes are three of the needle's (in tri, hashed), or it
	// starts with the needle's last one or two bytes, or ends with its
	// first one or two, or (holding it) it is as long as the needle and
	// has every byte of it by its signature. The others are settled
	// without reading their bytes.
	tri := &sc.tri // zero but for this needle's entries, cleared again below
	for j := 0; j+3 <= m; j++ {
		tri[tri3(uint32(needle[j])|uint32(needle[j+1])<<8|uint32(needle[j+2])<<16)] = 1
	}
	first1, last1 := uint64(needle[m-1]), uint64(needle[0])
	first2, last2 := uint64(1)<<63, uint64(1)<<63 // no 2-byte key matches
	if m >= 2 {
		first2, last2 = uint64(needle[m-2])|uint64(needle[m-1])<<8, uint64(needle[0])|uint64(needle[1])<<8
	}
	fat, lens, sig, ends := c.dec.rows, c.dec.lens, c.search.sig, c.search.ends[:c.dec.n]
	// First, branch-free, every token gets the verdicts of a token that
	// meets no part of the needle, and the others are listed; then the
	// listed ones are worked out.
	// The candidates come from the per-column indexes: the tokens whose
	// first two bytes are two of the needle's, or whose first is its last,
	// likewise for their last two, the short tokens, and the tokens as
	// long as the needle that have all its bytes (by signature). Where
	// they are a third of the tokens or more (the needle's pieces are in
	// most tokens, as "#00" on c_name), one branch-free pass over all the
	// tokens costs less than visiting them.
	srch := c.search
	var rg [2*pairMax + 2][2]int
	nrg, total := 0, len(srch.short)
	span := func(idx []uint64, from uint64, sh uint) {
		lo, _ := slices.BinarySearch(idx, from)
		hi := lo
		for hi < len(idx) && idx[hi]>>sh == from>>sh {
			hi++
		}
		rg[nrg] = [2]int{lo, hi}
		nrg++
		total += hi - lo
	}
	// A token of three bytes or more that lies within the needle, or
	// starts (ends) with three bytes or more of it, starts (ends) with one
	// of its 3-byte pieces; the others meet it only by starting with its
	// last one or two bytes or ending with its first one or two, or by
	// holding it. (Ranges of tokens by their first two bytes, as before
	// 2026-11-26, held most tokens for needles of CJK text, whose
	// characters share their first two bytes.)
	for i := 0; i+2 < m; i++ {
		span(srch.byFirst, key3(needle[i], needle[i+1], needle[i+2])<<16, 16)
		span(srch.byLast, key3(needle[i+2], needle[i+1], needle[i])<<16, 16)
	}
	if m >= 2 {
		span(srch.byFirst, key3(needle[m-2], needle[m-1], 0)<<16, 24)
		span(srch.byLast, key3(needle[1], needle[0], 0)<<16, 24)
	}
	span(srch.byFirst, key3(needle[m-1], 0, 0)<<16, 32)
	span(srch.byLast, key3(needle[0], 0, 0)<<16, 32)
	cand, nl := &sc.cand, 0
	for _, t := range srch.byLen[:srch.longFrom[max(m, 3)]] {
		cand[nl] = t
		nl += int(b2u(sig[t]&nsig == nsig))
	}
	n := 0
	list := &sc.list
	if pairLinear*(total+nl) >= len(ends) {
		// Every token with a needle byte, by its signature, then those
		// whose ends meet the needle.
		for t, g := range sig[:len(ends)] {
			list[n] = uint16(t)
			n += int(b2u(g&nsig != 0))
		}
		k := 0
		for _, t := range list[:n] {
			x := ends[t]
			hit := uint64(tri[x&0xfff]|tri[x>>12&0xfff]) |
				b2u(x>>24&0xff == first1) | b2u(x>>24&0xffff == first2) |
				b2u(x>>48&0xff == last1) | b2u(x>>40&0xffff == last2) |
				x>>61&1 | b2u(int(x>>56&31) >= m && sig[t]&nsig == nsig)
			list[k] = t
			k += int(hit)
		}
		n = k
	} else {
		pk := tokenPicker{tri: tri, sig: sig, ends: ends, nsig: nsig, m: m, list: list,
			first1: first1, first2: first2, last1: last1, last2: last2, seen: sc.seen[:len(built)]}
		clear(pk.seen)
		for j, r := range rg[:nrg] {
			idx := srch.byFirst
			if j&1 != 0 {
				idx = srch.byLast
			}
			for _, x := range idx[r[0]:r[1]] {
				pk.pick(uint16(x))
			}
		}
		for _, t := range srch.short {
			pk.pick(t)
		}
		for _, t := range cand[:nl] {
			pk.pick(t)
		}
		n = pk.n
	}
	for j := 0; j+3 <= m; j++ {
		tri[tri3(uint32(needle[j])|uint32(needle[j+1])<<8|uint32(needle[j+2])<<16)] = 0
	}
	// Every token gets the verdicts of a token that meets nothing (by
	// doubling copies: a store loop over the tokens was a seventh of
	// this function's time on japanese).
	if wide {
		fillRepeat(ew[:len(ends)], uint32(within)<<16)
	} else {
		fillRepeat(e[:len(ends)], within<<8)
	}
	listBits(sc.list[:n], fat, lens, bt, lb, tab)
	for _, t := range sc.list[:n] {
		l := int(lens[t])
		x := &tab[t]
		p, q, hist, w := x.a>>wsh, x.c>>wsh, x.h, x.l
		// Step k (bit l-1-k of hist) is h's bit m-2-k.
		var h uint64
		if d := m - 1 - l; d >= 0 {
			h = hist << (d & 63)
		} else {
			h = hist >> (-d & 63)
		}
		h16, q16 := uint16(h&low), uint16(q&low)
		mid := uint16(p & low >> l) // the offsets it can start at as a middle piece
		hf, sb := h16|mid<<fs, q16|q16<<fs|within
		hf |= uint16(w>>63) * within
		sAny |= sb
		hAny |= hf
		// The map for bitapRow; tokens not listed reset the matcher.
		tab[t] = bitapToken{a: p, c: q | always, h: h | w>>63<<63, l: uint64(l)}
		built[t>>6] |= 1 << (t & 63)
		if wide {
			ew[t] = uint32(hf) | uint32(sb)<<16
		} else {
			e[t] = hf | sb<<8
		}
	}
	return hAny, sAny
}

// fillRepeat sets every element of s to v.
func fillRepeat[E uint16 | uint32](s []E, v E) {
	if len(s) == 0 {
		return
	}
	s[0] = v
	for k := 1; k < len(s); k *= 2 {
		copy(s[k:], s[:k])
	}
}

// pairLinear: the pair scan's verdicts visit the candidate tokens from
// the indexes unless they are 1/pairLinear of the tokens or more (a
// variable so that the tests can drive both ways).
var pairLinear = 3

// tokenPicker lists the tokens whose ends can meet the needle (see
// pairVerdicts), each once.
type tokenPicker struct {
	tri                          *[4096]uint8
	sig, ends, seen              []uint64
	nsig                         uint64
	first1, first2, last1, last2 uint64
	m, n                         int
	list                         *[MaxTokens]uint16
}

func (pk *tokenPicker) pick(t uint16) {
	if pk.seen[t>>6]&(1<<(t&63)) != 0 {
		return
	}
	pk.seen[t>>6] |= 1 << (t & 63)
	x, g := pk.ends[t], pk.sig[t]
	hit := uint64(pk.tri[x&0xfff]|pk.tri[x>>12&0xfff]) |
		b2u(x>>24&0xff == pk.first1) | b2u(x>>24&0xffff == pk.first2) |
		b2u(x>>48&0xff == pk.last1) | b2u(x>>40&0xffff == pk.last2) |
		x>>61&1 | b2u(int(x>>56&31) >= pk.m && g&pk.nsig == pk.nsig)
	pk.list[pk.n] = t
	pk.n += int(hit & b2u(g&pk.nsig != 0))
}

// listBits runs the matcher over the bytes of each listed token from
// every state at once (the bitap map, see bitapToken), branch-free and
// with shifts by constants only: the needle's bits sit at the top of the
// word (bt[ch] has bit 64-m+j if needle[j] == ch, lb is bit 64-m). It
// leaves in tab[t] p and q (in a and c), hist (in h), whose bit l-1-k is
// set if the token's first k+1 bytes end the needle, and w (in l), whose
// bit 63 is set if the token holds the needle. Apart, so that its four
// words stay in registers.
func listBits(list []uint16, fat []byte, lens *[MaxTokens]uint8, bt *[256]uint64, lb uint64, tab []bitapToken) {
	for _, t := range list {
		p, q, hist, w := ^uint64(0), uint64(0), uint64(0), uint64(0)
		for _, ch := range fat[int(t)<<4 : int(t)<<4+int(lens[t])] {
			bc := bt[ch]
			p = p << 1 & bc
			q = (q<<1 | lb) & bc
			hist = hist<<1 | p>>63
			w |= q
		}
		tab[t] = bitapToken{a: p, c: q, h: hist, l: w}
	}
}

// pairDense: a block where at least 1/pairDense of the rows were looked
// at (sparse) or matched (dense) makes the next one go row by row.
const pairDense = 4

// yBits holds a block's verdicts, one bit a code (code k is bit k&7 of
// byte k>>3), padded for 8-byte loads: h, the code settles its row
// (exactly, but for a row's first code, whose Y came from the row before:
// there only its token's yWithin counts, looked up again); l, the row may
// need the matcher.
type yBits struct {
	h, l [pairBlock/8 + 16]uint8
}

// yClass returns the h and l bits of eight Y bytes.
func yClass(v uint64) (h, l uint8) {
	const exact, c7f, b7 = 0x0707070707070707, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	const anyF, b6 = 0x3838383838383838, 0x4040404040404040
	h = gather7((v&exact + c7f | v) & b7)    // bit 7: yWithin or a yExact bit
	if la := (v&anyF + anyF) & b6; la != 0 { // bit 6: a yAny bit
		l = gather7(la << 1)
	}
	return
}

// gather7 returns bit 7 of byte j of x as bit j, x having no other bit.
func gather7(x uint64) uint8 { return uint8(x * 0x0002040810204081 >> 56) }

// fillBits works out the Y bytes of codes (see containsPairs), prev
// being the sb byte of the code before, and stores their bits in pb; it
// returns the last code's sb and whether some l bit is set. Eight codes
// at a time, their Y bytes in a register; sparse skips classifying the
// groups with no bit to set.
func fillBits(e *[MaxTokens]uint16, codes []uint16, pb *yBits, prev uint16, sparse bool) (uint16, bool) {
	nw := len(codes) >> 3
	var p uint64
	var anyL uint8
	if sparse {
		p, anyL = fillSparse(e, codes[:nw*8], pb, uint64(prev))
	} else {
		p, anyL = fillDense(e, codes[:nw*8], pb, uint64(prev))
	}
	prev = uint16(p)
	y := uint64(0)
	for i, cd := range codes[nw*8:] {
		v := e[cd]
		y |= uint64(uint8(prev&v)) << (8 * i)
		prev = v >> 8
	}
	pb.h[nw], pb.l[nw] = yClass(y)
	anyL |= pb.l[nw]
	clear(pb.h[nw+1 : nw+10])
	clear(pb.l[nw+1 : nw+10])
	return prev, anyL != 0
}

// fillDense and fillSparse work out eight Y bytes at a time: the
// even codes' entries go in one word, the odd ones' in another, in 16-bit
// lanes (hf low, sb high). Shifted a byte, the odd word puts each even
// code's predecessor's sb over the code's hf in the even word, and the
// even word's own sb bytes lie over the next (odd) codes' hf: one AND
// gives the eight bytes in order.
func fillDense(e *[MaxTokens]uint16, codes []uint16, pb *yBits, p uint64) (uint64, uint8) {
	nw := len(codes) >> 3
	h, l := pb.h[:nw], pb.l[:nw]
	anyL := uint8(0)
	j := 0
	for ; j+2 <= nw; j += 2 { // sixteen codes a turn
		g := (*[16]uint16)(codes[j*8 : j*8+16])
		x0 := uint64(e[g[0]]) | uint64(e[g[2]])<<16 | uint64(e[g[4]])<<32 | uint64(e[g[6]])<<48
		x1 := uint64(e[g[1]]) | uint64(e[g[3]])<<16 | uint64(e[g[5]])<<32 | uint64(e[g[7]])<<48
		x2 := uint64(e[g[8]]) | uint64(e[g[10]])<<16 | uint64(e[g[12]])<<32 | uint64(e[g[14]])<<48
		x3 := uint64(e[g[9]]) | uint64(e[g[11]])<<16 | uint64(e[g[13]])<<32 | uint64(e[g[15]])<<48
		y0 := (x1<<8 | p) & x0
		y1 := (x3<<8 | x1>>56) & x2
		p = x3 >> 56
		hw := (*[2]uint8)(h[j : j+2])
		lw := (*[2]uint8)(l[j : j+2])
		hw[0], lw[0] = yClass(y0)
		hw[1], lw[1] = yClass(y1)
		anyL |= lw[0] | lw[1]
	}
	for ; j < nw; j++ {
		g := (*[8]uint16)(codes[j*8 : j*8+8])
		x0 := uint64(e[g[0]]) | uint64(e[g[2]])<<16 | uint64(e[g[4]])<<32 | uint64(e[g[6]])<<48
		x1 := uint64(e[g[1]]) | uint64(e[g[3]])<<16 | uint64(e[g[5]])<<32 | uint64(e[g[7]])<<48
		y := (x1<<8 | p) & x0
		p = x1 >> 56
		h[j], l[j] = yClass(y)
		anyL |= l[j]
	}
	return p, anyL
}

func fillSparse(e *[MaxTokens]uint16, codes []uint16, pb *yBits, p uint64) (uint64, uint8) {
	nw := len(codes) >> 3
	h, l := pb.h[:nw], pb.l[:nw]
	anyL := uint8(0)
	for j := range h {
		g := (*[8]uint16)(codes[j*8 : j*8+8])
		x0 := uint64(e[g[0]]) | uint64(e[g[2]])<<16 | uint64(e[g[4]])<<32 | uint64(e[g[6]])<<48
		x1 := uint64(e[g[1]]) | uint64(e[g[3]])<<16 | uint64(e[g[5]])<<32 | uint64(e[g[7]])<<48
		y := (x1<<8 | p) & x0
		p = x1 >> 56
		if y&(yUsed*0x0101010101010101) == 0 { // no bit to set
			h[j], l[j] = 0, 0
			continue
		}
		h[j], l[j] = yClass(y)
		anyL |= l[j]
	}
	return p, anyL
}

// fillBitsWide is fillBits for 16-bit verdicts (ew[t] = hf | sb<<16):
// four codes a word, the even and the odd codes' entries in 32-bit lanes.
func fillBitsWide(ew *[MaxTokens]uint32, codes []uint16, pb *yBits, prev uint32, sparse bool) (uint32, bool) {
	nw := len(codes) >> 3
	h, l := pb.h[:nw], pb.l[:nw]
	p := uint64(prev)
	anyL := uint8(0)
	for j := range h {
		g := (*[8]uint16)(codes[j*8 : j*8+8])
		x0 := uint64(ew[g[0]]) | uint64(ew[g[2]])<<32
		x1 := uint64(ew[g[1]]) | uint64(ew[g[3]])<<32
		x2 := uint64(ew[g[4]]) | uint64(ew[g[6]])<<32
		x3 := uint64(ew[g[5]]) | uint64(ew[g[7]])<<32
		ya := (x1<<16 | p) & x0
		yb := (x3<<16 | x1>>48) & x2
		p = x3 >> 48
		if sparse && (ya|yb)&(wUsed*0x0001000100010001) == 0 {
			h[j], l[j] = 0, 0
			continue
		}
		h[j], l[j] = wClass8(ya, yb)
		anyL |= l[j]
	}
	var ya, yb uint64
	for i, cd := range codes[nw*8:] {
		v := ew[cd]
		y := uint64(uint16(uint32(p) & v))
		if i < 4 {
			ya |= y << (16 * i)
		} else {
			yb |= y << (16 * (i - 4))
		}
		p = uint64(v >> 16)
	}
	ha, la := wClass(ya)
	hb, lb := wClass(yb)
	pb.h[nw], pb.l[nw] = ha|hb<<4, la|lb<<4
	anyL |= pb.l[nw]
	clear(pb.h[nw+1 : nw+10])
	clear(pb.l[nw+1 : nw+10])
	return uint32(p), anyL != 0
}

// wClass8 returns the h and l bits of eight 16-bit verdicts, codes 0..3
// in ya and 4..7 in yb: each lane's bit 15 (h) or 14 (l) is moved to bit
// 16i of the word for ya's lane i and 16i+4 for yb's, and one multiply
// gathers bit 16i+k at bit 56+i+k (the other products land at distinct
// bits below 48, or past 63: no carry reaches the top byte).
func wClass8(ya, yb uint64) (h, l uint8) {
	const exact, c7fff, b15 = 0x007f007f007f007f, 0x7fff7fff7fff7fff, 0x8000800080008000
	const anyF, b14 = 0x3f803f803f803f80, 0x4000400040004000
	const gather = 1<<56 | 1<<41 | 1<<26 | 1<<11
	ha := (ya&exact + c7fff | ya) & b15
	hb := (yb&exact + c7fff | yb) & b15
	h = uint8((ha>>15 | hb>>11) * gather >> 56)
	if la, lb := (ya&anyF+anyF)&b14, (yb&anyF+anyF)&b14; la|lb != 0 {
		l = uint8((la>>14 | lb>>10) * gather >> 56)
	}
	return
}

// wClass returns the h and l bits (bits 0..3) of four 16-bit verdicts.
func wClass(v uint64) (h, l uint8) {
	const exact, c7fff, b15 = 0x007f007f007f007f, 0x7fff7fff7fff7fff, 0x8000800080008000
	const anyF, b14 = 0x3f803f803f803f80, 0x4000400040004000
	const gather = 1<<45 | 1<<30 | 1<<15 | 1 // bit 15 of lane i to bit 60+i
	h = uint8((v&exact + c7fff | v) & b15 * gather >> 60)
	if la := (v&anyF + anyF) & b14; la != 0 {
		l = uint8(la << 1 * gather >> 60)
	}
	return
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// rowBits returns the bits of bm for the n codes from code s, nonzero iff
// one is set.
func rowBits(bm []uint8, s, n int) uint64 {
	if n <= 57 {
		return le64(bm[s>>3:]) >> (s & 7) & (^uint64(0) >> uint(64-n))
	}
	return rowBitsLong(bm, s, n)
}

//go:noinline
func rowBitsLong(bm []uint8, s, n int) uint64 {
	x := uint64(0)
	for ; n > 0; s, n = s+56, n-56 {
		x |= rowBits(bm, s, min(n, 56))
	}
	return x
}

// rowVerdict returns the row [s, s+n)'s h bits (bit 0, its first code's,
// counts only if that token holds the needle) and l bits (nonzero: it
// may need the matcher).
func rowVerdict(pb *yBits, s, n int) (hit, look uint64) {
	return rowBits(pb.h[:], s, n), rowBits(pb.l[:], s, n) &^ 1
}

// first sets the rows r0..r1-1 whose first token holds the needle
// and returns how many there are, branch-free.
func (ps *pairScan) first(r0, r1 int) int {
	first, rows := ps.c.firstCodes()[r0:r1], ps.c.rows[r0:r1+1]
	if ps.wide {
		return firstHolds(ps.words, first, rows, r0, ps.ew, wWithin)
	}
	return firstHolds(ps.words, first, rows, r0, ps.e, yWithin)
}

func firstHolds[E uint16 | uint32](words []uint64, first []uint16, rows []uint32, r0 int, e *[MaxTokens]E, within E) int {
	var acc uint64
	n := 0
	for j, fc := range first {
		r := r0 + j
		// An empty row's first code is 0, whatever e says of it.
		acc |= b2u(e[fc]&within != 0) & b2u(rows[j] < rows[j+1]) << (r & 63)
		if r&63 == 63 {
			words[r>>6] |= acc
			n += bits.OnesCount64(acc)
			acc = 0
		}
	}
	if r1 := r0 + len(first); r1 > r0 {
		words[(r1-1)>>6] |= acc
		n += bits.OnesCount64(acc)
	}
	return n
}

// rowsDense decides rows r0..r1-1 from the block's bits, every row,
// branch-free but for the rows needing the matcher (and those of more
// than 57 codes). It returns the number of rows matched.
func (ps *pairScan) rowsDense(r0, r1 int) int {
	c, pb, words := ps.c, ps.pb, ps.words
	rows := c.rows[r0 : r1+1]
	s0 := rows[0]
	var acc uint64
	hits := 0
	start := s0
	for j, end := range rows[1:] {
		r := r0 + j
		s, n := int(start-s0), int(end-start)
		start = end
		var h, l uint64
		if n <= 57 { // rowVerdict, inlined
			// The masks and shifts keep the compiler's checks out: s>>3
			// is at most pairBlock/8, and only for an empty row at the
			// block's end, whose mask is 0.
			m, sh, i := uint64(1)<<(n&63)-1, uint(s&7), s>>3&(pairBlock/8-1)
			h = le64(pb.h[i:]) >> sh & m
			if ps.anyL {
				l = le64(pb.l[i:]) >> sh & m &^ 1
			}
		} else {
			h, l = rowVerdict(pb, s, n)
		}
		hit := b2u(h > 1)
		if h == 1 { // rare: only the first code's bit
			hit = ps.within(uint32(s) + s0)
		}
		if l&(hit-1) != 0 { // rare: no hit, and an l bit (one branch)
			hit = ps.lookRow(r)
		}
		acc |= hit << (r & 63)
		if r&63 == 63 {
			words[r>>6] |= acc
			hits += bits.OnesCount64(acc)
			acc = 0
		}
	}
	if r1 > r0 {
		words[(r1-1)>>6] |= acc
		hits += bits.OnesCount64(acc)
	}
	return hits
}

// lookRow is bitapRow as 0 or 1.
//
//go:noinline
func (ps *pairScan) lookRow(r int) uint64 {
	return b2u(ps.bitapRow(r))
}

// rowStarts returns the starts and before tables (nil, nil if the column
// has an empty row).
func (c *Column) rowStarts() ([]uint64, []uint32) {
	c.search.startsOnce.Do(func() {
		nc := len(c.parts.Codes)
		starts := make([]uint64, nc/64+2)
		for r := range c.Len() {
			a := c.rows[r]
			if a == c.rows[r+1] {
				return // an empty row
			}
			starts[a>>6] |= 1 << (a & 63)
		}
		before := make([]uint32, len(starts))
		n := uint32(0)
		for i, w := range starts {
			before[i] = n
			n += uint32(bits.OnesCount64(w))
		}
		c.search.starts, c.search.before = starts, before
	})
	return c.search.starts, c.search.before
}

// rowsRank is rowsSparse for columns without empty rows: it takes the
// block's bits 56 codes at a time and finds the row of each set bit by a
// rank in the row-start bitmap (rowStarts), branch-free, instead of
// walking the row offsets. It returns the number of rows it matched or
// looked at (bitapRow).
func (ps *pairScan) rowsRank(starts []uint64, before []uint32, r0, n int) int {
	c, pb, words := ps.c, ps.pb, ps.words
	s0 := int(c.rows[r0])
	looked, last := 0, -1
	for k := 0; k < n; k += 56 {
		m := uint64(1)<<56 - 1
		if n-k < 56 {
			m = uint64(1)<<(n-k) - 1
		}
		hw := le64(pb.h[k>>3:]) & m
		lw := uint64(0)
		if ps.anyL {
			lw = le64(pb.l[k>>3:]) & m
		}
		if hw|lw == 0 {
			continue
		}
		a := s0 + k
		// The row starts among codes a..a+55, and before them.
		sw := starts[a>>6] >> (a & 63)
		if a&63 > 8 {
			sw |= starts[a>>6+1] << (64 - a&63)
		}
		sw &= m
		b0 := int(before[a>>6]) + bits.OnesCount64(starts[a>>6]&(1<<(a&63)-1)) - 1
		// A row's first code: its bit came from the row before; only
		// the token's holding the needle counts (rare).
		for hs := hw & sw; hs != 0; hs &= hs - 1 {
			i := bits.TrailingZeros64(hs)
			if ps.within(uint32(a+i)) == 0 {
				hw &^= 1 << i
			}
		}
		for x := hw; x != 0; x &= x - 1 {
			i := bits.TrailingZeros64(x)
			r := b0 + bits.OnesCount64(sw&(2<<i-1))
			looked += int(^words[r>>6] >> (r & 63) & 1) // rows, not bits
			words[r>>6] |= 1 << (r & 63)
		}
		for x := lw &^ sw; x != 0; x &= x - 1 {
			i := bits.TrailingZeros64(x)
			r := b0 + bits.OnesCount64(sw&(2<<i-1))
			if r == last || words[r>>6]&(1<<(r&63)) != 0 {
				continue
			}
			last = r
			looked++
			if ps.bitapRow(r) {
				words[r>>6] |= 1 << (r & 63)
			}
		}
	}
	return looked
}

// rowsSparse decides the rows from row r0 on whose n codes the block
// holds, looking only at the rows holding a code with an h or l bit: the
// others are skipped up to 64 codes at a time. It returns the number of rows
// looked at.
func (ps *pairScan) rowsSparse(r0, n int) int {
	c, pb, words := ps.c, ps.pb, ps.words
	rows := c.rows
	s0 := int(rows[r0])
	r, looked := r0, 0
	for k := 0; k < n; {
		x := (le64(pb.h[k>>3:]) | le64(pb.l[k>>3:])) >> (k & 7)
		if x == 0 {
			k = k&^7 + 64 // the window held the bits of codes k..k&^7+63
			continue
		}
		k += bits.TrailingZeros64(x)
		if k >= n {
			break
		}
		r = rowOf(rows, r, uint32(s0+k))
		s, e := int(rows[r])-s0, int(rows[r+1])-s0
		var h, l uint64
		if n := e - s; n <= 57 { // rowVerdict, inlined
			m, sh, i := uint64(1)<<(n&63)-1, uint(s&7), s>>3&(pairBlock/8-1)
			h = le64(pb.h[i:]) >> sh & m
			l = le64(pb.l[i:]) >> sh & m &^ 1
		} else {
			h, l = rowVerdict(pb, s, n)
		}
		hit := b2u(h > 1) | b2u(h == 1)&ps.within(uint32(s0+s))
		if l&(hit-1) != 0 { // rare: no hit, and an l bit
			hit = ps.lookRow(r)
		}
		words[r>>6] |= hit << (r & 63)
		looked++
		k = e
	}
	return looked
}

// pairScan is one containsPairs call's state.
type pairScan struct {
	c     *Column
	e     *[MaxTokens]uint16
	pb    *yBits
	tab   []bitapToken // the maps of the tokens that meet part of the needle,
	built []uint64     // which have a bit here (the others reset the matcher)
	words []uint64
	anyL  bool // the block has an l bit
	wide  bool // 16-bit verdicts (ew), for needles of 5..8 bytes
	ew    *[MaxTokens]uint32
}

// rowOf returns the row holding code pos, r or a later one: the next eight
// row ends are compared at once, so a gap of up to seven rows costs no
// branch.
func rowOf(rows []uint32, r int, pos uint32) int {
	for r+9 < len(rows) {
		q := (*[8]uint32)(rows[r+1 : r+9])
		k := b2u(q[0] <= pos) + b2u(q[1] <= pos) + b2u(q[2] <= pos) + b2u(q[3] <= pos) +
			b2u(q[4] <= pos) + b2u(q[5] <= pos) + b2u(q[6] <= pos) + b2u(q[7] <= pos)
		r += int(k)
		if k < 8 {
			return r
		}
	}
	for rows[r+1] <= pos {
		r++
	}
	return r
}

// holds returns 1 if token t holds the needle.
func (ps *pairScan) holds(t uint16) uint64 {
	if ps.wide {
		return uint64(ps.ew[t] >> 15 & 1)
	}
	return uint64(ps.e[t] >> 7 & 1)
}

// start returns the sb of nothing: a row's first code keeps only its
// within bit.
func (ps *pairScan) start() uint32 {
	if ps.wide {
		return wWithin
	}
	return yWithin
}

// fill is fillBits or fillBitsWide.
func (ps *pairScan) fill(codes []uint16, prev uint32, sparse bool) (uint32, bool) {
	if ps.wide {
		return fillBitsWide(ps.ew, codes, ps.pb, prev, sparse)
	}
	p, anyL := fillBits(ps.e, codes, ps.pb, uint16(prev), sparse)
	return uint32(p), anyL
}

// within returns 1 if the token of code i holds the needle.
func (ps *pairScan) within(i uint32) uint64 {
	return ps.holds(ps.c.parts.Codes[i])
}

// bitapRow runs the matcher over row r's tokens from the row's start:
// the exact check of the rows where a match may span an A token.
func (ps *pairScan) bitapRow(r int) bool {
	c := ps.c
	d := uint64(always)
	for _, cd := range c.parts.Codes[c.rows[r]:c.rows[r+1]] {
		if ps.built[cd>>6]&(1<<(cd&63)) == 0 { // meets no part of the needle: the matcher resets
			d = always
			continue
		}
		e := &ps.tab[cd]
		if d&e.h != 0 {
			return true
		}
		d = d<<(e.l&63)&e.a | e.c
	}
	return false
}
