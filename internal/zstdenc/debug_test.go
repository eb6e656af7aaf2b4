package zstdenc

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/klauspost/compress/huff0"
)

func TestDebugFiles(t *testing.T) {
	files := os.Getenv("ZSTDENC_FILES")
	if files == "" {
		t.Skip()
	}
	debugHook = func(pass, size, nseq, nlit int, ch [3]streamChoice, huffman bool) {
		lb, _ := appendLiterals(nil, append([]byte(nil), debugLits...), new(huff0.Scratch))
		t.Logf("pass %d size %d seqs %d lits %d (section %d) modes %d/%d/%d est bits %.0f/%.0f/%.0f huff %v", pass, size, nseq, nlit, len(lb),
			ch[0].mode, ch[1].mode, ch[2].mode, ch[0].bits, ch[1].bits, ch[2].bits, huffman)
	}
	defer func() { debugHook = nil }()
	for _, f := range strings.Fields(files) {
		src, _ := os.ReadFile(f)
		for _, d := range []int{16, 256, 4096} {
			z := roundTrip(t, src, WithSearchDepth(d))
			t.Logf("%s depth %d: %d", f, d, len(z))
		}
	}
}

var lastLits []byte

// frameStats lists each block's literals and sequences sizes.
func frameStats(z []byte) string {
	p := 4
	fhd := z[p]
	p++
	if fhd&0x20 == 0 {
		p++
	}
	p += []int{0, 2, 4, 8}[fhd>>6]
	if fhd>>6 == 0 && fhd&0x20 != 0 {
		p++
	}
	p += []int{0, 1, 2, 4}[fhd&3]
	var out string
	for p+3 <= len(z) {
		h := int(z[p]) | int(z[p+1])<<8 | int(z[p+2])<<16
		p += 3
		typ, size := h>>1&3, h>>3
		if typ != 2 {
			out += "raw/rle "
			if typ == 1 {
				size = 1
			}
			p += size
			continue
		}
		b := z[p : p+size]
		lt, sf := b[0]&3, b[0]>>2&3
		var regen, comp, hl int
		if lt < 2 {
			switch sf {
			case 0, 2:
				regen, hl = int(b[0]>>3), 1
			case 1:
				regen, hl = int(b[0]>>4)|int(b[1])<<4, 2
			default:
				regen, hl = int(b[0]>>4)|int(b[1])<<4|int(b[2])<<12, 3
			}
			comp = regen
			if lt == 1 {
				comp = 1
			}
		} else {
			v := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32
			switch sf {
			case 0, 1:
				regen, comp, hl = int(v>>4&1023), int(v>>14&1023), 3
			case 2:
				regen, comp, hl = int(v>>4&16383), int(v>>18&16383), 4
			default:
				regen, comp, hl = int(v>>4&262143), int(v>>22&262143), 5
			}
		}
		q := hl + comp
		nb := int(b[q])
		if nb >= 128 && nb < 255 {
			nb = (nb-128)<<8 | int(b[q+1])
		}
		modes := ""
		if nb > 0 {
			mq := q + 1
			if int(b[q]) >= 128 {
				mq++
			}
			modes = fmt.Sprintf(" modes %d/%d/%d", b[mq]>>6, b[mq]>>4&3, b[mq]>>2&3)
		}
		out += fmt.Sprintf("[block %d: lits %d type %d section %d, seqs %d section %d%s] ", size, regen, lt, hl+comp, nb, size-q, modes)
		p += size
	}
	return out
}

func TestDebugStats(t *testing.T) {
	files := os.Getenv("ZSTDENC_FILES")
	if files == "" {
		t.Skip()
	}
	for _, f := range strings.Fields(files) {
		src, _ := os.ReadFile(f)
		z := roundTrip(t, src)
		t.Logf("ours %d: %s", len(z), frameStats(z))
		l, _ := exec.Command("zstd", "-19", "-c", "-q", "--no-check", f).Output()
		t.Logf("zstd %d: %s", len(l), frameStats(l))
	}
}

func TestDebugFinder(t *testing.T) {
	files := os.Getenv("ZSTDENC_FILES")
	if files == "" {
		t.Skip()
	}
	for _, f := range strings.Fields(files) {
		src, _ := os.ReadFile(f)
		prev := buildChains(src)
		miss, have, total := 0, 0, 0
		for p := 0; p+3 <= len(src); p++ {
			ms := chainMatches(nil, src, prev, p, len(src), 4096)
			best := 0
			for c := 0; c < p; c++ {
				best = max(best, matchLen(src[c:], src[p:]))
			}
			if best >= 3 {
				total++
				if len(ms) == 0 {
					miss++
				} else if int(ms[len(ms)-1].length) == best {
					have++
				}
			}
		}
		t.Logf("%s: %d positions with matches, %d found longest, %d none found", f, total, have, miss)
	}
}

func TestDebugMinLits(t *testing.T) {
	files := os.Getenv("ZSTDENC_FILES")
	if files == "" {
		t.Skip()
	}
	for _, f := range strings.Fields(files) {
		src, _ := os.ReadFile(f)
		ps := parser{src: src, prev: buildChains(src), depth: 4096}
		ps.reset(0, len(src))
		var pm priceModel
		for i := range pm.lit {
			pm.lit[i] = 100 * bitCost
		}
		seqs, tail := ps.parse(0, len(src), &pm, [3]uint32{1, 4, 8})
		lits := tail
		for _, s := range seqs {
			lits += int(s.litLen)
		}
		t.Logf("%s: min lits %d in %d seqs", f, lits, len(seqs))
		debugHook = func(pass, size, nseq, nlit int, ch [3]streamChoice, huffman bool) {
			var hist [4]int
			var ofh [32]int
			for _, v := range debugOfv {
				hist[min(v, 4)-1]++
				ofh[ofCode(v)]++
			}
			t.Logf("pass %d size %d seqs %d lits %d rep hist %v ofcodes %v", pass, size, nseq, nlit, hist, ofh)
		}
		roundTrip(t, src)
		debugHook = nil
	}
}
