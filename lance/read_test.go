package lance

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/readlog"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

func pageRanges(f *File, col int) [][2]int64 {
	var out [][2]int64
	for _, p := range f.columns[col].pages {
		for _, b := range p.buffers {
			out = append(out, [2]int64{b.off, b.off + b.size})
		}
	}
	return out
}

func TestProjectionReadsOnlyItsPages(t *testing.T) {
	b, err := os.ReadFile("testdata/v2_0_alltypes_5rows.lance")
	require.NoError(t, err)
	cr := readlog.New(bytes.NewReader(b))
	f, err := Open(cr, int64(len(b)))
	require.NoError(t, err)
	// Footer, CMO table, GBO table, all column metadata, schema.
	require.Len(t, cr.Ranges(), 5)
	for c := range f.columns {
		for _, r := range pageRanges(f, c) {
			require.False(t, cr.Touched(r[0], r[1]), "Open read page data of column %d", c)
		}
	}
	cr.Reset()
	rec, err := f.Read(ReadOptions{Columns: []string{"ls", "id"}})
	require.NoError(t, err)
	defer rec.Release()
	require.Equal(t, []string{"ls", "id"}, []string{rec.Schema().Field(0).Name, rec.Schema().Field(1).Name})
	var buf bytes.Buffer
	require.NoError(t, WriteJSONLines(&buf, rec, JSONOptions{}))
	require.Equal(t, `{"ls":["a0","b0"],"id":0}`+"\n"+`{"ls":["a1",null],"id":1}`+"\n"+`{"ls":null,"id":2}`+"\n"+
		`{"ls":["a3",null],"id":3}`+"\n"+`{"ls":["a4","b4"],"id":4}`+"\n", buf.String())
	wanted := map[int]bool{0: true, 9: true, 10: true} // id, ls offsets, ls items
	for c := range f.columns {
		for _, r := range pageRanges(f, c) {
			if r[0] == r[1] {
				continue
			}
			require.Equal(t, wanted[c], cr.Touched(r[0], r[1]), "column %d", c)
		}
	}
	_, err = f.Read(ReadOptions{Columns: []string{"nope"}})
	require.Error(t, err)
}

// pagedFile has an int32 column in 10 pages of 100 rows and a list column
// whose offsets pages (3) and item pages (4) do not line up.
func pagedFile() []byte {
	tf := &tFile{pad: true, rows: 1000, fields: top(fld(0, -1, "x", "int32", false),
		fld(1, -1, "l", "list", true), fld(2, 1, "item", "int32", true))}
	var x tCol
	for p := 0; p < 10; p++ {
		var v []uint32
		for i := 0; i < 100; i++ {
			v = append(v, uint32(p*100+i))
		}
		x.pages = append(x.pages, flatPage(100, 32, u32s(v...)))
	}
	var l, items tCol
	total := 0
	for _, span := range [][2]int{{0, 300}, {300, 700}, {700, 1000}} {
		var lens []int
		for i := span[0]; i < span[1]; i++ {
			n := i % 4
			if i%7 == 3 {
				n = -1
			}
			lens = append(lens, n)
			total += max(n, 0)
		}
		l.pages = append(l.pages, listPage(lens))
	}
	var all []uint32
	for i := 0; i < total; i++ {
		all = append(all, uint32(i))
	}
	for k := 0; k < 4; k++ {
		part := all[k*total/4 : (k+1)*total/4]
		items.pages = append(items.pages, flatPage(uint64(len(part)), 32, u32s(part...)))
	}
	tf.cols = []tCol{x, l, items}
	return tf.bytes()
}

func TestRowRangeReadsOnlyItsPages(t *testing.T) {
	b := pagedFile()
	cr := readlog.New(bytes.NewReader(b))
	f, err := Open(cr, int64(len(b)))
	require.NoError(t, err)
	require.NoError(t, f.Validate())
	cr.Reset()
	rec, err := f.Read(ReadOptions{Columns: []string{"x"}, Offset: 250, Limit: 100})
	require.NoError(t, err)
	defer rec.Release()
	require.EqualValues(t, 100, rec.NumRows())
	require.Equal(t, "250", string(AppendJSONValue(nil, rec.Column(0), 0, JSONOptions{})))
	require.Equal(t, "349", string(AppendJSONValue(nil, rec.Column(0), 99, JSONOptions{})))
	for i, p := range f.columns[0].pages {
		require.Equal(t, i == 2 || i == 3, cr.Touched(p.buffers[0].off, p.buffers[0].off+p.buffers[0].size), "page %d", i)
	}
	for c := 1; c < 3; c++ {
		for _, r := range pageRanges(f, c) {
			require.False(t, cr.Touched(r[0], r[1]))
		}
	}
}

// TestRangesAgree checks that every row range and batch size reads the
// same rows as the whole file, for every test file.
func TestRangesAgree(t *testing.T) {
	files := map[string][]byte{"paged": pagedFile()}
	paths, _ := filepath.Glob("testdata/golden_*.lance")
	paths = append(paths, "testdata/v2_0_alltypes_5rows.lance", "testdata/v2_0_zstd_allnull_binary_6rows.lance")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		files[filepath.Base(p)] = b
	}
	for name, b := range files {
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err, name)
		all := jsonLines(t, f, JSONOptions{})
		n := int(f.NumRows())
		require.Len(t, all, n, name)
		step := 1
		if n > 20 {
			step = 97
		}
		for a := 0; a < n; a += step {
			for e := a + 1; e <= n; e += step {
				rec, err := f.Read(ReadOptions{Offset: int64(a), Limit: int64(e - a)})
				require.NoError(t, err, name)
				for i := 0; i < e-a; i++ {
					require.Equal(t, all[a+i], string(AppendJSONRow(nil, rec, i, JSONOptions{})), "%s rows %d..%d", name, a, e)
				}
				rec.Release()
			}
		}
		for _, bs := range []int64{1, 3, 64} {
			var got []string
			for rec, err := range f.Records(ReadOptions{BatchRows: bs}) {
				require.NoError(t, err)
				for i := 0; i < int(rec.NumRows()); i++ {
					got = append(got, string(AppendJSONRow(nil, rec, i, JSONOptions{})))
				}
				rec.Release()
			}
			require.Equal(t, all, got, "%s batch %d", name, bs)
		}
	}
}

func TestZoneMap(t *testing.T) {
	f := openPath(t, "testdata/golden_buffers.lance")
	require.False(t, f.HasZoneMap(0))
	require.True(t, f.HasZoneMap(2))
	zm, err := f.ZoneMap(2)
	require.NoError(t, err)
	defer zm.Record.Release()
	require.EqualValues(t, 2, zm.RowsPerZone)
	var buf bytes.Buffer
	require.NoError(t, WriteJSONLines(&buf, zm.Record, JSONOptions{}))
	require.Equal(t, `{"min":1,"max":2,"null_count":0}`+"\n"+`{"min":3,"max":4,"null_count":0}`+"\n"+`{"min":5,"max":5,"null_count":0}`+"\n", buf.String())
	_, err = f.ZoneMap(0)
	require.Error(t, err)
}

// TestWriterMatchesLance checks the test writer against lance itself: the
// column metadata of golden_flat's id column is byte-identical to column 0
// of the 5-row file lance 12 wrote (notes §3).
func TestWriterMatchesLance(t *testing.T) {
	real, err := os.ReadFile("testdata/v2_0_alltypes_5rows.lance")
	require.NoError(t, err)
	ours, err := os.ReadFile("testdata/golden_flat.lance")
	require.NoError(t, err)
	fr := openPath(t, "testdata/v2_0_alltypes_5rows.lance")
	fo := openPath(t, "testdata/golden_flat.lance")
	meta := func(b []byte, f *File, i int) []byte {
		c := f.columns[i]
		return b[c.metaOff : c.metaOff+c.metaLen]
	}
	require.Equal(t, meta(real, fr, 0), meta(ours, fo, 0))
	require.Equal(t, encodingString(fr.columns[1].pages[0].enc), encodingString(fo.columns[1].pages[0].enc))
}

func TestEmptyFile(t *testing.T) {
	b := (&tFile{rows: 0, fields: top(fld(0, -1, "x", "int32", true), fld(1, -1, "l", "list", true), fld(2, 1, "item", "string", true),
		fld(3, -1, "st", "struct", true), fld(4, 3, "a", "double", true)),
		cols: []tCol{{}, {}, {}, {}, {}}}).bytes()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.NoError(t, f.Validate())
	rec, err := f.Read(ReadOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 0, rec.NumRows())
	require.EqualValues(t, 3, rec.NumCols())
	rec.Release()
	n := 0
	for rec, err := range f.Records(ReadOptions{}) {
		require.NoError(t, err)
		n += int(rec.NumRows())
		rec.Release()
	}
	require.Zero(t, n)
}

func TestNoColumnsManyRows(t *testing.T) {
	b := (&tFile{rows: 1 << 60, fields: []*filepb.Field{}}).bytes()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	n := 0
	for rec, err := range f.Records(ReadOptions{BatchRows: 7}) {
		require.NoError(t, err)
		require.EqualValues(t, int64(1)<<60, rec.NumRows())
		rec.Release()
		n++
	}
	require.Equal(t, 1, n)
	rec, err := f.Read(ReadOptions{Columns: []string{}})
	require.NoError(t, err)
	rec.Release()
}

// TestDirectPathMatchesGeneral compares the direct fixed-width path with
// the general decoder on every test file.
func TestDirectPathMatchesGeneral(t *testing.T) {
	files := map[string][]byte{"paged": pagedFile(), "bench": benchFile()}
	paths, _ := filepath.Glob("testdata/*.lance")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		files[filepath.Base(p)] = b
	}
	for name, b := range files {
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			continue
		}
		fast, errFast := readAllJSON(f, false)
		slow, errSlow := readAllJSON(f, true)
		require.Equal(t, errFast == nil, errSlow == nil, "%s: %v / %v", name, errFast, errSlow)
		require.Equal(t, slow, fast, name)
	}
}

func TestReadContextCancelled(t *testing.T) {
	b := pagedFile()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = f.ReadContext(ctx, ReadOptions{})
	require.ErrorIs(t, err, context.Canceled)
	for _, err := range f.RecordsContext(ctx, ReadOptions{}) {
		require.ErrorIs(t, err, context.Canceled)
	}
	rec, err := f.ReadContext(context.Background(), ReadOptions{Limit: 3})
	require.NoError(t, err)
	rec.Release()
}

// TestListPagesWithGap: an offsets page may reference fewer items than its
// num_items; the next page's items still start after num_items.
func TestListPagesWithGap(t *testing.T) {
	b := (&tFile{rows: 3, fields: top(fld(0, -1, "l", "list", true), fld(1, 0, "item", "int32", true)),
		cols: []tCol{
			{pages: []tPage{
				{bufs: [][]byte{u64s(2)}, length: 1, enc: listE(noNull(flatE(64, pbuf(0))), 4, 3)},
				{bufs: [][]byte{u64s(1, 1+2)}, length: 2, enc: listE(noNull(flatE(64, pbuf(0))), 2, 1)},
			}},
			oneCol(flatPage(4, 32, u32s(10, 11, 12, 13))),
		}}).bytes()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.Equal(t, []string{`{"l":[10,11]}`, `{"l":[13]}`, `{"l":null}`}, jsonLines(t, f, JSONOptions{}))
	rec, err := f.Read(ReadOptions{Offset: 1})
	require.NoError(t, err)
	require.Equal(t, `{"l":[13]}`, string(AppendJSONRow(nil, rec, 0, JSONOptions{})))
	rec.Release()
}

func TestConcurrentReads(t *testing.T) {
	b := pagedFile()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	want := jsonLines(t, f, JSONOptions{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rec, err := f.Read(ReadOptions{Offset: int64(g * 100), Limit: 300})
			if err != nil {
				errs <- err
				return
			}
			defer rec.Release()
			for i := 0; i < int(rec.NumRows()); i++ {
				if got := string(AppendJSONRow(nil, rec, i, JSONOptions{})); got != want[g*100+i] {
					errs <- fmt.Errorf("row %d: %s != %s", g*100+i, got, want[g*100+i])
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestDictionaryPagesWithOwnDictionaries: each page of an Arrow dictionary
// field carries its own dictionary; reads across pages unify them.
func TestDictionaryPagesWithOwnDictionaries(t *testing.T) {
	page := func(keys []byte, ends []uint64, data string) tPage {
		return tPage{bufs: [][]byte{keys, u64s(ends...), []byte(data)}, length: uint64(len(keys)),
			enc: dictE(noNull(flatE(8, pbuf(0))), binaryE(noNull(flatE(64, pbuf(1))), flatE(8, pbuf(2)), uint64(len(data))+1), uint32(len(ends)))}
	}
	b := (&tFile{rows: 4, fields: top(fld(0, -1, "d", "dict:string:int8:false", true)),
		cols: []tCol{{pages: []tPage{page([]byte{0, 1}, []uint64{1, 2}, "ab"), page([]byte{1, 0}, []uint64{1, 2}, "cb")}}}}).bytes()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.NoError(t, f.Validate())
	require.Equal(t, []string{`{"d":"a"}`, `{"d":"b"}`, `{"d":"b"}`, `{"d":"c"}`}, jsonLines(t, f, JSONOptions{}))
	rec, err := f.Read(ReadOptions{})
	require.NoError(t, err)
	require.Equal(t, `{"d":"a"}`, string(AppendJSONRow(nil, rec, 0, JSONOptions{})))
	require.Equal(t, `{"d":"c"}`, string(AppendJSONRow(nil, rec, 3, JSONOptions{})))
	rec.Release()
}

// TestNestedListsAndStructs: list<list<int32>> and struct<l: list<int32>>,
// column order header/offsets first, then children, depth-first.
func TestNestedListsAndStructs(t *testing.T) {
	b := (&tFile{rows: 3, fields: top(
		fld(0, -1, "ll", "list", true), fld(1, 0, "item", "list", true), fld(2, 1, "item", "int32", true),
		fld(3, -1, "st", "struct", true), fld(4, 3, "l", "list", true), fld(5, 4, "item", "int32", true)),
		cols: []tCol{
			oneCol(listPage([]int{2, -1, 1})),      // ll: [[..],[..]], null, [[..]]
			oneCol(listPage([]int{1, 0, 2})),       // ll.item: [7], [], [8, 9]
			oneCol(flatPage(3, 32, u32s(7, 8, 9))), // ll.item.item
			oneCol(tPage{length: 3, enc: structE()}),
			oneCol(listPage([]int{0, -1, 2})),
			oneCol(flatPage(2, 32, u32s(5, 6))),
		}}).bytes()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.NoError(t, f.Validate())
	require.Equal(t, []string{
		`{"ll":[[7],[]],"st":{"l":[]}}`,
		`{"ll":null,"st":{"l":null}}`,
		`{"ll":[[8,9]],"st":{"l":[5,6]}}`}, jsonLines(t, f, JSONOptions{}))
}
