package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, "../../lance/testdata/v2_0_alltypes_5rows.lance", "s"); err != nil {
		t.Fatal(err)
	}
	want := `column "s" (utf8):
  0: "str0"
  1: "str1x"
  2: "str2xx"
  3: null
  4: "str4x"
`
	if !strings.HasSuffix(out.String(), want) {
		t.Fatalf("got:\n%s", out.String())
	}
	if err := run(&out, "../../lance/testdata/v2_0_alltypes_5rows.lance", "nope"); err == nil {
		t.Fatal("no error for a missing column")
	}
}
