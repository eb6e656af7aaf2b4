package at1

import (
	"encoding/hex"
	"fmt"
	"io"
)

// Describe writes what Open found, as `colfmt inspect` prints it: the
// container kind and codec, the integrity trailer, frames or streams with
// their backends, offsets and sizes, and for qcolumnar/qjson the columns,
// row groups and zone maps. It reads nothing beyond what Open read.
func (f *File) Describe(out io.Writer) error {
	w := &errWriter{w: out}
	kind := "whole-file (AT1\\x02)"
	if f.Framed {
		kind = "framed (AT1\\x03)"
	}
	fmt.Fprintf(w, "container: %s, codec %d (%s)", kind, int(f.Codec), f.Codec)
	if !f.Codec.Supported() {
		fmt.Fprint(w, " - not decodable by this version")
	}
	fmt.Fprintln(w)
	if f.Trailer != nil {
		fmt.Fprintf(w, "integrity: sha256 %s (verified by cat/validate)\n", hex.EncodeToString(f.Trailer))
	} else {
		fmt.Fprintln(w, "integrity: no trailer")
	}
	switch {
	case f.Framed:
		fmt.Fprintf(w, "chunk_lines: %d\nframes: %d\n", f.ChunkLines, len(f.Frames))
		for i, fr := range f.Frames {
			m := "structured"
			if fr.Method == 1 {
				m = "raw"
			}
			fmt.Fprintf(w, "  frame %d: %s, offset %d, %d bytes\n", i, m, fr.Offset, fr.Size)
		}
	case f.Codec == CodecRaw:
		if f.RawBackend < 0 {
			fmt.Fprintln(w, "raw payload: xz (spec-literal form, no backend byte)")
		} else {
			fmt.Fprintf(w, "raw payload: backend %d (%s)\n", f.RawBackend, BackendName(byte(f.RawBackend)))
		}
	default:
		fmt.Fprintf(w, "streams: %d\n", len(f.Streams))
		for _, s := range f.Streams {
			b := BackendName(s.Backend)
			if s.Legacy {
				b = "xz (no backend byte)"
			}
			fmt.Fprintf(w, "  %-12s %-22s offset %8d  %8d bytes\n", s.Name, b, s.Offset, s.Size)
		}
	}
	cols := f.Columns()
	if cols == nil {
		return w.err
	}
	groups, inFrames := len(f.RowGroups()), ""
	if f.parts != nil {
		groups = 0
		for _, p := range f.parts {
			groups += len(p.t.groups)
		}
		inFrames = fmt.Sprintf(" in %d frames", len(f.parts))
	}
	fmt.Fprintf(w, "%s: %d lines, %d structured rows, row groups of %d, %d groups%s\n",
		f.Codec, f.Lines(), f.StructuredRows(), f.RowGroupSize(), groups, inFrames)
	if d := f.Delimiter(); d != nil {
		fmt.Fprintf(w, "delimiter: %q\n", d)
	}
	mixed := f.mixedColumns()
	types := []string{"text", "int", "decimal"}
	for _, c := range cols {
		fmt.Fprintf(w, "  column %d: %s", c.Index, types[c.Type])
		if mixed != nil && mixed[c.Index] {
			fmt.Fprint(w, " (numeric in some frames)")
		}
		if c.Path != "" {
			fmt.Fprintf(w, " path %q", c.Path)
		}
		fmt.Fprintln(w)
	}
	for g, blocks := range f.RowGroups() {
		fmt.Fprintf(w, "  group %d:", g)
		for c, b := range blocks {
			fmt.Fprintf(w, " c%d %dB", c, b.Size)
			switch {
			case !b.HasZone:
			case cols[c].Type == QInt:
				fmt.Fprintf(w, " [%d,%d]", b.IntMin, b.IntMax)
			default:
				fmt.Fprintf(w, " [%g,%g]", b.DecMin, b.DecMax)
			}
			if c < len(blocks)-1 {
				fmt.Fprint(w, ";")
			}
		}
		fmt.Fprintln(w)
	}
	return w.err
}

// errWriter keeps the first write error, so Describe's many prints need
// no check each.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
