package lance

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/internal/shareddata"
)

func readAllRecords(t testing.TB, f *File, o ReadOptions) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for rec, err := range f.Records(o) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// The direct path reads exactly what the general path reads, for every
// real data file and the bench file, in batches that start and end inside
// chunks and pages.
func TestV21DirectSameAsGeneral(t *testing.T) {
	root := shareddata.Path(t, "lance21")
	files, _ := filepath.Glob(filepath.Join(root, "2.*", "*.lance", "data", "*.lance"))
	if len(files) < 10 {
		t.Fatalf("only %d data files under %s", len(files), root)
	}
	datas := map[string][]byte{"bench22": bench22File()}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		datas[rel] = data
	}
	for name, data := range datas {
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []ReadOptions{{}, {BatchRows: 777}, {Offset: f.NumRows() / 3, Limit: f.NumRows()/3 + 1, BatchRows: 1500}} {
			f.cfg.forceGeneral = false
			got := readAllRecords(t, f, o)
			f.cfg.forceGeneral = true
			want := readAllRecords(t, f, o)
			if len(got) != len(want) {
				t.Fatalf("%s %+v: %d batches, general path %d", name, o, len(got), len(want))
			}
			for i := range got {
				for c := range got[i].Columns() {
					g, w := got[i].Column(c), want[i].Column(c)
					// NaN != NaN in array.Equal: then compare the text.
					if !array.Equal(g, w) && (g.String() != w.String() || g.NullN() != w.NullN() || !arrow.TypeEqual(g.DataType(), w.DataType())) {
						t.Fatalf("%s %+v batch %d column %s differs from the general path", name, o, i, got[i].ColumnName(c))
					}
				}
				got[i].Release()
				want[i].Release()
			}
		}
	}
}

// BenchmarkRead21Real reads real LanceDB data files (2.2 primitives and
// strings, 2.1 wide; bit-packed, dictionary and FSST pages) through the
// direct path and with it turned off (the general path, same run).
func BenchmarkRead21Real(b *testing.B) {
	root := shareddata.Path(b, "lance21")
	for _, name := range []string{"2.2/primitives", "2.2/strings", "2.1/wide"} {
		files, _ := filepath.Glob(filepath.Join(root, name+".lance", "data", "*.lance"))
		if len(files) != 1 {
			b.Fatalf("%s: %d data files", name, len(files))
		}
		data, err := os.ReadFile(files[0])
		if err != nil {
			b.Fatal(err)
		}
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		for _, path := range []struct {
			name string
			off  bool
		}{{"direct", false}, {"general", true}} {
			b.Run(filepath.Base(name)+"/"+path.name, func(b *testing.B) {
				f.cfg.forceGeneral = path.off
				defer func() { f.cfg.forceGeneral = false }()
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					for rec, err := range f.Records(ReadOptions{}) {
						if err != nil {
							b.Fatal(err)
						}
						rec.Release()
					}
				}
				b.ReportMetric(float64(f.NumRows()*int64(b.N))/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

// directVsGeneral plans one page as Open does and, when the plan gives it
// a direct decoder, decodes rows [a, b) through it and through the general
// decoder. ok reports the page was planned direct and both read it. A
// direct decoder may not fail where the general one reads the page, nor
// read a whole page the general one refuses.
func directVsGeneral(t *testing.T, minor uint16, layout []byte, bufs [][]byte, rows, a, b int64, leafType arrow.DataType) bool {
	var data []byte
	var ranges []bufRange
	for _, x := range bufs {
		ranges = append(ranges, bufRange{int64(len(data)), int64(len(x))})
		data = append(data, x...)
	}
	f := &File{r: bytes.NewReader(data), size: int64(len(data)), cfg: defaultConfig(), major: 2, minor: minor}
	f.cfg.maxBuffer = 1 << 24
	f.cfg.memLimit = 1 << 26
	col := &column{path: "fuzz column", rows: rows}
	pg := &page{length: rows, buffers: ranges}
	if err := f.parsePage21(col, pg, layout, 0, "fuzz page"); err != nil || pg.layout.err != nil {
		return false
	}
	col.pages = []*page{pg}
	f.columns = []*column{col}
	path := syntheticPath(pg.layout.layers, leafType)
	leaf := path[len(path)-1]
	col.field = leaf
	f.planColumn21(col)
	if pg.decoder == decGeneral || a >= b {
		return false
	}
	r := f.newReader()
	r.mem = memBudget{limit: f.cfg.memLimit}
	got, errDirect := r.leafRows21(leaf, a, b)
	r2 := f.newReader()
	r2.mem = memBudget{limit: f.cfg.memLimit}
	pd, d, err := r2.decodePage21(col, 0, -1)
	var ad arrow.ArrayData
	if err == nil {
		ad, err = d.assemble(pd, path, pg.layout.layers)
	}
	switch {
	case errDirect != nil && err == nil:
		ad.Release()
		t.Fatalf("rows %d..%d: the %s decoder fails (%v), the general decoder reads the page", a, b, pg.decoder, errDirect)
	case errDirect != nil:
		if !errors.Is(errDirect, ErrCorrupt) && !errors.Is(errDirect, ErrTooLarge) {
			t.Fatalf("direct decoder error %v wraps neither ErrCorrupt nor ErrTooLarge", errDirect)
		}
		return false
	case err != nil:
		got.Release()
		if a == 0 && b == rows {
			t.Fatalf("the %s decoder read the page, the general decoder fails: %v", pg.decoder, err)
		}
		return false
	}
	defer got.Release()
	g := array.MakeFromData(got)
	defer g.Release()
	defer ad.Release()
	whole := array.MakeFromData(ad)
	defer whole.Release()
	w := array.NewSlice(whole, a, b)
	defer w.Release()
	if g.Len() != w.Len() || g.NullN() != w.NullN() || (!array.Equal(g, w) && g.String() != w.String()) {
		t.Fatalf("rows %d..%d: direct %v, general %v", a, b, g, w)
	}
	return true
}

// FuzzDiffDirect21 compares the direct path with the general one on
// mutated real pages, whole and in windows: same rows, never a panic.
func FuzzDiffDirect21(f *testing.F) {
	for _, s := range realPageSeeds(f, 4<<10) {
		var b [4][]byte
		copy(b[:], s.bufs)
		f.Add(s.layout, b[0], b[1], b[2], b[3], uint8(len(s.bufs)), uint32(s.rows), uint8(s.leaf), s.minor == 2, uint32(0), uint32(s.rows))
		f.Add(s.layout, b[0], b[1], b[2], b[3], uint8(len(s.bufs)), uint32(s.rows), uint8(s.leaf), s.minor == 2, uint32(s.rows/3), uint32(s.rows/2+1))
	}
	for _, s := range fullZipSeeds(f) {
		var b [4][]byte
		copy(b[:], s.bufs)
		f.Add(s.layout, b[0], b[1], b[2], b[3], uint8(len(s.bufs)), uint32(s.rows), uint8(s.leaf), s.minor == 2, uint32(s.rows/3), uint32(s.rows/2+1))
	}
	f.Fuzz(func(t *testing.T, layout, b0, b1, b2, b3 []byte, nb uint8, rows uint32, leaf uint8, v22 bool, a, b uint32) {
		bufs := [][]byte{b0, b1, b2, b3}[:nb%5]
		minor := uint16(1)
		if v22 {
			minor = 2
		}
		n := int64(rows % 100000)
		lo := int64(a) % (n + 1)
		hi := lo + int64(b)%(n-lo+1)
		directVsGeneral(t, minor, layout, bufs, n, lo, hi, leafTypes[int(leaf)%len(leafTypes)])
	})
}

// Every small real page the direct path takes reads the same through both
// paths, whole and in a window.
func TestV21DirectPages(t *testing.T) {
	seeds := realPageSeeds(t, 1<<20)
	taken := 0
	for _, s := range seeds {
		if directVsGeneral(t, s.minor, s.layout, s.bufs, s.rows, 0, s.rows, leafTypes[s.leaf]) {
			taken++
		}
		directVsGeneral(t, s.minor, s.layout, s.bufs, s.rows, s.rows/3, s.rows/2+1, leafTypes[s.leaf])
	}
	if taken < 20 {
		t.Fatalf("the direct path took %d of %d real pages", taken, len(seeds))
	}
	t.Logf("the direct path took %d of %d real pages", taken, len(seeds))
}

// unpackChunk's specialised loops invert the reference packer at every
// width of every value size.
func TestV21UnpackAllWidths(t *testing.T) {
	seed := uint64(0x9e3779b97f4a7c15)
	for _, tb := range []int{8, 16, 32, 64} {
		for w := 0; w <= tb; w++ {
			vals := make([]uint64, 1024)
			for i := range vals {
				seed ^= seed << 13
				seed ^= seed >> 7
				seed ^= seed << 17
				if w < 64 {
					vals[i] = seed & (1<<w - 1)
				} else {
					vals[i] = seed
				}
			}
			out := make([]byte, 1024*tb/8)
			unpackChunk(packChunkRef(vals, tb, w), tb, w, out)
			for i, v := range vals {
				if got := readWord(out, i, tb); got != v {
					t.Fatalf("t=%d w=%d value %d: %#x, want %#x", tb, w, i, got, v)
				}
			}
		}
	}
}

// fullZipSeeds are small full-zip pages of 64-float vectors (nullable, a
// def control word per entry) written by this package, 2.1 and 2.2.
func fullZipSeeds(tb testing.TB) []pageSeed {
	vt := arrow.FixedSizeListOf(64, arrow.PrimitiveTypes.Float32)
	leaf := len(leafTypes) - 1
	if !arrow.TypeEqual(leafTypes[leaf], vt) {
		tb.Fatalf("leafTypes ends with %s, want %s", leafTypes[leaf], vt)
	}
	var seeds []pageSeed
	for _, ver := range []string{"2.1", "2.2"} {
		schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: vt, Nullable: true}}, nil)
		rec := randRecord(schema, 12, rand.New(rand.NewPCG(5, 6)), genOpts{pNull: 0.2})
		data := writeFullZip(tb, rec, 1<<20, WithFormatVersion(ver))
		rec.Release()
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			tb.Fatal(err)
		}
		pg := f.columns[0].pages[0]
		if pg.layout.kind != fullZip {
			tb.Fatalf("%s: %s, want a full-zip page", ver, pg.layout.describe())
		}
		s := pageSeed{minor: f.minor, layout: pg.layout.raw, rows: pg.length, leaf: leaf}
		for _, r := range pg.buffers {
			s.bufs = append(s.bufs, data[r.off:r.off+r.size])
		}
		seeds = append(seeds, s)
	}
	return seeds
}

// The full-zip seeds go through the direct decoder and read as the
// general one does, whole and in a window.
func TestV21DirectFullZipPages(t *testing.T) {
	for _, s := range fullZipSeeds(t) {
		if !directVsGeneral(t, s.minor, s.layout, s.bufs, s.rows, 0, s.rows, leafTypes[s.leaf]) {
			t.Fatalf("2.%d full-zip page not taken by the direct path", s.minor)
		}
		directVsGeneral(t, s.minor, s.layout, s.bufs, s.rows, s.rows/3, s.rows/2+1, leafTypes[s.leaf])
	}
}
