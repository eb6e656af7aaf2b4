// Package jsonarrow turns JSON Lines (one JSON object per line) into Arrow
// record batches: it infers a schema from the lines or takes one given in
// JSON (ParseSchema), and builds records in batches of bounded size.
//
// Inference (InferSchema) reads every line and widens each field's type
// with every value: integers that fit int64 are int64, other numbers
// float64 (an int64 field that meets a fraction becomes float64), strings
// utf8, true/false bool, arrays list<item>, objects struct (members in
// order of first appearance), nulls and missing members are nulls of any
// type. Arrays of numbers that have the same length in every row (at least
// Options.VectorMinLen) are vectors: fixed_size_list<float32> (float64 with
// Options.Float64Vectors) when any item has a fraction, else
// fixed_size_list<int64>. A field whose values have different kinds (a
// number here, a string there) is a utf8 column holding strings as they are
// and other values as their JSON text; so is a field that is only ever
// null or {}. Every inferred field is nullable.
package jsonarrow

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Defaults of Options.
const (
	DefaultBatchRows    = 8192
	DefaultBatchBytes   = 8 << 20
	DefaultVectorMinLen = 2
	DefaultMaxLineBytes = 64 << 20
	DefaultMaxDepth     = 64
)

// ErrInput reports a line that is not valid JSON, not an object, or a
// value that does not fit its column's type. Errors name the line.
var ErrInput = errors.New("jsonarrow: bad input")

// Options tune inference and batching. The zero value uses the defaults.
type Options struct {
	// BatchRows is the most rows per record (default DefaultBatchRows).
	BatchRows int
	// BatchBytes cuts a record once its lines total this many bytes of
	// JSON (default DefaultBatchBytes), so wide rows make small batches.
	BatchBytes int
	// VectorMinLen is the shortest array inferred as a fixed-size-list
	// vector (default DefaultVectorMinLen; negative: never).
	VectorMinLen int
	// Float64Vectors infers vectors of float64 items instead of float32.
	Float64Vectors bool
	// MaxLineBytes bounds one line (default DefaultMaxLineBytes).
	MaxLineBytes int
	// MaxDepth bounds the nesting of arrays and objects (default
	// DefaultMaxDepth).
	MaxDepth int
	// Allocator for the records (default memory.DefaultAllocator).
	Allocator memory.Allocator
}

func (o Options) withDefaults() Options {
	if o.BatchRows <= 0 {
		o.BatchRows = DefaultBatchRows
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = DefaultBatchBytes
	}
	if o.VectorMinLen == 0 {
		o.VectorMinLen = DefaultVectorMinLen
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.Allocator == nil {
		o.Allocator = memory.DefaultAllocator
	}
	return o
}

type lineReader struct {
	br   *bufio.Reader
	max  int
	n    int
	buf  []byte
	err  error
	line []byte
}

// next reads the next non-blank line; false at the end or on an error
// (r.err, nil at io.EOF).
func (r *lineReader) next() bool {
	for {
		r.buf = r.buf[:0]
		for {
			chunk, err := r.br.ReadSlice('\n')
			r.buf = append(r.buf, chunk...)
			if len(r.buf) > r.max {
				r.err = fmt.Errorf("%w: line %d is longer than %d bytes", ErrInput, r.n+1, r.max)
				return false
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && err != io.EOF {
				r.err = err
				return false
			}
			if err == io.EOF && len(r.buf) == 0 {
				return false
			}
			break
		}
		r.n++
		if t := bytes.TrimSpace(r.buf); len(t) > 0 {
			r.line = t
			return true
		}
		if len(r.buf) == 0 || r.buf[len(r.buf)-1] != '\n' {
			return false // EOF after a blank tail
		}
	}
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 1<<16), max: max}
}

// InferSchema reads every line of r and returns the schema inference
// gives (see the package doc) and the number of rows. No lines give an
// empty schema.
func InferSchema(r io.Reader, o Options) (*arrow.Schema, int64, error) {
	o = o.withDefaults()
	lr := newLineReader(r, o.MaxLineBytes)
	root := &itype{k: tObj, index: map[string]int{}}
	var rows int64
	var p parser
	for lr.next() {
		v, err := p.parse(lr.line, o.MaxDepth)
		if err != nil {
			return nil, rows, fmt.Errorf("%w: line %d: %v", ErrInput, lr.n, err)
		}
		if v.k != kObj {
			return nil, rows, fmt.Errorf("%w: line %d: not a JSON object", ErrInput, lr.n)
		}
		root.observe(&v)
		rows++
	}
	if lr.err != nil {
		return nil, rows, lr.err
	}
	fs := make([]arrow.Field, len(root.fields))
	for i, f := range root.fields {
		fs[i] = arrow.Field{Name: f.name, Type: f.t.arrowType(&o), Nullable: true}
	}
	return arrow.NewSchema(fs, nil), rows, nil
}

// Records reads the lines of r into records of schema, cut by
// Options.BatchRows and BatchBytes. Members not in the schema are
// ignored; missing ones are null. Each record is released when the loop
// body returns: Retain it to keep it. An error (bad JSON, a value that
// does not fit its column, a null in a non-nullable column) names the line
// and the field and ends the sequence.
func Records(r io.Reader, schema *arrow.Schema, o Options) iter.Seq2[arrow.RecordBatch, error] {
	o = o.withDefaults()
	return func(yield func(arrow.RecordBatch, error) bool) {
		if err := checkSchema(schema); err != nil {
			yield(nil, err)
			return
		}
		lr := newLineReader(r, o.MaxLineBytes)
		b := array.NewRecordBuilder(o.Allocator, schema)
		defer b.Release()
		index := make(map[string]int, schema.NumFields())
		for i, f := range schema.Fields() {
			index[f.Name] = i
		}
		seen := make([]bool, schema.NumFields())
		rows, bytesIn := 0, 0
		var p parser
		flush := func() bool {
			rec := b.NewRecordBatch()
			if schema.NumFields() == 0 { // rows of no columns still count
				rec.Release()
				rec = array.NewRecordBatch(schema, nil, int64(rows))
			}
			rows, bytesIn = 0, 0
			ok := yield(rec, nil)
			rec.Release()
			return ok
		}
		for lr.next() {
			v, err := p.parse(lr.line, o.MaxDepth)
			if err != nil {
				yield(nil, fmt.Errorf("%w: line %d: %v", ErrInput, lr.n, err))
				return
			}
			if v.k != kObj {
				yield(nil, fmt.Errorf("%w: line %d: not a JSON object", ErrInput, lr.n))
				return
			}
			clear(seen)
			for i := len(v.obj) - 1; i >= 0; i-- { // the last of duplicate keys wins
				m := &v.obj[i]
				j, ok := index[m.key]
				if !ok || seen[j] {
					continue
				}
				seen[j] = true
				f := schema.Field(j)
				if err := appendValue(b.Field(j), f.Type, f.Nullable, &m.v, f.Name); err != nil {
					yield(nil, fmt.Errorf("%w: line %d: %v", ErrInput, lr.n, err))
					return
				}
			}
			for j, s := range seen {
				if !s {
					f := schema.Field(j)
					if !f.Nullable {
						yield(nil, fmt.Errorf("%w: line %d: field %q is missing and not nullable", ErrInput, lr.n, f.Name))
						return
					}
					b.Field(j).AppendNull()
				}
			}
			rows++
			bytesIn += len(lr.line)
			if rows >= o.BatchRows || bytesIn >= o.BatchBytes {
				if !flush() {
					return
				}
			}
		}
		if lr.err != nil {
			yield(nil, lr.err)
			return
		}
		if rows > 0 {
			flush()
		}
	}
}
