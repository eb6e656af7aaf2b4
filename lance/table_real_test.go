package lance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// readableFormats are the data file versions File reads today; tables made
// of them are compared row by row with LanceDB's output, the others by
// structure, counts and deletion sets.
var readableFormats = map[string]bool{"2.0": true, "2.1": true, "2.2": true}

// expectedFile is one <table>[.v<N>].expected.jsonl of the shared data.
type expectedFile struct {
	table   string // directory name, "versions.lance"
	version uint64 // 0: latest
	path    string
}

var expectedName = regexp.MustCompile(`^(.+?)(?:\.v(\d+))?\.expected\.jsonl$`)

func expectedFiles(t *testing.T, dir string) []expectedFile {
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []expectedFile
	for _, e := range ents {
		m := expectedName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		var v uint64
		if m[2] != "" {
			v, err = strconv.ParseUint(m[2], 10, 64)
			require.NoError(t, err)
		}
		out = append(out, expectedFile{table: m[1] + ".lance", version: v, path: filepath.Join(dir, e.Name())})
	}
	return out
}

func readLines(t *testing.T, p string) []string {
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	require.NoError(t, sc.Err())
	return out
}

// jsonKeys returns the keys of a JSON object in their order.
func jsonKeys(t *testing.T, line string) []string {
	d := json.NewDecoder(strings.NewReader(line))
	tok, err := d.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok)
	var keys []string
	for d.More() {
		k, err := d.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var v json.RawMessage
		require.NoError(t, d.Decode(&v))
	}
	return keys
}

// TestTableReal opens every shared LanceDB table at every version that has
// expected rows: row counts, schema (column names and order), fragment
// formats, and, for data file formats File reads, every row.
func TestTableReal(t *testing.T) {
	for _, fv := range []string{"2.1", "2.2"} {
		dir := shareddata.Path(t, "lance21", fv)
		fsys := os.DirFS(dir)
		for _, ef := range expectedFiles(t, dir) {
			name := strings.TrimSuffix(ef.table, ".lance")
			if ef.version > 0 {
				name += ".v" + strconv.FormatUint(ef.version, 10)
			}
			t.Run(fv+"/"+name, func(t *testing.T) {
				var opts []Option
				if ef.version > 0 {
					opts = append(opts, WithVersion(ef.version))
				}
				tb, err := OpenTable(fsys, ef.table, opts...)
				require.NoError(t, err)
				if ef.version > 0 {
					require.Equal(t, ef.version, tb.Version().Number)
				}
				want := readLines(t, ef.path)
				require.Equal(t, int64(len(want)), tb.NumRows())
				var names []string
				for _, f := range tb.Schema().Fields() {
					names = append(names, f.Name)
				}
				require.Equal(t, jsonKeys(t, want[0]), names)
				for _, fr := range tb.Fragments() {
					for _, df := range fr.Files {
						require.Equal(t, fv, df.Version)
					}
				}
				if !readableFormats[fv] {
					_, err := tb.Read(ReadOptions{})
					require.ErrorIs(t, err, ErrUnsupported)
					return
				}
				require.Equal(t, want, tableLines(t, tb, ReadOptions{}))
				// Row windows across fragments and deletions, small batches.
				for _, w := range [][3]int64{{0, 1, 7}, {97, 400, 333}, {int64(len(want)) - 5, 0, 2}, {int64(len(want)) / 2, 10, 3}} {
					end := int64(len(want))
					if w[1] > 0 {
						end = min(end, w[0]+w[1])
					}
					got := tableLines(t, tb, ReadOptions{Offset: w[0], Limit: w[1], BatchRows: w[2]})
					require.Equal(t, want[w[0]:end], got, "window %v", w)
				}
			})
		}
	}
}

// TestTableRealVersions checks what each version of the shared tables is
// made of, against what the generator did (versions.versions.txt,
// bitmap_deletes.versions.txt): fragments, data files per fragment, field
// ids, dropped columns and the exact deletion sets.
func TestTableRealVersions(t *testing.T) {
	seq := func(n int, keep func(i int) bool) []uint32 {
		var out []uint32
		for i := range n {
			if keep(i) {
				out = append(out, uint32(i))
			}
		}
		return out
	}
	for _, fv := range []string{"2.1", "2.2"} {
		fsys := os.DirFS(shareddata.Path(t, "lance21", fv))
		t.Run(fv+"/versions", func(t *testing.T) {
			open := func(n uint64) *Table {
				tb, err := OpenTable(fsys, "versions.lance", WithVersion(n))
				require.NoError(t, err)
				return tb
			}
			latest, err := OpenTable(fsys, "versions.lance")
			require.NoError(t, err)
			require.Equal(t, uint64(7), latest.Version().Number)
			vs, err := latest.Versions()
			require.NoError(t, err)
			var rows []int64
			for i, v := range vs {
				require.Equal(t, uint64(i+1), v.Number)
				if i > 0 {
					require.True(t, v.Timestamp.After(vs[i-1].Timestamp))
				}
				rows = append(rows, v.Rows)
			}
			require.Equal(t, []int64{1500, 2000, 1714, 1714, 1714, 1714, 1628}, rows)

			mul7 := func(base int) func(int) bool { return func(i int) bool { return (base+i)%7 == 0 } }
			deleted := func(tb *Table, i int) []uint32 {
				d, err := tb.DeletedRows(i)
				require.NoError(t, err)
				return d
			}
			v2 := open(2)
			require.Len(t, v2.Fragments(), 2)
			require.Nil(t, deleted(v2, 0))
			v3 := open(3)
			require.Equal(t, seq(1500, mul7(0)), deleted(v3, 0))
			require.Equal(t, seq(500, mul7(1500)), deleted(v3, 1))
			require.True(t, strings.HasSuffix(v3.Fragments()[0].DeletionFile, ".arrow"))
			v4 := open(4)
			require.Len(t, v4.Fragments(), 3)
			require.Equal(t, seq(1500, func(i int) bool { return i%7 == 0 || i < 300 }), deleted(v4, 0))
			require.Equal(t, int64(257), v4.Fragments()[2].PhysicalRows)
			v5 := open(5)
			for _, fr := range v5.Fragments() {
				require.Len(t, fr.Files, 2)
				require.Equal(t, []int32{4}, fr.Files[1].FieldIDs)
			}
			require.Equal(t, []string{"id", "name", "score", "tag", "double_id"}, fieldNames(v5))
			v6 := open(6)
			require.Equal(t, []string{"id", "name", "score", "double_id"}, fieldNames(v6))
			require.Equal(t, []int32{0, 1, 2, 3}, v6.Fragments()[0].Files[0].FieldIDs) // tag stays in the file
			require.Equal(t, seq(500, func(i int) bool { return (1500+i)%7 == 0 || i >= 400 }), deleted(latest, 1))
			require.Equal(t, deleted(v6, 0), deleted(latest, 0))
		})
		if fv != "2.1" {
			continue
		}
		t.Run(fv+"/bitmap_deletes", func(t *testing.T) {
			for n, keep := range map[uint64]func(int) bool{
				1: func(int) bool { return false },
				2: func(i int) bool { return i%2 == 0 || i >= 11000 },
				3: func(i int) bool { return i%2 == 0 || i >= 11000 || i < 10 },
			} {
				tb, err := OpenTable(fsys, "bitmap_deletes.lance", WithVersion(n))
				require.NoError(t, err)
				d, err := tb.DeletedRows(0)
				require.NoError(t, err)
				require.Equal(t, seq(12000, keep), d, "v%d", n)
				if n > 1 {
					require.True(t, strings.HasSuffix(tb.Fragments()[0].DeletionFile, ".bin"))
				}
			}
		})
		t.Run(fv+"/multipage", func(t *testing.T) {
			v1, err := OpenTable(fsys, "multipage.lance", WithVersion(1))
			require.NoError(t, err)
			require.Contains(t, fieldNames(v1), "pad")
			v2, err := OpenTable(fsys, "multipage.lance")
			require.NoError(t, err)
			require.NotContains(t, fieldNames(v2), "pad")
			var pad int32 = -1
			for _, f := range v1.manifest.Fields {
				if f.Name == "pad" {
					pad = f.Id
				}
			}
			// The data file still holds the dropped column.
			require.True(t, slices.Contains(v2.Fragments()[0].Files[0].FieldIDs, pad))
			_, ok := v2.byID[pad]
			require.False(t, ok)
		})
	}
}

func fieldNames(tb *Table) []string {
	var out []string
	for _, f := range tb.Schema().Fields() {
		out = append(out, f.Name)
	}
	return out
}

// TestTableProjectionReal reads nested fields by dotted path and top-level
// columns in a chosen order from the shared nested tables, against the
// values inside LanceDB's rows (a null struct gives a null child).
func TestTableProjectionReal(t *testing.T) {
	for _, fv := range []string{"2.1", "2.2"} {
		dir := shareddata.Path(t, "lance21", fv)
		tb, err := OpenTable(os.DirFS(dir), "nested.lance")
		require.NoError(t, err)
		cols := []string{"st.b", "id", "stl.tags", "stl.x"}
		var want []string
		for _, line := range readLines(t, filepath.Join(dir, "nested.expected.jsonl")) {
			var row map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(line), &row))
			get := func(p string) string {
				parent, child, _ := strings.Cut(p, ".")
				if child == "" {
					return string(row[parent])
				}
				var st map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(row[parent], &st))
				if st == nil {
					return "null"
				}
				return string(st[child])
			}
			var b strings.Builder
			b.WriteByte('{')
			for k, c := range cols {
				if k > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Quote(c) + ":" + get(c))
			}
			b.WriteByte('}')
			want = append(want, b.String())
		}
		require.Equal(t, want, tableLines(t, tb, ReadOptions{Columns: cols, BatchRows: 999}), fv)
		_, err = tb.Read(ReadOptions{Columns: []string{"st.zz"}})
		require.ErrorIs(t, err, ErrInvalidArgument)
	}
}

// TestTableDescribeValidateReal: every shared table validates, and
// Describe names its versions, fragments, deletion files, data files and
// the page layouts of their columns.
func TestTableDescribeValidateReal(t *testing.T) {
	for _, fv := range []string{"2.1", "2.2"} {
		dir := shareddata.Path(t, "lance21", fv)
		ents, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			tb, err := OpenTable(os.DirFS(dir), e.Name())
			require.NoError(t, err)
			require.NoError(t, tb.Validate(), "%s/%s", fv, e.Name())
			var b strings.Builder
			require.NoError(t, tb.Describe(&b))
			out := b.String()
			require.Contains(t, out, fmt.Sprintf("Lance table, version %d of %d", tb.Version().Number, tb.Version().Number))
			for _, fr := range tb.Fragments() {
				require.Contains(t, out, fmt.Sprintf("fragment %d: %d physical rows, %d deleted", fr.ID, fr.PhysicalRows, fr.DeletedRows))
				for _, df := range fr.Files {
					require.Contains(t, out, df.Path)
				}
			}
			require.Contains(t, out, "Lance file format "+fv)
			if e.Name() == "versions.lance" {
				require.Contains(t, out, "v3  ")
				require.Contains(t, out, "1714 rows")
				require.Contains(t, out, ".arrow")
			}
		}
	}
}

// TestTableConcurrentReads: one Table serves concurrent scans.
func TestTableConcurrentReads(t *testing.T) {
	dir := shareddata.Path(t, "lance21", "2.2")
	tb, err := OpenTable(os.DirFS(dir), "versions.lance")
	require.NoError(t, err)
	want := readLines(t, filepath.Join(dir, "versions.expected.jsonl"))
	errc := make(chan error, 4)
	for g := range 4 {
		go func() {
			var buf bytes.Buffer
			for rec, err := range tb.Records(ReadOptions{BatchRows: int64(100 + g)}) {
				if err != nil {
					errc <- err
					return
				}
				if err := WriteJSONLines(&buf, rec, JSONOptions{LanceDB: true}); err != nil {
					errc <- err
					return
				}
				rec.Release()
			}
			if got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"); !slices.Equal(got, want) {
				errc <- fmt.Errorf("goroutine %d: rows differ", g)
				return
			}
			errc <- nil
		}()
	}
	for range 4 {
		require.NoError(t, <-errc)
	}
}

// TestTableFieldIDsReal selects by table field id the same columns as by
// path.
func TestTableFieldIDsReal(t *testing.T) {
	tb, err := OpenTable(os.DirFS(shareddata.Path(t, "lance21", "2.2")), "nested.lance")
	require.NoError(t, err)
	var ids []int32
	for _, p := range []string{"st.b", "id", "stl"} {
		ids = append(ids, tb.fieldByPath(p).pb.Id)
	}
	require.Equal(t, tableLines(t, tb, ReadOptions{Columns: []string{"st.b", "id", "stl"}}), tableLines(t, tb, ReadOptions{FieldIDs: ids}))
	_, err = tb.Read(ReadOptions{FieldIDs: []int32{tb.fieldByPath("li").children[0].pb.Id}})
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = tb.Read(ReadOptions{FieldIDs: []int32{0}, Columns: []string{"id"}})
	require.ErrorIs(t, err, ErrInvalidArgument)
}
