// Package zstdenc is a zstd encoder for small inputs that compresses
// about as well as libzstd's strongest levels (zstd -19, --ultra -22):
// an optimal parser over exhaustive hash-chain matches, in the manner of
// libzstd's btultra2, with a Huffman and FSE entropy stage that picks the
// cheapest mode of every part. It is pure Go, deterministic and uses no
// goroutines or global mutable state.
//
// AT-1 (package at1) uses it, instead of klauspost/compress, on every
// stream of 10 bytes to 64 KiB, where
// each byte counts against xz -9e's output (issue 12): klauspost/compress's
// best level is 4-6% larger than libzstd -19 on small text, this package
// 0.5% smaller.
//
// # Format written
//
// AppendEncode appends one frame (RFC 8878):
//
//   - frame header: single-segment, so Frame_Content_Size is always
//     present (1, 2, 4 or 8 bytes), even for empty input; no window
//     descriptor, no dictionary ID, no content checksum;
//   - blocks of at most 128 KiB, each the smallest of raw, RLE (a block of
//     one repeated byte) and compressed;
//   - in a compressed block, literals raw, RLE or Huffman-coded with one
//     stream (up to 1023 literals) or four, with a code-length limit of
//     6 to 11 bits, whichever is smallest (the Huffman streams and table
//     descriptions are written by klauspost/compress/huff0, whose format
//     is zstd's); sequences with each of the literal-length, offset and
//     match-length codes in the cheapest of the predefined table, RLE or
//     an FSE table (accuracy log 5 to its maximum) described in zstd's
//     normalized-count format. The repeat modes (tables or Huffman tree
//     of the previous block) are not used: blocks are compressed whole,
//     and inputs of interest are one block.
//
// Any input up to WithMaxInputSize (default DefaultMaxInputSize, 256 MiB)
// is encoded; the output always decodes with any zstd decoder (the tests
// check klauspost's and libzstd's zstd -d).
//
// # Algorithm
//
// Match finding: every position is linked to the previous one whose next
// three bytes hash alike (3 is zstd's minimum match); at each position the
// parser asks for matches, and up to WithSearchDepth (default 256)
// candidates are compared, nearest first, keeping each one longer than
// all nearer ones (at most 16 a position). These are cached per block, so
// later passes reuse them. The three repeat offsets (zstd's rules: after a
// sequence with no literals the codes mean rep1, rep2 and rep0-1) are
// tried first at every position, under the repeat offsets of the
// cheapest path to it.
//
// Parsing: forward dynamic programming over the block's positions, each
// keeping its cheapest arrival (price, literals run, the match ending
// there, repeat offsets). Prices are in 1/256 bit: a literal by its
// frequency, literal-length, match-length and offset codes by their
// frequency plus their extra bits; a literal prices the change of its
// run's length code. Every length from 3 to each match's length is
// relaxed; a match of 512 bytes or more is taken whole and the positions
// it covers are not expanded.
//
// Passes: a block is parsed first under a seed model, then again under
// the smoothed statistics of the previous parse, while it gets smaller
// (at most 3 passes), and that for two seeds: the predefined code tables,
// and libzstd's first-block model (heavily smoothed literal frequencies,
// flat length codes) with literals priced 2.25 times higher. Every pass
// is entropy-coded for real (Huffman with its default 11-bit limit); the
// smallest is encoded again trying every limit, and kept unless all
// literals and no sequences is smaller. In a block of at most 1 KiB its
// sequences are then turned back into literals one at a time, the one
// that shrinks the block most first, while the block shrinks (dropSeqs):
// there the parser's prices, estimated before the block's tables are
// known, can keep a match that costs more than its bytes as literals
// (with it, klauspost's best and better levels were smaller on none of
// 826 streams under 1 KiB that at1 compressed from 328 small files,
// against 7 before, by a byte). The passes settle in local optima, and
// which seed finds the better one depends on the input (binary tables and
// keyword lists want many cheap matches). WithThorough uses four seeds
// and up to 6 passes.
//
// # Sizes and speed
//
// Measured on 300 small text and binary files from /usr/share (300 B to
// 30 KB, 1.42 MB in all), each compressed in the same run by the zstd
// 1.5.4 CLI from its file (TestCorpusSizes with ZSTDENC_CORPUS set):
//
//   - total 0.9946 of zstd -19 --no-check and 0.9947 of
//     zstd --ultra -22 --no-check; 0.957 of klauspost/compress's
//     SpeedBestCompression;
//   - never larger than klauspost's best on any of the files; larger than
//     zstd -19 by more than 3% on one: solidity.vim (22 KB, 7.1%: long
//     keyword lists whose items shift by one byte a line, where libzstd's
//     parse uses fewer literals than any of ours);
//   - WithThorough: total 0.9934 of zstd -19.
//   - CPU: 1.6 to 2.5 times (about 1.7 in most of five runs on the
//     shared, loaded 2-core machine) that of one zstd -19 process
//     compressing the same files in the same run (about 1 MB/s on text;
//     WithThorough about twice the default).
//
// On the shared dbtext samples (12 columns cut to 100 B - 10 KB) the
// total is 0.998 of zstd -19.
//
// In AT-1 (at1 then tried it besides klauspost's best on every stream of at
// most 64 KiB and kept the smaller; it now uses it alone there), on the same 300 files packed by
// colfmt pack --format at1 before and after, in one run: the files larger
// than xz -9e went from 93 to 30 (by 12 bytes on average, 42 at most:
// the container's own 42 bytes on files of a few hundred bytes), the
// total from 445667 to 441000 bytes (-1.05%), and no file grew. Of the
// twelve smallest vega-datasets CSV files, iowa-electricity.csv went from
// 418 to 358 bytes (xz -9e 412: it was the one above xz), global-temp.csv
// 469 to 431, sp500.csv 619 to 615, us-employment.csv 3721 to 3715; the
// others, won by the columnar layouts, are unchanged.
//
// # Security
//
// It is an encoder: every input is valid and nothing read from it sizes
// an allocation. Inputs over WithMaxInputSize fail with ErrTooLarge
// before anything is allocated. Memory per call is O(len(src)): 4 bytes
// a byte for the hash chains, plus per block (at most 128 KiB) 28 bytes
// a position for the parser's nodes, 16 for length price tables and match
// indices, at most 16 matches of 8 bytes a position (typically one or
// two), the literals and sequences; plus a hash head table of at most
// 512 KiB and the Huffman and FSE scratch (tens of KiB). Time is bounded
// by O(len(src) x WithSearchDepth x 512/8) for the match finder (each
// position compares at most the depth's candidates, each over at most
// 512 bytes once it is long enough to be taken whole, 8 bytes a step;
// typical text costs a small fraction of that) and O(len(src) x 512) per
// parse (the lengths relaxed per position), times the passes (6 at most,
// 24 with WithThorough).
package zstdenc
