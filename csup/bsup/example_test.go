package bsup_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/colfmt/colfmt/csup/bsup"
)

// Writing a Super Binary stream and reading it back.
func Example() {
	rec := bsup.NewRecord([]bsup.Field{
		{Name: "s", Type: bsup.TypeString},
		{Name: "d", Type: bsup.TypeDuration},
		{Name: "xs", Type: bsup.NewArray(bsup.TypeInt32)},
	})
	xs := bsup.Value{Type: rec.Fields[2].Type, Elems: []bsup.Value{bsup.NewInt(bsup.TypeInt32, -1), bsup.NewInt(bsup.TypeInt32, 300)}}
	var buf bytes.Buffer
	w, _ := bsup.NewWriter(&buf)
	_ = w.Write(bsup.NewRecordValue(rec, bsup.NewString("hi"), bsup.NewInt(bsup.TypeDuration, 90e9), xs))
	_ = w.Close()
	fmt.Printf("% x\n", buf.Bytes())

	r, _ := bsup.NewReader(&buf)
	v, _ := r.Read()
	fmt.Println(v.Type)
	fmt.Printf("%s\n", bsup.AppendJSON(nil, v, bsup.JSONZed))
	// Output:
	// 0e 00 01 08 00 03 01 73 19 01 64 0c 02 78 73 1e 11 01 1f 10 03 68 69 06 00 08 d6 e8 29 06 02 03 03 58 02 ff
	// {s:string,d:duration,xs:[int32]}
	// {"s":"hi","d":"1m30s","xs":[-1,300]}
}

// Reading JSON Lines with zq's type inference.
func ExampleJSONReader() {
	jr, err := bsup.NewJSONReader(strings.NewReader(`{"a":1,"b":["x",2]}` + "\n" + `{"a":1.5,"b":[]}`))
	if err != nil {
		panic(err)
	}
	for {
		v, err := jr.Read()
		if err != nil {
			break
		}
		fmt.Println(v.Type)
	}
	// Output:
	// {a:int64,b:[(int64,string)]}
	// {a:float64,b:[null]}
}
