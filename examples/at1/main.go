// Command at1 queries a qcolumnar AT-1 file without decompressing all of
// it: it opens the file, prints its columns and row groups, then asks for
// the symbol and price of trades with ids in a range. Zone maps let the
// reader skip every row group that cannot hold such an id; only the
// needed blocks are read from the file.
//
//	go run ./examples/at1 [FILE]
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/colfmt/colfmt/at1"
)

// defaultFile is a 5,000-row qcolumnar sample checked in with the package.
const defaultFile = "at1/testdata/golden_qcol_trades.at1"

func main() {
	path := defaultFile
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	if err := run(os.Stdout, path); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer, path string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	// Open reads the header, the stream directory and the index only.
	f, err := at1.Open(fh, st.Size())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d structured rows in %d row groups of %d\n",
		f.Codec, f.StructuredRows(), len(f.RowGroups()), f.RowGroupSize())

	// id is column 0 (integer), price column 1 (decimal), sym column 2.
	rows, err := f.Query(at1.Query{
		Columns: []int{0, 2, 1},
		Where:   []at1.Range{{Column: 0, Min: "10000", Max: "10030"}},
	})
	if err != nil {
		return err
	}
	for row, err := range rows.All() {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "row %d: %s\n", row.Index, bytes.Join(row.Values, []byte(" ")))
	}
	s := rows.Stats()
	fmt.Fprintf(w, "read %d blocks (%d bytes), skipped %d; %d of %d row groups skipped\n",
		s.BlocksRead, s.BytesRead, s.BlocksSkipped, s.GroupsSkipped, s.Groups)
	return nil
}
