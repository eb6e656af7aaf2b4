package bsup

import (
	"io"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
	"github.com/pierrec/lz4/v4"
)

// Writer writes values as a Super Binary stream. It buffers typedefs and
// values and writes a types frame and a values frame whenever the buffered
// values reach the frame threshold; each frame is LZ4-compressed when that
// makes it smaller. Close ends the stream.
type Writer struct {
	w     io.Writer
	cfg   config
	ids   map[*Type]uint64
	sigs  map[string]uint64
	next  uint64
	types []byte
	vals  []byte
	comp  lz4.Compressor
	cbuf  []byte
	n     int64
	err   error
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer, opts ...Option) (*Writer, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errs.Wrap(ErrInvalidArgument, "nil writer")
	}
	wr := &Writer{w: w, cfg: cfg}
	wr.resetTypes()
	return wr, nil
}

func (w *Writer) resetTypes() {
	w.ids = map[*Type]uint64{}
	w.sigs = map[string]uint64{}
	w.next = IDFirstUser
	if w.cfg.version == 2 {
		w.next++ // 30 is none
	}
}

// Written returns the number of bytes written to the underlying writer.
func (w *Writer) Written() int64 { return w.n }

// Write appends v to the stream.
func (w *Writer) Write(v Value) error {
	if w.err != nil {
		return w.err
	}
	id, err := w.typeID(v.Type, 0)
	if err != nil {
		return err
	}
	w.vals = varint.Append(w.vals, id)
	if w.vals, err = AppendTagged(w.vals, v); err != nil {
		return err
	}
	if len(w.vals) >= w.cfg.frameThreshold {
		return w.Flush()
	}
	return nil
}

// typeID returns t's ID in this stream, defining t (and what it refers to)
// if it is new. Types are matched structurally: the typedef bytes, which
// name child types by ID, are the key.
func (w *Writer) typeID(t *Type, depth int) (uint64, error) {
	if t == nil {
		return 0, errs.Wrap(ErrCorrupt, "value has no type")
	}
	if t.IsPrimitive() {
		if Primitive(int(t.Kind)) == nil {
			return 0, errs.Wrap(ErrUnsupported, "primitive type kind %d", t.Kind)
		}
		return uint64(t.Kind), nil
	}
	if id, ok := w.ids[t]; ok {
		return id, nil
	}
	if depth > maxEncodeDepth {
		return 0, errs.Wrap(ErrTooLarge, "type nesting deeper than %d", maxEncodeDepth)
	}
	var def []byte
	ref := func(c *Type) error {
		id, err := w.typeID(c, depth+1)
		def = varint.Append(def, id)
		return err
	}
	var err error
	switch t.Kind {
	case KindRecord:
		def = varint.Append(append(def, defRecord), uint64(len(t.Fields)))
		for _, f := range t.Fields {
			def = appendName(def, f.Name)
			if err = ref(f.Type); err != nil {
				return 0, err
			}
			if w.cfg.version == 2 {
				def = append(def, 0) // not optional
			}
		}
	case KindArray, KindSet, KindError:
		code := map[Kind]byte{KindArray: defArray, KindSet: defSet, KindError: defError}[t.Kind]
		def = append(def, code)
		err = ref(t.Elem)
	case KindMap:
		def = append(def, defMap)
		if err = ref(t.Elem); err == nil {
			err = ref(t.Val)
		}
	case KindUnion:
		if len(t.Types) == 0 {
			return 0, errs.Wrap(ErrCorrupt, "union type with no members")
		}
		def = varint.Append(append(def, defUnion), uint64(len(t.Types)))
		for _, m := range t.Types {
			if err = ref(m); err != nil {
				break
			}
		}
	case KindEnum:
		def = varint.Append(append(def, defEnum), uint64(len(t.Symbols)))
		for _, s := range t.Symbols {
			def = appendName(def, s)
		}
	case KindNamed:
		def = appendName(append(def, defNamed), t.Name)
		err = ref(t.Elem)
	default:
		return 0, errs.Wrap(ErrUnsupported, "type kind %d", t.Kind)
	}
	if err != nil {
		return 0, err
	}
	id, ok := w.sigs[string(def)]
	if !ok {
		id = w.next
		w.next++
		w.sigs[string(def)] = id
		w.types = append(w.types, def...)
	}
	w.ids[t] = id
	return id, nil
}

// Flush writes the buffered typedefs and values as frames.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.types) > 0 {
		if err := w.frame(frameTypes, w.types); err != nil {
			return err
		}
		w.types = w.types[:0]
	}
	if len(w.vals) > 0 {
		if err := w.frame(frameValues, w.vals); err != nil {
			return err
		}
		w.vals = w.vals[:0]
	}
	return nil
}

// EndStream flushes, writes an end-of-stream marker and resets the type
// table, so what follows is a new stream.
func (w *Writer) EndStream() error {
	if err := w.Flush(); err != nil {
		return err
	}
	w.resetTypes()
	return w.write([]byte{codeEOS})
}

// Close ends the stream. It does not close the underlying writer.
func (w *Writer) Close() error { return w.EndStream() }

func (w *Writer) frame(typ byte, payload []byte) error {
	code := typ << 4
	if w.cfg.compress && len(payload) > 32 {
		bound := lz4.CompressBlockBound(len(payload))
		if cap(w.cbuf) < bound+varint.MaxLen+1 {
			w.cbuf = make([]byte, bound+varint.MaxLen+1)
		}
		hdr := varint.Append(append(w.cbuf[:0], compressionLZ4), uint64(len(payload)))
		n, err := w.comp.CompressBlock(payload, w.cbuf[len(hdr):cap(w.cbuf)])
		if err == nil && n > 0 && len(hdr)+n < len(payload) {
			payload = w.cbuf[:len(hdr)+n]
			code |= codeCompressed
		}
	}
	length := uint64(len(payload))
	hdr := make([]byte, 0, 2+varint.MaxLen)
	if w.cfg.version == 2 {
		hdr = append(hdr, 0x80|2)
	}
	hdr = append(hdr, code|byte(length&0x0f))
	hdr = varint.Append(hdr, length>>4)
	if err := w.write(hdr); err != nil {
		return err
	}
	return w.write(payload)
}

func (w *Writer) write(b []byte) error {
	n, err := w.w.Write(b)
	w.n += int64(n)
	if err != nil {
		w.err = err
	}
	return err
}
