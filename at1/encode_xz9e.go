package at1

import (
	"slices"

	"github.com/colfmt/colfmt/internal/xz"
)

// The bound against xz -9e. A small file's AT-1 container takes 42 bytes
// (header, codec, backend byte, trailer) that a .xz file does not, while
// the xz stream inside it is smaller than xz's file only by its check
// (none against CRC64: 8 bytes; 4 with the CRC32 used until 2026-11-28).
// So a small text file that compresses only as well as xz -9e can end up
// a few bytes larger than xz -9e's file (39 of 300 small files from
// /usr/share, by 1 to 38 bytes, before this search, with CRC32).
//
// xz -9e's file size is known without running xz: the encoder's plain
// xz with its first literal model is liblzma's LZMA2 data byte for byte
// at the presets 6e to 9e (whose only difference, the dictionary size,
// does not matter below 8 MiB; TestLiblzmaParity), so xz -9e's file is
// that stream plus the 8 bytes of CRC64 (xzCRC64Extra). Up to
// xzExactTrialMax bytes the encoder makes that stream whenever it
// compresses the input plain or estimates the plain xz exactly (its
// model trial runs on the whole input); not when samples decide
// (xzSampled), which they do only for a structure far under it. Above,
// up to xzSearchMax, underXZ9eLarge makes it when the output is RAW.
// When the output would be larger than that, the RAW payload is searched
// further: three text literal models, each with shorter nice lengths and
// the default depth for them (xzSearchNice), one match-finder pass per
// nice length. On those 39 files the search brought 7 under xz -9e and
// made 8 others smaller (148 bytes in all over the 15; the other 24 keep
// a zstd or xz payload the search does not beat), for 1.40x their
// encode CPU (fresh
// processes, 3 alternating rounds; with all eight models of the
// whole-input trial, the same sizes for 1.78x); the other 261 files do
// not run it. 32 of the 300 stayed over xz -9e, by 1 to 38 bytes; 28
// since the xz streams carry no check (xzSearchMargin).
//
// Small slices of tables (the first 1, 2, 4, 8, 16, 32 and 64 KiB of 56
// CSV, TSV and JSON Lines files, cut at a line) go over xz -9e the same
// way when they end up RAW. Of those 392, 24 did (2 of them empty: 42
// bytes against xz's 32). Packing the layouts the estimates had pruned,
// and qcolumnar, brought 2 under (structured encodings 1% and 10%
// smaller than RAW) and made 1 other 5 bytes smaller, for 1.14x the
// encode CPU of the 22 over files (fresh processes, 3 alternating
// rounds); no other layout of the remaining 20 is smaller than RAW.
// internal/xz's multi-arrival parser (xzSearchArrivals) then brought 6
// more under (2026-12-02): 18 stay over, 16 by 2 to 22 bytes.

// xzSearchNice are the nice lengths underXZ9e tries (the extreme presets
// use 273 with a search depth of 512; on the 39 files each of these won
// somewhere, the depth for the nice length always did).
var xzSearchNice = []int{32, 48, 64, 96, 128}

// xzSearchModels are the literal models underXZ9e tries with each nice
// length: the text models with pb=0 (every file the search brought under
// xz -9e won with one of them).
var xzSearchModels = []xz.LiteralModel{{LC: 1}, {LC: 2}, {LC: 3}}

// xzSearchArrivals is how many arrivals per position the search's
// multi-arrival parse keeps (xz.WithArrivals): with liblzma's parser
// the search can only try other settings of the same parse. On the 22
// non-empty slices that were over xz -9e its streams are 0-1% smaller
// than the best of those (on 64 KiB slices of tables 2.3%); it brought 6
// of them under (24 of the 391 slices over, now 18, 2 of them empty),
// and emp.txt (372,690 bytes, RAW) from 82,434 to 80,946 bytes (0.999 to
// 0.981x xz -9e). It runs at the preset's nice length with the search's
// literal models and xz's own: with the 8 of xzModelsWhole the slices'
// sizes were the same for 1.13x the CPU; with the search's best model
// alone one more slice stayed over.
const xzSearchArrivals = 8

// xzSearchMax is the largest input underXZ9e searches (underXZ9eLarge
// above xzTrialMax). A file that large is over xz -9e only when it stays
// RAW, and then by about the container's 42 bytes or by a literal model
// chosen on pieces: a small gain is enough, and the layouts' estimates
// are reliable at that size, so only the RAW payload is searched. Of the
// 74 files of the vega, JSON Lines and corpus sets one was over (mysql's
// fixed-width emp.txt, 372,690 bytes: 82,530 against 82,496); nice 128
// with xz's own model (lc3 lp0 pb2) brings it under.
const xzSearchMax = 1 << 20

// xzSearchNiceLarge are the nice lengths underXZ9e tries above
// xzTrialMax.
var xzSearchNiceLarge = []int{64, 128}

// xzCRC64Extra is how much larger xz's default CRC64 check is than the
// check of the encoder's streams (none: xzCheck).
const xzCRC64Extra = 8

// xzSearchMargin: underXZ9e also searches when the output would be
// within this many bytes under xz -9e's file. These are the files it
// searched while the xz streams carried a CRC32 check (4 bytes): without
// the margin, dropping the check would have left 3 of the 300 small files
// 4 to 40 bytes larger than before (still under xz -9e), where the
// search used to go well below it.
const xzSearchMargin = 4

// underXZ9e returns a smaller body (structured, under codec, or a RAW
// payload: backend byte and data) when the whole-file container around
// body would be larger than xz -9e's file of src and the search finds
// one; else a nil body. It also searches when the output would be
// within xzSearchMargin of xz -9e's file. codec is chooseCodec's answer
// for src, structured says whether body is a stream set, and first is
// src compressed plain with xzTuned's first model (nil when it was not
// made).
//
// Up to xzTrialMax bytes the search has two parts. The structured one
// packs the layouts the encoder pruned by their zstd estimates (which at
// a few KiB can rank them wrongly) and under CodecAuto the qcolumnar
// layout too, whose fewer streams can win at these sizes; it is
// smallestLayout. The RAW one is smallestXZSearch. Above it, see
// underXZ9eLarge.
func (c *encoder) underXZ9e(src []byte, structured bool, codec Codec, body, first []byte) (bool, Codec, []byte, error) {
	if len(src) > xzSearchMax || len(src) < xzTrialMin || c.enc.level < 6 || !c.enc.xzExtreme() {
		return false, codec, nil, nil
	}
	// A structured codec the caller named (or kept: WithKeepCodec) stays
	// structured: the search does not trade it for RAW.
	keep := structured && (c.enc.codec != CodecAuto || c.enc.force)
	if len(src) > xzTrialMax {
		if keep {
			return false, codec, nil, nil
		}
		raw, err := c.underXZ9eLarge(src, structured, body, first)
		return false, codec, raw, err
	}
	if first == nil || !overXZ9e(body, first) {
		return false, codec, nil, nil
	}
	s, sc, err := c.smallestLayout(src, codec)
	if err != nil {
		return false, codec, nil, err
	}
	var raw []byte
	if !keep {
		if raw, err = c.smallestXZSearch(src, xzSearchNice, xzSearchModels); err != nil {
			return false, codec, nil, err
		}
	}
	switch {
	case s != nil && len(s) < len(body) && (raw == nil || len(s) < len(raw)):
		return true, sc, s, nil
	case raw != nil && len(raw) < len(body):
		return false, codec, raw, nil
	}
	return false, codec, nil, nil
}

// overXZ9e reports whether the whole-file container around body would
// be larger than xz -9e's file, or within xzSearchMargin under it; first
// is the input compressed with xzTuned's first model.
func overXZ9e(body, first []byte) bool {
	xz9e := len(first) + xzCRC64Extra
	return len(MagicWhole)+1+len(body)+TrailerSize > xz9e-xzSearchMargin
}

// underXZ9eLarge is underXZ9e's search for an input of more than
// xzTrialMax bytes: a smaller RAW payload, or nil. Above xzExactTrialMax
// the xz model was chosen on pieces of the input, and when that was not
// xz's own (xzModels[0]) the first-model stream, which gives xz -9e's
// size, was not made: for a RAW body it is made here (encodeUnit makes
// it for a structured one close to the plain xz: xzNearPlain), and kept
// when smaller. When the output is still over, the nice lengths
// xzSearchNiceLarge are tried with xzModels. TestEncodeUnderXZ9e's
// fixed-width records (328 KB, without token tables, which cut them
// into their runs far under xz -9e) need both: the pieces chose lc3 pb0,
// larger on the whole input than xz's model, and with xz's model the
// file is still over xz -9e (68,902 bytes unsearched, 68,274 after the
// search; xz -9e 68,460).
func (c *encoder) underXZ9eLarge(src []byte, structured bool, body, first []byte) ([]byte, error) {
	if first == nil && structured {
		return nil, nil
	}
	var best []byte
	if first == nil {
		var err error
		if first, err = xzFirst(src, c.enc.level, c.enc.xzExtreme()); err != nil {
			return nil, err
		}
	}
	if !overXZ9e(body, first) {
		return nil, nil
	}
	if 1+len(first) < len(body) {
		best = append([]byte{BackendXZ}, first...)
		body = best
		if !overXZ9e(body, first) {
			return best, nil
		}
	}
	raw, err := c.smallestXZSearch(src, xzSearchNiceLarge, xzModels)
	if err != nil || raw == nil || len(raw) >= len(body) {
		return best, err
	}
	return raw, nil
}

// smallestLayout is the smallest packed stream set of src that the
// encoder did not pack under codec: the layouts of codec its estimates
// pruned (those it packed are no smaller than its output) and, under
// CodecAuto, qcolumnar's (nil: none applies).
func (c *encoder) smallestLayout(src []byte, codec Codec) ([]byte, Codec, error) {
	if codec == CodecRaw {
		return nil, codec, nil
	}
	type try struct {
		codec Codec
		pick  layoutPick
	}
	tries := []try{{codec, pickPruned}}
	if c.enc.codec == CodecAuto {
		tries = append(tries, try{CodecQColumnar, pickAll})
	}
	var best []byte
	bestCodec := codec
	for _, t := range tries {
		b, cd, err := c.structuredBody(src, t.codec, t.pick)
		if err != nil {
			return nil, codec, err
		}
		if b != nil && (best == nil || len(b) < len(best)) {
			best, bestCodec = b, cd
		}
	}
	return best, bestCodec, nil
}

// smallestXZSearch is the smallest RAW payload (backend byte and data)
// of src over the nice lengths nices and the literal models.
func (c *encoder) smallestXZSearch(src []byte, nices []int, models []xz.LiteralModel) ([]byte, error) {
	var best []byte
	for _, nice := range nices {
		xs, err := xz.EncodeModels(src, models, xz.WithPreset(c.enc.level), xz.WithExtreme(true),
			xz.WithCheck(xzCheck), xz.WithMatchSearch(nice, 0))
		if err != nil {
			return nil, err
		}
		for _, x := range xs {
			if best == nil || len(x) < len(best) {
				best = x
			}
		}
	}
	// The multi-arrival parser, at the preset's nice length, with the
	// search's models and xz's own.
	mm := models
	if !slices.Contains(mm, xzModels[0]) {
		mm = append([]xz.LiteralModel{xzModels[0]}, mm...)
	}
	xs, err := xz.EncodeModels(src, mm, xz.WithPreset(c.enc.level), xz.WithExtreme(true),
		xz.WithCheck(xzCheck), xz.WithArrivals(xzSearchArrivals))
	if err != nil {
		return nil, err
	}
	for _, x := range xs {
		if best == nil || len(x) < len(best) {
			best = x
		}
	}
	if best == nil {
		return nil, nil
	}
	return append([]byte{BackendXZ}, best...), nil
}
