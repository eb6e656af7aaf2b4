package lance_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colfmt/colfmt/lance"
)

// Read two columns of a file lance 12 wrote and print them.
func Example() {
	fh, err := os.Open("testdata/v2_0_alltypes_5rows.lance")
	if err != nil {
		panic(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	f, err := lance.Open(fh, st.Size())
	if err != nil {
		panic(err)
	}
	fmt.Println(f.NumRows(), "rows;", f.Schema().Field(4))
	rec, err := f.Read(lance.ReadOptions{Columns: []string{"id", "s"}})
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	ids := rec.Column(0).(*array.Int32)
	ss := rec.Column(1).(*array.String)
	for i := 0; i < int(rec.NumRows()); i++ {
		if ss.IsNull(i) {
			fmt.Println(ids.Value(i), "null")
			continue
		}
		fmt.Println(ids.Value(i), ss.Value(i))
	}
	// Output:
	// 5 rows; s: type=utf8, nullable
	// 0 str0
	// 1 str1x
	// 2 str2xx
	// 3 null
	// 4 str4x
}

// Render rows 3 and 4 as JSON Lines, the format of `colfmt cat`.
func ExampleWriteJSONLines() {
	fh, err := os.Open("testdata/v2_0_alltypes_5rows.lance")
	if err != nil {
		panic(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	f, err := lance.Open(fh, st.Size())
	if err != nil {
		panic(err)
	}
	rec, err := f.Read(lance.ReadOptions{Columns: []string{"l", "st", "vec"}, Offset: 3, Limit: 2})
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	if err := lance.WriteJSONLines(os.Stdout, rec, lance.JSONOptions{}); err != nil {
		panic(err)
	}
	// Output:
	// {"l":[30],"st":{"a":null,"b":"n3"},"vec":[3,3.5,-3,0.25]}
	// {"l":[40,41],"st":{"a":4,"b":"n4"},"vec":[4,4.5,-4,0.2]}
}

// Files of other versions are refused, naming the version.
func ExampleOpen_unsupported() {
	b, err := os.ReadFile("testdata/v0_2_legacy_alltypes_5rows.lance")
	if err != nil {
		panic(err)
	}
	_, err = lance.Open(bytes.NewReader(b), int64(len(b)))
	fmt.Println(err)
	// Output:
	// lance: unsupported: legacy Lance v1 file (footer version 0.2); file formats 2.0, 2.1 and 2.2 are read (at offset 3143, footer)
}

// List where a column's pages lie, to fetch byte ranges yourself.
func ExampleFile_Columns() {
	b, err := os.ReadFile("testdata/v2_0_alltypes_5rows.lance")
	if err != nil {
		panic(err)
	}
	f, err := lance.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		panic(err)
	}
	for _, c := range f.Columns()[7:9] {
		for _, p := range c.Pages {
			fmt.Println(c.Path, p.Rows, p.Buffers, p.Encoding)
		}
	}
	// Output:
	// column 7 (l) 5 [{704 40}] list(offsets=nullable(no_nulls(flat(64, page[0]))), null_offset_adjustment=5, num_items=4)
	// column 8 (l.item) 4 [{768 16}] nullable(no_nulls(flat(32, page[0])))
}

// Read a Lance 2.2 file (what LanceDB 0.39 writes by default) with the
// same API as 2.0, selecting a column by its Lance field id.
func ExampleFile_Fields() {
	b, err := os.ReadFile("testdata/v2_2_alltypes_5rows.lance")
	if err != nil {
		panic(err)
	}
	f, err := lance.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		panic(err)
	}
	maj, min := f.Version()
	fmt.Printf("version %d.%d, %d rows\n", maj, min, f.NumRows())
	for _, fd := range f.Fields()[:3] {
		fmt.Println(fd.ID, fd.Path, fd.Type, fd.Column)
	}
	rec, err := f.Read(lance.ReadOptions{FieldIDs: []int32{f.Fields()[0].ID}, Limit: 2})
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	fmt.Println(rec.Schema().Field(0).Name, rec.Column(0))
	// Output:
	// version 2.2, 5 rows
	// 0 id int32 0
	// 1 i64n int64 1
	// 2 f64 float64 2
	// id [0 1]
}
