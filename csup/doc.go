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
// Open recognises the generation from the bytes — a header magic first
// (CSUP, VNG), else the trailer's type and version — and reads all of them
// through one API:
//
//   - CSUP version 16 (super v0.3.0, `super -f csup`): a sequence of
//     objects, each a 36-byte header ("CSUP", version, MetaSize, TypeSize,
//     DataSize, Root), a Super Binary version 2 stream of metadata nodes
//     (node ID = position; a DAG) and a data section. Nodes: Record, Array,
//     Set, Map, Union, Dynamic (the top-level variants), Int, Uint, Float,
//     Bytes, Primitive, Const, Dict, Named, Error. Offsets, lengths, tags and
//     integers are intcomp streams (csup/internal/intcomp, our own decoder),
//     other data LZ4 blocks when that was smaller. Nulls are values of type
//     null (a Const null or a Dynamic variant), not presence runs. Fusion
//     nodes, a non-empty types section and optional record fields are
//     refused with ErrUnsupported; no file seen has them.
//   - VNG version 4 (zed v1.13–v1.18): a 16-byte "VNG\0" header, one
//     Super Binary (version 0) metadata tree, data; VNG v3's nodes with one
//     Segment per column, plus Dict (one index byte per value), Const and a
//     top-level Variant.
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
// Other versions are refused with ErrUnsupported naming the version: CSUP
// other than 16 (14 is super v0.2.0, 17 and later super's main branch), VNG
// 5–12 (super pre-releases) and ZST version 3.
//
// CSUP v16 as the files show it, where the notes or docs say otherwise or
// nothing: Int/Uint Location and every intcomp segment (offsets, tags,
// lengths) give the decoded size in Length and the stored size in MemLength,
// while Float, Bytes and Primitive segments give the stored size in Length;
// array, set, map and bytes columns store n+1 offsets, not lengths; a
// Bytes node's Count is 2^32−1 when it is empty (the offsets decide);
// a BSUP v2 record typedef puts each field's type before its optional flag;
// type values may sit in Primitive nodes (tag-encoded, as this writer
// puts them) or in Bytes nodes (as super's source puts them in some
// versions), in their BSUP v2 form either way.
//
// # Entry points
//
// Open(r, size, opts...) reads the structure and returns a *File; column
// data is read only as values are. File.Values iterates every value in
// order; File.Project(fields...) iterates projections that read only the
// segments of the named columns (dotted paths for nested fields);
// File.NewReader gives a Reader whose Read and ReadInto have the shapes of
// bsup.Reader's (ReadInto reuses one Value's storage for allocation-free
// scans). File.Count counts values (CSUP v16, VNG v4: from the metadata).
// File.Validate reads everything and checks that every column is used up
// exactly. File.Columns and File.SuperColumn describe the layout.
// File.Stats(path) returns the min/max statistics CSUP v16 stores per
// object (VNG v4: for its one object), and File.Query(Query{Columns, Where:
// []Range}) uses them to skip whole objects that cannot match a range
// predicate, then filters rows by value (QueryStats says how many objects
// were skipped); older generations have no statistics and are filtered
// row by row. File.NewBatchReader reads CSUP v16 a batch of rows at a
// time into typed vectors (see Batch reading). NewWriter(w,
// opts...) writes values in the spec layout.
//
// Values are bsup.Value trees typed by *bsup.Type; bsup.AppendJSON renders
// them as `zq -j` does.
//
// # Batch reading
//
// File.NewBatchReader(fields...) reads a CSUP v16 file without building a
// value per row: (*BatchReader).Next(&batch) fills a Batch with up to
// WithBatchRows rows (default DefaultBatchRows; a batch never spans two
// objects) as a tree of Vectors that follows the object's nodes. Each
// Vector has a Kind and typed slices: VecInt Ints []int64 and VecUint
// Uints []uint64 decoded from the intcomp segments, VecFloat Floats
// []float64, VecBool Bools with Nulls, VecBytes Bytes with Len+1 Offsets
// (strings are views of the decompressed segment), VecPrim Super Binary
// bodies with offsets and Nulls (ip, net, enum, type), VecRecord Elems
// per (projected) field, VecArray/VecMap element Offsets over their
// element vectors, VecUnion/VecDynamic Tags with one vector per member
// holding that member's rows in order, VecDict a one-byte Index into its
// entries' vector, VecConst one Const value. Named and error types are
// carried by the vector of their inner node. The slices are views of the
// decoded segments and of buffers the reader reuses: they are valid until
// the next Next (decoded segments are reused from one object to the
// next). With fields, only those columns' segments are read, and the
// rows of a top-level type that has none of them are VecNone (nothing
// read), the rows the row reader leaves out. Batch.AppendValues turns a
// batch back into the values Reader.Read gives (a convenience, and how
// FuzzDiffBatchReader checks the two readers agree); Batch.AppendJSON
// and Batch.WriteJSON write the JSON lines bsup.AppendJSON gives for
// those values straight from the vectors (colfmt cat of CSUP v16 does),
// rendering a Const or a dictionary's entries once per object. As a small
// file can describe many elements (a Const under a list), these three
// refuse a row of more elements than WithMemoryLimit allows at
// ElementCost each, as Reader does, with ErrTooLarge. Other generations
// have no batch reader (ErrUnsupported). File.Objects counts a file's
// objects and BatchReader.LimitObjects(first, count) restricts a reader to
// some of them (and may retarget it once a read ends), so that readers on
// several goroutines share a file (colfmt cat does with 4 cores or more).
// BatchReader.SkipObjects(ranges) passes over the objects whose min/max
// statistics rule a range out, as Query does; rows of the other objects
// are not filtered (filter the vectors).
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
// NewWriter writes the spec layout by default; WithLayout(LayoutCSUP16)
// writes CSUP version 16, which super v0.3.0 reads (`colfmt pack --format
// csup` writes it by default). The CSUP v16 writer reproduces what super
// v0.3.0 wrote for every sample byte for byte (tested on all ten, and on
// `pack` of mixed.json): values are buffered per object (WithObjectRows,
// default 120 000, as super cuts objects; WithObjectSize, default 256 MiB,
// also ends an object early so that memory stays bounded when rows are
// large — super cuts by rows only) in typed column buffers; at the
// end of an object each column becomes nodes — metadata IDs in post-order,
// data in pre-order — with super's choices: a leaf column with one distinct
// value is a Const, with 2–256 distinct values fewer than its rows a Dict
// (except int8, uint8 and bool), else Int/Uint (intcomp: Int as
// CompressInt64 with trailing-zero shifts, Uint as CompressUint64 without), Float (float64,
// LZ4 if smaller), Bytes (LZ4 if smaller, intcomp offsets) or Primitive;
// a set is written as an unreferenced Array node followed by the Set node
// over the same data; empty Bytes and Primitive columns have untyped null
// Min/Max and a Bytes Count of 2^32−1.
//
// Typed nulls: super v0.3.0's data model has none (a null is a value of
// type null; CSUP v16 has no null or presence node, and a record field's
// Opt/Nones mark optional, missing fields, not nulls), so the v16 writer
// writes a typed null as super holds the same data: a null of a union type
// becomes the union's null member (a null member added last when there is
// none, as null::(int64|string|null)), and so does a union value holding a
// null under another member (super cannot tell the two apart; a null of a
// union member becomes that member's null member); any other typed null becomes an
// untyped null and the types around it are rebuilt, so a record with a
// null field is its own top-level type (a Dynamic variant, as super writes
// {a:null}), and an array, set or map whose elements then differ in type
// has a union element type, first-met order, null last (no sample covers
// this; our choice). Values read back are those converted values. Written
// this way, the values of the zed-era inputs (null(int64),
// null({...}), null((int64,string))) give super's own files byte for byte
// (tested for every sample, nulls, nested and unions included).
// No sample has a dictionary column: Dict data follows super's public
// source, which every version of agrees on (the entries' node, then the
// counts, then the one-byte index; up to 256 entries), but its bytes are
// not verified against a file super wrote.
//
// The spec-layout writer buffers each column stream and cuts a segment when a buffer
// reaches the segment threshold (WithSegmentThreshold, default 5 MiB, zq's
// -coltresh); when all buffers together pass the skew threshold
// (WithSkewThreshold, default 25 MiB, zq's -skewtresh) every column is flushed,
// so segments of different columns interleave. Both are recorded in the
// trailer's meta. Segments are LZ4-compressed when that makes them strictly
// smaller (WithCompression). Presence is flushed at Close; the super column
// is the last stream of the data section.
//
// # Speed
//
// The super binary itself cannot be installed here (super is not on the Go
// module proxy and no release binary can be fetched), so super's own read
// speed is not measured by this package; the figures compare our readers
// and writers with each other, with our Super Binary reader (the proxy for
// super reading BSUP) and with encoding/json, measured interleaved in one
// run (BenchmarkCSUPv16Ratios, best per-value time of 6 iterations; four
// runs on a shared 2-core machine at load 3.4–4.2, the range of the four):
//
//	1M rows {id,name,score,tags,nested{a,b}}          ratio (higher: CSUP faster)
//	BatchReader full scan vs Super Binary scan         6.1–6.7x (about 55M rows/s)
//	BatchReader full scan, every value read, vs same   5.4–5.9x
//	BatchReader one column (name) vs Super Binary      112–120x
//	BatchReader full scan vs Reader (value per row)    5.1–5.4x
//	JSON lines: Batch.AppendJSON vs Super Binary       2.2–2.4x (what colfmt cat does)
//	Reader full scan vs Super Binary scan              1.16–1.30x (11M rows/s)
//	Reader one column (name) vs Super Binary           4.0–4.4x
//	Reader full scan vs encoding/json                  13.1–14.8x (JSON lines into a struct)
//	CSUP v16 write vs Super Binary write               0.69–0.75x (100 000 rows)
//
// colfmt cat of the same rows packed as CSUP v16 (3.7 MB; 103 MB of JSON
// out) took 0.34–0.63 s (median 0.41) where the row reader's cat took
// 0.51–1.00 s (median 0.81): identical output, six interleaved runs of
// each, wall time, load 4.2.
//
// The BatchReader decodes each column of an object once (intcomp straight
// into []uint64, floats into []float64, strings left in their segment) and
// hands out views of it, so a full scan costs little more than the
// integer decoding; the "every value read" line sums every number and
// string length of every vector, as a consumer would. Printing JSON is
// dominated by formatting the values, which both sides pay; the batch path
// renders each Const or dictionary entry once per object and numbers
// straight from the vectors (and floats that are whole thousandths skip
// strconv's shortest search, on both sides). The Reader
// builds a value tree per row and reuses one Value (Reader.ReadInto); the
// JSON side decodes into one reused Go struct. BenchmarkCSUPv16Scan and
// BenchmarkCSUPv16Write give the same comparisons as MB/s and values/s per
// format.
//
// # Security
//
// Open and the readers are meant for untrusted input. Every size read from
// the file is checked, overflow-safe, against the bytes that exist and
// against a limit before anything is allocated for it, and bad input gives
// an error wrapping ErrCorrupt, ErrTooLarge or ErrUnsupported, located by a
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
// CSUP v16 and VNG v4 sizes are checked the same way: each object's header
// sizes against the bytes that remain, every segment against its data
// section and the limits, every intcomp count and block length against the
// words that exist (the public decoder hangs or panics on bad ones), node
// IDs against the node count; the node DAG is checked for cycles and its
// expansion bounded. Decoded offsets must be monotonic and inside their
// bytes, dictionary indexes inside the dictionary. A Const or a row count
// can make a small file yield many (identical) values; memory stays
// bounded, time is linear in the values.
//
// Memory while scanning is one decompressed segment per column being read
// (for CSUP v16, the segments of one object) plus the values being built; Reader.Read reuses storage.
// A BatchReader holds one object's decoded segments, its batch buffers
// (offsets rebased per batch, primitive bodies) and, for reuse, the
// previous object's segment buffers, all charged to WithMemoryLimit (the
// spare buffers are dropped when they pass half of it). The trailer scan
// reads at most the last 4096 bytes.
package csup
