// Command lance reads a Lance 2.0 file into Arrow and prints one column.
//
//	go run ./examples/lance [FILE [COLUMN]]
//
// Without arguments it reads lance/testdata/v2_0_alltypes_5rows.lance (a
// file lance 12 wrote) and prints its "s" column.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/colfmt/colfmt/lance"
)

func main() {
	path, col := "lance/testdata/v2_0_alltypes_5rows.lance", "s"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	if len(os.Args) > 2 {
		col = os.Args[2]
	}
	if err := run(os.Stdout, path, col); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer, path, column string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	f, err := lance.Open(fh, st.Size())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d rows\n%s\n", path, f.NumRows(), f.Schema())
	// Only the pages of the requested column are read from the file.
	rec, err := f.Read(lance.ReadOptions{Columns: []string{column}})
	if err != nil {
		return err
	}
	defer rec.Release()
	arr := rec.Column(0)
	fmt.Fprintf(w, "column %q (%s):\n", column, arr.DataType())
	for i := 0; i < arr.Len(); i++ {
		fmt.Fprintf(w, "  %d: %s\n", i, lance.AppendJSONValue(nil, arr, i, lance.JSONOptions{}))
	}
	return nil
}
