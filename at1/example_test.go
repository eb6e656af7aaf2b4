package at1_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/colfmt/colfmt/at1"
)

func ExampleDecode() {
	// A RAW file: magic, codec 255, backend 2 (stored), the original.
	src := []byte("AT1\x02\xff\x02a,b\n1,2\n")
	out, err := at1.Decode(src)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// a,b
	// 1,2
}

func ExampleNewReader() {
	// A framed RAW file: two raw frames with stored payloads.
	src := "AT1\x03\xff\x01" + "\x06\x01\x02one\n" + "\x05\x01\x02two"
	z, err := at1.NewReader(strings.NewReader(src))
	if err != nil {
		panic(err)
	}
	if _, err := io.Copy(os.Stdout, z); err != nil {
		panic(err)
	}
	// Output:
	// one
	// two
}

func ExampleFile_Query() {
	src, err := os.ReadFile("testdata/qcol.at1")
	if err != nil {
		panic(err)
	}
	f, err := at1.Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		panic(err)
	}
	// sym and ts of rows with ts >= 1002 (column 0 is an integer).
	rows, err := f.Query(at1.Query{Columns: []int{2, 0}, Where: []at1.Range{{Column: 0, Min: "1002"}}})
	if err != nil {
		panic(err)
	}
	for row, err := range rows.All() {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d: %q\n", row.Index, row.Values)
	}
	s := rows.Stats()
	fmt.Printf("blocks read %d, skipped %d\n", s.BlocksRead, s.BlocksSkipped)
	// Output:
	// 2: ["CCC" "1005"]
	// 3: ["" "1003"]
	// blocks read 2, skipped 2
}

func ExampleEncode() {
	var csv strings.Builder
	csv.WriteString("id,price,side\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&csv, "%d,%d.%02d,%s\n", 5000+i, 100+i%7, i%100, []string{"buy", "sell"}[i%2])
	}
	file, err := at1.Encode([]byte(csv.String()))
	if err != nil {
		panic(err)
	}
	back, err := at1.Decode(file)
	if err != nil {
		panic(err)
	}
	fmt.Println(at1.Codec(file[4]), bytes.Equal(back, []byte(csv.String())), len(file) < csv.Len()/20)
	// Output:
	// columnar true true
}

func ExampleNewWriter() {
	var out bytes.Buffer
	w, err := at1.NewWriter(&out, at1.WithChunkSize(64<<10))
	if err != nil {
		panic(err)
	}
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(w, "%d\t%d\n", i, i*i)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	f, err := at1.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		panic(err)
	}
	st := w.Stats()
	fmt.Println(f.Framed, len(f.Frames) == st.Frames, st.Frames > 1, st.Out == int64(out.Len()), f.Validate())
	// Output:
	// true true true true <nil>
}
