// Command colfmt inspects, decodes, validates and encodes the formats of the
// colfmt library: OnPair string columns, AT-1 containers, Lance 2.0 files and
// Super Columnar files.
//
// Usage:
//
//	colfmt inspect  [--format F] FILE
//	colfmt cat      [--format F] [--raw] FILE
//	colfmt validate [--format F] FILE
//	colfmt pack     --format F [--out FILE] [format flags] INPUT
//	colfmt demo
//
// Exit status: 0 ok, 1 bad input (or an unsupported format), 2 usage.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usageText = `colfmt reads, checks and writes columnar and compressed data formats.

Usage:
  colfmt inspect  [--format F] FILE          show the file's structure
  colfmt cat      [--format F] [--raw] FILE  write the decoded content to stdout
  colfmt validate [--format F] FILE          check the whole file; exit 1 if bad
  colfmt pack     --format F [--out FILE] [format flags] INPUT
                                             encode INPUT (see colfmt pack --help)
  colfmt demo                                encode and decode embedded samples
%s
The format is detected from the file's bytes unless --format is given.
Formats: %s
Exit status: 0 ok, 1 bad input or unsupported format, 2 usage error.
Run 'colfmt COMMAND --help' for a command's flags.
`

func usage(w io.Writer) {
	var extra strings.Builder
	for _, name := range formatNames() {
		if f, ok := formats[name]; ok {
			for _, c := range f.Commands {
				fmt.Fprintf(&extra, "  colfmt %-32s %s\n", c.Name+" ...", c.Summary)
			}
		}
	}
	var names []string
	for _, n := range formatNames() {
		if _, ok := formats[n]; ok {
			names = append(names, n)
		} else {
			names = append(names, n+" (not supported yet)")
		}
	}
	fmt.Fprintf(w, usageText, extra.String(), strings.Join(names, ", "))
}

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	status := dispatch(args, bw, stderr)
	if err := bw.Flush(); err != nil && status == 0 {
		fmt.Fprintf(stderr, "colfmt: %v\n", err)
		return 1
	}
	return status
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	case "inspect", "cat", "validate":
		err = fileCommand(cmd, rest, stdout, stderr)
	case "pack":
		err = packCommand(rest, stdout, stderr)
	case "demo":
		err = demoCommand(rest, stdout, stderr)
	default:
		for _, name := range formatNames() {
			if f, ok := formats[name]; ok {
				for _, c := range f.Commands {
					if c.Name == cmd {
						return c.Run(rest, stdout, stderr)
					}
				}
			}
		}
		err = usagef("unknown command %q", cmd)
	}
	return report(err, stderr)
}

// report prints err as one line and maps it to an exit status.
func report(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "colfmt: %v\n", err)
		fmt.Fprintln(stderr, "Run 'colfmt --help' for usage.")
		return 2
	default:
		msg := err.Error()
		if !strings.HasPrefix(msg, "colfmt") && !hasPkgPrefix(msg) {
			msg = "colfmt: " + msg
		}
		fmt.Fprintln(stderr, strings.ReplaceAll(msg, "\n", " "))
		return 1
	}
}

func hasPkgPrefix(msg string) bool {
	for _, n := range knownFormats {
		if strings.HasPrefix(msg, n+":") || strings.HasPrefix(msg, n+"/") {
			return true
		}
	}
	return false
}

func newFlagSet(name string, stderr io.Writer, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: colfmt %s\n", help)
		fs.PrintDefaults()
	}
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	return nil
}

func fileCommand(cmd string, args []string, stdout, stderr io.Writer) error {
	help := cmd + " [--format F] FILE"
	if cmd == "cat" {
		help = "cat [--format F] [--raw] FILE"
	}
	fs := newFlagSet(cmd, stderr, help)
	formatName := fs.String("format", "", "format of FILE (default: detect from its bytes)")
	raw := false
	if cmd == "cat" {
		fs.BoolVar(&raw, "raw", false, "print temporal and decimal values as their stored integers")
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("%s takes exactly one FILE", cmd)
	}
	path := fs.Arg(0)
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("colfmt: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return fmt.Errorf("colfmt: %w", err)
	}
	in := &input{Name: path, R: fh, Size: st.Size()}
	name := *formatName
	if name == "" {
		if name, err = detect(in); err != nil {
			return err
		}
	}
	f, err := lookup(name)
	if err != nil {
		return err
	}
	switch cmd {
	case "inspect":
		if f.Inspect == nil {
			return fmt.Errorf("colfmt: %s: inspect is %w for %s", path, errNotSupported, name)
		}
		return f.Inspect(stdout, in)
	case "cat":
		if f.Cat == nil {
			return fmt.Errorf("colfmt: %s: cat is %w for %s", path, errNotSupported, name)
		}
		return f.Cat(stdout, in, catOptions{Raw: raw})
	default:
		if f.Validate == nil {
			return fmt.Errorf("colfmt: %s: validate is %w for %s", path, errNotSupported, name)
		}
		if err := f.Validate(in); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: valid %s file\n", path, name)
		return nil
	}
}

// lookup returns the registered format, or a plain "not supported yet" error
// for a format that is known but whose package has not landed.
func lookup(name string) (*format, error) {
	if f, ok := formats[name]; ok {
		return f, nil
	}
	for _, k := range knownFormats {
		if k == name {
			return nil, fmt.Errorf("colfmt: format %s is %w", name, errNotSupported)
		}
	}
	return nil, usagef("unknown format %q (formats: %s)", name, strings.Join(knownFormats, ", "))
}

func packCommand(args []string, stdout, stderr io.Writer) error {
	// The format decides which further flags exist, so find it first.
	name := ""
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--format="); ok {
			name = v
		} else if v, ok := strings.CutPrefix(a, "-format="); ok {
			name = v
		} else if (a == "--format" || a == "-format") && i+1 < len(args) {
			name = args[i+1]
		}
	}
	fs := newFlagSet("pack", stderr, "pack --format F [--out FILE] [format flags] INPUT")
	fs.String("format", "", "format to write: "+strings.Join(knownFormats, ", "))
	out := fs.String("out", "", "output file (default: stdout)")
	var encode func(w io.Writer, data []byte) error
	var f *format
	if name != "" {
		var err error
		if f, err = lookup(name); err != nil {
			return err
		}
		if f.PackFlags != nil {
			encode = f.PackFlags(fs)
		}
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if name == "" {
		return usagef("pack needs --format")
	}
	if fs.NArg() != 1 {
		return usagef("pack takes exactly one INPUT")
	}
	if encode == nil {
		return fmt.Errorf("colfmt: pack is %w for %s", errNotSupported, name)
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("colfmt: %w", err)
	}
	if *out == "" {
		return encode(stdout, data)
	}
	fh, err := os.Create(*out)
	if err != nil {
		return fmt.Errorf("colfmt: %w", err)
	}
	bw := bufio.NewWriterSize(fh, 1<<20)
	if err := encode(bw, data); err != nil {
		fh.Close()
		os.Remove(*out)
		return err
	}
	if err := bw.Flush(); err != nil {
		fh.Close()
		return fmt.Errorf("colfmt: %w", err)
	}
	return fh.Close()
}
