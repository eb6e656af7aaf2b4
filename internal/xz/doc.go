// Package xz writes .xz streams (LZMA2 filter) in pure Go, with an LZMA
// encoder that follows liblzma's algorithms so that its output is about
// as small as xz's at the same preset.
//
// # Format
//
// The output is one .xz stream (The .xz File Format 1.2.1): a stream
// header, one or more blocks, the index and the stream footer. Every block
// has a header that records its compressed and uncompressed sizes and one
// LZMA2 filter whose dictionary-size byte is the smallest that covers the
// block (never more than the preset's dictionary), the LZMA2 data (lc=3,
// lp=0, pb=2, as every xz preset, unless WithLiteralContext sets lc and
// pb), and the check (CRC64 by default, CRC32
// or none). xz 5.x, github.com/ulikunitz/xz and
// github.com/therootcompany/xz decode it. This package does not decode.
//
// Two choices differ from single-threaded xz and match xz -T: block
// headers carry both sizes, and the dictionary-size byte names the
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
//   - LZMA2 chunks of at most 2 MiB in and 64 KiB out carry the model
//     across chunks; a chunk that does not shrink is stored.
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
// Options: WithPreset, WithExtreme, WithLiteralContext, WithCheck,
// WithBlockSize, WithConcurrency. ParsePreset reads xz's "-9e" notation; Memory reports
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
// # Speed and size
//
// BenchmarkEncode measures, in the same run, size and speed against xz
// -T1 (liblzma 5.4) at -6 and -9e on five dbtext files;
// BenchmarkEncodePresets does every preset on one file,
// BenchmarkEncodeParallel two 24 MiB blocks against xz -T2. On the 12
// dbtext files the output is within 0.2% of xz's size at -1, -3, -6 and
// -9e, file by file, and within 0.4% at -0 (all files together: 1.0017 at
// -0, 1.0002 at -6, 1.0000 at -9e). Measured by CPU time on the shared
// test machine, the speed is 0.63 to 1.4 of liblzma's: about 1.0 at
// presets 0..3, 0.65 to 0.85 with bt4 and the optimal parser, where the
// tree walk (cache misses, as in liblzma) takes half the time. For
// comparison, github.com/ulikunitz/xz (hash chain, 8 MiB dictionary)
// writes 1.15 to 1.36 times xz -9e's size on c_name, l_comment and urls2.
//
// # Security
//
// The encoder reads no untrusted structure. Its memory is bounded as
// above; sizes are fixed by the options before any input is read.
package xz
