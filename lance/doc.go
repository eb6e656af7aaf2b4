// Package lance reads Lance file format 2.0 data files (the files lance and
// pylance 0.14 onwards write as "stable"/"2.0", footer version 0.3) into
// Apache Arrow, in pure Go.
//
// # Format
//
// A Lance 2.0 file is a sequence of page buffers followed by column
// metadata, the schema (a lance.file.FileDescriptor in global buffer 0),
// the column-metadata and global-buffer offset tables and a 40-byte
// footer ending in "LANC". Each column's metadata lists its pages; each
// page carries its encoding as a google.protobuf.Any holding a
// lance.encodings.ArrayEncoding tree (Flat, Nullable, Binary, List,
// FixedSizeList, SimpleStruct, Dictionary) whose buffers live in the page,
// the column metadata or the file's global buffers. Struct fields get a
// header column and list fields an offsets column, followed by their
// children's columns, in a depth-first walk of the schema.
//
// The encodings follow the seed proto of lance 0.14
// (internal/pb/encodings.proto, unchanged); the container messages
// (internal/pb/file.proto, file2.proto) are written from upstream's
// protos/file.proto and protos/file2.proto. `go generate ./lance/...`
// regenerates the Go code (it needs protoc and protoc-gen-go).
//
// # Entry points
//
//   - Open reads the footer, tables, column metadata and schema of an
//     io.ReaderAt, and nothing else.
//   - File.Schema gives the *arrow.Schema; File.Read returns one
//     arrow.RecordBatch and File.Records yields batches. ReadOptions select
//     top-level columns (only their pages are read) and a row range (only
//     the pages holding it are read). ReadContext and RecordsContext stop
//     between pages once their context is done.
//   - ReadFooter reads only the footer of any Lance file (also the
//     versions Open refuses) to tell what it is.
//   - File.Columns and File.GlobalBuffers give every column's metadata,
//     page and buffer byte ranges and encoding trees, for callers that
//     fetch ranges themselves.
//   - File.Validate checks the whole file; File.Describe writes its
//     structure; File.ZoneMap exposes ZoneIndex zone maps.
//   - WriteJSONLines and AppendJSONRow render records as JSON Lines (used
//     by `colfmt cat`).
//
// Versions: footer 0.3 and (2, 0) are read as 2.0. Legacy v1 files (footer
// 0.1/0.2) and 2.1/2.2 files (same container, but pages use the
// lance.encodings21 structural layouts) are refused with ErrUnsupported
// naming the version. Encodings added after 0.14 (FSST, bitpacking, packed
// structs, blobs, ...) are refused with ErrUnsupported.
//
// # Where real files differ from the spec text
//
// Real files win; this package follows them (implementer notes §6, §7):
//   - A List or Binary entry is null when it is >= the adjustment, not >
//     (a null empty list at row 0 stores exactly the adjustment).
//   - Binary end offsets and List offsets are page-local with no leading 0;
//     a list's item pages are independent of its offsets pages and are
//     found by summing the num_items of earlier offsets pages.
//   - Dictionary has two meanings: for a plain string field it is lance's
//     automatic dictionary (index 0 is null, k is item k-1), decoded back
//     to a plain string array; for a dict: field, raw keys and values form
//     an Arrow dictionary.
//   - Flat widths are 1 (an LSB-first bitmap) or multiples of 8; others
//     are refused. Compression applies to the whole buffer: zstd as a raw
//     stream of frames (0.14+) or with a u64 length prefix (0.31.1+),
//     told apart as lance does (raw when shorter than 8 bytes, or the zstd
//     magic with descriptor bit 0x10 clear); lz4 as a block with a u32
//     size prefix.
//   - 2.0 cannot store struct nulls: structs read back non-null.
//   - Files from 0.13 store strings and binary as a List column plus a u8
//     items column; the first page of the field tells them apart.
//   - A Binary null_adjustment of 0 (never written by lance) is read as
//     "no nulls". Indirect (deferred) encodings, never written, are refused.
//   - lance.bfloat16 vectors have no Arrow type here: they read as
//     fixed_size_list of fixed_size_binary(2).
//
// # Speed
//
// The layouts lance writes by default are read straight from the
// io.ReaderAt into the Arrow buffers, reading only the requested rows'
// bytes: uncompressed fixed-width values (also under Nullable and
// FixedSizeList), Binary strings (end offsets checked and rebased in one
// pass, validity built a 64-bit word at a time) and List offsets (the
// same, into one offsets buffer for all pages). Other layouts (compressed
// buffers, dictionaries, narrow offsets, list pages whose items leave a
// gap) are decoded page by page and joined; fuzz targets compare both
// paths. Fixed-width reads cost about as much as allocating the output
// and copying into it.
//
// # Security
//
// Open and Read are meant for untrusted input. Every position and size
// read from the file is checked against the file size (overflow-safe)
// before any read or allocation; every decoded buffer is checked against
// the row count and bit width before use; offsets and dictionary indices
// are range-checked; errors wrap ErrCorrupt (with the named rules
// ErrBufferRange, ErrBufferSize, ErrOffsets, ErrDictIndex, ErrLength,
// ErrProto), ErrTooLarge or ErrUnsupported, located by a *CorruptError
// with the byte offset and the column/page path. Limits, each an Option:
//
//   - WithMaxBufferSize (default 1 GiB): any single buffer read, any
//     decompressed buffer (zstd/lz4 output is capped while decoding), any
//     decoded array allocation and any buffer of a result joined from
//     several pages (counted as pages are appended, before joining).
//   - WithMaxMetadataSize (default 64 MiB): offset tables, column metadata
//     and the schema together.
//   - WithMaxColumns (default 65536): columns, global buffers and schema
//     fields.
//   - WithMaxDepth (default 64): encoding-tree and schema nesting (also
//     the protobuf recursion limit, four message levels per encoding level).
//
// A read decodes whole pages, so peak memory is about the pages that hold
// the requested rows, each bounded by WithMaxBufferSize.
package lance
