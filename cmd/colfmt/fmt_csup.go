package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
)

func init() {
	register(&format{
		Name:      "csup",
		Summary:   "Super Columnar: CSUP v16, VNG v4, VNG v3, ZST v2 (read), spec layout (read+write)",
		Detect:    detectCSUP,
		Inspect:   inspectCSUP,
		Cat:       catCSUP,
		Validate:  validateCSUP,
		Columns:   "record fields; dotted paths select nested fields (a.b.c)",
		PackFlags: packCSUPFlags,
		Demo:      demoCSUP,
		Commands: []command{{
			Name:    "csup-query",
			Summary: "query a CSUP v16 / VNG v4 file by its min/max statistics: csup-query FILE [--cols a,b.c] [--where P>=X ...]",
			Run:     csupQueryCommand,
		}},
	})
	register(&format{
		Name:      "bsup",
		Summary:   "Super Binary stream, version 0 (write; what zq reads)",
		PackFlags: packBSUPFlags,
	})
}

// detectCSUP claims files that start with a CSUP or VNG header (so they
// can be refused by version) and files whose last bytes are a Super Binary
// trailer: they end with an end-of-stream byte and hold the trailer magic.
func detectCSUP(head, tail []byte, size int64) bool {
	if bytes.HasPrefix(head, []byte("CSUP")) || bytes.HasPrefix(head, []byte("VNG")) {
		return true
	}
	return len(tail) > 0 && tail[len(tail)-1] == 0xff && bytes.Contains(tail, []byte(csup.TrailerMagic))
}

func openCSUP(in *input) (*csup.File, error) {
	return csup.Open(in.R, in.Size)
}

func inspectCSUP(w io.Writer, in *input) error {
	f, err := openCSUP(in)
	if err != nil {
		return err
	}
	return f.Describe(w)
}

func catCSUP(w io.Writer, in *input, o catOptions) error {
	f, err := openCSUP(in)
	if err != nil {
		return err
	}
	style := bsup.JSONZed
	if f.Generation == csup.GenCSUPv16 || f.Generation == csup.GenVNGv4 {
		// super and zed v1.18 print maps as objects.
		style = bsup.JSONSuper
	}
	if o.Raw {
		style |= bsup.JSONRawTime
	}
	if f.Generation == csup.GenCSUPv16 {
		// Columns straight into typed vectors and JSON from them: no value
		// per row (the same bytes as the row reader's values give). Objects
		// are rendered in parallel only with 4 cores or more: on a 2-core
		// machine two workers took 0.55 s where one took 0.40 s (1M rows).
		return catCSUPBatches(w, f, o.Columns, style, catWorkers(runtime.GOMAXPROCS(0)))
	}
	var line []byte
	r := f.NewReader(o.Columns...) // only those columns' segments are read
	var v bsup.Value
	for {
		if err := r.ReadInto(&v); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		line = bsup.AppendJSON(line[:0], v, style)
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
}

func validateCSUP(in *input) error {
	f, err := openCSUP(in)
	if err != nil {
		return err
	}
	return f.Validate()
}

func packCSUPFlags(fs *flag.FlagSet) packFunc {
	layout := fs.String("layout", "csup16", "csup: csup16 (CSUP version 16, what super v0.3.0 reads) or spec (the spec's layout)")
	rows := fs.Int("object-rows", csup.DefaultObjectRows, "csup: values per object (csup16 layout)")
	seg := fs.Int("segment-thresh", csup.DefaultSegmentThreshold, "csup: bytes a column buffers before it becomes a segment (spec layout)")
	skew := fs.Int("skew-thresh", csup.DefaultSkewThreshold, "csup: bytes all columns buffer before every column is flushed (spec layout)")
	compress := fs.Bool("compress", true, "csup: LZ4-compress segments when that makes them smaller")
	return packWhole(func(w io.Writer, data []byte) error {
		opts := []csup.Option{csup.WithCompression(*compress)}
		switch *layout {
		case "csup16", "csup", "v16":
			opts = append(opts, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectRows(*rows))
		case "spec":
			opts = append(opts, csup.WithSegmentThreshold(*seg), csup.WithSkewThreshold(*skew))
		default:
			return fmt.Errorf("csup: pack: --layout %q: want csup16 or spec", *layout)
		}
		_, err := packCSUP(w, data, opts...)
		return err
	})
}

// packBSUPFlags writes a Super Binary (version 0) stream, what zq and
// super v0.2 and older read.
func packBSUPFlags(fs *flag.FlagSet) packFunc {
	compress := fs.Bool("compress", true, "bsup: LZ4-compress frames when that makes them smaller")
	return packWhole(func(w io.Writer, data []byte) error {
		bw, err := bsup.NewWriter(w, bsup.WithCompression(*compress))
		if err != nil {
			return err
		}
		jr, err := bsup.NewJSONReader(bytes.NewReader(data))
		if err != nil {
			return err
		}
		for {
			v, err := jr.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("bsup: pack: %w", err)
			}
			if err := bw.Write(v); err != nil {
				return err
			}
		}
		return bw.Close()
	})
}

// packCSUP reads JSON values (JSON Lines/NDJSON) and writes them in the
// layout the options select; it returns the number of values.
func packCSUP(w io.Writer, data []byte, opts ...csup.Option) (int, error) {
	cw, err := csup.NewWriter(w, opts...)
	if err != nil {
		return 0, err
	}
	jr, err := bsup.NewJSONReader(bytes.NewReader(data))
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		v, err := jr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, fmt.Errorf("csup: pack: %w", err)
		}
		if err := cw.Write(v); err != nil {
			return n, err
		}
		n++
	}
	return n, cw.Close()
}

// demoCSUP packs generated JSON Lines (20 000 rows of five fields, one
// nested record and an array), reads the file back, checks every value
// against the input and validates it.
func demoCSUP() (demoRow, error) {
	var in bytes.Buffer
	bw := bufio.NewWriter(&in)
	tags := []string{"red", "green", "blue"}
	for i := 0; i < 20000; i++ {
		name := fmt.Sprintf("%q", fmt.Sprintf("user%d", i%500))
		if i%97 == 0 {
			name = "null"
		}
		fmt.Fprintf(bw, `{"id":%d,"name":%s,"score":%g,"tags":[%q],"nested":{"a":%d,"ok":%t}}`+"\n",
			i, name, float64(i%1000)/8, tags[i%3], i%50-25, i%2 == 0)
	}
	bw.Flush()
	var out bytes.Buffer
	start := time.Now()
	if _, err := packCSUP(&out, in.Bytes()); err != nil {
		return demoRow{}, err
	}
	encSecs := time.Since(start).Seconds()
	start = time.Now()
	f, err := csup.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		return demoRow{}, err
	}
	var got []byte
	for v, err := range f.Values() {
		if err != nil {
			return demoRow{}, err
		}
		got = bsup.AppendJSON(got, v, bsup.JSONZed)
		got = append(got, '\n')
	}
	decSecs := time.Since(start).Seconds()
	if !bytes.Equal(got, in.Bytes()) {
		return demoRow{}, fmt.Errorf("csup: demo: decoded JSON differs from the input")
	}
	if err := f.Validate(); err != nil {
		return demoRow{}, err
	}
	mb := float64(in.Len()) / 1e6
	return demoRow{Format: "csup", Input: "20k JSON rows (generated)", InputBytes: in.Len(), EncodedBytes: out.Len(),
		EncodeMBps: mb / max(encSecs, 1e-9), DecodeMBps: mb / max(decSecs, 1e-9)}, nil
}

func csupQueryCommand(args []string, stdout, stderr io.Writer) int {
	return report(csupQuery(args, stdout, stderr), stderr)
}

// csupQuery prints the rows (as JSON lines) whose columns satisfy every
// --where range; objects whose statistics rule a range out are not read.
func csupQuery(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("csup-query", stderr, "csup-query FILE [--cols a,b.c] [--where P>=X] [--where P<=Y] [--where P=X] [--where P=X..Y] [--stats]\n"+
		"  P is a dotted field path; X and Y are integers, floats or (otherwise) strings.")
	cols := fs.String("cols", "", "columns to print, comma-separated dotted paths (default all)")
	stats := fs.Bool("stats", false, "print objects read/skipped to stderr")
	var where multiFlag
	fs.Var(&where, "where", "range predicate (repeatable)")
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
		return usagef("csup-query takes exactly one FILE")
	}
	var q csup.Query
	if *cols != "" {
		for _, c := range strings.Split(*cols, ",") {
			if c = strings.TrimSpace(c); c == "" {
				return usagef("--cols %q: empty column", *cols)
			}
			q.Columns = append(q.Columns, c)
		}
	}
	for _, w := range where {
		cr, err := csupParseWhere(w)
		if err != nil {
			return err
		}
		q.Where = append(q.Where, cr)
	}
	in, closeIn, err := openInput(files[0], cmdStdin, false) // a path, a URL, or "-" read into memory
	if err != nil {
		return withFile(files[0], err)
	}
	defer closeIn()
	f, err := csup.Open(in.R, in.Size)
	if err != nil {
		return err
	}
	rs, err := f.Query(q)
	if err != nil {
		return err
	}
	style := bsup.JSONZed
	if f.Generation == csup.GenCSUPv16 || f.Generation == csup.GenVNGv4 {
		style = bsup.JSONSuper
	}
	var line []byte
	for v, err := range rs.All() {
		if err != nil {
			return err
		}
		line = append(bsup.AppendJSON(line[:0], v, style), '\n')
		if _, err := stdout.Write(line); err != nil {
			return err
		}
	}
	if *stats {
		s := rs.Stats()
		fmt.Fprintf(stderr, "csup query: %d rows; objects %d, skipped %d\n", s.Rows, s.Objects, s.ObjectsSkipped)
	}
	return nil
}

// csupParseWhere reads P>=X, P<=Y, P=X or P=X..Y.
func csupParseWhere(s string) (csup.Range, error) {
	var path, lo, hi string
	switch {
	case strings.Contains(s, ">="):
		path, lo, _ = strings.Cut(s, ">=")
	case strings.Contains(s, "<="):
		path, hi, _ = strings.Cut(s, "<=")
	case strings.Contains(s, "="):
		var val string
		path, val, _ = strings.Cut(s, "=")
		var ok bool
		if lo, hi, ok = strings.Cut(val, ".."); !ok {
			lo, hi = val, val
		}
	default:
		return csup.Range{}, usagef("--where %q: want P>=X, P<=Y, P=X or P=X..Y", s)
	}
	path, lo, hi = strings.TrimSpace(path), strings.TrimSpace(lo), strings.TrimSpace(hi)
	if path == "" || strings.ContainsAny(path, "<>=") {
		return csup.Range{}, usagef("--where %q: want one path and one comparison", s)
	}
	if lo == "" && hi == "" {
		return csup.Range{}, usagef("--where %q: no bound", s)
	}
	r := csup.Range{Path: path}
	if lo != "" {
		v := csupBound(lo)
		r.Min = &v
	}
	if hi != "" {
		v := csupBound(hi)
		r.Max = &v
	}
	return r, nil
}

// csupBound reads a --where bound: an integer, else a float, else a string.
func csupBound(s string) bsup.Value {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return bsup.NewInt(bsup.TypeInt64, i)
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		return bsup.NewFloat(bsup.TypeFloat64, x)
	}
	return bsup.NewString(strings.Trim(s, `"`))
}

// catWorkers returns how many objects cat renders at once with procs
// cores: one below 4, else half the cores, at most 4.
func catWorkers(procs int) int {
	if procs < 4 {
		return 1
	}
	return min(procs/2, 4)
}

// catCSUPBatches writes the JSON lines of a CSUP v16 file, rendering up to
// workers objects at once and writing them in file order: worker k
// renders objects k, k+workers, ... with one BatchReader (reusing its
// buffers). Each object hands its text over in chunks through a short
// channel, so memory stays bounded (workers x 16 chunks of about 64 KiB,
// plus each worker's object) however large the objects.
func catCSUPBatches(w io.Writer, f *csup.File, cols []string, style bsup.JSONStyle, workers int) error {
	n := f.Objects()
	if workers < 2 || n < 2 {
		br, err := f.NewBatchReader(cols...)
		if err != nil {
			return err
		}
		return catBatches(w, br, style)
	}
	workers = min(workers, n)
	type job struct {
		chunks chan *[]byte
		err    error // set before chunks is closed
	}
	stop := make(chan struct{})
	defer close(stop)
	queues := make([]chan *job, workers)
	for k := range queues {
		queues[k] = make(chan *job, 1)
		go func() {
			defer close(queues[k])
			br, err := f.NewBatchReader(cols...)
			for i := k; i < n; i += workers {
				j := &job{chunks: make(chan *[]byte, 16)}
				select {
				case queues[k] <- j:
				case <-stop:
					return
				}
				if err == nil {
					if err = br.LimitObjects(i, 1); err == nil {
						err = catBatches(chunkWriter{j.chunks, stop}, br, style)
					}
				}
				j.err = err
				close(j.chunks)
				if err != nil {
					return
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		j, ok := <-queues[i%workers]
		if !ok {
			return errCatStopped
		}
		for c := range j.chunks {
			if _, err := w.Write(*c); err != nil {
				return err
			}
			chunkPool.Put(c)
		}
		if j.err != nil {
			return j.err
		}
	}
	return nil
}

// catBatches writes the JSON lines of what br reads.
func catBatches(w io.Writer, br *csup.BatchReader, style bsup.JSONStyle) error {
	var b csup.Batch
	for {
		if err := br.Next(&b); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if err := b.WriteJSON(w, style); err != nil {
			return err
		}
	}
}

// chunkWriter sends a copy of each write to ch (in a buffer of
// chunkPool, which the receiver returns), until stop is closed.
type chunkWriter struct {
	ch   chan<- *[]byte
	stop <-chan struct{}
}

var (
	errCatStopped = errors.New("csup: cat stopped")
	chunkPool     = sync.Pool{New: func() any { b := make([]byte, 0, 80<<10); return &b }}
)

func (c chunkWriter) Write(p []byte) (int, error) {
	b := chunkPool.Get().(*[]byte)
	*b = append((*b)[:0], p...)
	select {
	case c.ch <- b:
		return len(p), nil
	case <-c.stop:
		return 0, errCatStopped
	}
}
