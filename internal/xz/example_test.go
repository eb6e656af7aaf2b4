package xz_test

import (
	"bytes"
	"fmt"
	"io"
	"log"

	"github.com/colfmt/colfmt/internal/xz"
	ulxz "github.com/ulikunitz/xz"
)

func ExampleAppendEncode() {
	src := bytes.Repeat([]byte("colfmt writes .xz streams. "), 1000)
	enc, err := xz.AppendEncode(nil, src, xz.WithPreset(9), xz.WithExtreme(true))
	if err != nil {
		log.Fatal(err)
	}
	r, err := ulxz.NewReader(bytes.NewReader(enc))
	if err != nil {
		log.Fatal(err)
	}
	dec, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(src), len(enc) < 200, bytes.Equal(dec, src))
	// Output: 27000 true true
}

func ExampleNewWriter() {
	var buf bytes.Buffer
	w, err := xz.NewWriter(&buf, xz.WithPreset(1), xz.WithCheck(xz.CheckCRC32))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(w, "hello, xz")
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x\n", buf.Bytes()[:6])
	// Output: fd 37 7a 58 5a 00
}
