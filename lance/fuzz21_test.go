package lance

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

// leafTypes are the leaf types the page fuzzer decodes a page as.
var leafTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean,
	arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32), arrow.PrimitiveTypes.Float64,
	arrow.BinaryTypes.Binary, arrow.PrimitiveTypes.Int64, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float32),
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.FixedWidthTypes.Float16,
	&arrow.Decimal128Type{Precision: 18, Scale: 2}, &arrow.FixedSizeBinaryType{ByteWidth: 16},
	arrow.FixedWidthTypes.Date32, arrow.PrimitiveTypes.Float32,
	arrow.FixedSizeListOf(3, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)),
	arrow.FixedSizeListOf(64, arrow.PrimitiveTypes.Float32), // full-zip pages
}

// syntheticPath builds a field path for a page's layers: list layers
// become lists, other inner layers structs, layer 0 a leaf of type leaf.
func syntheticPath(layers []layer, leaf arrow.DataType) []*fieldNode {
	L := len(layers)
	nodes := make([]*fieldNode, L)
	dt := leaf
	for j := 0; j < L; j++ {
		n := &fieldNode{pb: &filepb.Field{}, name: "c", col: -1}
		if j == 0 {
			n.col = 0
		} else {
			f := arrow.Field{Name: "c", Type: dt, Nullable: true}
			if layers[j].isList() {
				dt = arrow.ListOfField(f)
			} else {
				dt = arrow.StructOf(f)
			}
		}
		n.dt = dt
		nodes[L-1-j] = n
	}
	for i := 1; i < L; i++ {
		nodes[i].parent = nodes[i-1]
		nodes[i-1].children = []*fieldNode{nodes[i]}
	}
	return nodes
}

// decodeOnePage runs one page through the plan and the decoder exactly
// as Open and Records do, then renders every row.
func decodeOnePage(minor uint16, layout []byte, bufs [][]byte, rows int64, leaf arrow.DataType) ([]any, error) {
	var data []byte
	var ranges []bufRange
	for _, b := range bufs {
		ranges = append(ranges, bufRange{int64(len(data)), int64(len(b))})
		data = append(data, b...)
	}
	f := &File{r: bytes.NewReader(data), size: int64(len(data)), cfg: defaultConfig(), major: 2, minor: minor}
	f.cfg.maxBuffer = 1 << 24
	f.cfg.memLimit = 1 << 26
	col := &column{path: "fuzz column", rows: rows}
	pg := &page{length: rows, buffers: ranges}
	if err := f.parsePage21(col, pg, layout, 0, "fuzz page"); err != nil {
		return nil, err
	}
	if pg.layout.err != nil {
		return nil, pg.layout.err
	}
	col.pages = []*page{pg}
	path := syntheticPath(pg.layout.layers, leaf)
	r := f.newReader()
	r.mem = memBudget{limit: f.cfg.memLimit}
	pd, d, err := r.decodePage21(col, 0, -1)
	if err != nil {
		return nil, err
	}
	ad, err := d.assemble(pd, path, pg.layout.layers)
	if err != nil {
		return nil, err
	}
	defer ad.Release()
	arr := array.MakeFromData(ad)
	defer arr.Release()
	out := make([]any, arr.Len())
	for i := range out {
		out[i] = expectedValue(arr, i)
	}
	return out, nil
}

type pageSeed struct {
	minor  uint16
	layout []byte
	bufs   [][]byte
	rows   int64
	leaf   int
}

// realPageSeeds collects small pages of the real LanceDB files whose
// field path is lists and structs over a leaf type of leafTypes.
func realPageSeeds(tb testing.TB, maxBytes int64) []pageSeed {
	root := shareddata.Dir("lance21")
	files, _ := filepath.Glob(filepath.Join(root, "2.*", "*.lance", "data", "*.lance"))
	files = append(files, "testdata/v2_1_alltypes_5rows.lance", "testdata/v2_2_alltypes_5rows.lance")
	var seeds []pageSeed
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
	cols:
		for _, c := range f.columns {
			leaf := -1
			for k, t := range leafTypes {
				if arrow.TypeEqual(c.field.dt, t) {
					leaf = k
				}
			}
			if leaf < 0 || c.field.packed {
				continue
			}
			for x := c.field.parent; x != nil; x = x.parent {
				if _, ok := x.dt.(*arrow.MapType); ok {
					continue cols
				}
			}
			for _, pg := range c.pages {
				var total int64
				for _, r := range pg.buffers {
					total += r.size
				}
				if total > maxBytes || pg.layout.err != nil {
					continue
				}
				s := pageSeed{minor: f.minor, layout: pg.layout.raw, rows: pg.length, leaf: leaf}
				for _, r := range pg.buffers {
					s.bufs = append(s.bufs, b[r.off:r.off+r.size])
				}
				seeds = append(seeds, s)
			}
		}
	}
	return seeds
}

// Every small real page decodes through the page harness to the same rows
// the file reader gives (the harness is the reader's own code path).
func TestV21PageHarness(t *testing.T) {
	seeds := realPageSeeds(t, 1<<20)
	if len(seeds) < 20 {
		t.Skipf("only %d page seeds", len(seeds))
	}
	for i, s := range seeds {
		if _, err := decodeOnePage(s.minor, s.layout, s.bufs, s.rows, leafTypes[s.leaf]); err != nil {
			t.Fatalf("seed %d (%d rows, %s): %v", i, s.rows, leafTypes[s.leaf], err)
		}
	}
}

// FuzzV21Page feeds mutated page layouts and buffers to the 2.1/2.2 page
// decoders and the rep/def assembler: errors must wrap the package
// sentinels, never panic, and allocation stays under the limits.
func FuzzV21Page(f *testing.F) {
	for _, s := range realPageSeeds(f, 4<<10) {
		var b [4][]byte
		copy(b[:], s.bufs)
		f.Add(s.layout, b[0], b[1], b[2], b[3], uint8(len(s.bufs)), uint32(s.rows), uint8(s.leaf), s.minor == 2)
	}
	f.Fuzz(func(t *testing.T, layout, b0, b1, b2, b3 []byte, nb uint8, rows uint32, leaf uint8, v22 bool) {
		bufs := [][]byte{b0, b1, b2, b3}[:nb%5]
		minor := uint16(1)
		if v22 {
			minor = 2
		}
		_, err := decodeOnePage(minor, layout, bufs, int64(rows%100000), leafTypes[int(leaf)%len(leafTypes)])
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("error without a sentinel: %v", err)
		}
	})
}

// ---- rep/def round trip: a reference shredder (the writer's rules) ----

type shredder struct {
	layers   []layer
	first    []uint16
	level    []uint16 // list level of list layers
	vis0     uint16
	rep, def []uint16
	vals     []int32
	src      []byte
	next     int32
	maxRep   uint16
}

func (s *shredder) byte() byte {
	if len(s.src) == 0 {
		return 7
	}
	b := s.src[0]
	s.src = s.src[1:]
	return b
}

// gen makes a random value for layer j: nil, []any, map (struct) or int.
func (s *shredder) gen(j int, depth int) any {
	l := s.layers[j]
	b := s.byte()
	if (l == nullableItem || l == nullableList || l == nullAndEmptyList) && b%5 == 0 {
		return nil
	}
	switch {
	case l.isList():
		if (l == emptyableList || l == nullAndEmptyList) && b%5 == 1 {
			return []any{}
		}
		n := 1 + int(b/5)%3
		out := make([]any, n)
		for i := range out {
			out[i] = s.gen(j-1, depth+1)
		}
		return out
	case j > 0:
		return map[string]any{"c": s.gen(j-1, depth+1)}
	}
	s.next++
	return float64(s.next)
}

func (s *shredder) emit(rep, def uint16) {
	s.rep = append(s.rep, rep)
	s.def = append(s.def, def)
	if def <= s.vis0 {
		if def == 0 {
			s.vals = append(s.vals, int32(s.next))
		} else {
			s.vals = append(s.vals, -1) // placeholder of a null slot
		}
	}
}

func (s *shredder) shred(j int, v any, rep uint16) {
	l := s.layers[j]
	switch x := v.(type) {
	case nil:
		s.emit(rep, s.first[j])
	case []any:
		if len(x) == 0 {
			code := s.first[j]
			if l == nullAndEmptyList {
				code++
			}
			s.emit(rep, code)
			return
		}
		for i, e := range x {
			r := rep
			if i > 0 {
				r = s.level[j] - 1
			}
			s.shred(j-1, e, r)
		}
	case map[string]any:
		s.shred(j-1, x["c"], rep)
	case float64:
		s.next = int32(x)
		s.emit(rep, 0)
	}
}

// FuzzDiffRepDef shreds random nested values into rep/def levels by the
// writer's rules and checks that the assembler rebuilds exactly them.
func FuzzDiffRepDef(f *testing.F) {
	f.Add([]byte{6, 3}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{3, 3, 6}, []byte{0, 1, 5, 6, 11, 20, 30})
	f.Add([]byte{1, 6, 3, 4, 5}, []byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0})
	f.Add([]byte{3, 2, 1, 6}, []byte{2, 2, 2, 0, 0, 1})
	f.Add([]byte{3}, []byte{0, 0, 1, 2})
	f.Fuzz(func(t *testing.T, layerBytes, src []byte) {
		if len(layerBytes) == 0 || len(layerBytes) > 6 {
			return
		}
		layers := make([]layer, len(layerBytes))
		for i, b := range layerBytes {
			layers[i] = layer(b%6 + 1)
		}
		if layers[0].isList() {
			return
		}
		s := &shredder{layers: layers, src: src, vis0: maxVisibleDef(layers)}
		var running uint16 = 1
		for _, l := range layers {
			s.first = append(s.first, running)
			running += l.codes()
			lv := uint16(0)
			if l.isList() {
				s.maxRep++
				lv = s.maxRep
			}
			s.level = append(s.level, lv)
		}
		L := len(layers)
		var want []any
		for len(s.src) > 0 && len(want) < 64 {
			v := s.gen(L-1, 0)
			want = append(want, v)
			s.shred(L-1, v, s.maxRep)
		}
		pd := &pageData{rows: len(want), entries: len(s.rep), rep: s.rep, def: s.def}
		if s.maxRep == 0 {
			pd.rep = nil
		}
		if running == 1 {
			pd.def = nil
		}
		data := make([]byte, 4*len(s.vals))
		for i, x := range s.vals {
			binary.LittleEndian.PutUint32(data[4*i:], uint32(x))
		}
		pd.v = &vals{n: len(s.vals), bits: 32, data: data}
		file := &File{cfg: defaultConfig()}
		d := &dec{f: file, mem: &memBudget{limit: 1 << 30}, path: "fuzz"}
		ad, err := d.assemble(pd, syntheticPath(layers, arrow.PrimitiveTypes.Int32), layers)
		if err != nil {
			t.Fatalf("layers %v: %v", layers, err)
		}
		defer ad.Release()
		arr := array.MakeFromData(ad)
		defer arr.Release()
		for i := range want {
			got := normalize(expectedValue(arr, i))
			if w := normalize(want[i]); !reflect.DeepEqual(got, w) {
				t.Fatalf("layers %v row %d: got %v, want %v (rep %v def %v)", layers, i, got, w, s.rep, s.def)
			}
		}
	})
}
