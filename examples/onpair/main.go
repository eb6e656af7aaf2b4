// Command onpair shows the OnPair string-column codec: compress a column
// of short strings, serialize it, read it back and fetch one row directly.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/colfmt/colfmt/onpair"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	// A column of similar short strings, as a table column would hold.
	var values []string
	for i := 0; i < 2000; i++ {
		values = append(values, fmt.Sprintf("user%04d@example.com", i*7919%10000))
	}
	col, err := onpair.CompressStrings(values)
	if err != nil {
		return err
	}
	blob, err := col.MarshalBinary() // "OPCOL" framing, as `colfmt pack` writes
	if err != nil {
		return err
	}
	raw := 0
	for _, v := range values {
		raw += len(v)
	}
	fmt.Fprintf(w, "%d rows, %d bytes -> %d bytes serialized (%d tokens, %d-bit codes)\n",
		col.Len(), raw, len(blob), col.Parts().NumTokens(), col.Parts().Bits)

	// Reading back validates everything once; rows are then decoded directly.
	back, err := onpair.ParseColumn(blob)
	if err != nil {
		return err
	}
	row, err := back.AppendRow(nil, 1234)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "row 1234: %s\n", row)
	return nil
}
