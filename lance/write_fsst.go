package lance

// An FSST encoder (Boncz, Neumann, Leis, VLDB 2020) for the writer: a
// table of at most 255 symbols of 1..8 bytes, grown over five rounds on a
// sample from the most gainful symbols and symbol pairs, then a greedy
// longest-match encoding per string (code < 255 = symbol, 255 = escape +
// literal). The table is serialised in Lance's 2,312-byte layout
// (v21_fsst.go).

import (
	"bytes"
	"encoding/binary"
	"sort"

	"github.com/colfmt/colfmt/lance/internal/enc21pb"
)

const (
	fsstSample   = 16 << 10
	fsstMinData  = 32 << 10 // lance's threshold for trying FSST
	fsstTableLen = 8 + 256*8 + 256
)

type fsstEnc struct {
	syms   [][]byte
	prefix [65536][]uint8 // codes of symbols of 2+ bytes by their first two bytes, longest first
	single [256]int16     // code of a 1-byte symbol, or -1
}

func newFsstEnc(syms [][]byte) *fsstEnc {
	e := &fsstEnc{syms: syms}
	for i := range e.single {
		e.single[i] = -1
	}
	for c, s := range syms {
		if len(s) == 1 {
			e.single[s[0]] = int16(c)
			continue
		}
		k := uint16(s[0]) | uint16(s[1])<<8
		e.prefix[k] = append(e.prefix[k], uint8(c))
	}
	for k, l := range e.prefix {
		if len(l) > 1 {
			sort.SliceStable(l, func(i, j int) bool { return len(syms[l[i]]) > len(syms[l[j]]) })
			e.prefix[k] = l
		}
	}
	return e
}

// next returns the code at s[i:] (-1: escape) and its length.
func (e *fsstEnc) next(s []byte, i int) (int, int) {
	if i+1 < len(s) {
		for _, c := range e.prefix[uint16(s[i])|uint16(s[i+1])<<8] {
			sym := e.syms[c]
			if len(sym) <= len(s)-i && bytes.Equal(s[i:i+len(sym)], sym) {
				return int(c), len(sym)
			}
		}
	}
	if c := e.single[s[i]]; c >= 0 {
		return int(c), 1
	}
	return -1, 1
}

func (e *fsstEnc) appendEncode(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c, n := e.next(s, i)
		if c < 0 {
			dst = append(dst, 255, s[i])
		} else {
			dst = append(dst, byte(c))
		}
		i += n
	}
	return dst
}

// buildFsst grows a symbol table on sample strings.
func buildFsst(sample [][]byte) *fsstEnc {
	e := newFsstEnc(nil)
	for gen := 0; gen < 5; gen++ {
		// Pseudo-codes: 0..254 symbols, 256+b literal byte b.
		count1 := map[int]int{}
		count2 := map[[2]int]int{}
		for _, s := range sample {
			prev := -1
			for i := 0; i < len(s); {
				c, n := e.next(s, i)
				if c < 0 {
					c = 256 + int(s[i])
				}
				count1[c]++
				if prev >= 0 {
					count2[[2]int{prev, c}]++
				}
				prev = c
				i += n
			}
		}
		symOf := func(c int) []byte {
			if c >= 256 {
				return []byte{byte(c - 256)}
			}
			return e.syms[c]
		}
		type cand struct {
			sym  string
			gain int
		}
		gains := map[string]int{}
		for c, n := range count1 {
			s := symOf(c)
			gains[string(s)] += n * len(s)
		}
		for p, n := range count2 {
			a, b := symOf(p[0]), symOf(p[1])
			if len(a)+len(b) > 8 {
				continue
			}
			gains[string(a)+string(b)] += n * (len(a) + len(b))
		}
		cands := make([]cand, 0, len(gains))
		for s, g := range gains {
			cands = append(cands, cand{s, g})
		}
		sort.Slice(cands, func(i, j int) bool {
			if cands[i].gain != cands[j].gain {
				return cands[i].gain > cands[j].gain
			}
			return cands[i].sym < cands[j].sym
		})
		var syms [][]byte
		for _, c := range cands {
			if len(syms) == 255 {
				break
			}
			syms = append(syms, []byte(c.sym))
		}
		e = newFsstEnc(syms)
	}
	return e
}

// table serialises the symbol table as Lance does.
func (e *fsstEnc) table() []byte {
	b := make([]byte, fsstTableLen)
	n := len(e.syms)
	binary.LittleEndian.PutUint64(b, uint64(fsstMagic)<<32|1<<24|uint64(n))
	for i, s := range e.syms {
		var w [8]byte
		copy(w[:], s)
		copy(b[8+8*i:], w[:])
		b[8+8*n+i] = byte(len(s))
	}
	return b
}

// fsstPage FSST-encodes the buffered strings when that saves 10%: it
// returns the table and the page's compressed data and end offsets, or
// nil.
func (c *leaf21) fsstPage() (*fsstEnc, []byte, []uint32) {
	p := &c.pg
	if c.kind != vVar || p.offs64 != nil || len(p.data) < fsstMinData || !c.utf8 {
		return nil, nil, nil
	}
	var sample [][]byte
	step := max(1, p.nVis/(fsstSample/max(1, len(p.data)/max(1, p.nVis))))
	got := 0
	for v := 0; v < p.nVis && got < fsstSample; v += step {
		s := p.data[c.varStart(v):c.varEnd(v)]
		sample = append(sample, s)
		got += len(s)
	}
	e := buildFsst(sample)
	out := make([]byte, 0, len(p.data)/2)
	ends := make([]uint32, p.nVis)
	for v := 0; v < p.nVis; v++ {
		out = e.appendEncode(out, p.data[c.varStart(v):c.varEnd(v)])
		ends[v] = uint32(len(out))
		if v == p.nVis/4 && len(out)*10 > c.varEnd(v)*9 {
			return nil, nil, nil // not paying on the first quarter
		}
	}
	if (len(out)+fsstTableLen)*10 > len(p.data)*9 {
		return nil, nil, nil
	}
	return e, out, ends
}

// withFsst runs fn with the page's strings FSST-encoded when that pays.
func (c *leaf21) withFsst(fn func() (*page21, error)) (*page21, error) {
	e, out, ends := c.fsstPage()
	if e == nil {
		return fn()
	}
	p := &c.pg
	data, offs := p.data, p.offs
	p.data, p.offs, c.fsst = out, ends, e
	defer func() { p.data, p.offs, c.fsst = data, offs, nil }()
	return fn()
}

// ceFsst is the FSST encoding of variable values with the writer's table.
func (c *leaf21) ceFsst() *enc21pb.CompressiveEncoding {
	return &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_Fsst{Fsst: &enc21pb.Fsst{
		SymbolTable: c.fsst.table(), Values: ceVariable(32)}}}
}
