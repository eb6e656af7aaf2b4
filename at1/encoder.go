package at1

// encoder is one encoding call, the encoding half of decoder: a copy of
// the call's options, the encoding methods (detection, layouts, packing,
// frames, the self-check) and the call's shared state. Encode and
// AppendEncode make one per call, a Writer one for its life.
//
// jobs, when not nil, bounds the compression jobs running at once across
// the frames of one call (a Writer, and so a framed Encode, gives its
// frames one channel of concurrency slots; each job takes a slot while it
// runs). It lives here, not in the options: two calls with the same
// options share nothing.
type encoder struct {
	config
	jobs chan struct{}
}

// encoder returns an encoding call with c's options.
func (c *config) encoder() *encoder { return &encoder{config: *c} }
