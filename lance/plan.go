package lance

// The plan: Open parses the footer, the offset tables, every column's
// metadata and every page's encoding once (container.go, container_footer.go), maps
// the schema onto the columns, and then decides which decoder runs each
// page (plan20.go for 2.0, plan21.go for 2.1/2.2). A read only runs the
// planned decoders: there is no "try the direct decoder, fall back to the
// general one". What the plan decides depends only on structure (the
// encoding tree, the field's type, buffer sizes from the metadata); what
// the data says is checked while decoding, and a direct decoder that finds
// it wrong returns a located error, as the general decoder would.
//
// A new encoding is planned in one place (planLeaf20/planList20 and
// planPage21, with the layout recognisers they call) and decoded in one
// place (its decoder).

// decoderKind is the decoder the plan picks for a page.
type decoderKind uint8

const (
	// decGeneral decodes whole pages into arrays and joins slices of them
	// (2.0: enc20.go; 2.1/2.2: layout21.go + repdef21.go).
	decGeneral decoderKind = iota
	// decFixed20: 2.0 uncompressed fixed-width values (under Nullable and
	// FixedSizeList), read straight into the output (enc20_direct.go).
	decFixed20
	// decBinary20: 2.0 plain Binary pages (u64 ends, u8 bytes).
	decBinary20
	// decList20: 2.0 List pages with plain u64 offsets (enc20_list_direct.go).
	decList20
	// decLeaf21: 2.1/2.2 mini-block page of a top-level leaf or a leaf of
	// a top-level struct (layout21_direct.go), or a full-zip page of
	// fixed-width values of one (layout21_direct_fullzip.go).
	decLeaf21
	// decList21: 2.1/2.2 mini-block page of a top-level list's leaf
	// (layout21_direct_list.go).
	decList21
)

func (k decoderKind) String() string {
	switch k {
	case decGeneral:
		return "general"
	case decFixed20:
		return "direct fixed-width"
	case decBinary20:
		return "direct binary"
	case decList20:
		return "direct list offsets"
	case decLeaf21:
		return "direct leaf"
	case decList21:
		return "direct mini-block list"
	}
	return "?"
}

// plan decides every page's decoder once the schema is mapped onto the
// columns.
func (f *File) plan() {
	for _, c := range f.columns {
		for pi, p := range c.pages {
			p.path = pagePath(c, pi)
		}
	}
	if f.structural() {
		for _, c := range f.columns {
			f.planColumn21(c)
		}
		return
	}
	for _, n := range f.fields {
		f.planField20(n, 0)
	}
}
