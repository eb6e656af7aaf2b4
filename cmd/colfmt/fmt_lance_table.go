package main

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/colfmt/colfmt/lance"
)

// Lance tables (LanceDB dataset directories: _versions/, data/,
// _deletions/) for colfmt inspect|cat|validate TABLE_DIR. fsys is the
// table directory itself; version is --version N (0: the latest).

// openLanceTable opens the table at fsys's root at version (0: latest).
func openLanceTable(fsys fs.FS, version uint64) (*lance.Table, error) {
	var opts []lance.Option
	if version > 0 {
		opts = append(opts, lance.WithVersion(version))
	}
	return lance.OpenTable(fsys, ".", opts...)
}

// lanceTableInspect prints versions, schema, fragments, deletion counts,
// data files and each column's pages with their layouts and encodings.
func lanceTableInspect(w io.Writer, fsys fs.FS, version uint64) error {
	t, err := openLanceTable(fsys, version)
	if err != nil {
		return err
	}
	return t.Describe(w)
}

// lanceTableCat writes the rows LanceDB's query().toArrow() returns, one
// JSON object per line, rendered as the shared lance21 README says
// (lance.JSONOptions.LanceDB); columns selects top-level columns or dotted
// paths into structs (nil: all).
func lanceTableCat(w io.Writer, fsys fs.FS, version uint64, columns []string, raw bool) error {
	t, err := openLanceTable(fsys, version)
	if err != nil {
		return err
	}
	for rec, err := range t.Records(lance.ReadOptions{Columns: columns}) {
		if err != nil {
			return err
		}
		err = lance.WriteJSONLines(w, rec, lance.JSONOptions{LanceDB: true, Raw: raw})
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// lanceTableValidate checks the table version deeply (Table.Validate).
func lanceTableValidate(fsys fs.FS, version uint64) error {
	t, err := openLanceTable(fsys, version)
	if err != nil {
		return err
	}
	if err := t.Validate(); err != nil {
		return err
	}
	return nil
}

// lanceTableSummary is the line validate prints on success.
func lanceTableSummary(fsys fs.FS, version uint64) (string, error) {
	t, err := openLanceTable(fsys, version)
	if err != nil {
		return "", err
	}
	v := t.Version()
	return fmt.Sprintf("Lance table version %d, %d rows in %d fragments", v.Number, v.Rows, len(t.Fragments())), nil
}
