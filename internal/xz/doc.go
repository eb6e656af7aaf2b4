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
// lp=0, pb=2, as every xz preset), and the check (CRC64 by default, CRC32
// or none). xz 5.x, github.com/ulikunitz/xz and
// github.com/therootcompany/xz decode it. This package does not decode.
//
// # Algorithm
//
// Written from the public descriptions of the LZMA SDK (Igor Pavlov) and
// xz-utils' liblzma (public domain / 0BSD); no code was copied.
//
//   - Match finders over the block held in memory: hc4 (hash chain) and
//     bt4 (binary tree), with 2-, 3- and 4-byte hashes and a cyclic window
//     of dictionary+1 positions.
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
// 64 MiB for presets 0..9; presets 0..3 use hc4 (liblzma: hc3 at 0) and
// the fast parser with nice length 128,128,273,273 and depth 4,8,24,48;
// presets 4..9 use bt4 and the optimal parser with nice length 16, 32,
// then 64, depth 16+nice/2. Extreme: bt4, optimal parser, nice 192 and
// depth 112 at presets 3 and 5, else nice 273 and depth 512.
//
// # Entry points
//
// AppendEncode (and Encode) compress a byte slice; NewWriter streams.
// Options: WithPreset, WithExtreme, WithCheck, WithBlockSize,
// WithConcurrency.
//
// # Security
//
// The encoder reads no untrusted structure; its memory is bounded by the
// block size and the preset (see Memory).
package xz
