package csup

import (
	"fmt"
	"io"
	"strings"
)

// Describe writes what `colfmt inspect` prints: the generation, the
// trailer or object headers, the value count, the top-level types and the
// column tree with each column's segments (and, for CSUP v16, the min/max
// statistics of its leaves).
func (f *File) Describe(w io.Writer) error {
	bw := &errWriter{w: w}
	bw.printf("format: Super Columnar, %s\n", f.Generation)
	switch {
	case f.v16 != nil:
		for i, o := range f.v16 {
			bw.printf("object %d: at offset %d, %d nodes, root node %d, data %d bytes at %d, %d values\n",
				i, o.off, len(o.nodes), o.root, o.dataSize, o.dataOff, o.rows)
		}
	case f.Generation == GenVNGv4:
		bw.printf("header: VNG version 4, data section ends at %d\n", f.info.dataSize)
		if f.rootRows < 0 {
			bw.printf("variant tags: %s\n", segmentsText(f.super))
		}
	default:
		tr := f.Trailer
		bw.printf("trailer: magic %q type %q version %d at offset %d (%d bytes)\n", tr.Magic, tr.Type, tr.Version, tr.Offset, tr.Length)
		if len(tr.Sections) == 2 {
			bw.printf("sections: data %d bytes, reassembly %d bytes\n", tr.Sections[0], tr.Sections[1])
		}
		bw.printf("meta: skew_thresh %d, segment_thresh %d\n", tr.SkewThresh, tr.SegmentThresh)
		bw.printf("super column: %s\n", segmentsText(f.SuperColumn()))
	}
	rows, err := f.Count()
	if err != nil {
		return err
	}
	bw.printf("values: %d\n", rows)
	types := f.SuperTypes()
	bw.printf("super types: %d\n", len(types))
	for i, t := range types {
		bw.printf("  %d: %s\n", i, clip(t.String(), 400))
	}
	bw.printf("columns:\n")
	for _, c := range f.Columns() {
		describeColumn(bw, c, 1)
	}
	return bw.err
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

func describeColumn(w *errWriter, c Column, depth int) {
	line := fmt.Sprintf("%s%s  %s  %s", strings.Repeat("  ", depth), c.Path, c.Kind, clip(c.Type.String(), 120))
	if len(c.Segments) > 0 || (c.Kind != "record" && c.Kind != "all-null" && c.Kind != "const" && c.Kind != "named" && c.Kind != "error") {
		line += "  segments: " + segmentsText(c.Segments)
	}
	w.printf("%s\n", line)
	for _, ch := range c.Children {
		describeColumn(w, ch, depth+1)
	}
}

func segmentsText(segs []Segment) string {
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
			if s.Compression == CompressionLZ4 {
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
