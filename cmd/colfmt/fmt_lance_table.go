package main

import (
	"io"
	"io/fs"

	"github.com/colfmt/colfmt/lance"
	"github.com/colfmt/colfmt/remote/lancefetch"
)

// Lance tables (LanceDB dataset directories: _versions/, data/,
// _deletions/) for colfmt inspect|cat|validate TABLE_DIR. fsys is the
// table directory itself; version is --version N (0: the latest).

// init plugs the table functions into the lance format's directory hooks
// (fmt_lance.go registers the format; its init runs first, files being
// initialised in name order).
func init() {
	f := formats["lance"]
	if f == nil {
		panic("colfmt: fmt_lance_table.go needs the lance format registered first")
	}
	f.InspectDir = func(w io.Writer, d *dirInput) error { return lanceTableInspect(w, d.FS, d.Version) }
	f.CatDir = func(w io.Writer, d *dirInput, o catOptions) error {
		return lanceTableCat(w, d.FS, d.Version, o.Columns, o.Raw)
	}
	f.ValidateDir = func(d *dirInput) error { return lanceTableValidate(d.FS, d.Version) }
}

// openLanceTable opens the table at fsys's root at version (0: latest).
func openLanceTable(fsys fs.FS, version uint64) (*lance.Table, error) {
	var opts []lance.Option
	if version > 0 {
		opts = append(opts, lance.WithVersion(version))
	}
	t, err := lance.OpenTable(fsys, ".", opts...)
	if pf, ok := fsys.(*lancefetch.FS); ok && err == nil {
		pf.PrefetchTable(t) // a remote table (remote_input.go): its data files, all at once
	}
	return t, err
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
// (writeLanceRows, the renderer data files use too); columns selects top-level columns or dotted
// paths into structs (nil: all).
func lanceTableCat(w io.Writer, fsys fs.FS, version uint64, columns []string, raw bool) error {
	t, err := openLanceTable(fsys, version)
	if err != nil {
		return err
	}
	return writeLanceRows(w, t.Records(lance.ReadOptions{Columns: columns}), raw)
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
