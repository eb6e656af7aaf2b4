package lance

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// Every data file LanceDB wrote in ../shared/data/lance21 opens and reads
// in full, every column, in batches that cross pages.
func TestV21ReadAllDataFiles(t *testing.T) {
	root := shareddata.Path(t, "lance21")
	files, _ := filepath.Glob(filepath.Join(root, "2.*", "*.lance", "data", "*.lance"))
	if len(files) < 10 {
		t.Fatalf("only %d data files under %s", len(files), root)
	}
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			var rows int64
			for rec, err := range f.Records(ReadOptions{BatchRows: 777}) {
				if err != nil {
					t.Fatal(err)
				}
				rows += rec.NumRows()
				rec.Release()
			}
			if rows != f.NumRows() {
				t.Fatalf("read %d rows of %d", rows, f.NumRows())
			}
		})
	}
}

// Records cuts 2.1/2.2 batches by the bytes the selected leaves store per
// row, nested fields included.
func TestV21BatchBytes(t *testing.T) {
	dir := shareddata.Path(t, "lance21", "2.1", "wide.lance", "data")
	files, _ := filepath.Glob(filepath.Join(dir, "*.lance"))
	if len(files) != 1 {
		t.Fatalf("%d data files", len(files))
	}
	f := openShared(t, nil, "lance21", "2.1", "wide.lance", "data", filepath.Base(files[0]))
	var batches, rows int64
	for rec, err := range f.Records(ReadOptions{Columns: []string{"docs"}, BatchBytes: 16 << 10}) {
		if err != nil {
			t.Fatal(err)
		}
		// The estimate is the stored (FSST-compressed) bytes per row, about
		// 80 here: about 200 rows per batch, never the whole file.
		if rec.NumRows() > 256 {
			t.Fatalf("a batch of %d rows of string lists under a 16 KiB target", rec.NumRows())
		}
		batches++
		rows += rec.NumRows()
		rec.Release()
	}
	if rows != f.NumRows() || batches < 2 {
		t.Fatalf("%d rows in %d batches", rows, batches)
	}
}
