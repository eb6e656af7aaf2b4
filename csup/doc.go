// Package csup reads and writes Super Columnar files, the columnar format of
// the Super (formerly Zed) data model, following
// ../shared/specs/super-columnar.txt (the "Super Columnar" page of the
// brimdata book) and, where no document says enough, the files that zed's
// released tools wrote.
//
// A file is a data section of segments, then a reassembly section (a Super
// Binary stream, see package csup/bsup) that says how segments form column
// streams and how column streams form values, then a trailer: a second
// Super Binary stream holding one record
// {magic,type,version,sections,meta:{skew_thresh,segment_thresh}}, found by
// scanning backward from the end of the file.
//
// # Generations
//
// Open recognises the layout from the trailer's type and version:
//
//   - the spec layout ("csup", version 1 — the spec assigns no value; no
//     released tool writes it): 2N+1 reassembly values (N typed nulls, the
//     super column's segmap, N reassembly records) and 4-field segmaps
//     {offset,length,mem_length,compression_format}. NewWriter writes it.
//   - ZST version 2 (zed v1.0.0–v1.2.0, `zq -f zst`): 2N+1, 2-field segmaps,
//     unions as {c0,c1,…,selector,presence}, maps, enums and errors as
//     opaque columns of whole values.
//   - VNG version 3 (zed v1.4.0–v1.12, `zq -f vng`): N+1 values of
//     marshaled Go structs (Record, Field, Primitive, Array, Set, Map, Union,
//     Named, Nulls, Segment), LZ4 segments, nulls inline or as Nulls{Runs}.
//
// VNG version 4 and later and CSUP files (super v0.2+) start with a header
// magic; Open refuses them with ErrUnsupported naming the version, as it
// does ZST version 3.
//
// # Entry points
//
// Open(r, size, opts...) reads the trailer and the reassembly section and
// returns a *File; column data is read only as values are.
// File.Values iterates every value in order; File.Project(fields...)
// iterates projections that read only the segments of the named columns
// (and of the super column); File.NewReader gives a Reader whose Read
// reuses one Value's storage for allocation-free scans. File.Count reads
// only the super column. File.Validate
// reads everything and checks that every column is used up exactly.
// File.Columns and File.SuperColumn describe the layout. NewWriter(w,
// opts...) writes values in the spec layout.
//
// Values are bsup.Value trees typed by *bsup.Type; bsup.AppendJSON renders
// them as `zq -j` does.
//
// # Where the files and this package differ from the document
//
// The real files win over the prose, and the spec leaves gaps that this
// package fills as follows:
//
//   - Super Binary is read as zed's code writes it, not as the ZNG/BSUP
//     prose says (see package bsup).
//   - Presence runs start with a present count (possibly 0); runs after the
//     first are written > 0 and read when 0. A field with no nulls has
//     presence []; an all-null field has column null.
//   - compression_format: 0 none, 1 LZ4 raw block (VNG's numbering), used
//     only when strictly smaller; length is the stored size and mem_length
//     the decompressed size. Segment offsets are from the start of the file.
//   - The spec's map_column {key,value} cannot be reassembled without
//     lengths: the writer writes {key,value,lengths}; the reader also accepts
//     a bare segmap of whole map values (ZST v2).
//   - A union's columns array has as element type the member columns' shape,
//     or a union of the shapes when they differ (as VNG v3 does). Tags are
//     int32 member indexes.
//   - Enum and error columns are primitive columns of whole values; named
//     types are transparent (the name lives in the super type).
//   - The spec has presence only for record fields. Where a complex value
//     (record, array, set, map, union) is null anywhere else — an array
//     element, a map key or value, a union member, a top-level value — the
//     writer wraps that column in a record of the named type csup.nulls
//     {runs:<segmap>,column:<any_column>} (present-first runs, as presence),
//     only when such a null occurs; a column whose values are all null there
//     is written as null. Primitive values keep such nulls inline as tag 0,
//     the counted null of Super Binary. This keeps the round trip exact.
//   - The trailer's magic is "ZNG Trailer" as in every real file; the
//     trailer stream must end exactly at the end of the file, and
//     sections[0]+sections[1] must equal the trailer's offset.
//   - Values do not straddle segments.
//   - VNG v3's Nulls.Runs start with a present count, like presence,
//     although zed's source comment says they begin with nulls; the files
//     agree with the former.
//   - The data section of the spec's hello example is byte for byte what
//     zed v1.2.0 wrote for hello.zst and what NewWriter writes (tested).
//
// # Writer
//
// The writer buffers each column stream and cuts a segment when a buffer
// reaches the segment threshold (WithSegmentThreshold, default 5 MiB, zq's
// -coltresh); when all buffers together pass the skew threshold
// (WithSkewThreshold, default 25 MiB, zq's -skewtresh) every column is flushed,
// so segments of different columns interleave. Both are recorded in the
// trailer's meta. Segments are LZ4-compressed when that makes them strictly
// smaller (WithCompression). Presence is flushed at Close; the super column
// is the last stream of the data section.
//
// # Security
//
// Open and the readers are meant for untrusted input. Every size read from
// the file is checked, overflow-safe, against the bytes that exist and
// against a limit before anything is allocated for it, and bad input gives
// an error wrapping ErrCorrupt, ErrTooLarge or ErrUnsupported , located by a
// *CorruptError with a file offset and a column path — never a panic.
// The limits and their defaults:
//
//   - WithMaxSegmentSize (256 MiB): stored and decompressed size of one
//     segment; a segment must also lie inside the data section, and an LZ4
//     segment's mem_length must be possible for its stored length (≤ 255×).
//   - WithMaxReassemblySize (64 MiB): the reassembly section, read whole.
//     Decoded it takes at most about 100 bytes per byte of the section.
//   - WithMaxDepth (100): nesting of types; columns and reassembly records
//     are limited in proportion, and every recursion is bounded by it.
//   - WithMaxElements (1<<20): elements of one array, set or map value,
//     which bounds the work and memory of columns that store no bytes per
//     element (all-null columns).
//   - WithMemoryLimit (DefaultMemoryLimit, 1 GiB): the total of one read —
//     every element of the value tree being built (ElementCost bytes each,
//     however deep) plus the decoded segments the read holds — so many
//     containers under one value cannot add up past it either.
//
// Caller mistakes (a nil reader or writer, a negative size, an option out
// of range) are ErrInvalidArgument; options report ErrInvalidOption, which
// wraps it, naming the option. Errors that package bsup reports about a
// reassembly stream or a value body are re-wrapped at this package's
// boundary so that errors.Is(err, csup.ErrCorrupt) holds (and bsup's
// sentinel still matches). Field names read from the file appear in column
// paths quoted when they are not plain printable text.
// Memory while scanning is one decompressed segment per column being read
// plus the values being built; Reader.Read reuses storage. The trailer scan
// reads at most the last 4096 bytes.
package csup
