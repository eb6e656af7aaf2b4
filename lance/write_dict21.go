package lance

// Dictionary pages (notes §6.5): a variable-width page of few distinct
// values becomes u32 indices (FastLanes bit-packed, 1,024 per chunk) and a
// dictionary block of the distinct values in first-seen order — in 2.2
// LZ4-compressed as lance 12 writes it. It is kept when it is at most 80%
// of the plain page, lance's own rule.

import (
	"encoding/binary"

	"github.com/pierrec/lz4/v4"

	"github.com/colfmt/colfmt/lance/internal/enc21pb"
)

const (
	dictMinValues = 100
	dictMaxItems  = 100000
)

// dictPage tries the dictionary form of the buffered page; nil when it
// does not pay. Variable-width pages, and in 2.2 pages of 64-bit values
// (int64, float64, timestamps ...: items flat{64}) as lance 12 writes them.
func (c *leaf21) dictPage(nw narrowed) (*page21, error) {
	p := &c.pg
	if p.nVis < dictMinValues {
		return nil, nil
	}
	fixed64 := c.kind == vFixed && c.width == 8 && c.w.cfg.write.minor >= 2
	if !fixed64 && (c.kind != vVar || p.offs64 != nil) {
		return nil, nil
	}
	limit := min(p.nVis/2, dictMaxItems)
	ids := make(map[string]uint32, 64)
	idx := make([]byte, 4*p.nVis)
	var items []byte
	var ends []uint32
	start := 0
	for v := 0; v < p.nVis; v++ {
		var s []byte
		if fixed64 {
			s = p.fixed[8*v : 8*v+8]
		} else {
			end := int(p.offs[v])
			s = p.data[start:end]
			start = end
		}
		id, ok := ids[string(s)]
		if !ok {
			if len(ids) >= limit {
				return nil, nil
			}
			id = uint32(len(ids))
			ids[string(s)] = id
			items = append(items, s...)
			ends = append(ends, uint32(len(items)))
		}
		binary.LittleEndian.PutUint32(idx[4*v:], id)
	}
	k := len(ends)
	var block []byte
	var dictEnc *enc21pb.CompressiveEncoding
	plain := len(p.data) + 4*p.nVis
	if fixed64 {
		block, dictEnc = items, ceFlat(64)
		plain = len(p.fixed)
		if c.bitpackPays() {
			plain = c.bitpackedBytes()
		}
	} else {
		block = make([]byte, 0, 8+4*(k+1)+len(items))
		block = binary.LittleEndian.AppendUint32(block, 32)
		block = binary.LittleEndian.AppendUint32(block, uint32(8+4*(k+1)))
		block = binary.LittleEndian.AppendUint32(block, 0)
		for _, e := range ends {
			block = binary.LittleEndian.AppendUint32(block, e)
		}
		block = append(block, items...)
		dictEnc = ceVariable(32)
	}
	if c.w.cfg.write.minor >= 2 {
		if z := lz4Block(block); z != nil {
			block = z
			dictEnc = &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_General{General: &enc21pb.General{
				Compression: &enc21pb.BufferCompression{Scheme: enc21pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4}, Values: dictEnc}}}
		}
	}
	packed := 0
	for v := 0; v < p.nVis; v += 1024 {
		packed += 4 + 128*orWidth(idx[4*v:], min(1024, p.nVis-v), 32)
	}
	if (len(block)+packed)*10 > plain*8 {
		return nil, nil
	}
	// Encode the indices as a bit-packed u32 page, then add the dictionary.
	kind, width, fixed := c.kind, c.width, p.fixed
	c.kind, c.width, p.fixed = vFixed, 4, idx
	pg, err := c.miniBlockWith(nw, true)
	c.kind, c.width, p.fixed = kind, width, fixed
	if err != nil || pg == nil {
		return nil, err
	}
	m := pg.layout.GetMiniBlockLayout()
	m.Dictionary = dictEnc
	m.NumDictionaryItems = uint64(k)
	pg.bufs = append(pg.bufs[:2], append([][]byte{block}, pg.bufs[2:]...)...)
	return pg, nil
}

// lz4Block compresses b as lance's LZ4 framing: u32 LE size, then one LZ4
// block. nil when LZ4 does not shrink it.
func lz4Block(b []byte) []byte {
	out := make([]byte, 4+lz4.CompressBlockBound(len(b)))
	binary.LittleEndian.PutUint32(out, uint32(len(b)))
	n, err := lz4.CompressBlock(b, out[4:], nil)
	if err != nil || n == 0 || 4+n >= len(b) {
		return nil
	}
	return out[:4+n]
}
