package at1

import (
	"slices"
	"sync"
)

// decoder is one decoding call: the limits and policies of its options
// (a copy, so that a call can narrow them for its parts, as parallel
// frames do with concurrency), the decoding methods and, for the calls
// that decode frame after frame, the call's scratch. Decode, DecodeTo,
// Open's File and NewReader each make one from their options; the
// encoder makes one to verify its output.
//
// scratch, when not nil, is a free list of the stream output buffers
// (xz and zstd outputs) of frames already done: a frame's stream set
// takes its buffers from it and gives them back (streamSet.release)
// once the frame's output has been appended to dst or written out, so a
// file of many frames decodes into the same pages instead of fresh ones.
// The serial frames loop of Decode (decodeFrames), File.Validate and a
// Reader (its frame loop and the goroutine that decodes the next frame's
// streams ahead, hence the mutex) set it; other calls leave it nil.
// Limits are unchanged by it: streams are still charged and capped by
// their declared sizes, never by a buffer's capacity.
type decoder struct {
	config
	scratch *scratch
}

// decoder returns a decoding call with c's options.
func (c *config) decoder() *decoder { return &decoder{config: *c} }

// withScratch returns a copy of dc with a fresh scratch, for a loop over
// frames: the free list lives as long as that call, not as the File.
func (dc *decoder) withScratch() *decoder {
	d := *dc
	d.scratch = &scratch{}
	return &d
}

// scratch is a call's free list of stream output buffers.
type scratch struct {
	mu   sync.Mutex
	free [][]byte // sorted by capacity, at most scratchKeep
}

const (
	// scratchKeep bounds the free list (a columnar frame has 11
	// streams; a Reader holds two frames' at once).
	scratchKeep = 24
	// scratchMin: smaller outputs are left to the allocator (they share
	// pages with other small objects and cost no fault of their own).
	scratchMin = 4 << 10
)

// get returns the smallest free buffer of capacity at least n, emptied,
// or nil when there is none. The caller caps it at n for the decoder (so
// nothing is written past the declared size) and gives back the whole.
func (s *scratch) get(n int) []byte {
	if s == nil || n < scratchMin {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, _ := slices.BinarySearchFunc(s.free, n, func(b []byte, n int) int { return cap(b) - n })
	if i == len(s.free) {
		return nil
	}
	b := s.free[i]
	s.free = slices.Delete(s.free, i, i+1)
	return b
}

// put gives buffers back. The caller guarantees nothing refers to them
// any more; when the list is full the smallest are dropped.
func (s *scratch) put(bufs [][]byte) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range bufs {
		if cap(b) < scratchMin {
			continue
		}
		b = b[:0:cap(b)]
		i, _ := slices.BinarySearchFunc(s.free, cap(b), func(b []byte, n int) int { return cap(b) - n })
		s.free = slices.Insert(s.free, i, b)
		if len(s.free) > scratchKeep {
			s.free = slices.Delete(s.free, 0, 1)
		}
	}
}
