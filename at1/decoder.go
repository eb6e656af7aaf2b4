package at1

// decoder is one decoding call: the limits and policies of its options
// (a copy, so that a call can narrow them for its parts, as parallel
// frames do with concurrency) and the decoding methods. Decode,
// DecodeTo, Open's File and NewReader each make one from their options;
// the encoder makes one to verify its output.
type decoder struct {
	config
}

// decoder returns a decoding call with c's options.
func (c *config) decoder() *decoder { return &decoder{config: *c} }
