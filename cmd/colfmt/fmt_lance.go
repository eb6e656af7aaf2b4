package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/lance"
)

// lanceDemoFile is a real Lance 2.0 file written by lance 12.0.0 (see
// lance/testdata/README.md). The demo decodes and validates it, then
// writes its rows as a 2.2 file and reads them back.
//
//go:embed demodata/lance/v2_0_alltypes_5rows.lance
var lanceDemoFile []byte

func init() {
	register(&format{
		Name:    "lance",
		Summary: "Lance 2.0, 2.1 and 2.2 data files and LanceDB tables: schema, pages, rows as JSON Lines; pack writes JSON Lines into a data file or a table",
		Detect: func(_, tail []byte, size int64) bool {
			return size >= 8 && len(tail) >= 4 && string(tail[len(tail)-4:]) == "LANC"
		},
		Inspect: func(w io.Writer, in *input) error {
			f, err := lance.Open(in.R, in.Size)
			if err != nil {
				// Still say what the file is when only its version is refused.
				if ft, ferr := lance.ReadFooter(in.R, in.Size); ferr == nil && !ft.Supported() {
					fmt.Fprintf(w, "Lance file format %s, %d bytes, %d columns, %d global buffers: not readable by this version\n",
						ft, in.Size, ft.NumColumns, ft.NumGlobalBuffers)
				}
				return err
			}
			return f.Describe(w)
		},
		Cat: func(w io.Writer, in *input, o catOptions) error {
			f, err := lance.Open(in.R, in.Size)
			if err != nil {
				return err
			}
			return writeLanceRows(w, f.Records(lance.ReadOptions{Columns: o.Columns}), o.Raw)
		},
		Columns: "fields, dotted paths for fields in structs (only their pages are read)",
		Validate: func(in *input) error {
			f, err := lance.Open(in.R, in.Size)
			if err != nil {
				return err
			}
			return f.Validate()
		},
		Demo: lanceDemo,
	})
}

// writeLanceRows writes records as JSON Lines rendered as the shared
// lance21 README says (lance.JSONOptions.LanceDB: what LanceDB's
// query().toArrow() prints as JSON). Data files and tables go through it
// alike, so `colfmt cat` of a single-fragment table's data file prints the
// table's rows; raw keeps temporal and decimal values as stored integers.
func writeLanceRows(w io.Writer, recs iter.Seq2[arrow.RecordBatch, error], raw bool) error {
	for rec, err := range recs {
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

// lanceDemo decodes and validates the embedded real file, then writes its
// rows again as a 2.2 file (the size shown) and reads that back.
func lanceDemo() (demoRow, error) {
	row := demoRow{Format: "lance", Input: "lance 12 alltypes 5-row file, rewritten as 2.2"}
	f, err := lance.Open(bytes.NewReader(lanceDemoFile), int64(len(lanceDemoFile)))
	if err != nil {
		return row, err
	}
	if err := f.Validate(); err != nil {
		return row, err
	}
	start := time.Now()
	var decoded int
	iters := 0
	for time.Since(start) < 20*time.Millisecond || iters == 0 {
		rec, err := f.Read(lance.ReadOptions{})
		if err != nil {
			return row, err
		}
		if iters == 0 {
			for _, c := range rec.Columns() {
				decoded += dataSize(c.Data())
			}
		}
		rec.Release()
		iters++
	}
	if rows := f.NumRows(); rows != 5 {
		return row, fmt.Errorf("lance: demo file has %d rows, want 5", rows)
	}
	row.InputBytes = decoded
	row.DecodeMBps = float64(decoded*iters) / time.Since(start).Seconds() / 1e6

	rec, err := f.Read(lance.ReadOptions{})
	if err != nil {
		return row, err
	}
	defer rec.Release()
	var buf bytes.Buffer
	start, iters = time.Now(), 0
	for time.Since(start) < 20*time.Millisecond || iters == 0 {
		buf.Reset()
		w, err := lance.NewWriter(&buf, rec.Schema())
		if err != nil {
			return row, err
		}
		if err := w.Write(rec); err != nil {
			return row, err
		}
		if err := w.Close(); err != nil {
			return row, err
		}
		iters++
	}
	row.EncodeMBps = float64(decoded*iters) / time.Since(start).Seconds() / 1e6
	row.EncodedBytes = buf.Len()
	g, err := lance.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		return row, err
	}
	back, err := g.Read(lance.ReadOptions{})
	if err != nil {
		return row, err
	}
	defer back.Release()
	if !array.RecordEqual(rec, back) {
		return row, fmt.Errorf("lance: demo rows differ after writing them")
	}
	return row, nil
}

func dataSize(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len()
		}
	}
	for _, c := range d.Children() {
		n += dataSize(c)
	}
	return n
}
