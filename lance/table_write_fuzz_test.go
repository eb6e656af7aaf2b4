package lance

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/jsonarrow"
)

// FuzzTableFromJSONLines: fuzz-generated JSON Lines, their inferred
// schema, a table created from the first half of the records and appended
// with the rest (small files, so several fragments): the table reads back
// every row as the records hold it.
func FuzzTableFromJSONLines(f *testing.F) {
	f.Add([]byte("{\"a\":1,\"b\":\"x\",\"v\":[1.5,2]}\n{\"a\":null,\"b\":\"y\",\"v\":[3,4]}\n{\"a\":3,\"l\":[[1],[]]}\n"))
	f.Add([]byte("{\"s\":{\"t\":[{\"u\":true}]}}\n{\"s\":null}\n{\"s\":{\"t\":null}}\n"))
	f.Add([]byte("{\"m\":1}\n{\"m\":\"two\"}\n{\"m\":[3]}\n{\"m\":{}}\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 1<<14 {
			return
		}
		o := jsonarrow.Options{MaxDepth: 8, BatchRows: 3}
		schema, rows, err := jsonarrow.InferSchema(bytes.NewReader(in), o)
		if err != nil || rows == 0 || schema.NumFields() == 0 {
			return
		}
		if _, _, err := lanceFields(schema, 0); err != nil {
			return // names the writer refuses (empty, duplicates)
		}
		var want bytes.Buffer
		var recs []arrow.RecordBatch
		for rec, err := range jsonarrow.Records(bytes.NewReader(in), schema, o) {
			if err != nil {
				t.Fatalf("inferred schema does not read back: %v", err)
			}
			if err := WriteJSONLines(&want, rec, JSONOptions{}); err != nil {
				t.Fatal(err)
			}
			rec.Retain()
			recs = append(recs, rec)
		}
		defer func() {
			for _, r := range recs {
				r.Release()
			}
		}()
		half := len(recs) / 2
		dir := t.TempDir()
		tb, err := CreateTable(DirFS(dir), "f.lance", schema, Batches(recs[:half]...), WithMaxRowsPerFile(4))
		if err != nil {
			t.Fatalf("create: %v (schema %s)", err, schema)
		}
		tb, err = tb.Append(Batches(recs[half:]...), WithMaxRowsPerFile(4))
		if err != nil {
			t.Fatalf("append: %v", err)
		}
		if tb.NumRows() != rows {
			t.Fatalf("%d rows in the table, %d written", tb.NumRows(), rows)
		}
		got := strings.Join(tableRows(t, tb), "\n") + "\n"
		if got != want.String() {
			t.Fatalf("rows differ\nwant %s\ngot  %s", want.String(), got)
		}
	})
}
