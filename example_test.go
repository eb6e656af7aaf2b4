package colfmt_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/colfmt/colfmt"
)

func ExampleDetect() {
	// An AT-1 whole-file container with the columnar codec and an empty
	// stream set, then the same file cut short.
	file := []byte("AT1\x02\x04\x00")
	info, err := colfmt.Detect(bytes.NewReader(file), int64(len(file)))
	fmt.Println(info, err)

	cut := []byte("AT1\x02\x04\x01\x05name")
	info, err = colfmt.Detect(bytes.NewReader(cut), int64(len(cut)))
	fmt.Println(info.Format, errors.Is(err, colfmt.ErrTruncated))
	// Output:
	// AT-1 whole container, codec columnar <nil>
	// at1 true
}
