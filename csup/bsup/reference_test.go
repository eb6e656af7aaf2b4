package bsup

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/colfmt/colfmt/internal/errs"
)

// The test-only reference decoders of this package.

// tokenJSON is the exact twin of JSONReader built on encoding/json's
// tokenizer: slower, and the reference FuzzDiffJSONReader compares the fast
// reader with.
type tokenJSON struct {
	dec      *json.Decoder
	maxDepth int
	typer    jsonTyper
}

func newTokenJSON(r io.Reader, maxDepth int) *tokenJSON {
	d := json.NewDecoder(r)
	d.UseNumber()
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	return &tokenJSON{dec: d, maxDepth: maxDepth, typer: newJSONTyper()}
}

// Read returns the next value, or io.EOF.
func (j *tokenJSON) Read() (Value, error) {
	tok, err := j.dec.Token()
	if err == io.EOF {
		return Value{}, io.EOF
	}
	if err != nil {
		return Value{}, j.err(err)
	}
	return j.value(tok, 0)
}

func (j *tokenJSON) err(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errs.At(ErrCorrupt, se.Offset, "json", "%v", err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "unexpected end of JSON input")
	}
	return errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "%v", err)
}

func (j *tokenJSON) value(tok json.Token, depth int) (Value, error) {
	if depth > j.maxDepth {
		return Value{}, errs.At(ErrTooLarge, j.dec.InputOffset(), "json", "JSON nests deeper than %d", j.maxDepth)
	}
	switch t := tok.(type) {
	case nil:
		return NewNull(TypeNull), nil
	case bool:
		return NewBool(t), nil
	case string:
		return NewString(t), nil
	case json.Number:
		v, ok := jsonNumber(string(t))
		if !ok {
			return Value{}, errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "bad number %s", t)
		}
		return v, nil
	case json.Delim:
		switch t {
		case '{':
			var names []string
			var vals []Value
			for j.dec.More() {
				kt, err := j.dec.Token()
				if err != nil {
					return Value{}, j.err(err)
				}
				name, _ := kt.(string)
				vt, err := j.dec.Token()
				if err != nil {
					return Value{}, j.err(err)
				}
				v, err := j.value(vt, depth+1)
				if err != nil {
					return Value{}, err
				}
				names = append(names, name)
				vals = append(vals, v)
			}
			if _, err := j.dec.Token(); err != nil {
				return Value{}, j.err(err)
			}
			return j.typer.record(names, vals), nil
		case '[':
			var vals []Value
			for j.dec.More() {
				et, err := j.dec.Token()
				if err != nil {
					return Value{}, j.err(err)
				}
				v, err := j.value(et, depth+1)
				if err != nil {
					return Value{}, err
				}
				vals = append(vals, v)
			}
			if _, err := j.dec.Token(); err != nil {
				return Value{}, j.err(err)
			}
			return j.typer.array(vals), nil
		}
	}
	return Value{}, errs.At(ErrCorrupt, j.dec.InputOffset(), "json", "unexpected token %v", tok)
}
