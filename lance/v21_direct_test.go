package lance

import (
	"bytes"
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
	defer func() { directOff = false }()
	for name, data := range datas {
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []ReadOptions{{}, {BatchRows: 777}, {Offset: f.NumRows() / 3, Limit: f.NumRows()/3 + 1, BatchRows: 1500}} {
			directOff = false
			got := readAllRecords(t, f, o)
			directOff = true
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
				directOff = path.off
				defer func() { directOff = false }()
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
