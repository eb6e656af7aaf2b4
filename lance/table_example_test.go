package lance_test

import (
	"fmt"
	"os"

	"github.com/colfmt/colfmt/lance"
)

// Open a table LanceDB 0.39 wrote (testdata/tables/versions.lance: seven
// versions with appends, deletes, an update, an added and a dropped
// column), list its versions, travel back to version 2 and read two
// columns of the latest version as LanceDB prints them.
func ExampleOpenTable() {
	fsys := os.DirFS("testdata/tables")
	t, err := lance.OpenTable(fsys, "versions.lance")
	if err != nil {
		panic(err)
	}
	vs, err := t.Versions()
	if err != nil {
		panic(err)
	}
	for _, v := range vs {
		fmt.Printf("v%d: %d rows\n", v.Number, v.Rows)
	}
	for _, fr := range t.Fragments() {
		fmt.Printf("fragment %d: %d rows, %d deleted, %d data files\n", fr.ID, fr.PhysicalRows, fr.DeletedRows, len(fr.Files))
	}
	old, err := lance.OpenTable(fsys, "versions.lance", lance.WithVersion(2))
	if err != nil {
		panic(err)
	}
	fmt.Println("v2 schema:", old.Schema().NumFields(), "columns,", old.NumRows(), "rows")
	rec, err := t.Read(lance.ReadOptions{Columns: []string{"id", "double_id"}, Offset: 5, Limit: 2})
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	for i := 0; i < int(rec.NumRows()); i++ {
		fmt.Println(string(lance.AppendJSONRow(nil, rec, i, lance.JSONOptions{LanceDB: true})))
	}
	// Output:
	// v1: 1500 rows
	// v2: 2000 rows
	// v3: 1714 rows
	// v4: 1714 rows
	// v5: 1714 rows
	// v6: 1714 rows
	// v7: 1628 rows
	// fragment 0: 1500 rows, 472 deleted, 2 data files
	// fragment 1: 500 rows, 157 deleted, 2 data files
	// fragment 2: 257 rows, 0 deleted, 2 data files
	// v2 schema: 4 columns, 2000 rows
	// {"id":306,"double_id":"612"}
	// {"id":307,"double_id":"614"}
}
