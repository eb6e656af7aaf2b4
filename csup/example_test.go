package csup_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
)

// Reading a file zed v1.6.0 wrote (VNG version 3) and printing its values
// as zq -j does.
func ExampleOpen() {
	b, err := os.ReadFile("testdata/vng-v3_zed-v1.6.0/nested.vng")
	if err != nil {
		panic(err)
	}
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Generation)
	for v, err := range f.Values() {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n", bsup.AppendJSON(nil, v, bsup.JSONZed))
	}
	// Output:
	// VNG version 3 (zed v1.6)
	// {"id":1,"user":{"name":"ann","addr":{"city":"paris","zip":75001}},"tags":["a","b"]}
	// {"id":2,"user":{"name":"bob","addr":{"city":"rome","zip":null}},"tags":[]}
	// {"id":3,"user":null,"tags":null}
	// {"id":4,"user":{"name":"cy","addr":null},"tags":["c"]}
}

// Projecting one nested field reads only that column's segments.
func ExampleFile_Project() {
	b, _ := os.ReadFile("testdata/zst-v2_zed-v1.2.0/nested.zst")
	f, _ := csup.Open(bytes.NewReader(b), int64(len(b)))
	for v, err := range f.Project("user.addr.city") {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n", bsup.AppendJSON(nil, v, bsup.JSONZed))
	}
	// Output:
	// {"user":{"addr":{"city":"paris"}}}
	// {"user":{"addr":{"city":"rome"}}}
	// {"user":null}
	// {"user":{"addr":null}}
}

// Writing values in the spec layout and reading them back.
func ExampleNewWriter() {
	rec := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}, {Name: "n", Type: bsup.TypeInt64}})
	var buf bytes.Buffer
	w, _ := csup.NewWriter(&buf)
	_ = w.Write(bsup.NewRecordValue(rec, bsup.NewString("hello"), bsup.NewInt(bsup.TypeInt64, 1)))
	_ = w.Write(bsup.NewRecordValue(rec, bsup.NewString("world"), bsup.NewNull(bsup.TypeInt64)))
	_ = w.Close()

	f, _ := csup.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	fmt.Println(f.Trailer.Type, f.Trailer.Version, f.SuperTypes()[0])
	for v := range f.Values() {
		fmt.Printf("%s\n", bsup.AppendJSON(nil, v, bsup.JSONZed))
	}
	// Output:
	// csup 1 {a:string,n:int64}
	// {"a":"hello","n":1}
	// {"a":"world","n":null}
}

// Reading a file super v0.3.0 wrote (CSUP version 16), projecting one
// column and using the min/max statistics to skip objects.
func ExampleFile_Query() {
	b, err := os.ReadFile("testdata/csup-v16_super-v0.3.0/primitives.csup")
	if err != nil {
		panic(err)
	}
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Generation)
	for v, err := range f.Project("s") {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n", bsup.AppendJSON(nil, v, bsup.JSONSuper))
	}
	st := f.Stats("i")[0]
	fmt.Println("i in", st.Min.Int, "..", st.Max.Int)
	lo := bsup.NewInt(bsup.TypeInt64, 0)
	hi := bsup.NewInt(bsup.TypeInt64, 100)
	rows, err := f.Query(csup.Query{Columns: []string{"s"}, Where: []csup.Range{{Path: "i", Min: &lo, Max: &hi}}})
	if err != nil {
		panic(err)
	}
	for v, err := range rows.All() {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n", bsup.AppendJSON(nil, v, bsup.JSONSuper))
	}
	fmt.Printf("%+v\n", rows.Stats())
	// Output:
	// CSUP version 16 (super v0.3.0)
	// {"s":"alpha"}
	// {"s":""}
	// {"s":"gamma"}
	// i in -1 .. 9223372036854775807
	// {"s":"alpha","i":1}
	// {Objects:1 ObjectsSkipped:0 Rows:1}
}

// Reading a CSUP version 16 file a batch at a time: the columns arrive as
// typed vectors (int64s, float64s, strings with offsets), no value per row.
func ExampleFile_NewBatchReader() {
	rt := bsup.NewRecord([]bsup.Field{{Name: "id", Type: bsup.TypeInt64}, {Name: "name", Type: bsup.TypeString}, {Name: "score", Type: bsup.TypeFloat64}})
	var buf bytes.Buffer
	w, _ := csup.NewWriter(&buf, csup.WithLayout(csup.LayoutCSUP16))
	for i, name := range []string{"ann", "bob", "cy", "dee", "eve"} {
		_ = w.Write(bsup.NewRecordValue(rt, bsup.NewInt(bsup.TypeInt64, int64(i)*10), bsup.NewString(name), bsup.NewFloat(bsup.TypeFloat64, float64(i)/2)))
	}
	_ = w.Close()

	f, err := csup.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), csup.WithBatchRows(3))
	if err != nil {
		panic(err)
	}
	r, err := f.NewBatchReader("id", "name", "score")
	if err != nil {
		panic(err)
	}
	var b csup.Batch
	for r.Next(&b) == nil {
		id, name, score := b.Root.Elems[0], b.Root.Elems[1], b.Root.Elems[2]
		fmt.Printf("rows %d-%d: %s %s %s\n", b.Row, b.Row+int64(b.Rows)-1, id.Kind, name.Kind, score.Kind)
		for i := 0; i < b.Rows; i++ {
			fmt.Printf("  %d %s %.1f\n", id.Ints[i], name.Bytes[name.Offsets[i]:name.Offsets[i+1]], score.Floats[i])
		}
	}
	// Output:
	// rows 0-2: int bytes float
	//   0 ann 0.0
	//   10 bob 0.5
	//   20 cy 1.0
	// rows 3-4: int bytes float
	//   30 dee 1.5
	//   40 eve 2.0
}
