// Package xz writes and reads .xz streams (LZMA2 filter) in pure Go: an
// LZMA encoder that follows liblzma's algorithms so that its output is
// about as small as xz's at the same preset, and a decoder that decodes
// straight into the caller's buffer.
//
// # Format
//
// The output is one .xz stream (The .xz File Format 1.2.1): a stream
// header, one or more blocks, the index and the stream footer. Every block
// has a header that records its compressed and uncompressed sizes (except
// the only block of an AppendEncode stream: the index has them) and one
// LZMA2 filter whose dictionary-size byte is the smallest that covers the
// block (never more than the preset's dictionary), the LZMA2 data (lc=3,
// lp=0, pb=2, as every xz preset, unless WithLiteralModel or
// WithLiteralContext sets them), and the check (CRC64 by default, CRC32
// or none). xz 5.x, github.com/ulikunitz/xz and
// github.com/therootcompany/xz decode it, and so does this package.
//
// Two choices differ from single-threaded xz and match xz -T: the blocks
// of a stream of several carry both sizes in their headers (so they can
// be decoded in parallel), and the dictionary-size byte names the
// smaller of the preset's dictionary and the block (a decoder then
// allocates no more than the data needs). Blocks are independent, so the
// output depends on the block size but not on the concurrency.
//
// # Algorithm
//
// Written from the public descriptions of the LZMA SDK (Igor Pavlov) and
// xz-utils' liblzma (public domain / 0BSD); no code was copied.
//
//   - Match finders over the block held in memory: hc3 and hc4 (hash
//     chains) and bt4 (binary tree), with 2-, 3- and 4-byte hashes and a
//     cyclic window of dictionary+1 positions.
//   - Presets 0..3 use the "fast" parser (longest match, compared with rep
//     matches and the next position's match); presets 4..9 and every
//     extreme preset use the optimal parser, which prices literals, short
//     reps, rep matches, matches and match/rep+literal+rep0 sequences over
//     a window of up to 4096 positions with adaptive price tables.
//   - WithArrivals(k) with k > 1 selects a multi-arrival optimal parser
//     instead (optimum_multi.go): each position of the window keeps the k
//     cheapest ways of reaching it, each with its own state and reps, and
//     prices are refreshed before every decision. It is not liblzma's
//     parse: on 64 KiB slices of real tables its streams are 1.5% (k=2),
//     2.1% (4) and 2.3% (8) smaller, for about 3x, 5x and 10x the time.
//   - LZMA2 chunks of at most 2 MiB in and 64 KiB out carry the model
//     across chunks; a chunk that does not shrink is stored, and symbols
//     the parser decided beyond it are rewritten for the reset reps.
//
// # Presets
//
// As xz (liblzma 5.4): dictionary 256 KiB, 1, 2, 4, 4, 8, 8, 16, 32,
// 64 MiB for presets 0..9; presets 0..3 use the fast parser with hc3
// (preset 0) or hc4 (1..3), nice length 128, 128, 273, 273 and depth 4,
// 8, 24, 48; presets 4..9 use bt4 and the optimal parser with nice length
// 16, 32, then 64, depth 16+nice/2. Extreme: bt4, optimal parser, nice 192 and
// depth 112 at presets 3 and 5, else nice 273 and depth 512.
//
// # Entry points
//
// AppendEncode (and Encode) compress a byte slice; NewWriter streams.
// Options: WithPreset, WithExtreme, WithLiteralContext, WithLiteralModel,
// WithMatchSearch, WithArrivals, WithCheck, WithBlockSize, WithBlockCuts,
// WithConcurrency. ParsePreset reads xz's "-9e" notation; Memory reports
// the memory bound of a configuration.
//
// # Memory
//
// Each block being compressed needs match finder tables sized by the
// preset's dictionary (or by the block, when it is smaller): 4-byte hash
// heads of liblzma's size plus one link (hc4) or two (bt4) per window
// position. For blocks at least as large as the dictionary:
//
//	preset     0    1    2    3    4    5, 6   7     8     9
//	MiB        1.5  6.3  12.3 24.3 40.3 80.3   160.3 320.3 576.3
//	extreme    2.8  10.3 20.3 40.3 (4..9: as without -e)
//
// (liblzma needs about 3, 9, 17, 32, 48, 94, 94, 186, 370 and 674 MiB,
// which include its dictionary buffer.) On top of that come the block's
// input and compressed output; the Writer buffers WithConcurrency x block
// size bytes of input. Memory(opts...) returns the whole bound.
//
// # Decoding
//
// AppendDecode (and Decode) decode a whole .xz file held in memory: one or
// more streams with stream padding between them, as xz -d reads a file.
// AppendDecodeStream decodes the first stream only and reports its
// length, leaving the bytes after it unread. Every block's check (CRC32,
// CRC64 or SHA-256; none) is verified, and so are the block headers'
// sizes, the index and the stream footer. Only a lone LZMA2 filter is
// read: a chain with BCJ, delta or any other filter, an unknown check
// type and reserved flags fail with ErrUnsupported.
//
// The output is the LZMA dictionary: a block is decoded straight into dst
// (grown append-style, chunk by chunk, as the LZMA2 chunk headers declare
// their sizes), so matches copy within one flat buffer: up to 32 bytes at
// a distance of 8 or more in 8-byte words (two words always, two more
// above 16 bytes: no loop on the length to mispredict), distances 1 to 7
// by pattern (8 bytes one by one, then words from the smallest multiple
// of the distance at least 8 back), longer matches with copy() or a
// doubling copy when they overlap. Word copies may write past a match's
// end but never past the chunk's end (near it, the byte paths run), so
// nothing past the output is written, as append does, and no byte a
// WithProgress consumer has seen. Nothing but the output is allocated
// (models are pooled). When the stream's index is at the end of src and
// its total is plausible (at most
// 1024 times the input plus 1 MiB), the output is reserved whole before
// decoding; a hostile index can therefore not make the decoder allocate
// more than that, and WithMaxDecodedSize (default DefaultMaxDecodedSize,
// 1 GiB) bounds every call. Distances are checked against the bytes
// decoded since the last dictionary reset and the declared dictionary
// size, input reads are bounded by the chunk's compressed size (the
// chunk is decoded from a padded copy when src ends within 64 bytes of
// it), and damage is a located *CorruptError wrapping ErrCorrupt, never a
// panic. Like liblzma (and unlike xz-embedded), an LZMA chunk whose first
// range coder byte is not 0 is rejected. WithProgress shows the output
// after every LZMA2 chunk, so a consumer can work on a prefix while the
// rest decodes.
//
// Parallel decoding: with WithConcurrency(n), n > 1, a stream that ends
// src (its footer last, as AppendDecodeStream of an exact stream or
// AppendDecode of a lone stream) and whose intact index lists two or
// more blocks is decoded up to n blocks at once, on at most n goroutines
// (the caller's one of them). The index places every block (its offset
// in the stream and in the output), the whole output is reserved once
// under the same budget and plausibility bound, and each block decodes
// into its own region: its capacity ends at the region's end, so a block
// that decodes to more than its record fails (ErrTooLarge inside) and
// never grows past it, and one that decodes to less, or whose header,
// padding, check or sizes disagree with the index, fails too. Any such
// failure drops the parallel result, and the serial path decodes the
// stream again to report its own error: errors (the first failing block
// in stream order, its offset and message) and outputs are the serial
// path's whatever n (TestDecodeParallelErrors, FuzzDecodeParallel).
// WithProgress keeps its meaning, a growing prefix: the first block
// reports chunk by chunk, a later block's output once every block
// before it is done. xz -T writes such streams, and so does the encoder
// with WithBlockSize or WithBlockCuts (explicit block starts).
//
// The range decoder's range, code and input position are locals of the
// chunk loop (rcBit is small enough to be inlined). The bits that are
// close to random - a literal's low six bits (all eight of a matched
// literal) and the bit trees of lengths and distances - are decoded
// without a branch on the bit, which removes the mispredicted branches
// that dominate liblzma's and xz-embedded's time on literal-heavy data. In
// the fixed-width trees (6-bit slot, 3-bit low and mid length, 8-bit high
// length, 4-bit align; unrolled in trees.go, which a template in
// trees_gen_test.go generates; array pointers and masked indexes so no
// bounds check is left) and in a literal's low bits (litLow), each bit
// loads both children's probabilities before it is known, so the next
// load is off the range decoder's dependency chain, and computes both
// outcomes, which the compiler selects with conditional moves (it does
// not emit them inside decodeChunk, hence litLow is a function of its
// own). Elsewhere a mask from the sign of code-bound selects the new
// range, code and probability. A literal's top two bits, which text and
// digits make predictable, keep their branches: a predicted branch lets
// the CPU run ahead of the range decoder's dependency chain. Direct
// distance bits are shifted in one at a time below the slot's top bits.
//
// FuzzDiffDecode compares the decoder with therootcompany/xz on arbitrary
// input: the same output whenever either succeeds, apart from the
// first-byte rule above and 1 to 3 bytes after a stream, which
// therootcompany's single-stream reader rejects (it reads them as stream
// padding) and AppendDecodeStream ignores. FuzzDecodeRoundTrip decodes
// the encoder's output.
//
// Speed, by CPU time in one session on the shared test machine
// (BenchmarkDecode, liblzma -6 files, before the 2026-11-26 changes below):
// 74, 101, 56 and 63 MB/s on the
// dbtext files c_name, l_comment, urls2 and japanese, against 45, 72, 45
// and 47 for therootcompany/xz (its reader reused with Reset) and 27, 38,
// 21 and 14 for ulikunitz/xz; paired with xz -dc (liblzma 5.4.1) in each
// iteration (BenchmarkDecodeVsXZ), xz used 1.41, 1.79, 1.82 and 2.8 times
// our CPU (japanese is small: xz's process start counts). On hex, random
// hex digits with few long matches, all are close: 21.1 MB/s, 19.5 for
// therootcompany, 22.5 for xz -dc (1.07x our CPU paired). Without the
// branch-free bits the decoder ran at about therootcompany's speed.
//
// Decode speed work of 2026-11-26 (issue 12). The profile of colfmt cat
// on a PyPI TSV's values stream (7 MB) had decodeChunk 28.6%, memmove
// (match copies) 18.4%, bitTree 12.5%, bitTreeReverse 6.2%. Kept: word
// copies of short matches, the unrolled fixed-width trees, loading both
// children ahead, conditional moves, two branch bits per literal instead
// of three (better once the branch-free bits loaded ahead: up to 1.15x on
// at1 values streams, neutral on text), the pattern copy of distances 1
// to 7, direct bits shifted in. Measured on the loaded shared 2-core
// machine, CPU time, in one process per file alternating the old and the
// new decoder every iteration (21 iterations, median of old/new CPU):
//
//	stream (decoded MB)                  old/new CPU   new MB/s
//	pypi8 values (at1, 7.0)              1.16          75
//	npm12 values (at1, 11.4)             1.13          65
//	email values (at1, 1.4)              1.09          29
//	flights values (at1, 0.9)            1.16          37
//	zipcodes values (at1, 1.0)           1.21          55
//	pypi8.tsv, xz -6 (8.0)               1.10          61
//	npm12.tsv, xz -6 (12.0)              1.11          54
//	dbtext c_name, l_comment, urls2, hex 1.13, 1.12, 1.13, 1.14
//
// BenchmarkDecode, benchstat of 6 alternating runs: cpuMB/s +12% to +28%
// on those 12 files (geomean +20%). Against xz -dc (5.4.1) paired in each
// iteration (BenchmarkDecodeVsXZ with XZ_BENCH_DECODE_FILES set to the
// streams; xz's CPU over ours, xz's includes its process start and page
// faults, ours a warm process with its output buffer reused): before ->
// after, 1.22 -> 1.41 (email values), 1.38 -> 1.73 (flights), 1.28 ->
// 1.44 (npm12 values), 1.24 -> 1.43 (npm12.tsv.xz), 1.35 -> 1.54 (pypi8
// values), 1.33 -> 1.57 (pypi8.tsv.xz), 1.39 -> 1.64 (zipcodes values);
// medians of 4 runs of 5 iterations each.
//
// colfmt cat as a fresh process (CGO_ENABLED=0 builds of this branch and
// of its base, medians of 15 interleaved rounds with xz -dc of a liblzma
// -6 file of the same original, child CPU from wait4): PyPI TSV 8 MB
// (columnar at1) 281 -> 266 ms against xz -dc's 214 (per-round ratio to
// xz 1.31 -> 1.26, before/after 1.13); npm 12 MB 402 -> 355 ms against
// 291 (1.38 -> 1.25, before/after 1.13). The rest of colfmt cat (start-up,
// the column decoders, writing) is outside this package.
//
// What is left is mostly inherent to LZMA: about 20 range coder bits per
// match with a new distance (6 slot, 10 or so direct, 4 align) and the
// cache misses of copies from far back in a 7 MB output (the first word
// load of a match is a fifth of the profile on the pypi8 values stream),
// which the next literal's context byte waits for, as in liblzma.
//
// Tried and not kept (no gain measured the same way, within +-3%): loading
// ahead for matched literals (their probability index also depends on
// the match byte; neutral to -5% on text); conditional moves for matched
// literals and the distances' reverse trees (neutral); fully branch-free
// literals (litBranchBits 0: 0.95 to 1.17 by file, worse on text);
// slicing-by-16 CRC64 (1.1x to 1.3x hash/crc64 alone, which is 3 to 5% of
// a decode: under the noise; CLMUL needs assembly).
//
// Match-heavy streams (2026-11-28). On cities.jsonl (17 MB, xz -6) xz -dc
// used 0.91 of our CPU, on oui.csv (3 MB) 1.06. The assembly of
// decodeChunk showed its loop carrying rng, the state and the reps in
// stack slots (about 20 values live in the loop for 14 registers), the
// range decoder's code reloaded from the stack in every matched-literal
// bit, and the first word load of a copy (a cache miss) 11% of its
// samples. Kept: the reps live in the model (d.rep), not in locals: only
// matches and matched literals use them, and the loop has four fewer
// loop-carried values. Measured in one process per file alternating the
// old and the new decoder every iteration (thread CPU time, 31
// iterations, median of old/new; three runs on the loaded shared 2-core
// machine): cities 1.03, 1.04, 1.06; oui.csv 1.02, 1.06, 1.02;
// flights-200k.jsonl (xz -6) 1.05, 1.03, 1.03; dbtext l_comment 1.03,
// 1.02, 1.03; c_name 1.05, 1.04, 1.05. Against xz -dc paired
// (BenchmarkDecodeVsXZ, medians of 4 runs of 5 iterations, base and new
// alternating; xz's CPU over ours): cities 0.91 -> 0.92, oui 1.06 ->
// 1.08, flights 0.90 -> 0.92, and on the dbtext files c_name 0.87 ->
// 0.89, l_comment 1.07 -> 1.11, urls2 0.99 -> 1.07, hex 0.85 -> 0.87,
// japanese 1.55 -> 1.63 (this paired ratio moves by +-3% from run to
// run under load). colfmt cat of at1 files (zipcodes, flights-200k;
// perf stat task-clock, 6 alternating rounds of 5): 1.03 and 1.01,
// within the noise.
//
// Tried for match-heavy streams and not kept (each alone against the
// kept code, same in-process method, under +3% on cities or a loss
// elsewhere): matched literals as liblzma 5.6 and the LZMA SDK decode
// them (a branch per bit until the first bit that differs from the match
// byte, then the plain tree with litLow; 0.99 to 1.03 by file, inline,
// or in a function of its own with the input as a pointer); the state
// update after a literal from a table (neutral); the state in d.state
// (neutral); the literal coder's index as liblzma 5.6 computes it (one
// mask and shift; neutral); lc, lp and pb read from the model in the
// loop (1.00 to 1.04); long matches (33 to 273 bytes) copied in 16-byte
// steps instead of memmove (neutral); all of a match (isRep on) in a
// method of its own, so that the literal loop keeps fewer live values
// (0.96 to 0.98: the regalloc still kept rng in a stack slot);
// copies that call memmove moved to a function that passes rng, code
// and ip through (neutral); litLow written into the loop (0.89 to
// 0.99); the length's first choice bit in the loop, calling the 3-bit
// tree directly (0.99 to 1.00); the output buffer in transparent huge pages (no change: they
// were not given). What is left on cities: the literals, a third of the
// CPU (1.8 M, a third of them matched), the match copies' cache misses,
// and CRC64 (7%; the liblzma 5.4.1 here has a CLMUL CRC64).
//
// # Speed and size
//
// BenchmarkEncode measures, in the same run, size and speed against xz
// -T1 (liblzma 5.4) at -6 and -9e on five dbtext files;
// BenchmarkEncodePresets does every preset on one file,
// BenchmarkEncodeParallel two 24 MiB blocks against xz -T2. On the 12
// dbtext files the output is within 0.2% of xz's size at -1, -3, -6 and
// -9e, file by file, and within 0.4% at -0 (all files together: 1.0017 at
// -0, 1.0002 at -6, 1.0000 at -9e). Measured by CPU time on the shared
// test machine (before the changes below), the speed was 0.63 to 1.4 of
// liblzma's: about 1.0 at presets 0..3, 0.65 to 0.85 with bt4 and the
// optimal parser, where the tree walk (cache misses, as in liblzma) takes
// half the time. For comparison, github.com/ulikunitz/xz (hash chain, 8
// MiB dictionary) writes 1.15 to 1.36 times xz -9e's size on c_name,
// l_comment and urls2.
//
// Parity with liblzma (2026-11-28). The optimal parser's choices had
// differed from xz's within the first few hundred symbols of most files
// (56 of 60 small files), while the sizes were equal on average; on
// some files the difference was not small (a 2 KB time-zone file: 940
// bytes against xz -9e's 900). Four differences were found by comparing
// symbol streams and the parser's tables with an instrumented liblzma
// 5.4.1: a 1 bit was priced from 2048-p instead of p^2047 (one table
// step apart when p is a multiple of 16, as the initial 1024 is); the
// length price tables are refreshed after nice-1 lengths, not 272; a
// due refresh must read the model before the length's own bits (liblzma
// applies its queued bits after the symbol); and a copy is written as
// the parser priced it (a new distance that equals a rep, or a rep whose
// distance another rep also holds). Now, with liblzma's table sizes,
// the LZMA2 data is xz's byte for byte at every kind of preset
// (TestLiblzmaParity: 21 inputs, presets 0 to 9 and extreme); with ours
// (tables for the block, not a larger dictionary) the parse was xz's on
// all 700 files of a sample of small files from /usr/share and the
// zoneinfo database at -9e, where the sizes are equal file by file, and
// on the 12 dbtext files the totals are 0.99999x xz's at -6 and -9e,
// 1.0000x at -1 and -3 and 1.0017x at -0 (hc3 over a 256 KiB window).
//
// Encode speed work of 2026-11-26 (issue 12). colfmt pack --format at1
// spent 87% of its CPU here (btFind 52% self, helper2 13%). The tree walk
// and the hash heads wait on memory: in btFind, four fifths of the samples
// sit on the loads of a node's two links and of the candidate's byte; in
// find, on the loads of the 3- and 4-byte hash heads. Kept, none of which
// changes a byte (TestEncodePinned pins the hash of 19 outputs: presets 0
// to 9 and extreme, multi-block, and dictionaries small enough that the
// cyclic window wraps):
//
//   - the tables of 4 MiB and more as transparent huge pages
//     (makeTables, internal/hugepage): fewer TLB misses in the walk and
//     fewer page faults, which cost 15 us or so on the test VMs (median
//     CPU time of 5 processes, one encode each, alternating: 0.87 of the
//     time with 4 KiB pages on l_comment at -6e, 0.89 on urls2 and
//     zipcodes at -6);
//   - the next position's hash heads are loaded while this position's
//     tree is walked (touchNext; A/B alternating in one process: 1.08x on
//     urls2, 1.10x on l_comment at -6e);
//   - the walk loads both links of a node before comparing bytes, so the
//     two misses overlap even when the branch is mispredicted (1.00 to
//     1.05x);
//   - helper2 no longer loads 16 bytes that were just stored as four
//     4-byte words (the distance prices of a match, the reps of a
//     position), which the CPU cannot forward from its store buffer: 7%
//     of helper2's samples sat on one such load (c_name -6: 0.96 of the
//     median CPU).
//
// Paired with xz -T1 (5.4.1) in each run (BenchmarkEncodeFiles, one
// process per file and binary, the old and new encoder alternating file
// by file, 2 rounds, load average 2.7 to 3.9 on the 2 cores), xz's CPU
// over ours, geometric mean of the 7 files (c_name, l_comment, urls2,
// hex, japanese, an 8 MB PyPI TSV, a 2 MB zipcode CSV), before -> after:
// -6 0.95 -> 1.14, -6e 1.13 -> 1.25, -9e 1.33 -> 1.41 (xz's -9e
// allocates 674 MiB, which small files pay for). By file, -6 / -6e / -9e,
// before -> after:
//
//	c_name      0.85 -> 0.89   0.85 -> 1.00   0.92 -> 0.92
//	l_comment   0.84 -> 1.05   0.98 -> 1.01   1.04 -> 1.04
//	urls2       0.87 -> 1.17   1.01 -> 1.20   1.55 -> 1.55
//	hex         0.97 -> 1.22   1.31 -> 1.40   1.28 -> 1.47
//	japanese    1.52 -> 1.58   1.86 -> 2.05   2.89 -> 3.15
//	PyPI TSV    0.82 -> 1.08   0.99 -> 1.13   1.06 -> 1.20
//	zipcodes    0.94 -> 1.12   1.16 -> 1.25   1.22 -> 1.35
//
// Single runs vary by 10 to 20% on the shared machine (an earlier pair of
// rounds, before the helper2 change, at load 5 to 9: 1.00 -> 1.16, 1.04
// -> 1.14, 1.29 -> 1.26). c_name (short names, many short matches) stays
// at or a little below liblzma; there the walk is 54% of the profile and
// helper2 22%.
//
// Tried and not kept (neutral within the noise): links written through
// pointers and node reads as one [2]uint32 (fewer bounds checks: the loop
// waits on memory, not on instructions), a walk without the cyclic
// arithmetic when the block fits the window, and loading the next
// position's first tree node as well as its hash heads (0.93 to 1.0).
//
// Small inputs (2026-11-28). at1 calls AppendEncode and EncodeModels
// many times per file, on streams of a few hundred bytes to 64 KiB. Each
// call allocated its encoder (the model and price tables, 40 KiB), the
// parser's window (52 bytes a position, up to 4096) and the match finder's
// tables: 355 KB in 25 allocations for a 3 KB input at -6e, cleared and
// left to the garbage collector. Now a pool of scratches (scratchPool)
// keeps them, and EncodeModels' recorded matches, from call to call: a
// reused table has only its hash heads cleared (a link is written when its
// position is inserted, before a search can reach it, as in liblzma); a
// model just reset copies its literal probabilities, and until its first
// match its distance prices, from tables built once. Same bytes
// (TestReusedScratchSameOutput: reuse over varied inputs, presets and
// models against a fresh encoder). Go benchmarks (BenchmarkSmall*, text
// of small /usr/share files at the time, now this package's own Go
// files; 4 rounds alternating old/new, load 3 to 4 on 2
// cores), new time over old, -6e / -9e: AppendEncode 300 B 0.40 / 0.51,
// 3 KB 0.87 / 0.98, 20 KB and 64 KB within the noise (1.3 KB and 12
// allocations a call at 300 B); EncodeModels with at1's 8 models 300 B
// 0.43 / 0.35, 3 KB 0.67 / 0.68, 20 KB 0.83 / 0.80, 64 KB 0.89. The rest
// is the parser's per-byte work (helper2 and the range coder). colfmt
// pack --format at1 of 60 small files (one process each, same output
// bytes) took 0.96 to 0.97 of the CPU time (medians of 5 and 3
// alternating rounds, within the noise): xz is about a third of its
// profile and mostly per byte there; xz -9e took 0.18 of our time.
//
// # Security
//
// The encoder reads no untrusted structure. Its memory is bounded as
// above; sizes are fixed by the options before any input is read.
package xz
