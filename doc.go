// Package colfmt tells which of the formats this module reads a file is in,
// from its bytes: Detect for a file, DetectDir for a directory. It is the
// detection the colfmt command uses, available to services that receive
// files of unknown kind.
//
// The format packages do the reading: lance (Lance data files, legacy v1
// and 2.0, with 2.1 and 2.2 recognised), csup (Super Columnar: the spec
// layout, ZST 2, VNG 3; VNG 4 and CSUP 16 recognised), csup/bsup (Super
// Binary), at1 (AT-1 containers) and onpair (OnPair columns in this
// library's OPCOL framing).
//
// # What Detect reports
//
// Info.Format names the format; Info.Version is its version as its own
// tools name it (Lance "2.1", CSUP "16"), Info.Layout the generation or
// container kind (Super Columnar "spec", "zst", "vng", "csup"; AT-1
// "whole" or "framed"; Lance "legacy" or "v2") and Info.Kind the AT-1
// codec. Detection reads the first 64 and the last 4096 bytes and follows
// at most 64 declared sizes with one small read each; it never decodes.
//
// # Errors
//
// ErrInvalidArgument for caller mistakes (nil reader or file system,
// negative size, invalid path); ErrUnknownFormat when nothing matches;
// ErrTruncated (which wraps ErrCorrupt), together with the Info of the
// format, when a known format's declared sizes run past the end of the
// input. Formats recognised only by their end (Lance, Super Columnar ZST,
// VNG 3 and the spec layout) cannot be recognised once the end is gone,
// except a Lance 2.x file whose first buffer carries lance's 'H' padding,
// or one cut inside its "LANC" magic: those are reported as truncated.
//
// # Security
//
// Detect allocates at most 4096 + 64 + 64×10 bytes whatever the input
// claims, reads only inside [0, size), and never panics. The root package
// imports none of the format packages, so detecting costs none of their
// start-up.
package colfmt
