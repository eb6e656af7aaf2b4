package csup_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/readlog"
	"github.com/stretchr/testify/require"
)

var helloType = bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}, {Name: "b", Type: bsup.TypeString}})

func helloValues() []bsup.Value {
	return []bsup.Value{
		bsup.NewRecordValue(helloType, bsup.NewString("hello"), bsup.NewString("world")),
		bsup.NewRecordValue(helloType, bsup.NewString("goodnight"), bsup.NewString("gracie")),
	}
}

var segT = bsup.NewRecord([]bsup.Field{{Name: "offset", Type: bsup.TypeUint64}, {Name: "length", Type: bsup.TypeUint32},
	{Name: "mem_length", Type: bsup.TypeUint32}, {Name: "compression_format", Type: bsup.TypeUint8}})

// segmap returns a one-segment segmap value (empty when n is 0).
func segmap(off, n, mem, comp uint64) bsup.Value {
	v := bsup.Value{Type: bsup.NewArray(segT)}
	if n > 0 {
		v.Elems = []bsup.Value{bsup.NewRecordValue(segT, bsup.NewUint(bsup.TypeUint64, off), bsup.NewUint(bsup.TypeUint32, n),
			bsup.NewUint(bsup.TypeUint32, mem), bsup.NewUint(bsup.TypeUint8, comp))}
	}
	return v
}

// buildSpecFile lays a spec-layout file out by hand: data, a reassembly
// stream of the given values, and a trailer of the given type/version
// whose sections are patched by adjust when it is not nil.
func buildSpecFile(t testing.TB, data []byte, reasmVals []bsup.Value, version int64, adjust func(secs []int64)) []byte {
	var reasm bytes.Buffer
	bw, err := bsup.NewWriter(&reasm)
	require.NoError(t, err)
	for _, v := range reasmVals {
		require.NoError(t, bw.Write(v))
	}
	require.NoError(t, bw.Close())
	metaT := bsup.NewRecord([]bsup.Field{{Name: "skew_thresh", Type: bsup.TypeInt64}, {Name: "segment_thresh", Type: bsup.TypeInt64}})
	trT := bsup.NewRecord([]bsup.Field{{Name: "magic", Type: bsup.TypeString}, {Name: "type", Type: bsup.TypeString},
		{Name: "version", Type: bsup.TypeInt64}, {Name: "sections", Type: bsup.NewArray(bsup.TypeInt64)}, {Name: "meta", Type: metaT}})
	secs := []int64{int64(len(data)), int64(reasm.Len())}
	if adjust != nil {
		adjust(secs)
	}
	var tr bytes.Buffer
	tw, err := bsup.NewWriter(&tr)
	require.NoError(t, err)
	require.NoError(t, tw.Write(bsup.NewRecordValue(trT, bsup.NewString("ZNG Trailer"), bsup.NewString("csup"), bsup.NewInt(bsup.TypeInt64, version),
		bsup.Value{Type: trT.Fields[3].Type, Elems: []bsup.Value{bsup.NewInt(bsup.TypeInt64, secs[0]), bsup.NewInt(bsup.TypeInt64, secs[1])}},
		bsup.NewRecordValue(metaT, bsup.NewInt(bsup.TypeInt64, 26214400), bsup.NewInt(bsup.TypeInt64, 5242880)))))
	require.NoError(t, tw.Close())
	return append(append(append([]byte{}, data...), reasm.Bytes()...), tr.Bytes()...)
}

var helloData = []byte("\x06hello\x0agoodnight\x06world\x07gracie\x01\x01")

var (
	fieldT = bsup.NewRecord([]bsup.Field{{Name: "column", Type: bsup.NewArray(segT)}, {Name: "presence", Type: bsup.NewArray(segT)}})
	recT   = bsup.NewRecord([]bsup.Field{{Name: "a", Type: fieldT}, {Name: "b", Type: fieldT}})
)

// helloReassembly is the spec example's reassembly: column a at [0,16),
// b at [16,29), the super column at [29,31); a's segment is aSeg.
func helloReassembly(aSeg, aPres, super bsup.Value) []bsup.Value {
	return []bsup.Value{
		bsup.NewNull(helloType),
		super,
		bsup.NewRecordValue(recT, bsup.NewRecordValue(fieldT, aSeg, aPres), bsup.NewRecordValue(fieldT, segmap(16, 13, 13, 0), segmap(0, 0, 0, 0))),
	}
}

// The spec's own example, laid out by hand from the spec text: data
// section, a 2N+1 reassembly stream with 4-field segmaps, a trailer.
func TestSpecExampleByHand(t *testing.T) {
	data := helloData
	file := buildSpecFile(t, data, helloReassembly(segmap(0, 16, 16, 0), segmap(0, 0, 0, 0), segmap(29, 2, 2, 0)), 1, nil)
	f, got := readCSUP(t, file)
	require.Equal(t, csup.GenSpec, f.Generation)
	require.Equal(t, int64(31), f.Trailer.Sections[0])
	require.Equal(t, 31+f.Trailer.Sections[1], f.Trailer.Offset)
	require.Equal(t, int64(len(file)), f.Trailer.Offset+f.Trailer.Length)
	requireSame(t, helloValues(), got)

	// Our writer lays the same values out the same way: identical data
	// section, which is also what zed v1.2.0 wrote for hello.zst.
	ours := writeCSUP(t, helloValues(), csup.WithCompression(false))
	require.Equal(t, data, ours[:31])
	zst, err := os.ReadFile("testdata/zst-v2_zed-v1.2.0/hello.zst")
	require.NoError(t, err)
	require.Equal(t, data, zst[:31])
}

// The writer's reassembly section is 2N+1 values: N typed nulls in super-ID
// order, the super column's segmap, N reassembly records; segmaps have the
// spec's four fields.
func TestWriterReassemblyShape(t *testing.T) {
	vals := append(helloValues(), bsup.NewInt(bsup.TypeInt64, 42), helloValues()[0])
	b := writeCSUP(t, vals)
	f, _ := readCSUP(t, b)
	sec := f.Trailer.Sections
	r, err := bsup.NewReader(bytes.NewReader(b[sec[0] : sec[0]+sec[1]]))
	require.NoError(t, err)
	var got []bsup.Value
	for {
		v, err := r.Read()
		if err != nil {
			break
		}
		got = append(got, v)
	}
	require.Len(t, got, 5)
	require.True(t, got[0].Null)
	require.Equal(t, "{a:string,b:string}", got[0].Type.Key())
	require.True(t, got[1].Null)
	require.Equal(t, "int64", got[1].Type.Key())
	require.Equal(t, "[{offset:uint64,length:uint32,mem_length:uint32,compression_format:uint8}]", got[2].Type.Key())
	require.Equal(t, "{a:{column:[{offset:uint64,length:uint32,mem_length:uint32,compression_format:uint8}],presence:[{offset:uint64,length:uint32,mem_length:uint32,compression_format:uint8}]},b:{column:[{offset:uint64,length:uint32,mem_length:uint32,compression_format:uint8}],presence:[{offset:uint64,length:uint32,mem_length:uint32,compression_format:uint8}]}}", got[3].Type.Key())
	require.Equal(t, got[2].Type.Key(), got[4].Type.Key(), "a primitive super type's column is a bare segmap")
	// The empty file: sections [0, 27] with the single value [] (notes §2.7).
	empty := writeCSUP(t, nil)
	fe, vs := readCSUP(t, empty)
	require.Empty(t, vs)
	require.Equal(t, int64(0), fe.Trailer.Sections[0])
}

func collectSegs(cols []csup.Column, keep func(path string) bool, out map[[2]int64]bool) {
	for _, c := range cols {
		if keep(c.Path) {
			for _, s := range c.Segments {
				out[[2]int64{s.Offset, s.Offset + s.Length}] = true
			}
		}
		collectSegs(c.Children, keep, out)
	}
}

// A projection reads only the segments of the projected columns and of the
// super column, and yields the same values as cutting the full rows.
func TestProjectionReadsOnlyItsSegments(t *testing.T) {
	vals := bigRows(20000)
	b := writeCSUP(t, vals, csup.WithSegmentThreshold(4096))
	cr := readlog.New(bytes.NewReader(b))
	f, err := csup.Open(cr, int64(len(b)))
	require.NoError(t, err)
	cr.Reset()

	for _, proj := range [][]string{{"name"}, {"nested.ok", "id"}, {"tags"}} {
		allowed := map[[2]int64]bool{}
		for _, s := range f.SuperColumn() {
			allowed[[2]int64{s.Offset, s.Offset + s.Length}] = true
		}
		collectSegs(f.Columns(), func(p string) bool {
			for _, want := range proj {
				if p == "super0."+want || strings.HasPrefix(p, "super0."+want+".") || strings.HasPrefix(p, "super0."+want+"[") {
					return true
				}
			}
			return false
		}, allowed)
		n := 0
		for v, err := range f.Project(proj...) {
			require.NoError(t, err)
			full := vals[n]
			switch proj[0] {
			case "name":
				name, _ := full.Field("name")
				require.Equal(t, `{"name":`+string(bsup.AppendJSON(nil, name, 0))+`}`, string(bsup.AppendJSON(nil, v, 0)))
			case "nested.ok":
				nested, _ := full.Field("nested")
				ok, _ := nested.Field("ok")
				id, _ := full.Field("id")
				require.Equal(t, `{"id":`+string(bsup.AppendJSON(nil, id, 0))+`,"nested":{"ok":`+string(bsup.AppendJSON(nil, ok, 0))+`}}`, string(bsup.AppendJSON(nil, v, 0)))
			}
			n++
		}
		require.Equal(t, len(vals), n)
		ranges := cr.Reset()
		require.NotEmpty(t, ranges)
		var read int64
		for _, r := range ranges {
			require.True(t, allowed[r], "projection %v read [%d,%d), not one of its segments", proj, r[0], r[1])
			read += r[1] - r[0]
		}
		require.Less(t, read, int64(len(b))/2, proj)
	}
}

// One File serves concurrent Readers (each has its own streams).
func TestConcurrentReaders(t *testing.T) {
	vals := bigRows(5000)
	b := writeCSUP(t, vals, csup.WithSegmentThreshold(2048))
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.NewReader()
			var v bsup.Value
			for i := range vals {
				if err := r.ReadInto(&v); err != nil || !bsup.Equal(vals[i], v) {
					errs[g] = fmt.Errorf("reader %d row %d: %v", g, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}

// Projection on the real files reads only the projected columns' segments
// (and the super/root column) too.
func TestProjectionRealFiles(t *testing.T) {
	for _, p := range []string{"testdata/zst-v2_zed-v1.2.0/nested.zst", "testdata/vng-v3_zed-v1.6.0/nested.vng", "testdata/vng-v3_zed-v1.6.0/primitives.vng"} {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		cr := readlog.New(bytes.NewReader(b))
		f, err := csup.Open(cr, int64(len(b)))
		require.NoError(t, err)
		cr.Reset()
		field := "user.name"
		if strings.Contains(p, "primitives") {
			field = "ip" // an LZ4 segment
		}
		allowed := map[[2]int64]bool{}
		for _, s := range f.SuperColumn() {
			allowed[[2]int64{s.Offset, s.Offset + s.Length}] = true
		}
		collectSegs(f.Columns(), func(path string) bool {
			return path == "super0.user" || path == "super0."+field
		}, allowed)
		n := 0
		for _, err := range f.Project(field) {
			require.NoError(t, err)
			n++
		}
		require.Greater(t, n, 0)
		for _, r := range cr.Reset() {
			require.True(t, allowed[r], "%s: read [%d,%d)", p, r[0], r[1])
		}
	}
}

// Projection of top-level records some of which are null (the writer wraps
// that column in csup.nulls): nulls stay, as nulls of the projected type.
func TestProjectionTopLevelNulls(t *testing.T) {
	vals := []bsup.Value{helloValues()[0], bsup.NewNull(helloType), helloValues()[1], bsup.NewInt(bsup.TypeInt64, 5)}
	b := writeCSUP(t, vals)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	var got []string
	for v, err := range f.Project("b") {
		require.NoError(t, err)
		got = append(got, string(bsup.AppendJSON(nil, v, bsup.JSONZed))+" "+v.Type.String())
	}
	require.Equal(t, []string{`{"b":"world"} {b:string}`, `null {b:string}`, `{"b":"gracie"} {b:string}`}, got)
}

// In the spec layout the reader also takes a map column given as a bare
// segmap of whole map values (as ZST v2 writes it).
func TestSpecOpaqueMapColumn(t *testing.T) {
	mt := bsup.NewMap(bsup.TypeString, bsup.TypeInt64)
	rt := bsup.NewRecord([]bsup.Field{{Name: "m", Type: mt}})
	m := bsup.Value{Type: mt, Elems: []bsup.Value{bsup.NewString("a"), bsup.NewInt(bsup.TypeInt64, 1)}}
	data, err := bsup.AppendTagged(nil, m)
	require.NoError(t, err)
	col := uint64(len(data))
	data = append(data, 0x01) // super ID 0
	fT := bsup.NewRecord([]bsup.Field{{Name: "column", Type: bsup.NewArray(segT)}, {Name: "presence", Type: bsup.NewArray(segT)}})
	rT := bsup.NewRecord([]bsup.Field{{Name: "m", Type: fT}})
	file := buildSpecFile(t, data, []bsup.Value{
		bsup.NewNull(rt),
		segmap(col, 1, 1, 0),
		bsup.NewRecordValue(rT, bsup.NewRecordValue(fT, segmap(0, col, col, 0), segmap(0, 0, 0, 0))),
	}, 1, nil)
	_, got := readCSUP(t, file)
	requireSame(t, []bsup.Value{bsup.NewRecordValue(rt, m)}, got)
}
