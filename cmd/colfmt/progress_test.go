package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// Off a terminal, progress writes whole lines, rate-limited, and no
// carriage returns: a log file reads line by line.
func TestProgressLog(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	p := newProgress(f)
	if p.tty {
		t.Fatal("a regular file reads as a terminal")
	}
	p.update("step %d", 1) // too soon after the start: not shown
	p.last = time.Now().Add(-time.Minute)
	p.update("step %d", 2)
	p.update("step %d", 3) // too soon after step 2
	p.done("all %d", 4)
	f.Close()
	got, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if want := "step 2\nall 4\n"; string(got) != want {
		t.Errorf("log %q, want %q", got, want)
	}
	if strings.Contains(string(got), "\r") {
		t.Error("carriage return in a log")
	}
}

// On a terminal the line is rewritten in place, and the final line
// covers the longer one before it.
func TestProgressTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	p := newProgress(f)
	p.tty = true // as isTerminal would say on a terminal
	p.last = time.Now().Add(-time.Minute)
	p.update("working %d/%d", 10, 20)
	p.done("done")
	f.Close()
	got, _ := os.ReadFile(f.Name())
	if want := "\rworking 10/20\rdone         \n"; string(got) != want {
		t.Errorf("terminal %q, want %q", got, want)
	}
}
