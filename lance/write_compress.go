package lance

// General compression for WithCompression: LZ4 (u32 LE size + one LZ4
// block) and zstd (2.1/2.2: u64 LE size + one frame; 2.0: a bare frame
// carrying its content size, which every 2.0 reader accepts).

import (
	"encoding/binary"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/colfmt/colfmt/lance/internal/enc21pb"
)

type compressor struct {
	scheme string
	zenc   *zstd.Encoder
}

func (w *Writer) compressor() *compressor {
	if w.comp == nil {
		w.comp = &compressor{scheme: w.cfg.write.compression}
		if w.comp.scheme == "zstd" {
			w.comp.zenc, _ = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
		}
	}
	return w.comp
}

// frame compresses b with the 2.1/2.2 framing.
func (c *compressor) frame(b []byte) []byte {
	if c.scheme == "lz4" {
		out := make([]byte, 4+lz4.CompressBlockBound(len(b)))
		binary.LittleEndian.PutUint32(out, uint32(len(b)))
		n, _ := lz4.CompressBlock(b, out[4:], nil)
		if n == 0 && len(b) > 0 {
			// Incompressible: a block of one literal run.
			return append(out[:4], lz4Literals(b)...)
		}
		return out[:4+n]
	}
	out := binary.LittleEndian.AppendUint64(make([]byte, 0, 8+len(b)/2), uint64(len(b)))
	return c.zenc.EncodeAll(b, out)
}

// lz4Literals is an LZ4 block holding b as one literal run.
func lz4Literals(b []byte) []byte {
	n := len(b)
	var out []byte
	if n < 15 {
		out = append(out, byte(n<<4))
	} else {
		out = append(out, 0xf0)
		r := n - 15
		for r >= 255 {
			out = append(out, 255)
			r -= 255
		}
		out = append(out, byte(r))
	}
	return append(out, b...)
}

// raw20 compresses a 2.0 buffer: zstd as a bare frame, lz4 as in 2.1.
func (c *compressor) raw20(b []byte) []byte {
	if c.scheme == "zstd" {
		return c.zenc.EncodeAll(b, nil)
	}
	return c.frame(b)
}

func (c *compressor) ceGeneral(inner *enc21pb.CompressiveEncoding) *enc21pb.CompressiveEncoding {
	s := enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4
	if c.scheme == "zstd" {
		s = enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD
	}
	return &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_General{General: &enc21pb.General{
		Compression: &enc21pb.BufferCompression{Scheme: s}, Values: inner}}}
}
