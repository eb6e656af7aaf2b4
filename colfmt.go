package colfmt

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/colfmt/colfmt/internal/errs"
)

// Sentinels of the root package. Every error Detect and DetectDir return
// for input problems wraps one of them (a *errs.CorruptError located at a
// byte offset where one applies); I/O errors from the reader pass through.
var (
	// ErrUnknownFormat: the bytes match none of the formats colfmt knows.
	ErrUnknownFormat = errors.New("colfmt: unrecognised format (not Lance, Super Columnar, Super Binary, AT-1 or an OnPair column)")
	// ErrCorrupt: the bytes claim a known format but contradict it.
	ErrCorrupt = errors.New("colfmt: corrupt input")
	// ErrTruncated: a known format whose declared sizes run past the end of
	// the input, or whose end marker is cut off. Info.Format still names
	// the format. It wraps ErrCorrupt.
	ErrTruncated = errs.Sub(ErrCorrupt, "colfmt: truncated")
	// ErrInvalidArgument: a caller mistake (nil reader, negative size).
	ErrInvalidArgument = errors.New("colfmt: invalid argument")
)

// Format names a file format (or a directory layout) colfmt knows.
type Format int

// Formats Detect and DetectDir report.
const (
	Unknown       Format = iota
	Lance                // a Lance data file (package lance)
	LanceManifest        // a Lance table's _versions/*.manifest file
	LanceTable           // a Lance table directory (DetectDir only)
	CSUP                 // Super Columnar, every layout (package csup)
	SuperBinary          // a Super Binary (BSUP, formerly ZNG) stream (package csup/bsup)
	AT1                  // an AT-1 container (package at1)
	OnPair               // an OnPair column in this library's OPCOL framing (package onpair)
)

var formatNames = [...]string{
	Unknown:       "unknown",
	Lance:         "lance",
	LanceManifest: "lance-manifest",
	LanceTable:    "lance-table",
	CSUP:          "csup",
	SuperBinary:   "bsup",
	AT1:           "at1",
	OnPair:        "onpair",
}

// String returns the short name the colfmt command uses ("lance", "csup",
// "at1", "onpair", "bsup", "lance-manifest", "lance-table").
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// CSUP layouts (Info.Layout when Format is CSUP).
const (
	LayoutSpec = "spec" // the Super Columnar spec layout, trailer type "csup" version 1 (this library's writer)
	LayoutZST  = "zst"  // ZST, trailer type "zst" (zed v1.0-v1.2 write version 2)
	LayoutVNG  = "vng"  // VNG: version 3 has a trailer (zed v1.4-v1.12), version 4 a "VNG" header (zed v1.13+)
	LayoutCSUP = "csup" // a "CSUP" header (super v0.2+, version 16 in super v0.3.0)
)

// AT-1 container kinds (Info.Layout when Format is AT1).
const (
	LayoutWhole  = "whole"  // "AT1\x02": one payload
	LayoutFramed = "framed" // "AT1\x03": a sequence of frames
)

// Lance layouts (Info.Layout when Format is Lance).
const (
	LayoutLegacy = "legacy" // Lance file format v1: a 16-byte footer, version 0.1 or 0.2
	LayoutV2     = "v2"     // Lance file format 2.x: a 40-byte footer
)

// Info is what Detect learns from a file's bytes.
type Info struct {
	Format Format
	// Version is the format's own version as its tools name it: Lance
	// "2.0", "2.1", "2.2" (a 2.0 file's footer says 0.3) or "0.1"/"0.2" for
	// legacy files; for a Lance manifest, the table's data storage version
	// when the manifest records it ("" otherwise); CSUP "1" (spec), "2"
	// (ZST), "3" or "4" (VNG), "16" (CSUP); Super Binary "0" or "2";
	// OnPair the OPCOL framing version; "" for AT-1, which carries none.
	Version string
	// Layout distinguishes generations or container kinds: see the
	// Layout... constants.
	Layout string
	// TableVersion is, for a LanceTable, the latest table version.
	TableVersion uint64
	// Kind is the AT-1 codec ("columnar", "qjson", "raw", ...), or
	// "codec(N)" for an id colfmt does not know.
	Kind string
}

// String describes the format in a few words, such as "Lance 2.1",
// "Super Columnar VNG version 3" or "AT-1 framed container, codec qjson".
func (i Info) String() string {
	// Truncated inputs may leave Version or Layout empty: say less, not "".
	ver := func(prefix string) string {
		if i.Version == "" {
			return ""
		}
		return prefix + i.Version
	}
	switch i.Format {
	case Lance:
		if i.Layout == LayoutLegacy {
			return "Lance legacy v1 file (footer " + i.Version + ")"
		}
		return "Lance" + ver(" ") + " file"
	case LanceManifest:
		if i.Version != "" {
			return "Lance manifest (data storage version " + i.Version + ")"
		}
		return "Lance manifest"
	case LanceTable:
		s := "Lance table directory, version " + strconv.FormatUint(i.TableVersion, 10)
		if i.Version != "" {
			s += " (data storage version " + i.Version + ")"
		}
		return s
	case CSUP:
		name := map[string]string{LayoutSpec: "spec layout", LayoutZST: "ZST", LayoutVNG: "VNG", LayoutCSUP: "CSUP"}[i.Layout]
		if name == "" {
			name = i.Layout
		}
		if name == "" {
			return "Super Columnar file"
		}
		return "Super Columnar " + name + ver(" version ")
	case SuperBinary:
		return "Super Binary" + ver(" version ") + " stream"
	case AT1:
		s := "AT-1"
		if i.Layout != "" {
			s += " " + i.Layout
		}
		s += " container"
		if i.Kind != "" {
			s += ", codec " + i.Kind
		}
		return s
	case OnPair:
		if i.Version == "" {
			return "OnPair column"
		}
		return "OnPair column (OPCOL framing v" + i.Version + ")"
	}
	return i.Format.String()
}
