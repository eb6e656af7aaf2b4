package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var sb strings.Builder
	if err := run(&sb, "../../"+defaultFile); err != nil {
		t.Fatal(err)
	}
	out := sb.String()
	for _, want := range []string{
		"qcolumnar: 5000 structured rows in 5 row groups of 1024",
		"row 3000: 10000 AAA 10.00",
		"row 3010: 10030 \"B,B\" 20.10",
		"read 3 blocks",
		"4 of 5 row groups skipped",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "row 30"); n != 11 {
		t.Errorf("%d rows, want 11:\n%s", n, out)
	}
}
