package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
)

func init() {
	register(&format{
		Name:      "csup",
		Summary:   "Super Columnar: spec layout (read+write), ZST v2 and VNG v3 (read)",
		Detect:    detectCSUP,
		Inspect:   inspectCSUP,
		Cat:       catCSUP,
		Validate:  validateCSUP,
		PackFlags: packCSUPFlags,
		Demo:      demoCSUP,
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
	tr := f.Trailer
	fmt.Fprintf(w, "format: Super Columnar, %s\n", f.Generation)
	fmt.Fprintf(w, "trailer: magic %q type %q version %d at offset %d (%d bytes)\n", tr.Magic, tr.Type, tr.Version, tr.Offset, tr.Length)
	fmt.Fprintf(w, "sections: data %d bytes, reassembly %d bytes\n", tr.Sections[0], tr.Sections[1])
	fmt.Fprintf(w, "meta: skew_thresh %d, segment_thresh %d\n", tr.SkewThresh, tr.SegmentThresh)
	fmt.Fprintf(w, "super column: %s\n", segmentsText(f.SuperColumn()))
	rows, err := f.Count()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "values: %d\n", rows)
	fmt.Fprintf(w, "super types: %d\n", len(f.SuperTypes()))
	for i, t := range f.SuperTypes() {
		fmt.Fprintf(w, "  %d: %s\n", i, clip(t.String(), 400))
	}
	fmt.Fprintln(w, "columns:")
	for _, c := range f.Columns() {
		printColumn(w, c, 1)
	}
	return nil
}

func printColumn(w io.Writer, c csup.Column, depth int) {
	indent := strings.Repeat("  ", depth)
	line := fmt.Sprintf("%s%s  %s  %s", indent, c.Path, c.Kind, clip(c.Type.String(), 120))
	if c.Kind != "record" && c.Kind != "all-null" {
		what := map[string]string{"primitive": "data", "array": "lengths", "map": "lengths", "union": "tags", "nulls": "presence"}[c.Kind]
		line += fmt.Sprintf("  %s: %s", what, segmentsText(c.Segments))
	}
	fmt.Fprintln(w, line)
	for _, ch := range c.Children {
		printColumn(w, ch, depth+1)
	}
}

func segmentsText(segs []csup.Segment) string {
	if len(segs) == 0 {
		return "none"
	}
	var stored, mem int64
	var parts []string
	for i, s := range segs {
		stored += s.Length
		mem += s.MemLength
		if i < 4 {
			comp := "raw"
			if s.Compression == csup.CompressionLZ4 {
				comp = "lz4"
			}
			parts = append(parts, fmt.Sprintf("[%d+%d %s %d]", s.Offset, s.Length, comp, s.MemLength))
		}
	}
	if len(segs) > 4 {
		parts = append(parts, fmt.Sprintf("... (%d more)", len(segs)-4))
	}
	return fmt.Sprintf("%d segment(s), %d bytes stored, %d in memory %s", len(segs), stored, mem, strings.Join(parts, " "))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func catCSUP(w io.Writer, in *input, o catOptions) error {
	f, err := openCSUP(in)
	if err != nil {
		return err
	}
	style := bsup.JSONZed
	if o.Raw {
		style |= bsup.JSONRawTime
	}
	var line []byte
	r := f.NewReader()
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

func packCSUPFlags(fs *flag.FlagSet) func(w io.Writer, data []byte) error {
	seg := fs.Int("segment-thresh", csup.DefaultSegmentThreshold, "csup: bytes a column buffers before it becomes a segment")
	skew := fs.Int("skew-thresh", csup.DefaultSkewThreshold, "csup: bytes all columns buffer before every column is flushed")
	compress := fs.Bool("compress", true, "csup: LZ4-compress segments when that makes them smaller")
	return func(w io.Writer, data []byte) error {
		_, err := packCSUP(w, data, csup.WithSegmentThreshold(*seg), csup.WithSkewThreshold(*skew), csup.WithCompression(*compress))
		return err
	}
}

// packCSUP reads JSON values (JSON Lines/NDJSON) and writes them as a
// spec-layout file; it returns the number of values.
func packCSUP(w io.Writer, data []byte, opts ...csup.Option) (int, error) {
	cw, err := csup.NewWriter(w, opts...)
	if err != nil {
		return 0, err
	}
	jr := bsup.NewJSONReader(bytes.NewReader(data), 0)
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
