// Package at1 reads AT-1 files: the whole-file (AT1\x02) and framed
// (AT1\x03) containers and the codecs that carry tabular data - columnar
// (4), qcolumnar (7), qjson (8), qjson2 (11) and RAW (255) - reproducing
// the original bytes exactly, and queries qcolumnar/qjson files without
// decompressing all of them.
//
// # Format and sources
//
// The package follows the "AT-1 Container & Columnar Format
// Specification (decoder side)" as corrected by the project's
// implementer notes, which describe the wire format the reference
// decoder ("AT-1 reference decoder 0.1.0") actually reads. It was written
// from those two documents only (clean room: the reference C source and
// its cgo binding were not consulted). Where the spec text and the real
// files disagree, the files win:
//
//   - A backend byte (0 xz, 1 zstd, 2 stored) precedes compressed data
//     after every stream name, after RAW's codec byte and after a framed
//     raw frame's method byte. Files written exactly as the spec text
//     describes (no backend bytes) are read too: the form is detected by
//     the xz magic where the backend byte would be, or by a byte >= 0x20
//     after a stream name (a legacy comp_len of an xz stream is >= 32).
//     The reference rejects that form; we accept it.
//   - A 36-byte trailer, sha256(original) + A1 53 36 01, ends files that
//     carry it; it is stripped first and verified after decoding
//     (ErrChecksum).
//   - Columnar has two more column types, 5 DICT and 6 SHUF. DEC with D=0
//     prints a trailing dot ("5."); INT of an empty chunk has no values,
//     TEXT of an empty chunk has one empty value; NUMEXC accumulates
//     across numeric entries only; rows are ragged (a row with nf fields
//     takes one value from each of columns 0..nf-1) and values left over
//     are ignored.
//   - qcolumnar/qjson blocks are [tag][payload] with tag 1 = zstd and
//     0 = xz; field values are the raw field text. Decimal zone maps are
//     little-endian float64.
//   - zstd data must be one frame that declares its content size.
//   - Stream names match on their first 31 bytes; the first of duplicate
//     names wins; a missing stream reads as empty; unknown streams are
//     ignored; at most 256 streams.
//
// Where the reference silently guesses on input its own encoder never
// writes, this package rejects it with ErrCorrupt: an unknown backend id
// (the reference decodes it as xz), an unknown block tag, a framed method
// other than 0 and 1. The WithStrict option adds checks the reference skips
// (verbatim lines running out, NUMEXC subtype and exception count,
// qcolumnar n_struct/nrg). qjson2 follows the notes; how a template's own
// row_modes interact with line_map is not pinned down by any vector, and
// this package reads each template as a complete qjson table whose lines
// line_map takes in order. The other codecs (ssh, json, osm, log, vcf,
// jsondoc, dicom, embed, bundle) return ErrUnsupported naming the codec.
//
// # Entry points
//
//   - Decode and AppendDecode decode a whole file held in memory.
//   - NewReader streams a file from an io.Reader; a framed file is decoded
//     frame by frame into one reused buffer, so memory is bounded by the
//     largest frame (its payload and its output), not the file.
//   - Open reads only the header, the stream directory (or the frame list)
//     and, for qcolumnar/qjson, the small meta/template/paths/index
//     streams from an io.ReaderAt. File.Query then selects columns (by
//     index, or by qjson path) and inclusive range predicates on integer
//     and decimal columns: zone maps skip row groups, predicate columns
//     are read before the others, survivors are re-checked exactly
//     (decimal text comparison, no float rounding), and only the needed
//     blocks are read from the io.ReaderAt. Rows.Stats reports blocks read
//     and skipped. Queries run on whole-file qcolumnar/qjson files; a
//     framed file returns ErrUnsupported (its raw frames hold rows as plain
//     text that no index covers), as do qjson2 and the other codecs. A
//     query sizes row groups from the meta's n_struct and walks the
//     index; a full decode follows row_modes and ignores both (as the
//     reference does). So File.Query first reads row_modes (one byte per
//     line) and fails with ErrCorrupt unless n_struct, nrg and the index
//     agree with it: a query either fails or returns exactly the rows of
//     a full decode that satisfy its predicates. Zone maps are trusted: a
//     group whose zone map contradicts its own values may be skipped.
//   - AppendRaw writes the RAW (codec 255) fallback container with the
//     integrity trailer. The columnar and query encoders are not here yet.
//
// Independent streams, frames and blocks decode in parallel, up to
// GOMAXPROCS goroutines (WithConcurrency); the output does not depend on
// it. A columnar file keeps all its columns in one values stream, a
// single xz job: its columns are decoded from the stream's prefix while
// the rest is still being decompressed (the stream's xz check is still
// verified before Decode returns). Rows (columnar) and lines
// (qcolumnar/qjson) are then written in parallel parts. xz is decoded with github.com/therootcompany/xz (a maintained fork
// of xi2/xz; the fastest correct pure-Go decoder we measured, and it
// stops after the first stream as the format needs) with decoders and
// their dictionaries reused across streams; zstd with
// github.com/klauspost/compress.
//
// # Security
//
// Every size read from the input is checked against the bytes that remain
// and against a limit before anything is allocated; recursion is not used.
// Errors wrap ErrCorrupt, ErrTooLarge, ErrUnsupported or ErrChecksum and
// say where (a *CorruptError with the offset and the stream, column,
// block or frame; the offset is in the file for container structures and
// inside the decoded stream for errors in a stream's content). The
// limits, each an Option:
//
//   - WithMaxDecodedSize (default 1 GiB): the output of one Decode call
//     (for NewReader, one frame or a whole-file container); the text of a
//     columnar file's columns at most this (and 2 GiB). A frame's
//     payload is read only as its bytes arrive, so a header that claims a
//     large frame allocates nothing it does not deliver.
//   - WithMemoryLimit (default 512 MiB): the decoded streams one stream
//     set (a whole-file container or one frame) holds in total. Each
//     stream is charged before it is decompressed, from the size its
//     backend declares (stored length, zstd content size, xz index), or
//     as it grows when none is declared.
//   - WithMaxStreamSize (default 256 MiB, at most 2 GiB): one decoded
//     stream, query block or raw frame. xz output is sized from the
//     stream's own index when present; zstd output from the frame's
//     content size, checked before allocation.
//   - WithMaxStreams (default and maximum 256): streams per stream set.
//   - WithMaxXZDictionary (default 64 MiB): the LZMA2 dictionary an xz
//     stream may declare, checked before the decoder allocates it. Each
//     concurrent xz decoder holds one dictionary; they are pooled.
//
// A query reads its blocks one row group at a time, so its memory is
// bounded by one row group's selected blocks. Open reads whole the small
// streams it parses (bounded by WithMaxStreamSize).
//
// Decode, Open and NewReader read the container through one parser (the
// header, trailer, frame list and stream directories, into one plan);
// they differ only in where the bytes come from.
//
// Caller mistakes (a nil reader, a negative size, an unknown backend)
// are ErrInvalidArgument; an Option out of range is ErrInvalidOption,
// which wraps it and names the option. A nil Option is ignored.
package at1
