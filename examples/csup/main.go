// Command csup shows the csup package: it writes a few typed values as a
// Super Columnar file in memory, reads them back, reads a projection of
// one field, and prints everything as JSON Lines.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	addr := bsup.NewRecord([]bsup.Field{{Name: "city", Type: bsup.TypeString}, {Name: "zip", Type: bsup.TypeInt64}})
	user := bsup.NewRecord([]bsup.Field{
		{Name: "name", Type: bsup.TypeString},
		{Name: "addr", Type: addr},
		{Name: "tags", Type: bsup.NewArray(bsup.TypeString)},
	})
	tags := func(s ...string) bsup.Value {
		v := bsup.Value{Type: user.Fields[2].Type}
		for _, t := range s {
			v.Elems = append(v.Elems, bsup.NewString(t))
		}
		return v
	}
	rows := []bsup.Value{
		bsup.NewRecordValue(user, bsup.NewString("ann"),
			bsup.NewRecordValue(addr, bsup.NewString("paris"), bsup.NewInt(bsup.TypeInt64, 75001)), tags("a", "b")),
		bsup.NewRecordValue(user, bsup.NewString("bob"), bsup.NewNull(addr), tags()),
		bsup.NewInt(bsup.TypeInt64, 42), // values of other types mix freely
	}

	var file bytes.Buffer
	cw, err := csup.NewWriter(&file)
	if err != nil {
		return err
	}
	for _, v := range rows {
		if err := cw.Write(v); err != nil {
			return err
		}
	}
	if err := cw.Close(); err != nil {
		return err
	}

	f, err := csup.Open(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s, %d super types\n", f.Generation, len(f.SuperTypes()))
	for v, err := range f.Values() {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", bsup.AppendJSON(nil, v, bsup.JSONZed))
	}
	fmt.Fprintln(w, "projection of addr.city:")
	for v, err := range f.Project("addr.city") {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", bsup.AppendJSON(nil, v, bsup.JSONZed))
	}
	return nil
}
