package lance

// The plan of a Lance 2.1/2.2 file: Open parses every page's
// lance.encodings21.PageLayout once, checks it against the grammar of the
// file's version and compiles its compressive encodings into cnode trees
// (plan21_compile.go). Reads then only run the plan (read21.go).

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/enc21pb"
)

const pageLayoutName = "lance.encodings21.PageLayout"

// structural reports a 2.1+ file: leaf-only columns, structural page
// layouts with repetition and definition levels.
func (f *File) structural() bool { return f.major == 2 && f.minor >= 1 }

type layoutKind uint8

const (
	miniBlock layoutKind = iota + 1
	fullZip
	constantPage
)

func (k layoutKind) String() string {
	switch k {
	case miniBlock:
		return "mini-block"
	case fullZip:
		return "full-zip"
	case constantPage:
		return "constant"
	}
	return "?"
}

// layer is a RepDefLayer: one per path node, innermost first.
type layer uint8

const (
	allValidItem layer = iota + 1
	allValidList
	nullableItem
	nullableList
	emptyableList
	nullAndEmptyList
)

func (l layer) isList() bool {
	return l == allValidList || l == nullableList || l == emptyableList || l == nullAndEmptyList
}

// codes is how many definition codes the layer owns.
func (l layer) codes() uint16 {
	switch l {
	case nullableItem, nullableList, emptyableList:
		return 1
	case nullAndEmptyList:
		return 2
	}
	return 0
}

func (l layer) String() string {
	return [...]string{"?", "ALL_VALID_ITEM", "ALL_VALID_LIST", "NULLABLE_ITEM", "NULLABLE_LIST", "EMPTYABLE_LIST", "NULL_AND_EMPTY_LIST"}[min(int(l), 6)]
}

// pagePlan is one page's validated layout.
type pagePlan struct {
	kind   layoutKind
	layers []layer
	// mini-block
	rep, def, value, dict *cnode
	numDict               uint64
	numBuffers            int
	repIndex              bool // a repetition index buffer follows
	numItems              uint64
	large                 bool // u32 chunk words and buffer sizes (2.2)
	// full-zip
	bitsRep, bitsDef uint32
	fixedBits        uint32 // bits per value, or 0 for variable
	offsetBits       uint32 // bits per length, for variable
	numEntries       uint64
	numVisible       uint64
	// constant
	inline    []byte
	hasInline bool
	numRep    uint64
	numDef    uint64
	// raw is the PageLayout message (tests seed fuzzers with it).
	raw []byte
	// err is set when the page uses something this reader refuses; the
	// column fails when it is read, other columns still read.
	err error
}

func (p *pagePlan) describe() string {
	if p == nil {
		return "<no layout>"
	}
	if p.err != nil {
		return "unsupported: " + p.err.Error()
	}
	var s string
	switch p.kind {
	case miniBlock:
		s = fmt.Sprintf("mini-block(items=%d, buffers=%d, value=%s", p.numItems, p.numBuffers, p.value)
		if p.rep != nil {
			s += ", rep=" + p.rep.String()
		}
		if p.def != nil {
			s += ", def=" + p.def.String()
		}
		if p.dict != nil {
			s += fmt.Sprintf(", dictionary=%s x%d", p.dict, p.numDict)
		}
		if p.large {
			s += ", u32 chunks"
		}
		s += ")"
	case fullZip:
		w := fmt.Sprintf("bits_per_value=%d", p.fixedBits)
		if p.fixedBits == 0 {
			w = fmt.Sprintf("bits_per_offset=%d", p.offsetBits)
		}
		s = fmt.Sprintf("full-zip(entries=%d, visible=%d, bits_rep=%d, bits_def=%d, %s, value=%s)", p.numEntries, p.numVisible, p.bitsRep, p.bitsDef, w, p.value)
	case constantPage:
		s = "constant("
		if p.hasInline {
			s += fmt.Sprintf("inline %d bytes", len(p.inline))
		} else {
			s += "no inline value"
		}
		if p.rep != nil {
			s += ", rep=" + p.rep.String()
		}
		if p.def != nil {
			s += ", def=" + p.def.String()
		}
		s += ")"
	}
	ls := make([]string, len(p.layers))
	for i, l := range p.layers {
		ls[i] = l.String()
	}
	return s + fmt.Sprintf(" layers=%v", ls)
}

// parsePage21 parses and compiles one page's layout. Structural errors
// (bad protobuf, impossible counts) fail Open; refused features are kept
// in the plan and reported when the column is read.
func (f *File) parsePage21(col *column, pg *page, b []byte, off int64, path string) error {
	var pl enc21pb.PageLayout
	if err := (proto.UnmarshalOptions{RecursionLimit: 4*f.cfg.maxDepth + 8}).Unmarshal(b, &pl); err != nil {
		return errs.At(ErrProto, off, path, "PageLayout: %v", err)
	}
	p := &pagePlan{raw: b}
	pg.layout = p
	c := compiler{f: f, path: path, off: off, v22: f.minor >= 2}
	refuse := func(err error) error {
		if errorsIsUnsupported(err) {
			p.err = err
			return nil
		}
		return err
	}
	layers := func(ls []enc21pb.RepDefLayer) error {
		if len(ls) == 0 {
			return errs.At(ErrCorrupt, off, path, "page layout without rep/def layers")
		}
		if len(ls) > f.cfg.maxDepth+1 {
			return errs.At(ErrTooLarge, off, path, "%d rep/def layers, more than the depth limit %d", len(ls), f.cfg.maxDepth)
		}
		for _, l := range ls {
			if l < 1 || l > 6 {
				return errs.At(ErrCorrupt, off, path, "rep/def layer %d", l)
			}
			p.layers = append(p.layers, layer(l))
		}
		return nil
	}
	switch l := pl.Layout.(type) {
	case *enc21pb.PageLayout_MiniBlockLayout:
		m := l.MiniBlockLayout
		p.kind = miniBlock
		if err := layers(m.Layers); err != nil {
			return err
		}
		p.large = m.HasLargeChunk
		if p.large && !c.v22 {
			return refuse(errs.At(ErrUnsupported, off, path, "large mini-block chunks are not part of the Lance 2.1 grammar"))
		}
		if !p.large && c.v22 {
			return refuse(errs.At(ErrUnsupported, off, path, "Lance 2.2 mini-block pages require the u32 chunk grammar"))
		}
		if m.NumBuffers == 0 || m.NumBuffers > 64 {
			return errs.At(ErrCorrupt, off, path, "mini-block with %d value buffers", m.NumBuffers)
		}
		p.numBuffers = int(m.NumBuffers)
		p.numItems = m.NumItems
		p.numDict = m.NumDictionaryItems
		if m.RepetitionIndexDepth > 1 {
			return refuse(errs.At(ErrUnsupported, off, path, "repetition index depth %d", m.RepetitionIndexDepth))
		}
		p.repIndex = m.RepetitionIndexDepth > 0
		var err error
		if m.RepCompression != nil {
			if p.rep, err = c.compile(m.RepCompression, ctxBlock, 0); err != nil {
				return refuse(err)
			}
		}
		if m.DefCompression != nil {
			if p.def, err = c.compile(m.DefCompression, ctxBlock, 0); err != nil {
				return refuse(err)
			}
		}
		if m.ValueCompression == nil {
			return errs.At(ErrProto, off, path, "mini-block without value compression")
		}
		if p.value, err = c.compile(m.ValueCompression, ctxMini, 0); err != nil {
			return refuse(err)
		}
		if m.Dictionary != nil {
			if p.dict, err = c.compile(m.Dictionary, ctxBlock, 0); err != nil {
				return refuse(err)
			}
		}
		want := 2
		if p.dict != nil {
			want++
		}
		if p.repIndex {
			want++
		}
		if len(pg.buffers) != want {
			return errs.At(ErrCorrupt, off, path, "mini-block page has %d buffers, its layout needs %d", len(pg.buffers), want)
		}
	case *enc21pb.PageLayout_FullZipLayout:
		z := l.FullZipLayout
		p.kind = fullZip
		if err := layers(z.Layers); err != nil {
			return err
		}
		p.bitsRep, p.bitsDef = z.BitsRep, z.BitsDef
		if p.bitsRep > 16 || p.bitsDef > 16 || p.bitsRep+p.bitsDef > 32 {
			return errs.At(ErrCorrupt, off, path, "full-zip control word of %d rep and %d def bits", p.bitsRep, p.bitsDef)
		}
		ctx := ctxPerValueFixed
		switch d := z.Details.(type) {
		case *enc21pb.FullZipLayout_BitsPerValue:
			if d.BitsPerValue == 0 || d.BitsPerValue%8 != 0 || d.BitsPerValue > 8<<20 {
				return errs.At(ErrCorrupt, off, path, "full-zip of %d bits per value", d.BitsPerValue)
			}
			p.fixedBits = d.BitsPerValue
		case *enc21pb.FullZipLayout_BitsPerOffset:
			if d.BitsPerOffset != 32 && d.BitsPerOffset != 64 {
				return errs.At(ErrCorrupt, off, path, "full-zip of %d bits per offset", d.BitsPerOffset)
			}
			p.offsetBits = d.BitsPerOffset
			ctx = ctxPerValueVar
		default:
			return errs.At(ErrProto, off, path, "full-zip layout without value width")
		}
		p.numEntries, p.numVisible = uint64(z.NumItems), uint64(z.NumVisibleItems)
		if p.numVisible > p.numEntries {
			return errs.At(ErrCorrupt, off, path, "full-zip with %d visible of %d items", p.numVisible, p.numEntries)
		}
		if z.ValueCompression == nil {
			return errs.At(ErrProto, off, path, "full-zip without value compression")
		}
		var err error
		if p.value, err = c.compile(z.ValueCompression, ctx, 0); err != nil {
			return refuse(err)
		}
		if len(pg.buffers) < 1 || len(pg.buffers) > 2 {
			return errs.At(ErrCorrupt, off, path, "full-zip page has %d buffers, want 1 or 2", len(pg.buffers))
		}
	case *enc21pb.PageLayout_ConstantLayout:
		k := l.ConstantLayout
		p.kind = constantPage
		if err := layers(k.Layers); err != nil {
			return err
		}
		p.inline, p.hasInline = k.InlineValue, k.InlineValue != nil
		if p.hasInline && len(p.inline) > 32 {
			return errs.At(ErrCorrupt, off, path, "constant inline value of %d bytes (at most 32)", len(p.inline))
		}
		scalar := p.hasInline || len(pg.buffers) == 1 || len(pg.buffers) == 3
		if scalar && !c.v22 {
			return refuse(errs.At(ErrUnsupported, off, path, "Lance 2.1 only accepts the all-null form of constant page layout"))
		}
		if (k.RepCompression != nil || k.DefCompression != nil) && !c.v22 {
			return refuse(errs.At(ErrUnsupported, off, path, "compressed constant-page levels are not part of the Lance 2.1 grammar"))
		}
		switch len(pg.buffers) {
		case 0, 1, 2, 3:
		default:
			return errs.At(ErrCorrupt, off, path, "constant page with %d buffers", len(pg.buffers))
		}
		if p.hasInline && len(pg.buffers)%2 != 0 {
			return errs.At(ErrCorrupt, off, path, "constant page with an inline value and %d buffers", len(pg.buffers))
		}
		// Lance reads scalar-constant levels as raw u16 whatever the
		// compression fields say; only all-null pages use them.
		if !scalar {
			var err error
			if k.RepCompression != nil {
				if p.rep, err = c.compile(k.RepCompression, ctxBlock, 0); err != nil {
					return refuse(err)
				}
			}
			if k.DefCompression != nil {
				if p.def, err = c.compile(k.DefCompression, ctxBlock, 0); err != nil {
					return refuse(err)
				}
			}
			p.numRep, p.numDef = k.NumRepValues, k.NumDefValues
		}
	case *enc21pb.PageLayout_BlobLayout:
		p.err = errs.At(ErrUnsupported, off, path, "BlobLayout (legacy blob column) is not read")
	case *enc21pb.PageLayout_SparseLayout:
		p.err = errs.At(ErrUnsupported, off, path, "SparseLayout is not part of the Lance 2.1/2.2 grammar")
	default:
		return errs.At(ErrProto, off, path, "PageLayout without a layout")
	}
	return nil
}
