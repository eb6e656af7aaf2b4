package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"sort"

	"github.com/colfmt/colfmt"
)

// A format plugs one colfmt package into the command. Each lives in its own
// file, fmt_<name>.go, and registers itself from init, so formats land
// without touching the command's shared code. Nil functions mean "not
// supported for this format".
type format struct {
	Name    string // "onpair", "at1", "lance", "csup"
	Summary string // one line for --help
	// Detect is optional and consulted only for files colfmt.Detect (the
	// root package, which does the command's detection) calls unknown: it
	// reports whether a file is of this format from its first and last
	// bytes (up to 64 of each) and its size.
	Detect func(head, tail []byte, size int64) bool
	// Inspect writes the structure: container kind, version, columns or
	// streams, encodings, sizes.
	Inspect func(w io.Writer, in *input) error
	// Cat writes the decoded content (the output contract is in README.md).
	// When o.Columns is set, only those columns are written (see Columns).
	Cat func(w io.Writer, in *input, o catOptions) error
	// Columns says what `cat --columns` selects for this format, for the
	// help text ("top-level fields", "fields, dotted paths for nested
	// ones"); empty means the format has no columns and the command refuses
	// --columns before calling Cat.
	Columns string
	// Validate checks the whole file deeply; nil error means valid.
	Validate func(in *input) error
	// PackFlags registers the format's own pack flags on fs and returns the
	// function that encodes the input to w once fs is parsed.
	PackFlags func(fs *flag.FlagSet) packFunc
	// Demo encodes, decodes and validates embedded sample data.
	Demo func() (demoRow, error)
	// Commands are extra subcommands (for example at1's query).
	Commands []command

	// Directory hooks, for formats whose data is a directory (a Lance
	// table). The command calls them when FILE is a directory that
	// colfmt.DetectDir maps to this format; a format without the hook
	// answers "<path>: is a directory". dir.Version is the --version flag
	// (0: the latest version). Errors follow the same rules as the file
	// functions: the command adds the path when the message lacks it.
	InspectDir  func(w io.Writer, dir *dirInput) error
	CatDir      func(w io.Writer, dir *dirInput, o catOptions) error
	ValidateDir func(dir *dirInput) error
}

// dirInput is a directory handed to a format's directory hooks.
type dirInput struct {
	Path    string      // as given on the command line
	FS      fs.FS       // os.DirFS(Path), or the URL's remote.FS / objstore FS
	Info    colfmt.Info // what colfmt.DetectDir found (Format, TableVersion, Version)
	Version uint64      // --version N: the table version to read; 0 means the latest
}

// input is an open file handed to a format. Name is the path, or
// "<stdin>" for "-". Standard input is either read into memory (R and Size
// are set) or, for AT-1 cat and validate, kept as a pipe: then R is nil,
// Size is -1 and Stream reads it. in.reader() gives a stream either way.
type input struct {
	Name   string
	R      io.ReaderAt
	Size   int64
	Stream io.Reader
}

type catOptions struct {
	// Raw prints temporal and decimal values as their stored integers.
	Raw bool
	// Columns are the --columns selections, in order: names, or dotted
	// paths where the format reads nested fields; nil means all.
	Columns []string
}

// command is a format-specific subcommand. Run returns the exit status.
type command struct {
	Name    string
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) int
}

// demoRow is one line of `colfmt demo`.
type demoRow struct {
	Format       string
	Input        string // what was encoded
	InputBytes   int
	EncodedBytes int
	EncodeMBps   float64
	DecodeMBps   float64
}

var formats = map[string]*format{}

func register(f *format) {
	if _, dup := formats[f.Name]; dup {
		panic("colfmt: format registered twice: " + f.Name)
	}
	formats[f.Name] = f
}

// knownFormats lists every format the command knows of, implemented or
// not, in a fixed order: the order of --help, pack --help and the "unknown
// format" message, and the package prefixes an error may already carry.
// bsup is csup's row format (write-only here: what zq reads).
var knownFormats = []string{"onpair", "at1", "lance", "csup", "bsup"}

func formatNames() []string {
	names := append([]string(nil), knownFormats...)
	for n := range formats {
		known := false
		for _, k := range knownFormats {
			known = known || k == n
		}
		if !known {
			names = append(names, n)
		}
	}
	sort.Strings(names[len(knownFormats):])
	return names
}

// errUsage marks errors that should exit with status 2.
var errUsage = errors.New("usage")

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// errNotSupported is returned when a format or operation is not
// implemented; it exits with status 1 and says so plainly.
var errNotSupported = errors.New("not supported yet")
