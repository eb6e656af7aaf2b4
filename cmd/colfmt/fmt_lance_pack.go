package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/jsonarrow"
	"github.com/colfmt/colfmt/lance"
)

// colfmt pack --format lance: JSON Lines into a Lance data file, or into
// a Lance table (LanceDB's DB/NAME.lance directory) with --table.

// init plugs the writer into the lance format (registered by fmt_lance.go,
// whose init runs first: files are initialised in name order).
func init() {
	f := formats["lance"]
	if f == nil {
		panic("colfmt: fmt_lance_pack.go needs the lance format registered first")
	}
	f.PackFlags = lancePackFlags
}

// lanceProgressBytes is the input size from which pack reports progress.
const lanceProgressBytes = 16 << 20

func lancePackFlags(ff *flag.FlagSet) packFunc {
	table := ff.String("table", "", "create or append to the Lance table in this directory (LanceDB's DB/NAME.lance) instead of writing a data file")
	version := ff.String("format-version", "", "Lance file format: 2.0, 2.1 or 2.2 (default 2.2; an existing table keeps its own)")
	schemaFile := ff.String("schema", "", "Arrow schema in JSON for the input (default: inferred from the JSON Lines; an existing table's schema)")
	compression := ff.String("compression", "", "general compression of 2.1/2.2 values: lz4 or zstd (default none)")
	rowsPerFile := ff.Int64("max-rows-per-file", lance.DefaultMaxRowsPerFile, "rows per data file (one fragment each) of a table")
	f32 := ff.Bool("float64-vectors", false, "infer vectors (arrays of numbers of one length) as float64 items instead of float32")
	return packWhole(func(w io.Writer, data []byte) error {
		switch *version {
		case "", "2.0", "2.1", "2.2":
		default:
			return usagef("--format-version %q: want 2.0, 2.1 or 2.2", *version)
		}
		switch *compression {
		case "", "lz4", "zstd":
		default:
			return usagef("--compression %q: want lz4 or zstd", *compression)
		}
		opts := []lance.Option{lance.WithCompression(*compression)}
		if *version != "" {
			opts = append(opts, lance.WithFormatVersion(*version))
		}
		jo := jsonarrow.Options{Float64Vectors: *f32}
		if *table == "" {
			if *rowsPerFile != lance.DefaultMaxRowsPerFile {
				return usagef("--max-rows-per-file needs --table")
			}
			schema, err := lancePackSchema(*schemaFile, nil, data, jo)
			if err != nil {
				return err
			}
			lw, err := lance.NewWriter(w, schema, opts...)
			if err != nil {
				return err
			}
			for rec, err := range lanceProgress(jsonarrow.Records(bytes.NewReader(data), schema, jo), len(data)) {
				if err != nil {
					return err
				}
				if err := lw.Write(rec); err != nil {
					return err
				}
			}
			return lw.Close()
		}
		if out := ff.Lookup("out"); out != nil && out.Value.String() != "" {
			return usagef("--table and --out exclude each other: a table is a directory")
		}
		opts = append(opts, lance.WithMaxRowsPerFile(*rowsPerFile))
		abs, err := filepath.Abs(*table)
		if err != nil {
			return err
		}
		dir, name := filepath.Dir(abs), filepath.Base(abs)
		wfs := lance.DirFS(dir)
		t, err := lance.OpenTable(wfs, name)
		switch {
		case err == nil:
			if *version != "" && *version != t.FormatVersion() {
				return fmt.Errorf("--format-version %s: table %s has file format %s (appends keep it)", *version, *table, t.FormatVersion())
			}
			schema, err := lancePackSchema(*schemaFile, t.Schema(), data, jo)
			if err != nil {
				return err
			}
			nt, err := t.Append(lanceProgress(jsonarrow.Records(bytes.NewReader(data), schema, jo), len(data)), opts...)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "colfmt: lance: %s: appended %d rows, version %d (%d rows)\n", *table, nt.NumRows()-t.NumRows(), nt.Version().Number, nt.NumRows())
			return nil
		case errors.Is(err, fs.ErrNotExist):
			schema, err := lancePackSchema(*schemaFile, nil, data, jo)
			if err != nil {
				return err
			}
			nt, err := lance.CreateTable(wfs, name, schema, lanceProgress(jsonarrow.Records(bytes.NewReader(data), schema, jo), len(data)), opts...)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "colfmt: lance: %s: created, %d rows, file format %s\n", *table, nt.NumRows(), nt.FormatVersion())
			return nil
		default:
			return err
		}
	})
}

// lancePackSchema is the schema of the input: --schema's, else the
// table's, else inferred from the lines.
func lancePackSchema(file string, table *arrow.Schema, data []byte, jo jsonarrow.Options) (*arrow.Schema, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		s, err := jsonarrow.ParseSchema(b)
		if err != nil {
			return nil, fmt.Errorf("--schema %s: %w", file, err)
		}
		return s, nil
	}
	if table != nil {
		return table, nil
	}
	s, _, err := jsonarrow.InferSchema(bytes.NewReader(data), jo)
	if err != nil {
		return nil, err
	}
	if s.NumFields() == 0 {
		return nil, fmt.Errorf("no columns: the input has no JSON objects with members (give --schema for an empty table)")
	}
	return s, nil
}

// lanceProgress passes records through, reporting rows on stderr (see
// progress) for inputs of lanceProgressBytes or more.
func lanceProgress(recs iter.Seq2[arrow.RecordBatch, error], size int) iter.Seq2[arrow.RecordBatch, error] {
	if size < lanceProgressBytes {
		return recs
	}
	return func(yield func(arrow.RecordBatch, error) bool) {
		pr := newProgress(os.Stderr)
		var rows int64
		defer func() {
			pr.done("colfmt: lance: %d rows of %d MB written (%.0fs)", rows, size>>20, pr.elapsed())
		}()
		for rec, err := range recs {
			if err == nil {
				rows += rec.NumRows()
				pr.update("colfmt: lance: %d rows (%.0fs)", rows, pr.elapsed())
			}
			if !yield(rec, err) {
				return
			}
		}
	}
}
