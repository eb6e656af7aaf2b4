// Command colfmt inspects, decodes, validates and encodes the formats of the
// colfmt library: OnPair string columns, AT-1 containers, Lance files and
// tables, and Super Columnar files.
//
// Usage:
//
//	colfmt inspect  [--format F] [--version N] FILE|DIR|-
//	colfmt cat      [--format F] [--raw] [--columns a,b.c] [--version N] FILE|DIR|-
//	colfmt validate [--format F] [--version N] FILE|DIR|-
//	colfmt pack     --format F [--out FILE] [format flags] INPUT|-
//	colfmt demo
//	colfmt --version
//
// FILE and DIR may be URLs: http://, https:// and file:// (package
// remote), and s3://, gs:// and azblob:// in a build with -tags colfmt_objstore (package
// remote/objstore); remote files are read in byte ranges, and a table over
// HTTP is found through _versions/latest_version_hint.json. The query
// commands and grep take URLs too.
//
// Flags may come before or after FILE. "-" reads standard input: AT-1 cat
// and validate stream from it; everything else reads it into memory (up to
// 1 GiB) since those formats need random access. The format is detected
// from the bytes by colfmt.Detect (a directory by colfmt.DetectDir) unless
// --format is given.
//
// Exit status: 0 ok, 1 bad input, an unsupported format or an internal
// error (a recovered panic), 2 usage.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/colfmt/colfmt"
)

// defaultMemLimit is the soft heap limit the command sets when GOMEMLIMIT
// is not in the environment. The decoders' own budgets bound what is live;
// this keeps the garbage of one record batch from piling up before the
// collector runs, so the process's address space stays near its live data
// (a 2 GiB address-space cap held under load, which GC pacing alone did
// not guarantee).
const defaultMemLimit = 512 << 20

// decodeGCPercent is the GC target of the decoding commands (inspect, cat,
// validate) when GOGC is not in the environment. At Go's default (100) the
// first collection comes at a 4 MiB heap, which decoding a file of a few
// MB crosses once or twice, each cycle costing its marking and the fresh
// pages it touches (about 5 ms on flights-200k.jsonl's AT-1 file). At 200
// the first comes at 8 MiB and the heap may grow to three times what is
// live, still under defaultMemLimit. pack keeps the default: it holds
// more and gained nothing (peak RSS 427 -> 519 MB at the same CPU).
const decodeGCPercent = 200

func main() {
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(defaultMemLimit)
	}
	if _, ok := os.LookupEnv("GOGC"); !ok && len(os.Args) > 1 {
		switch os.Args[1] {
		case "inspect", "cat", "validate":
			debug.SetGCPercent(decodeGCPercent)
		}
	}
	os.Exit(runStdin(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usageText = `colfmt reads, checks and writes columnar and compressed data formats.

Usage:
  colfmt inspect  [flags] FILE    show the file's structure
  colfmt cat      [flags] FILE    write the decoded content to stdout
                                  (--columns a,b.c: only those columns)
  colfmt validate [flags] FILE    check the whole file; exit 1 if bad
  colfmt pack     --format F [--out FILE] [format flags] INPUT
                                  encode INPUT (see colfmt pack --help)
  colfmt demo                     encode and decode embedded samples
  colfmt --version                print the version
%s
FILE may be a directory (a Lance table), an http(s):// or file:// URL of
either (s3://, gs://, azblob:// when built with -tags colfmt_objstore), or - for standard
input; flags may come before or after it. The format is detected from the bytes unless
--format is given.
Formats: %s
Exit status: 0 ok, 1 bad input, unsupported format or internal error, 2 usage.
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

// cmdStdin is standard input for format subcommands (command.Run has no
// stdin parameter); runStdin sets it. cmdStderr is standard error for
// notes from a format's pack (its flags' function has no stderr).
var (
	cmdStdin  io.Reader = os.Stdin
	cmdStderr io.Writer = os.Stderr
)

// runStdin executes the command line and returns the exit status. A panic
// anywhere below is reported as an internal error with exit status 1
// (never 2, which means a usage mistake); fileCommand's own recover adds
// the file's name.
func runStdin(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "colfmt: internal error: panic: %v\n", p)
			if os.Getenv("COLFMT_DEBUG") != "" {
				stderr.Write(debug.Stack())
			}
			bw.Flush()
			status = 1
		}
	}()
	cmdStdin, cmdStderr = stdin, stderr
	status = dispatch(args, stdin, bw, stderr)
	if err := bw.Flush(); err != nil && status == 0 {
		fmt.Fprintf(stderr, "colfmt: %v\n", err)
		return 1
	}
	return status
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	case "-version", "--version", "version":
		if len(rest) != 0 {
			return report(usagef("--version takes no arguments"), stderr)
		}
		fmt.Fprintln(stdout, versionString())
		return 0
	case "inspect", "cat", "validate":
		err = fileCommand(cmd, rest, stdin, stdout, stderr)
	case "pack":
		err = packCommand(rest, stdin, stdout, stderr)
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

// parseArgs parses fs from args, letting flags and positional arguments
// mix ("cat FILE --raw" as well as "cat --raw FILE"): it returns the
// positional arguments in order. After "--" everything is positional.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// flag stops at the first positional argument, or after "--";
		// for "--", every later argument is positional.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// displayName is how messages name a command-line path.
func displayName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// withFile makes sure err's message names the file: every error a file
// command reports says which file it is about. Usage errors are left alone.
func withFile(path string, err error) error {
	if err == nil || errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
		return err
	}
	name := displayName(path)
	if strings.Contains(err.Error(), name) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// versionString is the module version from the build information ("(devel)"
// for a build from a work tree) with the VCS revision when recorded.
func versionString() string {
	v, extra := "(devel)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", modified"
				}
			}
		}
		if rev != "" {
			extra = fmt.Sprintf(" (revision %.12s%s)", rev, modified)
		}
		return fmt.Sprintf("colfmt %s%s %s", v, extra, bi.GoVersion)
	}
	return "colfmt " + v
}

func fileCommand(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	help := cmd + " [--format F] [--version N] FILE|DIR|-"
	if cmd == "cat" {
		help = "cat [--format F] [--raw] [--columns a,b.c] [--version N] FILE|DIR|-"
	}
	fs := newFlagSet(cmd, stderr, help)
	formatName := fs.String("format", "", "format of FILE (default: detect from its bytes)")
	version := fs.Uint64("version", 0, "for a table directory: the table version to read (default: the latest)")
	raw, columns := false, ""
	if cmd == "cat" {
		fs.BoolVar(&raw, "raw", false, "print temporal and decimal values as their stored integers")
		fs.StringVar(&columns, "columns", "", "write only these columns, comma-separated; dotted paths (a.b) select nested fields where the format has them")
		fs.Usage = func() {
			fmt.Fprintf(stderr, "Usage: colfmt %s\n", help)
			fs.PrintDefaults()
			fmt.Fprintln(stderr, "\n--columns selects, per format:")
			for _, n := range formatNames() {
				if f, ok := formats[n]; ok && f.Columns != "" {
					fmt.Fprintf(stderr, "  %-8s %s\n", n, f.Columns)
				} else if ok {
					fmt.Fprintf(stderr, "  %-8s (no columns)\n", n)
				}
			}
		}
	}
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("%s takes exactly one FILE", cmd)
	}
	path := files[0]
	var cols []string
	if columns != "" {
		for _, c := range strings.Split(columns, ",") {
			if c = strings.TrimSpace(c); c == "" {
				return usagef("--columns %q: empty column name", columns)
			}
			cols = append(cols, c)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			if os.Getenv("COLFMT_DEBUG") != "" {
				stderr.Write(debug.Stack())
			}
			err = fmt.Errorf("%s: internal error: panic: %v", displayName(path), p)
		}
	}()
	o := catOptions{Raw: raw, Columns: cols}
	var in *input
	closeIn := func() {}
	if path != "-" {
		// A directory, local or a URL (remote_input.go); a URL's file is
		// opened on the way.
		d, rin, closeT, err := openTarget(path, *version != 0)
		if err != nil {
			return withFile(path, err)
		}
		if d != nil {
			defer closeT()
			d.Version = *version
			prefetchRemote(cmd, d, nil, cols)
			return withFile(path, dirCommand(cmd, d, *formatName, o, stdout))
		}
		if rin != nil {
			in, closeIn = rin, closeT
			prefetchRemote(cmd, nil, in, cols)
		}
	}
	if *version != 0 {
		return usagef("--version selects a version of a table directory; %s is not a directory", displayName(path))
	}
	if in == nil {
		streamOK := cmd != "inspect" && len(cols) == 0 && (*formatName == "" || *formatName == "at1")
		if in, closeIn, err = openInput(path, stdin, streamOK); err != nil {
			return withFile(path, err)
		}
	}
	defer closeIn()
	return withFile(path, runFile(cmd, in, *formatName, o, stdout))
}

func runFile(cmd string, in *input, name string, o catOptions, stdout io.Writer) error {
	var err error
	if name == "" {
		if name, err = detect(in); err != nil {
			return err
		}
	}
	f, err := lookup(name)
	if err != nil {
		return err
	}
	if in.Stream != nil && name != "at1" {
		return fmt.Errorf("%s %w", name, errNeedsFile)
	}
	switch cmd {
	case "inspect":
		if f.Inspect == nil {
			return fmt.Errorf("inspect is %w for %s", errNotSupported, name)
		}
		return f.Inspect(stdout, in)
	case "cat":
		if f.Cat == nil {
			return fmt.Errorf("cat is %w for %s", errNotSupported, name)
		}
		if len(o.Columns) > 0 && f.Columns == "" {
			return fmt.Errorf("%s has no columns to select: --columns does not apply", name)
		}
		return f.Cat(stdout, in, o)
	default:
		if f.Validate == nil {
			return fmt.Errorf("validate is %w for %s", errNotSupported, name)
		}
		if err := f.Validate(in); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: valid %s file\n", in.Name, name)
		return nil
	}
}

// dirCommand runs a command on a directory through the format's directory
// hooks (see format).
func dirCommand(cmd string, d *dirInput, name string, o catOptions, stdout io.Writer) error {
	path, version := d.Path, d.Version
	info, err := detectDir(d.FS)
	if errors.Is(err, colfmt.ErrUnknownFormat) {
		return fmt.Errorf("%s: is a directory", path)
	}
	if err != nil {
		return err
	}
	if name == "" {
		name = "lance" // the one directory format DetectDir reports today
	}
	f, err := lookup(name)
	if err != nil {
		return err
	}
	d.Info = info
	noHook := fmt.Errorf("%s: is a directory (a %s; colfmt %s cannot %s tables yet)", path, info, name, cmd)
	switch cmd {
	case "inspect":
		if f.InspectDir == nil {
			return noHook
		}
		return f.InspectDir(stdout, d)
	case "cat":
		if f.CatDir == nil {
			return noHook
		}
		if len(o.Columns) > 0 && f.Columns == "" {
			return fmt.Errorf("%s has no columns to select: --columns does not apply", name)
		}
		return f.CatDir(stdout, d, o)
	default:
		if f.ValidateDir == nil {
			return noHook
		}
		if err := f.ValidateDir(d); err != nil {
			return err
		}
		// info describes the latest version; name the one checked. The
		// data storage version is fixed when a table is created, so the
		// latest manifest's holds for every version.
		if version > 0 {
			info.TableVersion = version
		}
		fmt.Fprintf(stdout, "%s: valid %s\n", path, info)
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

// writableFormats lists the formats pack can write, in the usual order.
func writableFormats() []string {
	var names []string
	for _, n := range formatNames() {
		if f, ok := formats[n]; ok && f.PackFlags != nil {
			names = append(names, n)
		}
	}
	return names
}

func packCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
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
	fs := newFlagSet("pack", stderr, "pack --format F [--out FILE] [format flags] INPUT|-")
	fs.String("format", "", "format to write: "+strings.Join(writableFormats(), ", "))
	out := fs.String("out", "", "output file (default: stdout)")
	fs.StringVar(out, "o", "", "same as --out")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: colfmt pack --format F [--out FILE] [format flags] INPUT|-")
		fmt.Fprintln(stderr, "INPUT - reads standard input. Flags may come before or after INPUT.")
		fs.PrintDefaults()
		for _, n := range writableFormats() {
			if name != "" && n != name {
				continue
			}
			f := formats[n]
			fmt.Fprintf(stderr, "\n--format %s: %s\n", n, f.Summary)
			ffs := flag.NewFlagSet(n, flag.ContinueOnError)
			ffs.SetOutput(stderr)
			f.PackFlags(ffs)
			ffs.PrintDefaults()
		}
	}
	var encode packFunc
	if name != "" {
		f, err := lookup(name)
		if err != nil {
			return err
		}
		if f.PackFlags == nil {
			return fmt.Errorf("pack is %w for %s (formats pack writes: %s)", errNotSupported, name, strings.Join(writableFormats(), ", "))
		}
		encode = f.PackFlags(fs)
	}
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if name == "" {
		return usagef("pack needs --format (%s)", strings.Join(writableFormats(), ", "))
	}
	if len(files) != 1 {
		return usagef("pack takes exactly one INPUT")
	}
	in, err := openPackSource(files[0], stdin)
	if err != nil {
		return withFile(files[0], err)
	}
	defer in.close()
	src := in.name
	if *out == "" {
		return withFile(src, encode(stdout, in))
	}
	fh, err := os.Create(*out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(fh, 1<<20)
	if err := encode(bw, in); err != nil {
		fh.Close()
		os.Remove(*out)
		return withFile(src, err)
	}
	if err := bw.Flush(); err != nil {
		fh.Close()
		return withFile(*out, err)
	}
	return withFile(*out, fh.Close())
}
