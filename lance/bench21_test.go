package lance

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sync"
	"testing"

	pb "github.com/colfmt/colfmt/lance/internal/enc21pb"
)

// A test-only 2.2 mini-block page writer: raw u16 levels (flat 16) and the
// given value encoding, chunks of up to 1024 visible values.

func u16s(vs []uint16) []byte {
	out := make([]byte, 2*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint16(out[2*i:], v)
	}
	return out
}

func pad8b(b []byte, with byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, with)
	}
	return b
}

// mbPage22 lays out one page: levels (nil rep/def = none), the visible
// values cut into chunks by chunkVals(i, j) (value buffer of visible items
// i..j), layers innermost first.
func mbPage22(rows int, layers []pb.RepDefLayer, value *pb.CompressiveEncoding, rep, def []uint16, visible int,
	isVisible func(k int) bool, chunkVals func(i, j int) []byte) tPage {
	hasLv := rep != nil || def != nil
	nEntries := visible
	if hasLv {
		nEntries = max(len(rep), len(def))
	}
	var meta, chunks []byte
	k, item := 0, 0
	for item < visible || (k < nEntries && hasLv) {
		n := min(1024, visible-item)
		k0 := k
		if hasLv {
			seen := 0
			for k < nEntries && (seen < n || !isVisible(k)) {
				if isVisible(k) {
					seen++
				}
				k++
			}
		} else {
			k += n
		}
		ch := binary.LittleEndian.AppendUint16(nil, uint16(k-k0))
		if !hasLv {
			ch = ch[:0]
			ch = binary.LittleEndian.AppendUint16(ch, 0)
		}
		var rb, db []byte
		if rep != nil {
			rb = u16s(rep[k0:k])
			ch = binary.LittleEndian.AppendUint16(ch, uint16(len(rb)))
		}
		if def != nil {
			db = u16s(def[k0:k])
			ch = binary.LittleEndian.AppendUint16(ch, uint16(len(db)))
		}
		vb := chunkVals(item, item+n)
		ch = binary.LittleEndian.AppendUint32(ch, uint32(len(vb)))
		ch = pad8b(ch, 0xfe)
		if rb != nil {
			ch = pad8b(append(ch, rb...), 0xfe)
		}
		if db != nil {
			ch = pad8b(append(ch, db...), 0xfe)
		}
		ch = pad8b(append(ch, vb...), 0xfe)
		lg := 0
		item += n
		if item < visible || k < nEntries {
			lg = bits.Len(uint(n)) - 1
		}
		meta = binary.LittleEndian.AppendUint32(meta, uint32((len(ch)/8-1)<<4|lg))
		chunks = append(chunks, ch...)
	}
	ml := &pb.MiniBlockLayout{ValueCompression: value, NumItems: uint64(visible), NumBuffers: 1, HasLargeChunk: true, Layers: layers}
	if rep != nil {
		ml.RepCompression = flat(16)
	}
	if def != nil {
		ml.DefCompression = flat(16)
	}
	return tPage{bufs: [][]byte{meta, chunks}, length: uint64(rows), layout: &pb.PageLayout{Layout: &pb.PageLayout_MiniBlockLayout{MiniBlockLayout: ml}}}
}

// packChunkRef is the inverse of unpackChunk: 1,024 t-bit values packed
// at w bits in FastLanes order (test-only writer).
func packChunkRef(vals []uint64, t, w int) []byte {
	out := make([]byte, packedChunkBytes(w))
	if w == 0 {
		return out
	}
	lanes := 1024 / t
	mask := uint64(1)<<w - 1
	if w == 64 {
		mask = ^uint64(0)
	}
	for r := 0; r < t; r++ {
		bit := r * w
		k, sh := bit/t, bit%t
		base := fastlanesOrder[r/8]*16 + (r%8)*128
		for l := 0; l < lanes; l++ {
			v := vals[base+l] & mask
			putWord(out, lanes*k+l, t, readWord(out, lanes*k+l, t)|v<<sh)
			if sh+w > t {
				putWord(out, lanes*(k+1)+l, t, readWord(out, lanes*(k+1)+l, t)|v>>(t-sh))
			}
		}
	}
	return out
}

// inlinePacked is an inline bit-packed mini-block buffer: per 1,024
// values (the last block zero-padded) a t-bit width word and the block.
func inlinePacked(vals []uint64, t int) []byte {
	var out []byte
	for s := 0; s < len(vals); s += 1024 {
		blk := make([]uint64, 1024)
		copy(blk, vals[s:min(len(vals), s+1024)])
		w := 0
		for _, v := range blk {
			w = max(w, bits.Len64(v))
		}
		word := make([]byte, t/8)
		putWord(word, 0, t, uint64(w))
		out = append(out, word...)
		out = append(out, packChunkRef(blk, t, w)...)
	}
	return out
}

func inlineBitpacking(t uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: t}}}
}

var bench22Once sync.Once
var bench22Bytes []byte

// bench22File holds the rows of benchFile as a Lance 2.2 file: the same
// columns, pages of 8192 rows, mini-block pages with raw levels; integers
// bit-packed (as LanceDB writes them), floats flat, strings variable.
func bench22File() []byte {
	bench22Once.Do(func() {
		tf := &tFile{pad: true, rows: benchRows, major: 2, minor: 2, fields: top(
			fld(0, -1, "i", "int64", false), fld(1, -1, "f", "double", true), fld(2, -1, "s", "string", true),
			fld(3, -1, "l", "list", true), fld(4, 3, "item", "int32", true), fld(5, -1, "v", "fixed_size_list:float:16", true))}
		var ci, cf, cs, citems, cv tCol
		variable := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{Variable: &pb.Variable{Offsets: flat(32)}}}
		fsl := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_FixedSizeList{FixedSizeList: &pb.FixedSizeList{ItemsPerValue: 16, Values: flat(32)}}}
		all := func(int) bool { return true }
		item := 0
		for start := 0; start < benchRows; start += benchPageRows {
			n := min(benchPageRows, benchRows-start)
			// i is bit-packed, as LanceDB writes integers.
			ci.pages = append(ci.pages, mbPage22(n, []pb.RepDefLayer{1}, inlineBitpacking(64), nil, nil, n, all, func(a, b int) []byte {
				var vs []uint64
				for r := start + a; r < start+b; r++ {
					vs = append(vs, uint64(r*7919))
				}
				return inlinePacked(vs, 64)
			}))
			fdef := make([]uint16, n)
			sdef := make([]uint16, n)
			for k := range fdef {
				if (start+k)%10 == 5 {
					fdef[k] = 1
				}
				if (start+k)%10 == 0 {
					sdef[k] = 1
				}
			}
			cf.pages = append(cf.pages, mbPage22(n, []pb.RepDefLayer{3}, flat(64), nil, fdef, n, all, func(a, b int) []byte {
				var out []byte
				for r := start + a; r < start+b; r++ {
					out = binary.LittleEndian.AppendUint64(out, math.Float64bits(float64(r)*0.25))
				}
				return out
			}))
			cs.pages = append(cs.pages, mbPage22(n, []pb.RepDefLayer{3}, variable, nil, sdef, n, all, func(a, b int) []byte {
				var data []byte
				offs := make([]uint32, 0, b-a+1)
				for r := start + a; r < start+b; r++ {
					offs = append(offs, uint32(len(data)))
					if r%10 != 0 {
						data = fmt.Appendf(data, "value-%d", r)
					}
				}
				offs = append(offs, uint32(len(data)))
				hdr := uint32(4 * len(offs))
				var out []byte
				for _, o := range offs {
					out = binary.LittleEndian.AppendUint32(out, o+hdr)
				}
				out = append(out, data...)
				for len(out)%4 != 0 {
					out = append(out, 0x48)
				}
				return out
			}))
			// l: lists of r%5 items (0 = empty), never null.
			var lrep, ldef []uint16
			var items []uint32
			for r := start; r < start+n; r++ {
				if r%5 == 0 {
					lrep, ldef = append(lrep, 1), append(ldef, 1)
					continue
				}
				for k := 0; k < r%5; k++ {
					rp := uint16(0)
					if k == 0 {
						rp = 1
					}
					lrep, ldef = append(lrep, rp), append(ldef, 0)
					items = append(items, uint32(item))
					item++
				}
			}
			citems.pages = append(citems.pages, mbPage22(n, []pb.RepDefLayer{1, 5}, inlineBitpacking(32), lrep, ldef, len(items),
				func(k int) bool { return ldef[k] == 0 }, func(a, b int) []byte {
					vs := make([]uint64, b-a)
					for i, x := range items[a:b] {
						vs[i] = uint64(x)
					}
					return inlinePacked(vs, 32)
				}))
			cv.pages = append(cv.pages, mbPage22(n, []pb.RepDefLayer{1}, fsl, nil, nil, n, all, func(a, b int) []byte {
				var out []byte
				for r := start + a; r < start+b; r++ {
					for k := 0; k < 16; k++ {
						out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(r+k)))
					}
				}
				return out
			}))
		}
		tf.cols = []tCol{ci, cf, cs, citems, cv}
		bench22Bytes = tf.bytes()
	})
	return bench22Bytes
}

// The 2.2 bench file holds the same rows as the 2.0 one.
func TestBench22SameRows(t *testing.T) {
	a, b := bench22File(), benchFile()
	fa, err := Open(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	ra, err := fa.Read(ReadOptions{Offset: 8000, Limit: 600})
	if err != nil {
		t.Fatal(err)
	}
	defer ra.Release()
	rb, err := fb.Read(ReadOptions{Offset: 8000, Limit: 600})
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Release()
	for c := range ra.Columns() {
		for i := 0; i < int(ra.NumRows()); i++ {
			x, y := normalize(expectedValue(ra.Column(c), i)), normalize(expectedValue(rb.Column(c), i))
			if fmt.Sprint(x) != fmt.Sprint(y) {
				t.Fatalf("column %d row %d: 2.2 %v, 2.0 %v", c, 8000+i, x, y)
			}
		}
	}
}

// BenchmarkRead22 reads the same rows from a 2.2 and a 2.0 file in one
// run: all columns, and one column (int64 i, string s, list l), as rows/s
// and MB/s of file bytes; 2.2-general is the 2.2 file with the direct path
// turned off.
func BenchmarkRead22(b *testing.B) {
	for _, v := range []struct {
		name    string
		data    []byte
		general bool // the direct path turned off
	}{{"2.2", bench22File(), false}, {"2.2-general", bench22File(), true}, {"2.0", benchFile(), false}} {
		f, err := Open(bytes.NewReader(v.data), int64(len(v.data)))
		if err != nil {
			b.Fatal(err)
		}
		for _, sel := range []struct {
			name string
			cols []string
		}{{"all", nil}, {"one=i", []string{"i"}}, {"one=s", []string{"s"}}, {"one=l", []string{"l"}}} {
			b.Run(v.name+"/"+sel.name, func(b *testing.B) {
				f.cfg.forceGeneral = v.general
				defer func() { f.cfg.forceGeneral = false }()
				b.SetBytes(int64(len(v.data)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					for rec, err := range f.Records(ReadOptions{Columns: sel.cols}) {
						if err != nil {
							b.Fatal(err)
						}
						rec.Release()
					}
				}
				b.ReportMetric(float64(benchRows*b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
