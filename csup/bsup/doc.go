// Package bsup reads and writes Super Binary (formerly ZNG), version 0
// framing as zed v1.x writes it: the row format of the Super data model,
// and the encoding of Super Columnar's reassembly section and trailer.
//
// A stream is a sequence of frames ending with an end-of-stream byte 0xff;
// after it the type table resets, and streams may be concatenated. A frame
// is a code byte (bit 6: compressed; bits 5–4: types, values or control
// frame; bits 3–0: low bits of the length), a uvarint with the rest of the
// length, and the payload. A compressed payload is a format byte (0 = LZ4
// raw block), the uvarint uncompressed size and the block. A types frame
// holds typedefs (record, array, set, map, union, enum, error, named), each
// defining the next type ID from 30 on; IDs 0–29 are the primitives. A
// values frame holds type ID + counted value pairs. A counted value is a
// uvarint tag, 0 for null, else the body length + 1.
//
// # Entry points
//
// NewReader/Reader.Read (and ReadInto, which reuses a Value's storage),
// NewWriter/Writer.Write/Close, the typed value model (Type, Value and
// their constructors), AppendTagged/DecodeTagged for single counted
// values, AppendTypeValue/DecodeTypeValue for type values, AppendJSON for
// JSON as `zq -j` (JSONZed) or `super -f json` (JSONSuper) writes it, and
// JSONReader for reading JSON with zq's type inference.
//
// # Where zed's code differs from the ZNG/BSUP prose
//
// This package follows the code and the files zed wrote:
//
//  1. uvarints are Go's encoding/binary form: 7 bits a byte, low group
//     first, bit 7 set means more bytes follow (the prose states the
//     opposite convention);
//  2. a control frame is <encoding><body>, with no inner length;
//  3. signed integers (and duration, time) are sign-magnitude,
//     abs(v)<<1|sign, not zig-zag (−1 is 3); the magnitude-zero negative
//     form 1 is what MinInt64 encodes to;
//  4. float16 and float32 bodies are 2 and 4 bytes, not 64-bit;
//  5. a union body's member index is a counted sign-magnitude integer, not
//     a bare uvarint;
//  6. an enum body is a counted unsigned integer.
//
// Unsigned integers are minimal little-endian bytes (none for 0). A record
// body is its fields as counted values; an array, set or map body is its
// elements (map: key, value, …); error and named values have their inner
// type's body. The writer keeps set and map elements in the order given.
//
// # Security
//
// Readers take untrusted input. A frame's length is checked against
// WithMaxFrameSize (default 64 MiB) before it is read, and the buffer grows
// only as bytes arrive, so a short stream cannot claim a large allocation;
// a compressed frame's uncompressed size is checked against the same limit
// and against what LZ4 can produce from its block (≤ 255×), and must match
// exactly. WithMaxTypes (default 1<<20) bounds the type table;
// WithMaxDepth (default 100) bounds type nesting, and so the recursion of
// decoding, encoding and JSON rendering. Counts read from typedefs and type
// values are checked against the bytes that remain. Decoded values take
// at most about 100 bytes per input byte. Errors wrap ErrCorrupt,
// ErrTooLarge or ErrUnsupported and carry the stream offset in a
// *CorruptError; nothing panics.
package bsup
