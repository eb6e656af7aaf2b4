package lance

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/colfmt/colfmt/internal/errs"
)

// Describe writes the table's structure (what `colfmt inspect TABLE_DIR`
// prints): every version with its time and row count, the open version's
// schema with field ids, and per fragment its rows, deletion file and data
// files, each data file described by File.Describe (columns, pages, page
// layouts and encodings).
func (t *Table) Describe(w io.Writer) error {
	var b strings.Builder
	m := t.manifest
	scheme := "V1 (N.manifest)"
	if t.v2 {
		scheme = "V2 (u64::MAX-N, 20 digits)"
	}
	fmt.Fprintf(&b, "Lance table, version %d of %d, %d rows in %d fragments, data format %s %s, manifest naming %s\n",
		t.version.Number, t.versions[len(t.versions)-1], t.version.Rows, len(t.frags),
		errs.Quote(m.GetDataFormat().GetFileFormat()), errs.Quote(m.GetDataFormat().GetVersion()), scheme)
	fmt.Fprintf(&b, "reader feature flags %#x%s, writer feature flags %#x%s\n",
		m.ReaderFeatureFlags, flagList(m.ReaderFeatureFlags), m.WriterFeatureFlags, flagList(m.WriterFeatureFlags))
	if wv := m.GetWriterVersion(); wv != nil {
		fmt.Fprintf(&b, "written by %s %s\n", errs.Quote(wv.Library), errs.Quote(wv.Version))
	}
	vs, err := t.Versions()
	if err != nil {
		return err
	}
	b.WriteString("versions:\n")
	for _, v := range vs {
		mark := ""
		if v.Number == t.version.Number {
			mark = "  <- open"
		}
		fmt.Fprintf(&b, "  v%d  %s  %d rows%s\n", v.Number, v.Timestamp.UTC().Format(time.RFC3339Nano), v.Rows, mark)
	}
	b.WriteString("schema:\n")
	var walk func(ns []*tableField, indent string)
	walk = func(ns []*tableField, indent string) {
		for _, n := range ns {
			null := ""
			if !n.pb.Nullable {
				null = " not null"
			}
			fmt.Fprintf(&b, "%s%s: %s%s (lance %s, id %d)\n", indent, errs.Quote(n.pb.Name), n.dt, null, errs.Quote(n.pb.LogicalType), n.pb.Id)
			walk(n.children, indent+"  ")
		}
	}
	walk(t.fields, "  ")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	for _, fr := range t.frags {
		b.Reset()
		fmt.Fprintf(&b, "fragment %d: %d physical rows, %d deleted", fr.ID, fr.PhysicalRows, fr.DeletedRows)
		if fr.DeletionFile != "" {
			fmt.Fprintf(&b, " (%s)", fr.DeletionFile)
		}
		fmt.Fprintf(&b, ", %d data files\n", len(fr.Files))
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
		for _, df := range fr.Files {
			fmt.Fprintf(w, "  %s: format %s, %d bytes, field ids %v, column indices %v\n", df.Path, df.Version, df.Size, df.FieldIDs, df.ColumnIndices)
			f, c, err := t.OpenDataFile(df)
			if err != nil {
				return err
			}
			var fb strings.Builder
			err = f.Describe(&fb)
			c.Close()
			if err != nil {
				return fmt.Errorf("lance: data file %s: %w", df.Path, err)
			}
			for _, line := range strings.SplitAfter(strings.TrimSuffix(fb.String(), "\n"), "\n") {
				if _, err := io.WriteString(w, "    "+line); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

func flagList(f uint64) string {
	if f == 0 {
		return ""
	}
	var names []string
	for b := 0; b < 64; b++ {
		if f&(1<<b) != 0 {
			names = append(names, flagName(b))
		}
	}
	return " (" + strings.Join(names, ", ") + ")"
}

// Validate checks the open version deeply: every data file opens, has the
// fragment's row count and passes File.Validate, every deletion file
// decodes with the count the manifest records, and every row of every
// column decodes with the schema's types.
func (t *Table) Validate() error {
	for i, fr := range t.frags {
		for _, df := range fr.Files {
			f, c, err := t.OpenDataFile(df)
			if err != nil {
				return err
			}
			err = f.Validate()
			rows := f.NumRows()
			c.Close()
			if err != nil {
				return fmt.Errorf("lance: data file %s: %w", df.Path, err)
			}
			if rows != fr.PhysicalRows {
				return errs.At(ErrCorrupt, -1, df.Path, "data file has %d rows, fragment %d has %d", rows, fr.ID, fr.PhysicalRows)
			}
		}
		if fr.DeletionFile != "" {
			bm, err := t.deletions(i)
			if err != nil {
				return err
			}
			if int64(bm.GetCardinality()) != fr.DeletedRows {
				return errs.At(ErrCorrupt, -1, fr.DeletionFile, "%d deleted rows, the manifest says %d", bm.GetCardinality(), fr.DeletedRows)
			}
		}
	}
	var n int64
	for rec, err := range t.Records(ReadOptions{}) {
		if err != nil {
			return err
		}
		n += rec.NumRows()
		rec.Release()
	}
	if n != t.NumRows() {
		return errs.At(ErrLength, -1, "table", "scan returned %d rows, the manifest counts %d", n, t.NumRows())
	}
	return nil
}
