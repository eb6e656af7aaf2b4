package at1

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"sync"

	"github.com/colfmt/colfmt/internal/errs"
)

// Streaming decode: DecodeTo and Reader.WriteTo write the original to an
// io.Writer in chunks of about streamChunk bytes as columnar rows are
// assembled, instead of building the whole output first. The output is
// the largest single allocation of a whole-file decode, and every fresh
// page of it costs a page fault; a reused chunk costs none after the
// first. The integrity trailer is checked after the last byte has been
// written: on a mismatch the error (ErrChecksum) is returned, but the
// writer has already received the unverified bytes, as with xz -dc on a
// bad check. Decode and AppendDecode still verify before they return.

// streamChunk is the size at which a chunkWriter passes its buffer on.
const streamChunk = 256 << 10

// streamRows is how many rows are assembled between checks of the buffer.
const streamRows = 1024

// chunkBufs holds chunk buffers (and raw/scratch outputs) between
// streams, so a process decoding many files or frames reuses their pages.
var chunkBufs = sync.Pool{New: func() any { b := make([]byte, 0, streamChunk+streamChunk/4); return &b }}

// chunkWriter buffers decoded bytes for w, hashing them for the trailer
// and counting them against limit.
type chunkWriter struct {
	w       io.Writer
	buf     []byte // bytes not yet written to w (hashed when written)
	scratch []byte // whole outputs of non-streaming codecs, reused
	sum     hash.Hash
	n       int64 // bytes passed to w (and sum)
	limit   int64 // the most bytes n may reach
}

func newChunkWriter(w io.Writer, sum hash.Hash, limit int64) *chunkWriter {
	return &chunkWriter{w: w, buf: (*chunkBufs.Get().(*[]byte))[:0], sum: sum, limit: limit}
}

// release returns the buffers to the pool; cw must not be used after.
func (cw *chunkWriter) release() {
	for _, b := range [][]byte{cw.buf, cw.scratch} {
		if cap(b) >= streamChunk && cap(b) <= 4*streamChunk {
			b = b[:0]
			chunkBufs.Put(&b)
		}
	}
	cw.buf, cw.scratch = nil, nil
}

// flush writes the buffered bytes.
func (cw *chunkWriter) flush() error {
	if len(cw.buf) == 0 {
		return nil
	}
	err := cw.emit(cw.buf)
	cw.buf = cw.buf[:0]
	return err
}

// write writes p after the buffered bytes.
func (cw *chunkWriter) write(p []byte) error {
	if err := cw.flush(); err != nil {
		return err
	}
	return cw.emit(p)
}

// emit hashes p and writes it to w.
func (cw *chunkWriter) emit(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if int64(len(p)) > cw.limit-cw.n {
		return errs.At(ErrTooLarge, -1, "", "decoded output exceeds the limit of %d bytes", cw.limit)
	}
	cw.sum.Write(p)
	k, err := cw.w.Write(p)
	cw.n += int64(k)
	if err == nil && k < len(p) {
		err = io.ErrShortWrite
	}
	return err
}

// streamRows writes the rows of a columnar stream set to cw in chunks.
// Like assembleRows, it validates the whole row structure (planRows)
// before it writes the first byte, so a damaged structure writes nothing.
func (dc *decoder) streamRows(cw *chunkWriter, rows *columnarRows, limit int64) error {
	if dc.safe && assembleRowsChecked != nil {
		out, err := assembleRowsChecked(dc, cw.scratch[:0], rows, limit)
		if err != nil {
			return err
		}
		cw.scratch = out
		return cw.write(out)
	}
	size, err := dc.planRows(rows)
	if err != nil {
		return err
	}
	m := rows.m
	if size > limit || size > cw.limit-cw.n-int64(len(cw.buf)) {
		return errs.At(ErrTooLarge, -1, "", "decoded output of %d bytes exceeds the limit of %d bytes", size, dc.maxDecoded)
	}
	start := cw.n + int64(len(cw.buf))
	flush := cw.flush
	var em *emitter
	if dc.concurrency > 1 && size >= asyncMin {
		// The hash and the writes overlap the next chunk's rows.
		em = cw.async()
		defer em.stop() // on an early return
		flush = em.flush
	}
	if m.hasHeader {
		cw.buf = append(cw.buf, rows.header...)
	}
	at := rowCursor{next: make([]int, len(rows.cols))}
	for r := 0; r < m.nrows; {
		r1 := min(m.nrows, r+streamRows)
		cw.buf = rows.write(cw.buf, r, r1, &at)
		r = r1
		if len(cw.buf) >= streamChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if m.trailing {
		cw.buf = append(cw.buf, '\n')
	}
	if em != nil {
		if err := em.stop(); err != nil {
			return err
		}
	}
	if got := cw.n + int64(len(cw.buf)) - start; got != size {
		// planRows and write disagree: a bug, never an input problem.
		return fmt.Errorf("at1: internal error: planned %d output bytes, wrote %d", size, got)
	}
	return nil
}

// DecodeTo decodes a whole AT-1 file (whole-file or framed) and writes
// the original to w in chunks, holding the decoded streams and about
// 256 KiB of output rather than the whole output (columnar files; the
// other codecs still build one frame's output before writing it). It
// returns the number of bytes written. If the file carries an integrity
// trailer, it is checked after the last byte: a mismatch returns
// ErrChecksum, but w has by then received the unverified bytes. Use
// Decode when nothing may be written before verification.
func DecodeTo(w io.Writer, src []byte, opts ...Option) (int64, error) {
	c, err := newConfig(opts)
	if err != nil {
		return 0, err
	}
	if w == nil {
		return 0, invalidArg("DecodeTo: nil writer")
	}
	dc := c.decoder()
	s := memSource(src, 0)
	p, err := dc.parse(s)
	if err != nil {
		return 0, err
	}
	cw := newChunkWriter(w, sha256.New(), dc.maxDecoded)
	defer cw.release()
	err = dc.decodePlanTo(cw, s, p)
	return cw.n, err
}

// decodePlanTo is decodePlan writing to cw (whose hash must be fresh);
// it flushes cw and checks the trailer.
func (dc *decoder) decodePlanTo(cw *chunkWriter, src *source, p *plan) error {
	var err error
	switch {
	case p.Framed:
		for i, fr := range p.Frames {
			if _, err = dc.decodeFrame(nil, src, p.Codec, fr, i, cw.limit-cw.n-int64(len(cw.buf)), cw); err != nil {
				break
			}
		}
	case p.Codec == CodecRaw:
		var out []byte
		if out, err = dc.decodeRaw(cw.scratch[:0], src, p.RawBackend, p.rawData, p.end, cw.limit, "raw"); err == nil {
			cw.scratch = out
			err = cw.write(out)
		}
	case !p.Codec.Supported():
		err = unsupportedCodec(p.Codec)
	default:
		var ss *streamSet
		if ss, err = dc.streamSetOf(src, p.Streams); err == nil {
			_, err = dc.reconstruct(nil, p.Codec, ss, cw.limit, cw)
		}
	}
	if err == nil {
		err = cw.flush()
	}
	if err != nil {
		return err
	}
	if p.Trailer != nil && !bytes.Equal(cw.sum.Sum(nil), p.Trailer) {
		return errs.At(ErrChecksum, p.end, "trailer", "decoded bytes do not match the embedded SHA-256")
	}
	return nil
}
