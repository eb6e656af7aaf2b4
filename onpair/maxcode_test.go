package onpair

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxCodeGo is the obvious twin of the vector check pass.
func maxCodeGo(s []uint16) uint16 {
	var m uint16
	for _, c := range s {
		m = max(m, c)
	}
	return m
}

// TestMaxCodeEveryLengthAndPosition: every vector implementation the CPU
// runs agrees with the Go twin for every length 0..300 (each loop, the
// overlapping last load and the scalar path), with the maximum placed at
// every position, on slices at every alignment, and for a few long slices.
func TestMaxCodeEveryLengthAndPosition(t *testing.T) {
	impls := maxCodeImpls()
	if len(impls) == 0 {
		require.Nil(t, maxCodeFunc, "no implementation listed, none selected")
		return
	}
	require.NotNil(t, maxCodeFunc)
	rng := rand.New(rand.NewPCG(1, 2))
	back := make([]uint16, 2100)
	for name, f := range impls {
		for n := 0; n <= 300; n++ {
			for _, off := range []int{0, 1, 7} {
				s := back[off : off+n]
				for i := range s {
					s[i] = uint16(rng.IntN(1000))
				}
				require.Equal(t, maxCodeGo(s), f(s), "%s len %d", name, n)
				for pos := 0; pos < n; pos++ {
					for _, big := range []uint16{1000, 0x7FFF, 0x8000, 0xFFFF} {
						old := s[pos]
						s[pos] = big
						require.Equal(t, big, f(s), "%s len %d pos %d", name, n, pos)
						s[pos] = old
					}
				}
			}
		}
		for _, n := range []int{1023, 1024, 1025, 2000} {
			s := back[:n]
			for i := range s {
				s[i] = uint16(rng.Uint32())
			}
			require.Equal(t, maxCodeGo(s), f(s), "%s len %d", name, n)
		}
		// Elements past the slice are never read into the result.
		for i := range back {
			back[i] = 0xFFFF
		}
		for n := 0; n <= 100; n++ {
			s := back[50 : 50+n : 50+n]
			clear(s)
			require.Equal(t, uint16(0), f(s), "%s len %d, neighbours 0xFFFF", name, n)
		}
	}
}

// TestDecodeSIMDBadCodeEveryPosition: a single code >= N at any position
// of streams of 0..600 codes (across the 4096-code chunks too, by a
// smaller chunk) makes DecodeInto and DecompressInto fail with
// ErrCodeOutOfRange, whichever check runs; without it both decode
// exactly, with nothing written past an exact dst.
func TestDecodeSIMDBadCodeEveryPosition(t *testing.T) {
	tokens := []string{"a", "bc", "def", "ghij", "klmnopqrstuvwxyz", "0123456"}
	saved := checkChunk
	defer func() { checkChunk = saved }()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, chunk := range []int{4096, 64, 17} {
		checkChunk = chunk
		for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 600} {
			codes := make([]uint16, n)
			for i := range codes {
				codes[i] = uint16(rng.IntN(len(tokens)))
			}
			p := dictOf(tokens, codes)
			d, err := NewDecoder(p)
			require.NoError(t, err)
			want, err := decompressSafe(p)
			require.NoError(t, err)
			buf := bytes.Repeat([]byte{0x5A}, len(want)+MaxTokenSize)
			for f := range decodeVariants() {
				w, err := d.DecodeInto(buf[:len(want)], codes)
				require.NoError(t, err)
				require.Equal(t, want, buf[:w])
				w, err = DecompressInto(buf[:len(want)], p)
				require.NoError(t, err)
				require.Equal(t, want, buf[:w])
				require.Equal(t, bytes.Repeat([]byte{0x5A}, MaxTokenSize), buf[len(want):], "written past dst (%s)", f)
			}
			for pos := 0; pos < n; pos++ {
				for _, bad := range []uint16{uint16(len(tokens)), 0x8000, 0xFFFF} {
					old := codes[pos]
					codes[pos] = bad
					for f := range decodeVariants() {
						_, err := d.DecodeInto(make([]byte, 16*n), codes)
						require.True(t, errors.Is(err, ErrCodeOutOfRange), "%s: chunk %d len %d pos %d: %v", f, chunk, n, pos, err)
						_, err = DecompressInto(make([]byte, 16*n), p)
						require.True(t, errors.Is(err, ErrCodeOutOfRange), "%s: one-shot chunk %d len %d pos %d: %v", f, chunk, n, pos, err)
					}
					codes[pos] = old
				}
			}
		}
	}
}

// decodeVariants runs its caller's loop body once per kernel choice the
// decoders can make on this machine: each vector check implementation
// with the assembly gather loop where built (asmGather) and with the Go
// loop, then the fused Go check (maxCodeFunc nil), restoring the
// selection at the end. It yields the names through a range-over-func.
func decodeVariants() func(func(string) bool) {
	return func(yield func(string) bool) {
		saved, savedGather := maxCodeFunc, asmGather
		defer func() { maxCodeFunc, asmGather = saved, savedGather }()
		for name, f := range maxCodeImpls() {
			maxCodeFunc = f
			asmGather = savedGather
			if !yield(name) {
				return
			}
			asmGather = false
			if !yield(name + "/go-loop") {
				return
			}
		}
		maxCodeFunc, asmGather = nil, savedGather
		yield("fused")
	}
}

// FuzzDiffCheckPass compares the decoders with the vector check pass
// (each implementation this CPU runs), with the fused Go check, and with
// the exact twin, on streams of 0..2000 arbitrary codes (so codes >= N
// occur at any position, often or never) over a dictionary of 1..300
// tokens, into an exact dst and a short one.
func FuzzDiffCheckPass(f *testing.F) {
	f.Add([]byte{5, 1, 16, 3, 7, 2}, []byte{0, 1, 2, 3, 4, 4, 3, 2, 1, 0}, uint16(40), uint8(0))
	f.Add([]byte{200}, []byte{1, 0, 9, 0, 255, 255}, uint16(2000), uint8(1))
	f.Add([]byte{1}, []byte{}, uint16(0), uint8(2))
	f.Fuzz(func(t *testing.T, dictSpec []byte, codeBytes []byte, m uint16, mode uint8) {
		if len(dictSpec) < 1 {
			return
		}
		n := int(dictSpec[0]) + int(mode>>4)*16 + 1
		tokens := make([]string, n)
		for i := range tokens {
			l := 1
			if 1+i < len(dictSpec) {
				l = int(dictSpec[1+i])%MaxTokenSize + 1
			}
			tokens[i] = string(bytes.Repeat([]byte{byte('A' + i%26)}, l))
		}
		codes := make([]uint16, int(m)%2001)
		for i := range codes {
			var c uint16
			if len(codeBytes) >= 2 {
				k := 2 * (i % (len(codeBytes) / 2))
				c = uint16(codeBytes[k]) | uint16(codeBytes[k+1])<<8
			}
			switch mode & 3 {
			case 0: // all valid
				c %= uint16(n)
			case 1: // mostly valid, the code bytes' large values out of range
				if c < 0x8000 {
					c %= uint16(n)
				}
			}
			codes[i] = c
		}
		p := dictOf(tokens, codes)
		want, serr := decompressSafe(p)
		d, err := NewDecoder(p)
		require.NoError(t, err)
		size := 16 * len(codes)
		if serr == nil {
			size = len(want)
		}
		for name := range decodeVariants() {
			for _, short := range []int{0, 1, 17} {
				if short > size {
					continue
				}
				buf := bytes.Repeat([]byte{0x5A}, size+MaxTokenSize)
				dst := buf[:size-short]
				for who, call := range map[string]func() (int, error){
					"DecodeInto":     func() (int, error) { return d.DecodeInto(dst, codes) },
					"DecompressInto": func() (int, error) { return DecompressInto(dst, p) },
				} {
					w, err := call()
					switch {
					case serr != nil:
						if !errors.Is(err, ErrCodeOutOfRange) {
							t.Fatalf("%s/%s: err %v, want ErrCodeOutOfRange", name, who, err)
						}
					case short > 0 && len(want) > 0:
						if !errors.Is(err, ErrInvalidArgument) {
							t.Fatalf("%s/%s: short dst by %d: err %v", name, who, short, err)
						}
					default:
						if err != nil || !bytes.Equal(buf[:w], want) {
							t.Fatalf("%s/%s: %q, %v; want %q", name, who, buf[:w], err, want)
						}
					}
					if !bytes.Equal(buf[len(dst):], bytes.Repeat([]byte{0x5A}, len(buf)-len(dst))) {
						t.Fatalf("%s/%s wrote past dst", name, who)
					}
				}
			}
		}
	})
}

// TestGatherAsmMatchesGo: AppendAll (gatherValid) with the assembly loop
// and with the Go loop give the same bytes on streams of 0..300 codes over
// dictionaries with tokens of every length, and stop at the same place
// in an out with little room. On a build without the assembly loop
// (asmGather false: not amd64, or purego) the Go loop is checked alone.
func TestGatherAsmMatchesGo(t *testing.T) {
	saved := asmGather
	defer func() { asmGather = saved }()
	loops := []bool{false}
	if saved {
		loops = append(loops, true)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	tokens := make([]string, 300)
	for i := range tokens {
		tokens[i] = string(bytes.Repeat([]byte{byte('a' + i%26)}, i%MaxTokenSize+1))
	}
	tab, err := newFatTable(dictOf(tokens, nil))
	require.NoError(t, err)
	for n := 0; n <= 300; n++ {
		codes := make([]uint16, n)
		for i := range codes {
			codes[i] = uint16(rng.IntN(len(tokens)))
		}
		want, err := decompressSafe(dictOf(tokens, codes))
		require.NoError(t, err)
		for _, room := range []int{len(want) + MaxTokenSize, 300, 600} {
			var res [2][]byte
			var ws, is [2]int
			for k, asm := range loops {
				asmGather = asm
				out := make([]byte, room)
				ws[k], is[k] = tab.gatherValid(out, 3, codes, 0)
				res[k] = out[:ws[k]]
			}
			last := len(loops) - 1
			require.Equal(t, ws[0], ws[last], "n %d room %d", n, room)
			require.Equal(t, is[0], is[last], "n %d room %d", n, room)
			require.Equal(t, res[0], res[last], "n %d room %d", n, room)
			if room > len(want)+MaxTokenSize-1 && is[last] > 0 {
				require.Equal(t, want[:ws[last]-3], res[last][3:])
			}
		}
	}
}

// BenchmarkMaxCode times the vector check pass per code (each
// implementation this CPU runs) on 1024 codes, a chunk in L1.
func BenchmarkMaxCode(b *testing.B) {
	codes := make([]uint16, 1024)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range codes {
		codes[i] = uint16(rng.IntN(4096))
	}
	for name, f := range maxCodeImpls() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(2 * int64(len(codes)))
			b.ReportAllocs()
			var s uint16
			for b.Loop() {
				s |= f(codes)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
			sink16 = s
		})
	}
}

var sink16 uint16

// TestPackedLoopsAsmAndGo runs the packed decoders' width tests (every
// width 8..16, out-of-range codes anywhere and in whole blocks, full
// dictionaries) with the assembly loops (packed_asm_amd64.s, where built)
// and with the Go loops.
func TestPackedLoopsAsmAndGo(t *testing.T) {
	saved := packedAsmOn
	defer func() { packedAsmOn = saved }()
	for _, on := range []bool{saved, false} {
		packedAsmOn = on
		TestPackedEveryWidthFullRange(t)
		TestDecodePackedFullDictionary(t)
		TestDecompressPacked(t)
	}
}

// TestAppendRowLongLoops: AppendRow with the assembly loop for rows of
// more than eight codes (rowAsm, where built) and with the Go loop, on
// rows of 0..20 codes (TestAppendRowEveryLength) and of 9..40 codes whose
// last group runs past the row (padded) or would run past the codes (the
// last row, 9..40 codes: the Go path then), into a reused buffer, a
// short one and one holding a prefix.
func TestAppendRowLongLoops(t *testing.T) {
	saved := rowAsm
	defer func() { rowAsm = saved }()
	for _, on := range []bool{saved, false} {
		rowAsm = on
		TestAppendRowEveryLength(t)
		toks := []string{"a", "bb", "ccc", "dddddddddddddddd", "0123456789abcde", "xyz"}
		for last := 9; last <= 40; last++ {
			var codes []uint16
			offs := []uint32{0}
			var want [][]byte
			for r := 0; r < 40; r++ {
				k := 9 + r%32
				if r == 39 {
					k = last
				}
				var row []byte
				for j := 0; j < k; j++ {
					c := uint16((r*7 + j*5) % len(toks))
					codes = append(codes, c)
					row = append(row, toks[c]...)
				}
				offs = append(offs, uint32(len(codes)))
				want = append(want, row)
			}
			col, err := NewColumn(dictOf(toks, codes), offs)
			require.NoError(t, err)
			var reused []byte
			for r := range want {
				reused, err = col.AppendRow(reused[:0], r)
				require.NoError(t, err)
				require.Equal(t, want[r], reused, "asm %v last %d row %d", on, last, r)
				got, err := col.AppendRow([]byte("pre"), r)
				require.NoError(t, err)
				require.Equal(t, append([]byte("pre"), want[r]...), got)
			}
		}
	}
}

// TestAssemblyChunks: streams longer than asmChunk (codes, or packed
// bytes) decode the same with the assembly loops, which then take several
// calls, as with the Go loops and the exact twin: AppendDecode, DecodeInto
// and AppendDecodePacked at widths 9, 12 and 16, on 3*asmChunk+5 codes.
func TestAssemblyChunks(t *testing.T) {
	savedG, savedP := asmGather, packedAsmOn
	defer func() { asmGather, packedAsmOn = savedG, savedP }()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, width := range []uint32{9, 12, 16} {
		n := min(1<<width, 3000)
		toks := make([]string, n)
		for i := range toks {
			toks[i] = string(bytes.Repeat([]byte{byte(i), byte(i >> 8)}, 8))[:1+i%16]
		}
		codes := make([]uint16, 3*asmChunk+5)
		for i := range codes {
			codes[i] = uint16(rng.IntN(n))
		}
		p := dictOf(toks, codes)
		p.Bits = width
		want, err := decompressSafe(p)
		require.NoError(t, err)
		d, err := NewDecoder(p)
		require.NoError(t, err)
		packed := PackCodes(codes, width)
		for _, on := range []bool{savedG, false} {
			asmGather, packedAsmOn = on, on && savedP
			got, err := d.AppendDecode(nil, codes)
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, got), "AppendDecode width %d asm %v", width, on)
			buf := make([]byte, len(want))
			w, err := d.DecodeInto(buf, codes)
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, buf[:w]), "DecodeInto width %d asm %v", width, on)
			got, err = d.AppendDecodePacked(nil, packed, len(codes))
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, got), "AppendDecodePacked width %d asm %v", width, on)
		}
	}
}
