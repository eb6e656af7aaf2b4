package lance

// Encoding one buffered 2.1/2.2 page (notes §6–§8): the layers are
// narrowed to the page's data, then the page becomes a constant all-null
// page, a mini-block page (values < 256 bytes) or a full-zip page (larger
// values, or levels too dense for mini-block chunks).

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/enc21pb"
	"github.com/colfmt/colfmt/lance/internal/pb/file2pb"
)

const pageLayoutURL = "/lance.encodings21.PageLayout"

// Mini-block chunk limits: lance's chunks hold at most 4,096 values and
// about 8 KiB of values; 2.1 chunk sizes must fit 12 bits of 8-byte words.
const (
	miniMaxValues     = 4096
	miniTargetBytes   = 8 << 10
	miniVarTarget     = 4 << 10
	miniMaxChunkBytes = 32 << 10
	miniMaxLevels     = 8192
	fullZipMinBytes   = 256
)

// encoded page, ready to write.
type page21 struct {
	bufs   [][]byte
	layout *enc21pb.PageLayout
}

// narrowed holds the page's own layers and renumbered def levels.
type narrowed struct {
	layers    []enc21pb.RepDefLayer
	def       []uint16 // nil when every entry is valid at every layer
	maxDef    uint16
	maxVisDef uint16
}

func (c *leaf21) narrow() narrowed {
	p := &c.pg
	var nw narrowed
	nw.layers = make([]enc21pb.RepDefLayer, c.nl)
	fullMax := uint16(0)
	for j := 0; j < c.nl; j++ {
		if c.emptyCode[j] > fullMax {
			fullMax = c.emptyCode[j]
		}
		if c.nullCode[j] > fullMax {
			fullMax = c.nullCode[j]
		}
	}
	remap := make([]uint16, int(fullMax)+1)
	code := uint16(1)
	firstList := true
	nw.maxVisDef = 0
	visSet := false
	for j := 0; j < c.nl; j++ {
		isList := c.steps[c.nl-1-j].kind == stepList
		if isList && firstList {
			nw.maxVisDef = code - 1
			visSet = true
			firstList = false
		}
		if !isList {
			if p.layerNull[j] {
				nw.layers[j] = enc21pb.RepDefLayer_REPDEF_NULLABLE_ITEM
				remap[c.nullCode[j]] = code
				code++
			} else {
				nw.layers[j] = enc21pb.RepDefLayer_REPDEF_ALL_VALID_ITEM
			}
			continue
		}
		switch n, e := p.layerNull[j], p.layerEmpty[j]; {
		case n && e:
			nw.layers[j] = enc21pb.RepDefLayer_REPDEF_NULL_AND_EMPTY_LIST
			remap[c.nullCode[j]], remap[c.emptyCode[j]] = code, code+1
			code += 2
		case n:
			nw.layers[j] = enc21pb.RepDefLayer_REPDEF_NULLABLE_LIST
			remap[c.nullCode[j]] = code
			code++
		case e:
			nw.layers[j] = enc21pb.RepDefLayer_REPDEF_EMPTYABLE_LIST
			remap[c.emptyCode[j]] = code
			code++
		default:
			nw.layers[j] = enc21pb.RepDefLayer_REPDEF_ALL_VALID_LIST
		}
	}
	if !visSet {
		nw.maxVisDef = code - 1
	}
	nw.maxDef = code - 1
	if nw.maxDef > 0 && p.def != nil {
		nw.def = make([]uint16, len(p.def))
		for i, d := range p.def {
			nw.def[i] = remap[d]
		}
	}
	return nw
}

// flush encodes and writes the buffered page and starts a new one.
func (c *leaf21) flush() error {
	p := &c.pg
	if p.rows == 0 && c.rowStart > 0 {
		return nil
	}
	nw := c.narrow()
	var pg *page21
	var err error
	switch {
	case p.nVis == p.nNull:
		pg = c.allNull(nw)
	case c.constantPays():
		pg = c.constant(nw)
	case c.large():
		pg, err = c.withFsst(func() (*page21, error) { return c.fullZip(nw) })
	default:
		pg, err = c.miniBlock(nw)
		if err == errTooDense {
			pg, err = c.withFsst(func() (*page21, error) { return c.fullZip(nw) })
		}
	}
	if err != nil {
		return err
	}
	enc, err := directEncoding(pageLayoutURL, pg.layout)
	if err != nil {
		return err
	}
	meta, err := c.w.putPage(pg.bufs, uint64(p.rows), enc)
	if err != nil {
		return err
	}
	meta.Priority = uint64(c.rowStart)
	c.rowStart += p.rows
	c.meta21().Pages = append(c.meta21().Pages, meta)
	c.reset()
	return nil
}

func (c *leaf21) reset() {
	p := &c.pg
	ln, le, fv, fnull := p.layerNull, p.layerEmpty, p.fslValid, p.fslNull
	clear(ln)
	clear(le)
	for i := range fv {
		fv[i] = fv[i][:0]
	}
	clear(fnull)
	*p = pageBuf{layerNull: ln, layerEmpty: le, fslValid: fv, fslNull: fnull,
		rep: p.rep[:0], fixed: p.fixed[:0], bits: p.bits[:0], data: p.data[:0], offs: p.offs[:0]}
	if c.maxRep == 0 {
		p.rep = nil
	}
}

// large: values of 256 bytes or more go full-zip, as lance writes them.
func (c *leaf21) large() bool {
	switch c.kind {
	case vFixed, vFSL:
		return c.valueBytes() >= fullZipMinBytes
	case vVar:
		return c.pg.maxLen >= fullZipMinBytes
	}
	return false
}

// valueBytes is the per-value size of a fixed-width value in full-zip
// (FSL item validity included).
func (c *leaf21) valueBytes() int {
	n := c.width
	if c.kind == vFSL {
		cum := 1
		for l, d := range c.dims {
			cum *= d
			if c.pg.fslNull[l] {
				n += (cum + 7) / 8
			}
		}
	}
	return n
}

func u16Bytes(v []uint16) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return b
}

// allNull: a constant layout without values. A top-level leaf whose page
// is all null is the simple form (no buffers); otherwise the levels are
// kept as raw u16 buffers (rep, def; empty when absent).
func (c *leaf21) allNull(nw narrowed) *page21 {
	cl := &enc21pb.ConstantLayout{Layers: nw.layers}
	pg := &page21{layout: &enc21pb.PageLayout{Layout: &enc21pb.PageLayout_ConstantLayout{ConstantLayout: cl}}}
	if c.nl == 1 && c.maxRep == 0 {
		cl.Layers = []enc21pb.RepDefLayer{enc21pb.RepDefLayer_REPDEF_NULLABLE_ITEM}
		return pg
	}
	var rep, def []byte
	if c.maxRep > 0 {
		rep = u16Bytes(c.pg.rep)
	}
	if nw.def != nil {
		def = u16Bytes(nw.def)
	}
	pg.bufs = [][]byte{rep, def}
	return pg
}

// Compressive encoding constructors.

func ceFlat(bits uint64) *enc21pb.CompressiveEncoding {
	return &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_Flat{Flat: &enc21pb.Flat{BitsPerValue: bits}}}
}

func ceVariable(offBits uint64) *enc21pb.CompressiveEncoding {
	return &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_Variable{Variable: &enc21pb.Variable{Offsets: ceFlat(offBits)}}}
}

// ceFSL builds nested FixedSizeList encodings around inner, with item
// validity per level where the page has a null item.
func (c *leaf21) ceFSL(inner *enc21pb.CompressiveEncoding) *enc21pb.CompressiveEncoding {
	e := inner
	for l := len(c.dims) - 1; l >= 0; l-- {
		e = &enc21pb.CompressiveEncoding{Compression: &enc21pb.CompressiveEncoding_FixedSizeList{FixedSizeList: &enc21pb.FixedSizeList{
			ItemsPerValue: uint64(c.dims[l]), Values: e, HasValidity: c.pg.fslNull[l]}}}
	}
	return e
}

func levelBits(v uint64) uint32 { return uint32(bits.Len64(v)) }

// fullZip: every entry is a control word followed, for visible entries, by
// the value (fixed width) or, for valid entries, a u32 length and the
// bytes (variable width). Buffer 1 is the repetition index: the start of
// every row in buffer 0, and the end.
func (c *leaf21) fullZip(nw narrowed) (*page21, error) {
	p := &c.pg
	bitsRep := levelBits(uint64(c.maxRep))
	bitsDef := uint32(0)
	if nw.def != nil {
		bitsDef = levelBits(uint64(nw.maxDef))
	}
	cw := 0
	switch b := bitsRep + bitsDef; {
	case b == 0:
	case b <= 8:
		cw = 1
	case b <= 16:
		cw = 2
	default:
		cw = 4
	}
	z := &enc21pb.FullZipLayout{BitsRep: bitsRep, BitsDef: bitsDef, NumItems: uint32(p.entries), NumVisibleItems: uint32(p.nVis), Layers: nw.layers}
	var vb int
	switch c.kind {
	case vVar:
		z.Details = &enc21pb.FullZipLayout_BitsPerOffset{BitsPerOffset: 32}
		z.ValueCompression = ceVariable(32)
		if c.fsst != nil {
			z.ValueCompression = c.ceFsst()
		}
		if p.offs64 != nil {
			return nil, errs.Wrap(ErrUnsupported, "field %s: a page of more than 4 GiB of values", errs.Quote(c.path))
		}
	case vBool:
		return nil, errs.Wrap(ErrUnsupported, "field %s: boolean full-zip page", errs.Quote(c.path))
	default:
		vb = c.valueBytes()
		z.Details = &enc21pb.FullZipLayout_BitsPerValue{BitsPerValue: uint32(8 * vb)}
		if c.kind == vFSL {
			z.ValueCompression = c.ceFSL(ceFlat(uint64(8 * c.itemW)))
		} else {
			z.ValueCompression = ceFlat(uint64(8 * c.width))
		}
	}
	size := p.entries * cw
	if c.kind == vVar {
		size += 4*(p.nVis-p.nNull) + len(p.data)
	} else {
		size += p.nVis * vb
	}
	out := make([]byte, 0, size)
	needIdx := c.kind == vVar || c.maxRep > 0
	var rowStarts []uint64
	if needIdx {
		rowStarts = make([]uint64, 0, p.rows+1)
	}
	v := 0
	prevEnd := uint32(0)
	for k := 0; k < p.entries; k++ {
		var rep, def uint16
		if p.rep != nil {
			rep = p.rep[k]
		}
		if nw.def != nil {
			def = nw.def[k]
		}
		if needIdx && (c.maxRep == 0 || rep == c.maxRep) {
			rowStarts = append(rowStarts, uint64(len(out)))
		}
		word := uint32(rep)<<bitsDef | uint32(def)
		switch cw {
		case 1:
			out = append(out, byte(word))
		case 2:
			out = binary.LittleEndian.AppendUint16(out, uint16(word))
		case 4:
			out = binary.LittleEndian.AppendUint32(out, word)
		}
		if def > nw.maxVisDef {
			continue
		}
		switch c.kind {
		case vVar:
			end := p.offs[v]
			if def == 0 {
				out = binary.LittleEndian.AppendUint32(out, end-prevEnd)
				out = append(out, p.data[prevEnd:end]...)
			}
			prevEnd = end
		case vFSL:
			cum := 1
			for l, d := range c.dims {
				cum *= d
				if p.fslNull[l] {
					nb := (cum + 7) / 8
					at := len(out)
					out = append(out, make([]byte, nb)...)
					for i := 0; i < cum; i++ {
						bit := v*cum + i
						if p.fslValid[l][bit/8]&(1<<(bit%8)) != 0 {
							out[at+i/8] |= 1 << (i % 8)
						}
					}
				}
			}
			out = append(out, p.fixed[v*c.width:(v+1)*c.width]...)
		default:
			out = append(out, p.fixed[v*c.width:(v+1)*c.width]...)
		}
		v++
	}
	bufs := [][]byte{out}
	if needIdx {
		rowStarts = append(rowStarts, uint64(len(out)))
		bufs = append(bufs, packUints(rowStarts))
	}
	return &page21{bufs: bufs, layout: &enc21pb.PageLayout{Layout: &enc21pb.PageLayout_FullZipLayout{FullZipLayout: z}}}, nil
}

// packUints stores vs in the narrowest of 1, 2, 4 or 8 bytes each.
func packUints(vs []uint64) []byte {
	var m uint64
	for _, v := range vs {
		m |= v
	}
	w := 8
	switch {
	case m <= 0xff:
		w = 1
	case m <= 0xffff:
		w = 2
	case m <= 0xffffffff:
		w = 4
	}
	b := make([]byte, w*len(vs))
	for i, v := range vs {
		switch w {
		case 1:
			b[i] = byte(v)
		case 2:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
		case 4:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
		default:
			binary.LittleEndian.PutUint64(b[8*i:], v)
		}
	}
	return b
}

// meta21 returns the column's metadata, created on first use.
func (c *leaf21) meta21() *file2pb.ColumnMetadata {
	if c.cm == nil {
		c.cm = &file2pb.ColumnMetadata{}
	}
	return c.cm
}

func (c *leaf21) meta() *file2pb.ColumnMetadata {
	m := c.meta21()
	if m.Encoding == nil {
		m.Encoding, _ = directEncoding("/lance.encodings.ColumnEncoding", columnEncodingValues())
	}
	return m
}

// constantPays: a 2.2 page of fixed-width or boolean values that are all
// equal (null slots included) becomes a constant page with the value
// inline, as lance 12 writes constant columns.
func (c *leaf21) constantPays() bool {
	p := &c.pg
	if c.w.cfg.write.minor < 2 || p.nVis == 0 {
		return false
	}
	switch c.kind {
	case vFixed:
		if c.width > 32 {
			return false
		}
		first := p.fixed[:c.width]
		for v := 1; v < p.nVis; v++ {
			if !bytes.Equal(p.fixed[v*c.width:(v+1)*c.width], first) {
				return false
			}
		}
		return true
	case vBool:
		want := p.bits[0]&1 != 0
		for v := 1; v < p.nVis; v++ {
			if (p.bits[v/8]&(1<<(v%8)) != 0) != want {
				return false
			}
		}
		return true
	}
	return false
}

func (c *leaf21) constant(nw narrowed) *page21 {
	p := &c.pg
	var v []byte
	if c.kind == vBool {
		v = []byte{p.bits[0] & 1}
	} else {
		v = append([]byte(nil), p.fixed[:c.width]...)
	}
	cl := &enc21pb.ConstantLayout{Layers: nw.layers, InlineValue: v}
	pg := &page21{layout: &enc21pb.PageLayout{Layout: &enc21pb.PageLayout_ConstantLayout{ConstantLayout: cl}}}
	if p.rep != nil || nw.def != nil {
		var rep, def []byte
		if p.rep != nil {
			rep = u16Bytes(p.rep)
		}
		if nw.def != nil {
			def = u16Bytes(nw.def)
		}
		pg.bufs = [][]byte{rep, def}
	}
	return pg
}
