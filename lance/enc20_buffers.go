package lance

import (
	"bytes"
	"encoding/binary"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
)

// where tells which page of which column a decoder works on.
type where struct {
	col    *column
	pg     *page
	path   string
	budget *memBudget // nil: not charged (a check, not an allocation)
}

// memBudget is what one read may still allocate (WithMemoryLimit).
type memBudget struct {
	limit, used int64
}

// charge takes n bytes from the budget or fails with ErrTooLarge. A nil
// budget charges nothing.
func (b *memBudget) charge(n int64, path, what string) error {
	if b == nil {
		return nil
	}
	if n < 0 || n > b.limit-b.used {
		return errs.At(ErrTooLarge, -1, path, "%s of %d bytes exceeds the read's memory limit (%d of %d bytes already used; WithMemoryLimit)", what, n, b.used, b.limit)
	}
	b.used += n
	return nil
}

// buffer resolves a Buffer reference (page, column or file) and reads it.
func (f *File) buffer(w *where, b *encpb.Buffer) ([]byte, int64, error) {
	if b == nil {
		return nil, -1, errs.At(ErrProto, -1, w.path, "Flat without a buffer")
	}
	var list []bufRange
	switch b.BufferType {
	case encpb.Buffer_page:
		list = w.pg.buffers
	case encpb.Buffer_column:
		list = w.col.buffers
	case encpb.Buffer_file:
		list = f.globals
	default:
		return nil, -1, errs.At(ErrUnsupported, -1, w.path, "buffer type %d", b.BufferType)
	}
	if int(b.BufferIndex) >= len(list) {
		return nil, -1, errs.At(ErrCorrupt, -1, w.path, "%s buffer %d of %d", b.BufferType, b.BufferIndex, len(list))
	}
	r := list[b.BufferIndex]
	if r.size > f.cfg.maxBuffer {
		return nil, r.off, errs.TooLarge(ErrTooLarge, r.off, w.path, "buffer", uint64(r.size), f.cfg.maxBuffer)
	}
	buf := make([]byte, r.size)
	if err := f.readAt(buf, r.off, w.path); err != nil {
		return nil, r.off, err
	}
	return buf, r.off, nil
}

var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// decompress undoes Flat.compression on a whole buffer. zstd comes in two
// framings (notes §6): a raw stream of frames (0.14+) or, from 0.31.1, a
// u64 LE uncompressed length then a frame. The test mirrors lance's: short
// buffers and a zstd magic whose descriptor byte has bit 0x10 clear are raw.
func (f *File) decompress(scheme string, src []byte, off int64, path string) ([]byte, error) {
	switch scheme {
	case "", "none":
		return src, nil
	case "zstd":
		if len(src) == 0 {
			return src, nil
		}
		raw := len(src) < 8 || (bytes.Equal(src[:4], zstdMagic) && src[4]&0x10 == 0)
		if !raw {
			n := binary.LittleEndian.Uint64(src)
			size, err := errs.CheckSize(n, -1, f.cfg.maxBuffer, ErrTooLarge, ErrCorrupt, off, path, "zstd uncompressed length")
			if err != nil {
				return nil, err
			}
			out, err := f.zstdDecode(make([]byte, 0, size), src[8:], true)
			if err != nil {
				return nil, errs.At(ErrCorrupt, off+8, path, "zstd: %v", err)
			}
			if len(out) != size {
				return nil, errs.At(ErrCorrupt, off, path, "zstd gave %d bytes, the prefix says %d", len(out), size)
			}
			return out, nil
		}
		out, err := f.zstdDecode(nil, src, false)
		if err != nil {
			return nil, errs.At(ErrCorrupt, off, path, "zstd: %v", err)
		}
		return out, nil
	case "lz4":
		if len(src) < 4 {
			return nil, errs.At(ErrCorrupt, off, path, "lz4 buffer of %d bytes has no size prefix", len(src))
		}
		n := binary.LittleEndian.Uint32(src)
		size, err := errs.CheckSize(uint64(n), -1, f.cfg.maxBuffer, ErrTooLarge, ErrCorrupt, off, path, "lz4 uncompressed length")
		if err != nil {
			return nil, err
		}
		out := make([]byte, size)
		m, err := lz4.UncompressBlock(src[4:], out)
		if err != nil || m != size {
			return nil, errs.At(ErrCorrupt, off+4, path, "lz4 block: %d of %d bytes, %v", m, size, err)
		}
		return out, nil
	}
	return nil, errs.At(ErrUnsupported, off, path, "compression scheme %q", scheme)
}

// zstdDecoders are made once per File, for DecodeAll only (no
// goroutines); exact ones cap the output at cap(dst).
type zstdDecoders struct {
	once         sync.Once
	exact, bound *zstd.Decoder
	err          error
}

// zstdDecode decodes all frames in src; with exact, the output may not
// grow past cap(dst). Output is limited to the buffer limit either way.
func (f *File) zstdDecode(dst, src []byte, exact bool) ([]byte, error) {
	z := &f.zstd
	z.once.Do(func() {
		opts := []zstd.DOption{zstd.WithDecoderConcurrency(2), zstd.WithDecoderMaxMemory(uint64(f.cfg.maxBuffer)), zstd.WithDecoderLowmem(true)}
		if z.bound, z.err = zstd.NewReader(nil, opts...); z.err != nil {
			return
		}
		z.exact, z.err = zstd.NewReader(nil, append(opts, zstd.WithDecodeAllCapLimit(true))...)
	})
	if z.err != nil {
		return nil, z.err
	}
	d := z.bound
	if exact {
		d = z.exact
	} else {
		dst = make([]byte, 0, min(int64(len(src))*4, f.cfg.maxBuffer))
	}
	return d.DecodeAll(src, dst)
}
