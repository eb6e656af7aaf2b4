package zstdenc_test

import (
	"bytes"
	"fmt"

	"github.com/klauspost/compress/zstd"

	"github.com/colfmt/colfmt/internal/zstdenc"
)

func Example() {
	src := bytes.Repeat([]byte("colfmt writes small zstd frames. "), 20)
	frame, err := zstdenc.AppendEncode(nil, src)
	if err != nil {
		panic(err)
	}
	dec, _ := zstd.NewReader(nil)
	defer dec.Close()
	out, err := dec.DecodeAll(frame, nil)
	fmt.Println(len(src), len(frame) < 60, bytes.Equal(out, src), err)
	// Output: 660 true true <nil>
}
