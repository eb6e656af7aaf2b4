package main

import (
	"fmt"
	"os"
	"time"
)

// progress reports a long command's progress on stderr: on a terminal
// one line rewritten in place (at most every half second), otherwise (a
// log file, CI) whole lines, at most one every ten seconds, so a log
// holds no carriage returns and no flood.
type progress struct {
	f     *os.File
	tty   bool
	start time.Time
	last  time.Time
	shown int // the width of a rewritten line on the terminal, not yet ended
}

func newProgress(f *os.File) *progress {
	now := time.Now()
	return &progress{f: f, tty: isTerminal(f), start: now, last: now}
}

// elapsed is the time since the command started, in whole seconds.
func (p *progress) elapsed() float64 { return time.Since(p.start).Round(time.Second).Seconds() }

// update shows an intermediate state, if enough time has passed since the last.
func (p *progress) update(format string, args ...any) {
	every := 10 * time.Second
	if p.tty {
		every = 500 * time.Millisecond
	}
	if time.Since(p.last) < every {
		return
	}
	p.last = time.Now()
	line := fmt.Sprintf(format, args...)
	if p.tty {
		fmt.Fprintf(p.f, "\r%-*s", p.shown, line)
		p.shown = max(p.shown, len(line))
		return
	}
	fmt.Fprintln(p.f, line)
}

// done shows the final state, always, and ends the line.
func (p *progress) done(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if p.shown > 0 {
		// Spaces over what is left of the longer rewritten line.
		line = fmt.Sprintf("\r%-*s", p.shown, line)
	}
	fmt.Fprintln(p.f, line)
	p.shown = 0
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
