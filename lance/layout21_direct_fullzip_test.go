package lance

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// writeFullZip writes rec as one 2.2 file with pages of up to pageBytes.
func writeFullZip(t testing.TB, rec arrow.RecordBatch, pageBytes int64, opts ...Option) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, rec.Schema(), append([]Option{WithPageBytes(pageBytes)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Full-zip pages of fixed-width values (vectors, alone or in a struct,
// with and without nulls) are planned for the direct leaf decoder and
// read exactly what the general decoder reads, in batches that cut pages.
func TestFullZipDirectSameAsGeneral(t *testing.T) {
	vec := arrow.FixedSizeListOfNonNullable(96, arrow.PrimitiveTypes.Float32)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "v", Type: vec, Nullable: true},
		{Name: "vn", Type: vec},
		{Name: "wide", Type: arrow.FixedSizeListOfNonNullable(40, arrow.PrimitiveTypes.Float64), Nullable: true},
		{Name: "st", Type: arrow.StructOf(arrow.Field{Name: "v", Type: vec, Nullable: true}), Nullable: true},
	}, nil)
	for _, ver := range []string{"2.1", "2.2"} {
		r := rand.New(rand.NewPCG(7, 9))
		rec := randRecord(schema, 3000, r, genOpts{pNull: 0.1})
		data := writeFullZip(t, rec, 256<<10, WithFormatVersion(ver))
		rec.Release()
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		direct := 0
		for _, col := range f.columns {
			for _, p := range col.pages {
				if p.layout != nil && p.layout.kind == fullZip {
					if p.decoder != decLeaf21 {
						t.Fatalf("%s %s: full-zip page planned %s", ver, col.path, p.decoder)
					}
					direct++
				}
			}
		}
		if direct < 8 {
			t.Fatalf("%s: only %d full-zip pages planned direct", ver, direct)
		}
		for _, o := range []ReadOptions{{}, {BatchRows: 777}, {Offset: 1001, Limit: 1500, BatchRows: 333}, {Columns: []string{"st"}, BatchRows: 100}} {
			f.cfg.forceGeneral = false
			got := readAllRecords(t, f, o)
			f.cfg.forceGeneral = true
			want := readAllRecords(t, f, o)
			if len(got) != len(want) {
				t.Fatalf("%s %+v: %d batches, general path %d", ver, o, len(got), len(want))
			}
			for i := range got {
				for c := range got[i].Columns() {
					g, w := got[i].Column(c), want[i].Column(c)
					if !array.Equal(g, w) {
						t.Fatalf("%s %+v batch %d column %s differs from the general path", ver, o, i, got[i].ColumnName(c))
					}
					if g.NullN() == 0 && c != 1 && g.Len() > 200 {
						t.Fatalf("%s batch %d column %s: no nulls in %d rows (the test wants some)", ver, i, got[i].ColumnName(c), g.Len())
					}
				}
				got[i].Release()
				want[i].Release()
			}
		}
		f.cfg.forceGeneral = false
	}
}

// A def level above the layers' codes in a full-zip control word is a
// located error on both paths, not a panic; bits above the def width are
// ignored on both.
func TestFullZipDirectBadDef(t *testing.T) {
	vt := arrow.FixedSizeListOfNonNullable(64, arrow.PrimitiveTypes.Float32)
	schema := arrow.NewSchema([]arrow.Field{{Name: "st", Type: arrow.StructOf(arrow.Field{Name: "v", Type: vt, Nullable: true}), Nullable: true}}, nil)
	rec := randRecord(schema, 500, rand.New(rand.NewPCG(1, 2)), genOpts{pNull: 0.1})
	defer rec.Release()
	data := writeFullZip(t, rec, 1<<20)
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	p := f.columns[0].pages[0]
	if p.decoder != decLeaf21 || p.layout.kind != fullZip || p.layout.bitsDef != 2 {
		t.Fatalf("page planned %s, layout %s", p.decoder, p.layout.describe())
	}
	read := func(data []byte, general bool) error {
		fb, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		fb.cfg.forceGeneral = general
		for _, err := range fb.Records(ReadOptions{BatchRows: 100}) {
			if err != nil {
				return err
			}
		}
		return nil
	}
	bad := bytes.Clone(data)
	bad[p.buffers[0].off] = 3 // codes: 1 (item) + 1 (struct)
	for _, general := range []bool{false, true} {
		err := read(bad, general)
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("general=%v: def level 3 read with error %v, want ErrCorrupt", general, err)
		}
	}
	if err := read(bad, false); !bytes.Contains([]byte(err.Error()), []byte("definition level 3")) {
		t.Fatalf("error %v, want the definition level", err)
	}
	high := bytes.Clone(data)
	high[p.buffers[0].off] |= 0xf0
	for _, general := range []bool{false, true} {
		if err := read(high, general); err != nil {
			t.Fatalf("general=%v: high control-word bits: %v", general, err)
		}
	}
}

// A read of a large full-zip page in small batches holds about a batch,
// not the page: the live heap high water (after a GC at every batch, the
// batch still held) stays far below the page size on the direct path, and
// is above it on the general path (which decodes and caches the whole
// page), so the test can fail.
func TestFullZipDirectMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MB page: skipped in -short")
	}
	const rows, dim = 8192, 1024 // one 32 MiB page
	vt := arrow.FixedSizeListOfNonNullable(dim, arrow.PrimitiveTypes.Float32)
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: vt, Nullable: true}}, nil)
	rec := randRecord(schema, rows, rand.New(rand.NewPCG(3, 4)), genOpts{pNull: 0.01})
	data := writeFullZip(t, rec, 1<<30)
	rec.Release()
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.columns[0].pages); n != 1 {
		t.Fatalf("%d pages, want one big page", n)
	}
	page := f.columns[0].pages[0].buffers[0].size
	peak := func(general bool) uint64 {
		f.cfg.forceGeneral = general
		defer func() { f.cfg.forceGeneral = false }()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		var hi uint64
		n := 0
		for rec, err := range f.Records(ReadOptions{BatchRows: 128}) {
			if err != nil {
				t.Fatal(err)
			}
			n += int(rec.NumRows())
			runtime.GC() // the live heap, the batch still held
			runtime.ReadMemStats(&ms)
			hi = max(hi, ms.HeapAlloc-min(base, ms.HeapAlloc))
			rec.Release()
		}
		if n != rows {
			t.Fatalf("read %d rows, want %d", n, rows)
		}
		return hi
	}
	direct, general := peak(false), peak(true)
	t.Logf("page %d MB; live heap high water above the start: direct %.1f MB, general %.1f MB", page>>20, float64(direct)/(1<<20), float64(general)/(1<<20))
	if direct > uint64(page)/4 {
		t.Errorf("direct read's heap grew by %d MB for a %d MB page", direct>>20, page>>20)
	}
	if general < uint64(page) {
		t.Errorf("general read's heap grew by only %d MB for a %d MB page: the test cannot tell", general>>20, page>>20)
	}
}
