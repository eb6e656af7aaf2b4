package main

import (
	"bytes"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/colfmt/colfmt/at1"
)

// at1Demo is a qcolumnar file (trades-like CSV, header as a verbatim
// line) written by the at1 tests' file builder; see
// demodata/at1/README.md.
//
//go:embed demodata/at1/trades.at1
var at1Demo []byte

func init() {
	register(&format{
		Name:    "at1",
		Summary: "AT-1 containers (whole-file and framed): columnar, qcolumnar, qjson, qjson2, RAW",
		Detect: func(head, _ []byte, _ int64) bool {
			return len(head) >= 5 && (bytes.HasPrefix(head, at1.MagicWhole) || bytes.HasPrefix(head, at1.MagicFramed))
		},
		Inspect:   at1Inspect,
		Cat:       at1Cat,
		Validate:  at1Validate,
		Columns:   "qcolumnar columns by index (0,2) and qjson fields by path (user.id)",
		Demo:      at1DemoRow,
		PackFlags: at1PackFlags,
		Commands: []command{{
			Name:    "query",
			Summary: "query an AT-1 qcolumnar/qjson file: query FILE [--cols C,...] [--where C>=X ...]",
			Run:     at1QueryCommand,
		}},
	})
}

// at1PackFlags encodes with at1.Encode (codec chosen from the input
// unless --codec says otherwise), or, for an input larger than one chunk
// (--chunk-size) or of unknown size, streams it through at1.NewWriter
// with memory bounded by the chunk size; --backend writes a RAW file with
// that backend instead.
func at1PackFlags(fs *flag.FlagSet) packFunc {
	codec := fs.String("codec", "auto", "codec: auto, columnar, qcolumnar, qjson or raw")
	backend := fs.String("backend", "", "write a RAW file with this payload backend: xz, zstd, stored or auto (smallest)")
	level := fs.String("level", strconv.Itoa(at1.DefaultLevel)+"e", "compression effort, 1 (fast) .. 9 (small); a trailing e (9e) is xz's extreme variant")
	rowGroup := fs.Int("row-group", 0, "qcolumnar/qjson lines per row group (0: automatic)")
	chunk := fs.Int64("chunk-size", at1.DefaultChunkSize, "input bytes per frame; larger input is written framed, streamed a chunk at a time")
	noVerify := fs.Bool("no-verify", false, "skip decoding the output to check it")
	tokens := fs.Bool("token-tables", true, "let columnar cut lines into fields, delimiters and digit runs with an empty delimiter (smaller; false: split at the detected delimiter only, JSON Lines go to qjson)")
	keep := fs.Bool("keep-codec", false, "keep the --codec asked for even where RAW would be smaller (a queryable qcolumnar/qjson file whatever its size)")
	noXZBase := fs.Bool("no-xz-baseline", false, "skip compressing the input plain with xz unless the structure does not pay (faster; output then bounded by plain zstd, not plain xz; by default a sampled estimate decides for inputs over 1 MiB)")
	return func(w io.Writer, in *packSource) error {
		lv, extreme, err := parseAT1Level(*level)
		if err != nil {
			return err
		}
		if *backend != "" {
			ids := map[string]byte{"xz": at1.BackendXZ, "zstd": at1.BackendZstd, "stored": at1.BackendStored, "auto": at1.RawAuto}
			b, ok := ids[*backend]
			if !ok {
				return usagef("--backend %q: want xz, zstd, stored or auto", *backend)
			}
			data, err := in.bytes()
			if err != nil {
				return err
			}
			out, err := at1.AppendRaw(nil, data, b, at1.WithLevel(lv), at1.WithExtreme(extreme))
			if err != nil {
				return err
			}
			_, err = w.Write(out)
			return err
		}
		codecs := map[string]at1.Codec{"auto": at1.CodecAuto, "columnar": at1.CodecColumnar,
			"qcolumnar": at1.CodecQColumnar, "qjson": at1.CodecQJSON, "raw": at1.CodecRaw}
		cd, ok := codecs[*codec]
		if !ok {
			return usagef("--codec %q: want auto, columnar, qcolumnar, qjson or raw", *codec)
		}
		opts := []at1.Option{at1.WithCodec(cd), at1.WithLevel(lv), at1.WithExtreme(extreme), at1.WithRowGroupSize(*rowGroup),
			at1.WithChunkSize(*chunk), at1.WithVerify(!*noVerify), at1.WithTokenTables(*tokens)}
		if *noXZBase {
			opts = append(opts, at1.WithXZBaseline(false))
		}
		if *keep {
			opts = append(opts, at1.WithKeepCodec(true))
		}
		p := &at1Pack{w: w, in: in, codec: *codec, forced: cd != at1.CodecAuto && cd != at1.CodecRaw, keep: *keep, opts: opts, chunk: *chunk}
		err = p.run()
		if errors.Is(err, at1.ErrInvalidOption) {
			return usagef("%v", err)
		}
		return err
	}
}

// at1Pack is one pack command's AT-1 encoding.
type at1Pack struct {
	w      io.Writer
	in     *packSource
	codec  string // as --codec gave it
	forced bool   // --codec named a structured codec
	keep   bool
	opts   []at1.Option
	chunk  int64
}

// run encodes an input of at most one chunk whole with Encode (which can
// compare the structure with the plain xz of the whole input); a larger
// one is framed, and streamed: NewWriter writes the same frames Encode
// would, holding a few chunks instead of the input and its output.
func (p *at1Pack) run() error {
	// NewWriter checks the options (the chunk size among them) before
	// a chunk is allocated; it writes nothing until the first frame.
	if _, err := at1.NewWriter(io.Discard, p.opts...); err != nil {
		return err
	}
	if p.in.size >= 0 && p.in.size <= p.chunk {
		data, err := p.in.bytes()
		if err != nil {
			return err
		}
		return p.whole(data)
	}
	// Size unknown or over one chunk: read one chunk and a byte to know
	// which.
	head := make([]byte, p.chunk+1)
	n, err := io.ReadFull(p.in.r, head)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return p.whole(head[:n])
	case err != nil:
		return err
	}
	return p.stream(head)
}

func (p *at1Pack) whole(data []byte) error {
	opts := p.opts
	if len(data) >= progressMin {
		pr := newProgress(os.Stderr)
		opts = append(opts[:len(opts):len(opts)], at1.WithProgress(func(done, total int64) {
			if done < total {
				pr.update("colfmt: at1: %d / %d MB encoded (%.0fs)", done>>20, total>>20, pr.elapsed())
			} else {
				pr.done("colfmt: at1: %d MB encoded (%.0fs)", total>>20, pr.elapsed())
			}
		}))
	}
	out, err := at1.Encode(data, opts...)
	if err != nil {
		return err
	}
	if p.forced {
		noteRawFallback(cmdStderr, out, p.codec, p.keep)
	}
	_, err = p.w.Write(out)
	return err
}

// progressMin: inputs from this size on report their progress.
const progressMin = 16 << 20

// stream writes head and the rest of the input through a Writer, with
// progress on stderr (out of the input's size when it is known) once
// progressMin bytes are encoded.
func (p *at1Pack) stream(head []byte) error {
	pr := newProgress(os.Stderr)
	total := p.in.size
	opts := append(p.opts[:len(p.opts):len(p.opts)], at1.WithProgress(func(done, _ int64) {
		if done < progressMin {
			return
		}
		if total < 0 {
			pr.update("colfmt: at1: %d MB encoded (%.0fs)", done>>20, pr.elapsed())
		} else {
			pr.update("colfmt: at1: %d / %d MB encoded (%.0fs)", done>>20, total>>20, pr.elapsed())
		}
	}))
	zw, err := at1.NewWriter(p.w, opts...)
	if err != nil {
		return err
	}
	// On an error before Close, no trailer is written: the output does
	// not pass for a whole file of what was read.
	if _, err := zw.Write(head); err != nil {
		return err
	}
	if _, err := io.Copy(zw, p.in.r); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	st := zw.Stats()
	if st.In >= progressMin {
		pr.done("colfmt: at1: %d MB encoded in %d frames (%.0fs)", st.In>>20, st.Frames, pr.elapsed())
	}
	if p.forced && st.RawFrames > 0 {
		noteRawFrames(cmdStderr, st.RawFrames, st.Frames, p.codec, p.keep)
	}
	return nil
}

// noteRawFallback tells on w when the encoder wrote RAW (whole file or
// some frames) where --codec asked for a structured codec, which it does
// when the structure does not pay (a user asking for qcolumnar may want
// a queryable file, which --keep-codec gives) or, kept, when the codec
// finds no structure it applies to.
func noteRawFallback(w io.Writer, out []byte, codec string, keep bool) {
	f, err := at1.Open(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		return
	}
	raw, total := 0, 1
	if f.Framed {
		total = len(f.Frames)
		for _, fr := range f.Frames {
			if fr.Method != 0 {
				raw++
			}
		}
	} else if f.Codec == at1.CodecRaw {
		raw = 1
	}
	if raw == 0 {
		return
	}
	if !f.Framed {
		if keep {
			fmt.Fprintf(w, "colfmt: at1: written RAW: --codec %s does not apply to this input\n", codec)
		} else {
			fmt.Fprintf(w, "colfmt: at1: written RAW, smaller than --codec %s on this input; --keep-codec keeps %s\n", codec, codec)
		}
		return
	}
	noteRawFrames(w, raw, total, codec, keep)
}

// noteRawFrames tells on w that raw of total frames were written RAW.
func noteRawFrames(w io.Writer, raw, total int, codec string, keep bool) {
	if keep {
		fmt.Fprintf(w, "colfmt: at1: %d of %d frames written RAW: --codec %s does not apply to their lines\n", raw, total, codec)
	} else {
		fmt.Fprintf(w, "colfmt: at1: %d of %d frames written RAW, smaller than --codec %s there; --keep-codec keeps %s\n", raw, total, codec, codec)
	}
}

func at1Cat(w io.Writer, in *input, o catOptions) error {
	if len(o.Columns) > 0 {
		return at1CatColumns(w, in, o.Columns)
	}
	z, err := at1.NewReader(in.reader())
	if err != nil {
		return err
	}
	_, err = z.WriteTo(w)
	return err
}

func at1Validate(in *input) error {
	z, err := at1.NewReader(in.reader(), at1.WithStrict())
	if err != nil {
		return err
	}
	_, err = z.WriteTo(io.Discard)
	return err
}

func at1Inspect(w io.Writer, in *input) error {
	f, err := at1.Open(in.R, in.Size)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "file:      %s, %d bytes\n", in.Name, in.Size)
	return f.Describe(w)
}

// at1QueryCommand runs `colfmt query FILE [--cols ...] [--where ...]`.
func at1QueryCommand(args []string, stdout, stderr io.Writer) int {
	return report(at1Query(args, stdout, stderr), stderr)
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func at1Query(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("query", stderr, "query FILE [--cols C,...] [--where C>=X] [--where C<=Y] [--where C=X] [--where C=X..Y] [--stats]\n"+
		"  C is a column index or, for qjson, a field path. Bounds are inclusive: decimal numbers\n"+
		"  compare as numbers, other bounds as text, byte by byte (text columns only; C=X is equality).")
	cols := fs.String("cols", "", "columns to print, comma-separated (default all)")
	stats := fs.Bool("stats", false, "print blocks read/skipped to stderr")
	var where multiFlag
	fs.Var(&where, "where", "range predicate (repeatable)")
	// Accept the file before or after the flags.
	var files []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		return usagef("query takes exactly one FILE")
	}
	// Flag syntax is checked before the file is opened: a malformed
	// flag is a usage error (exit 2) whatever the file holds; what does
	// not fit the file (an unknown column or path, a text bound on a numeric column) is a
	// file problem (exit 1).
	var q at1.Query
	if *cols != "" {
		for _, c := range strings.Split(*cols, ",") {
			c = strings.TrimSpace(c)
			switch i, err := strconv.Atoi(c); {
			case c == "":
				return usagef("--cols %q: empty column", *cols)
			case err == nil && i < 0:
				return usagef("--cols %q: negative column %d", *cols, i)
			case err == nil:
				q.Columns = append(q.Columns, i)
			default:
				q.Paths = append(q.Paths, c)
			}
		}
	}
	for _, w := range where {
		r, err := parseWhere(w)
		if err != nil {
			return err
		}
		q.Where = append(q.Where, r)
	}
	in, closeIn, err := openInput(files[0], cmdStdin, false) // "-": stdin, read into memory
	if err != nil {
		return withFile(files[0], err)
	}
	defer closeIn()
	f, err := at1.Open(in.R, in.Size)
	if err != nil {
		return withFile(files[0], err)
	}
	rs, err := f.Query(q)
	if err != nil {
		return withFile(files[0], err)
	}
	sep := []byte("\t")
	if d := f.Delimiter(); d != nil {
		sep = d
	}
	for row, err := range rs.All() {
		if err != nil {
			return withFile(files[0], err)
		}
		if _, err := stdout.Write(append(bytes.Join(row.Values, sep), '\n')); err != nil {
			return err
		}
	}
	if *stats {
		s := rs.Stats()
		fmt.Fprintf(stderr, "at1 query: %d rows; blocks read %d (%d bytes), skipped %d; row groups %d, skipped %d\n",
			s.Rows, s.BlocksRead, s.BytesRead, s.BlocksSkipped, s.Groups, s.GroupsSkipped)
	}
	return nil
}

// parseWhere reads C>=X, C<=Y, C=X or C=X..Y.
func parseWhere(s string) (at1.Range, error) {
	var r at1.Range
	var col, val string
	switch {
	case strings.Contains(s, ">="):
		col, val, _ = strings.Cut(s, ">=")
		r.Min = val
	case strings.Contains(s, "<="):
		col, val, _ = strings.Cut(s, "<=")
		r.Max = val
	case strings.Contains(s, "="):
		col, val, _ = strings.Cut(s, "=")
		if lo, hi, ok := strings.Cut(val, ".."); ok {
			r.Min, r.Max = lo, hi
		} else {
			r.Min, r.Max = val, val
		}
	default:
		return r, usagef("--where %q: want C>=X, C<=Y, C=X or C=X..Y", s)
	}
	col = strings.TrimSpace(col)
	r.Min, r.Max = strings.TrimSpace(r.Min), strings.TrimSpace(r.Max)
	if col == "" {
		return r, usagef("--where %q: no column", s)
	}
	if strings.ContainsAny(col, "<>=") {
		return r, usagef("--where %q: one comparison per --where", s)
	}
	if i, err := strconv.Atoi(col); err == nil {
		if i < 0 {
			return r, usagef("--where %q: negative column %d", s, i)
		}
		r.Column = i
	} else {
		r.Path = col
	}
	if r.Min == "" && r.Max == "" {
		return r, usagef("--where %q: no bound", s)
	}
	return r, nil
}

// at1DemoRow encodes the CSV inside the embedded qcolumnar sample with
// the default options (codec chosen by the encoder), then times decoding
// that output and validates it as the validate command does.
func at1DemoRow() (demoRow, error) {
	csv, err := at1.Decode(at1Demo)
	if err != nil {
		return demoRow{}, err
	}
	start := time.Now()
	enc, err := at1.Encode(csv)
	if err != nil {
		return demoRow{}, err
	}
	encSecs := time.Since(start).Seconds()
	f, err := at1.Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		return demoRow{}, err
	}
	var out []byte
	start = time.Now()
	n := 0
	for n == 0 || time.Since(start) < 50*time.Millisecond {
		if out, err = at1.Decode(enc); err != nil {
			return demoRow{}, err
		}
		n++
	}
	secs := time.Since(start).Seconds()
	if !bytes.Equal(out, csv) {
		return demoRow{}, fmt.Errorf("at1 demo: decoded output differs from the input")
	}
	if _, err := at1.Decode(enc, at1.WithStrict()); err != nil {
		return demoRow{}, err
	}
	return demoRow{
		Format:       "at1",
		Input:        fmt.Sprintf("trades CSV, %d lines (%s)", bytes.Count(csv, []byte{'\n'}), f.Codec),
		InputBytes:   len(csv),
		EncodedBytes: len(enc),
		EncodeMBps:   float64(len(csv)) / encSecs / 1e6,
		DecodeMBps:   float64(len(out)) * float64(n) / secs / 1e6,
	}, nil
}

// at1CatColumns is `cat --columns` for the query codecs (qcolumnar, qjson):
// a column index or a qjson field path per selection, rows printed as
// query prints them. Only the selected columns' blocks are read.
func at1CatColumns(w io.Writer, in *input, cols []string) error {
	f, err := at1.Open(in.R, in.Size)
	if err != nil {
		return err
	}
	var q at1.Query
	for _, c := range cols {
		if i, err := strconv.Atoi(c); err == nil && i >= 0 {
			q.Columns = append(q.Columns, i)
		} else {
			q.Paths = append(q.Paths, c)
		}
	}
	rs, err := f.Query(q)
	if err != nil {
		return err
	}
	sep := []byte("\t")
	if d := f.Delimiter(); d != nil {
		sep = d
	}
	for row, err := range rs.All() {
		if err != nil {
			return err
		}
		if _, err := w.Write(append(bytes.Join(row.Values, sep), '\n')); err != nil {
			return err
		}
	}
	return nil
}

// parseAT1Level reads --level: 1..9, optionally followed by e (xz's
// extreme variant, as in xz -9e).
func parseAT1Level(s string) (level int, extreme bool, err error) {
	t, extreme := strings.CutSuffix(s, "e")
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > 9 {
		return 0, false, usagef("--level %q: want 1..9, optionally followed by e (9e)", s)
	}
	return n, extreme, nil
}
