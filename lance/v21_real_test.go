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
