package bsup

// NewTokenJSON exposes the encoding/json-based twin of JSONReader to the
// external tests.
func NewTokenJSON(r interface{ Read([]byte) (int, error) }, maxDepth int) interface{ Read() (Value, error) } {
	return newTokenJSON(r, maxDepth)
}
