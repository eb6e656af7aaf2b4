package csup_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/testgen"
)

var fuzzLimits = []csup.Option{
	csup.WithMaxSegmentSize(1 << 20), csup.WithMaxReassemblySize(1 << 20),
	csup.WithMaxDepth(30), csup.WithMaxElements(1 << 12),
}

func isOurs(err error) bool {
	for _, s := range []error{csup.ErrCorrupt, csup.ErrTooLarge, csup.ErrUnsupported, bsup.ErrCorrupt, bsup.ErrTooLarge, bsup.ErrUnsupported} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// FuzzOpen: any file either opens, scans and validates, or fails with a
// package error; never a panic or an allocation past the limits.
func FuzzOpen(f *testing.F) {
	for _, dir := range []string{"zst-v2_zed-v1.2.0/*.zst", "vng-v3_zed-v1.6.0/*.vng", "bad_*.csup"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir))
		for _, p := range files {
			b, _ := os.ReadFile(p)
			f.Add(b)
		}
	}
	g := testgen.New(5)
	var vals []bsup.Value
	t1, t2 := g.Type(3), g.Type(2)
	for i := 0; i < 30; i++ {
		vals = append(vals, g.Value(t1), g.Value(t2))
	}
	f.Add(writeCSUP(f, vals, csup.WithSegmentThreshold(64)))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := csup.Open(bytes.NewReader(b), int64(len(b)), fuzzLimits...)
		if err != nil {
			if !isOurs(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		n := 0
		for v, err := range file.Values() {
			if err != nil {
				if !isOurs(err) {
					t.Fatalf("error without a sentinel: %v", err)
				}
				break
			}
			_ = bsup.AppendJSON(nil, v, bsup.JSONZed)
			if n++; n > 100000 {
				break
			}
		}
		if err := file.Validate(); err != nil && !isOurs(err) {
			t.Fatalf("error without a sentinel: %v", err)
		}
		for _, err := range file.Project("a", "f0") {
			if err != nil && !isOurs(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
		}
	})
}

// FuzzRoundTrip: generated values of every type round-trip exactly
// through the spec-layout writer and reader, with any thresholds.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(1), uint8(4), uint16(64), true)
	f.Add(uint64(9), uint8(6), uint16(5000), false)
	f.Fuzz(func(t *testing.T, seed uint64, depth uint8, seg uint16, compress bool) {
		g := testgen.New(seed)
		types := []*bsup.Type{g.Type(int(depth % 7)), g.Type(3), g.Type(1)}
		var vals []bsup.Value
		for i := 0; i < 60; i++ {
			vals = append(vals, g.Value(types[g.R.IntN(3)]))
		}
		b := writeCSUP(t, vals, csup.WithSegmentThreshold(int(seg)+1), csup.WithSkewThreshold(int(seg)*3+1), csup.WithCompression(compress))
		_, got := readCSUP(t, b)
		requireSame(t, vals, got)
	})
}

// scanAll opens b and reads every value, failing on a panic-free but
// unlabelled error.
func scanAll(t *testing.T, b []byte) {
	file, err := csup.Open(bytes.NewReader(b), int64(len(b)), fuzzLimits...)
	if err != nil {
		if !isOurs(err) {
			t.Fatalf("error without a sentinel: %v", err)
		}
		return
	}
	if err := file.Validate(); err != nil && !isOurs(err) {
		t.Fatalf("error without a sentinel: %v", err)
	}
}

// FuzzDataSection damages the data section of a valid file (the trailer
// and reassembly stay intact), so the column decoders see the bad bytes.
func FuzzDataSection(f *testing.F) {
	g := testgen.New(11)
	var vals []bsup.Value
	t1, t2 := g.Type(4), g.Type(2)
	for i := 0; i < 40; i++ {
		vals = append(vals, g.Value(t1), g.Value(t2))
	}
	base := writeCSUP(f, vals, csup.WithSegmentThreshold(128))
	plain := writeCSUP(f, vals, csup.WithSegmentThreshold(128), csup.WithCompression(false))
	f.Add(uint16(0), []byte{1}, false)
	f.Add(uint16(17), []byte{0xff, 0x7f}, true)
	f.Fuzz(func(t *testing.T, at uint16, xor []byte, compressed bool) {
		b := plain
		if compressed {
			b = base
		}
		file, err := csup.Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		data := int(file.Trailer.Sections[0])
		if data == 0 {
			return
		}
		m := append([]byte{}, b...)
		for i, x := range xor {
			m[(int(at)+i)%data] ^= x
		}
		scanAll(t, m)
	})
}

// FuzzReassembly puts arbitrary bytes where the reassembly stream goes,
// behind a real data section and with a trailer that fits, so the
// metadata parsers (spec, ZST v2 and VNG v3 shapes) see them.
func FuzzReassembly(f *testing.F) {
	for _, p := range []string{"testdata/zst-v2_zed-v1.2.0/nested.zst", "testdata/vng-v3_zed-v1.6.0/unions.vng", "testdata/vng-v3_zed-v1.6.0/named_enum.vng"} {
		b, _ := os.ReadFile(p)
		file, err := csup.Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			f.Fatal(err)
		}
		s := file.Trailer.Sections
		kind := map[csup.Generation]uint8{csup.GenZSTv2: 0, csup.GenVNGv3: 1, csup.GenSpec: 2}[file.Generation]
		f.Add(b[:s[0]], b[s[0]:s[0]+s[1]], kind)
	}
	f.Fuzz(func(t *testing.T, data, reasm []byte, kind uint8) {
		typ, ver := [...]string{"zst", "vng", "csup"}[kind%3], [...]int64{2, 3, 1}[kind%3]
		var tr bytes.Buffer
		tw, _ := bsup.NewWriter(&tr)
		metaT := bsup.NewRecord([]bsup.Field{{Name: "skew_thresh", Type: bsup.TypeInt64}, {Name: "segment_thresh", Type: bsup.TypeInt64}})
		trT := bsup.NewRecord([]bsup.Field{{Name: "magic", Type: bsup.TypeString}, {Name: "type", Type: bsup.TypeString},
			{Name: "version", Type: bsup.TypeInt64}, {Name: "sections", Type: bsup.NewArray(bsup.TypeInt64)}, {Name: "meta", Type: metaT}})
		_ = tw.Write(bsup.NewRecordValue(trT, bsup.NewString(csup.TrailerMagic), bsup.NewString(typ), bsup.NewInt(bsup.TypeInt64, ver),
			bsup.Value{Type: trT.Fields[3].Type, Elems: []bsup.Value{bsup.NewInt(bsup.TypeInt64, int64(len(data))), bsup.NewInt(bsup.TypeInt64, int64(len(reasm)))}},
			bsup.NewRecordValue(metaT, bsup.NewInt(bsup.TypeInt64, 1), bsup.NewInt(bsup.TypeInt64, 1))))
		_ = tw.Close()
		scanAll(t, append(append(append([]byte{}, data...), reasm...), tr.Bytes()...))
	})
}
