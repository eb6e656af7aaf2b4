package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// demoCommand runs each implemented format's demo on its embedded sample
// and prints one table row per format.
func demoCommand(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("demo", stderr, "demo")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("demo takes no arguments")
	}
	// Text columns left-aligned; numbers are padded to the right by the
	// format verbs so the table reads like one.
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "format\tsample\t input bytes\tencoded bytes\t ratio\tencode MB/s\tdecode MB/s")
	var failed error
	for _, name := range formatNames() {
		f, ok := formats[name]
		if !ok || f.Demo == nil {
			what := "(not implemented yet)"
			if ok {
				what = "(no demo)" // bsup: written by pack, covered by csup's demo
			}
			fmt.Fprintf(tw, "%s\t%s\t%12s\t%13s\t%6s\t%11s\t%11s\n", name, what, "-", "-", "-", "-", "-")
			continue
		}
		row, err := f.Demo()
		if err != nil {
			fmt.Fprintf(tw, "%s\tFAILED: %v\t%12s\t%13s\t%6s\t%11s\t%11s\n", name, err, "-", "-", "-", "-", "-")
			if failed == nil {
				failed = fmt.Errorf("colfmt: demo %s: %w", name, err)
			}
			continue
		}
		ratio := 0.0
		if row.EncodedBytes > 0 {
			ratio = float64(row.InputBytes) / float64(row.EncodedBytes)
		}
		fmt.Fprintf(tw, "%s\t%s\t%12d\t%13d\t%6.2f\t%11.1f\t%11.1f\n", row.Format, row.Input,
			row.InputBytes, row.EncodedBytes, ratio, row.EncodeMBps, row.DecodeMBps)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return failed
}
