package bsup

import (
	"math"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/varint"
)

// Tag encoding: every value in a container body (and every value in a
// Super Columnar segment) is a uvarint tag followed by a body; tag 0 is a
// null with no body, otherwise the body is tag-1 bytes long.

// ConsumeTagged splits one tag-encoded value off the front of b. It returns
// the body (nil for a null), the number of bytes used, and ok=false when b
// is truncated or the tag is malformed.
func ConsumeTagged(b []byte) (body []byte, null bool, n int, ok bool) {
	tag, k := varint.Consume(b)
	if k < 0 {
		return nil, false, 0, false
	}
	if tag == 0 {
		return nil, true, k, true
	}
	if tag-1 > uint64(len(b)-k) {
		return nil, false, 0, false
	}
	end := k + int(tag-1)
	return b[k:end:end], false, end, true
}

// AppendTaggedBody appends tag and body: the counted form of a non-null
// body.
func AppendTaggedBody(dst, body []byte) []byte {
	dst = varint.Append(dst, uint64(len(body))+1)
	return append(dst, body...)
}

// AppendUint appends the body of an unsigned integer: minimal little-endian
// bytes, none for 0.
func AppendUint(dst []byte, u uint64) []byte {
	for u != 0 {
		dst = append(dst, byte(u))
		u >>= 8
	}
	return dst
}

// DecodeUint decodes an unsigned integer body (at most 8 bytes).
func DecodeUint(b []byte) (uint64, bool) {
	if len(b) > 8 {
		return 0, false
	}
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	return u, true
}

// AppendInt appends the body of a signed integer in zed's sign-magnitude
// form, abs(v)<<1 | sign (not zig-zag, whatever the ZNG prose says).
func AppendInt(dst []byte, v int64) []byte {
	var u uint64
	if v < 0 {
		u = uint64(-v)<<1 | 1
	} else {
		u = uint64(v) << 1
	}
	return AppendUint(dst, u)
}

// DecodeInt decodes a signed integer body. The magnitude-zero negative form
// (u=1) is what MinInt64 encodes to, so it decodes to MinInt64.
func DecodeInt(b []byte) (int64, bool) {
	u, ok := DecodeUint(b)
	if !ok {
		return 0, false
	}
	if u&1 == 0 {
		return int64(u >> 1), true
	}
	if u == 1 {
		return math.MinInt64, true
	}
	return -int64(u >> 1), true
}

// AppendValueBody appends the body of v (no tag). v must not be null.
func AppendValueBody(dst []byte, v Value) ([]byte, error) {
	return appendBody(dst, v, 0)
}

// AppendTagged appends v in counted form (tag 0 for a null).
func AppendTagged(dst []byte, v Value) ([]byte, error) {
	return appendTagged(dst, v, 0)
}

const maxEncodeDepth = 10000

func appendTagged(dst []byte, v Value, depth int) ([]byte, error) {
	if v.Null {
		return append(dst, 0), nil
	}
	// Reserve one tag byte, write the body, then widen the tag if needed.
	at := len(dst)
	dst = append(dst, 0)
	dst, err := appendBody(dst, v, depth)
	if err != nil {
		return dst, err
	}
	n := uint64(len(dst) - at - 1)
	if n+1 < 0x80 {
		dst[at] = byte(n + 1)
		return dst, nil
	}
	k := varint.Size(n + 1)
	dst = append(dst, make([]byte, k-1)...)
	copy(dst[at+k:], dst[at+1:len(dst)-(k-1)])
	varint.Append(dst[at:at], n+1)
	return dst, nil
}

func appendBody(dst []byte, v Value, depth int) ([]byte, error) {
	if v.Type == nil {
		return dst, errs.Wrap(ErrCorrupt, "value has no type")
	}
	if depth > maxEncodeDepth {
		return dst, errs.Wrap(ErrTooLarge, "value nesting deeper than %d", maxEncodeDepth)
	}
	t := payloadType(v.Type)
	switch t.Kind {
	case KindUint8, KindUint16, KindUint32, KindUint64, KindEnum:
		return AppendUint(dst, v.Uint), nil
	case KindInt8, KindInt16, KindInt32, KindInt64, KindDuration, KindTime:
		return AppendInt(dst, v.Int), nil
	case KindFloat16:
		h := float32ToFloat16(float32(v.Float))
		return append(dst, byte(h), byte(h>>8)), nil
	case KindFloat32:
		u := math.Float32bits(float32(v.Float))
		return append(dst, byte(u), byte(u>>8), byte(u>>16), byte(u>>24)), nil
	case KindFloat64:
		u := math.Float64bits(v.Float)
		return append(dst, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56)), nil
	case KindBool:
		if v.Uint != 0 {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case KindString, KindBytes, KindIP, KindNet, KindType:
		return append(dst, v.Bytes...), nil
	case KindNull:
		return dst, errs.Wrap(ErrCorrupt, "a non-null value of type null")
	case KindRecord:
		if len(v.Elems) != len(t.Fields) {
			return dst, errs.Wrap(ErrCorrupt, "record of type %s has %d fields, want %d", v.Type, len(v.Elems), len(t.Fields))
		}
		fallthrough
	case KindArray, KindSet, KindMap:
		if t.Kind == KindMap && len(v.Elems)%2 != 0 {
			return dst, errs.Wrap(ErrCorrupt, "map value has an odd number of elements")
		}
		var err error
		for _, e := range v.Elems {
			if dst, err = appendTagged(dst, e, depth+1); err != nil {
				return dst, err
			}
		}
		return dst, nil
	case KindUnion:
		if v.Uint >= uint64(len(t.Types)) || len(v.Elems) != 1 {
			return dst, errs.Wrap(ErrCorrupt, "union value with tag %d of type %s", v.Uint, v.Type)
		}
		var tmp [10]byte
		dst = AppendTaggedBody(dst, AppendInt(tmp[:0], int64(v.Uint)))
		return appendTagged(dst, v.Elems[0], depth+1)
	}
	return dst, errs.Wrap(ErrCorrupt, "cannot encode a value of type %s", v.Type)
}

// decoder turns bodies into Values with the limits of a config.
type decoder struct {
	v2       bool // Super Binary version 2: type values use its codes
	maxDepth int
	free     []Value // element storage carved for new containers (see get)
}

const slabBlock = 4096

// get returns n elements for a new container, carved from a shared block
// when small, so a value tree costs a few allocations, not one per
// container. A block stays alive while any value uses part of it.
func (d *decoder) get(n int) []Value {
	if n > slabBlock/4 {
		return make([]Value, n)
	}
	if len(d.free) < n {
		d.free = make([]Value, slabBlock)
	}
	e := d.free[:n:n]
	d.free = d.free[n:]
	return e
}

func (d *decoder) resize(e []Value, n int) []Value {
	if cap(e) >= n {
		return e[:n]
	}
	return d.get(n)
}

// DecodeBody decodes a non-null body of type t into a Value. A value nests
// no deeper than its type, whose depth the caller controls (a Reader checks
// it against WithMaxDepth); the decoder itself stops at 10000 levels.
func DecodeBody(t *Type, body []byte) (Value, error) {
	var v Value
	d := decoder{maxDepth: maxEncodeDepth}
	err := d.decode(&v, t, body, false, 0)
	return v, err
}

// DecodeInto decodes a non-null body of type t into dst, reusing the
// element storage dst already has (so a value decoded earlier into the
// same dst is overwritten, nested elements included).
func DecodeInto(dst *Value, t *Type, body []byte) error {
	d := decoder{maxDepth: maxEncodeDepth}
	return d.decode(dst, t, body, false, 0)
}

// DecodeTagged decodes one counted value of type t at the front of b and
// returns it and the bytes used.
func DecodeTagged(t *Type, b []byte) (Value, int, error) {
	body, null, n, ok := ConsumeTagged(b)
	if !ok {
		return Value{}, 0, errs.Wrap(ErrCorrupt, "truncated %s value", t)
	}
	var v Value
	d := decoder{maxDepth: maxEncodeDepth}
	err := d.decode(&v, t, body, null, 0)
	return v, n, err
}

func (d *decoder) decode(v *Value, typ *Type, body []byte, null bool, depth int) error {
	// Field by field: a whole-struct store costs more in this hot path.
	if v.Type != typ {
		v.Type = typ
	}
	v.Null = false
	v.Uint, v.Int, v.Float = 0, 0, 0
	if v.Bytes != nil {
		v.Bytes = nil
	}
	if len(v.Elems) != 0 {
		v.Elems = v.Elems[:0]
	}
	if null {
		v.Null = true
		return nil
	}
	if depth > d.maxDepth {
		return errs.Wrap(ErrTooLarge, "value nesting deeper than %d", d.maxDepth)
	}
	t := payloadType(typ)
	var ok bool
	switch t.Kind {
	case KindUint8, KindUint16, KindUint32, KindUint64, KindEnum:
		v.Uint, ok = DecodeUint(body)
		if ok && t.Kind == KindEnum && v.Uint >= uint64(len(t.Symbols)) {
			return errs.Wrap(ErrCorrupt, "enum index %d out of range for %s", v.Uint, typ)
		}
	case KindInt8, KindInt16, KindInt32, KindInt64, KindDuration, KindTime:
		v.Int, ok = DecodeInt(body)
	case KindFloat16:
		if ok = len(body) == 2; ok {
			v.Float = float64(float16ToFloat32(uint16(body[0]) | uint16(body[1])<<8))
		}
	case KindFloat32:
		if ok = len(body) == 4; ok {
			v.Float = float64(math.Float32frombits(uint32(body[0]) | uint32(body[1])<<8 | uint32(body[2])<<16 | uint32(body[3])<<24))
		}
	case KindFloat64:
		if ok = len(body) == 8; ok {
			var u uint64
			for i := 7; i >= 0; i-- {
				u = u<<8 | uint64(body[i])
			}
			v.Float = math.Float64frombits(u)
		}
	case KindBool:
		if ok = len(body) == 1 && body[0] <= 1; ok {
			v.Uint = uint64(body[0])
		}
	case KindString, KindBytes:
		v.Bytes, ok = body, true
	case KindIP:
		v.Bytes, ok = body, len(body) == 4 || len(body) == 16
	case KindNet:
		v.Bytes, ok = body, (len(body) == 8 || len(body) == 32) && validMask(body[len(body)/2:])
	case KindType:
		v.Bytes = body
		_, err := decodeTypeValue(body, d.maxDepth, d.v2)
		ok = err == nil
	case KindNull:
		ok = false
	case KindRecord:
		v.Elems = d.resize(v.Elems, len(t.Fields))
		rest := body
		for i, f := range t.Fields {
			eb, en, n, good := ConsumeTagged(rest)
			if !good {
				return errs.Wrap(ErrCorrupt, "record field %q truncated", f.Name)
			}
			rest = rest[n:]
			if err := d.decode(&v.Elems[i], f.Type, eb, en, depth+1); err != nil {
				return err
			}
		}
		if len(rest) != 0 {
			return errs.Wrap(ErrCorrupt, "record of type %s has %d extra bytes", typ, len(rest))
		}
		return nil
	case KindArray, KindSet, KindMap:
		n, err := countTagged(body)
		if err != nil {
			return err
		}
		if t.Kind == KindMap && n%2 != 0 {
			return errs.Wrap(ErrCorrupt, "map body has an odd number of elements")
		}
		v.Elems = d.resize(v.Elems, n)
		rest := body
		for i := range v.Elems {
			et := t.Elem
			if t.Kind == KindMap && i%2 == 1 {
				et = t.Val
			}
			eb, en, k, _ := ConsumeTagged(rest)
			rest = rest[k:]
			if err := d.decode(&v.Elems[i], et, eb, en, depth+1); err != nil {
				return err
			}
		}
		return nil
	case KindUnion:
		ib, inull, n, good := ConsumeTagged(body)
		if !good || inull {
			return errs.Wrap(ErrCorrupt, "union body without a member index")
		}
		idx, good := DecodeInt(ib)
		if !good || idx < 0 || idx >= int64(len(t.Types)) {
			return errs.Wrap(ErrCorrupt, "union member index out of range for %s", typ)
		}
		eb, en, k, good := ConsumeTagged(body[n:])
		if !good || n+k != len(body) {
			return errs.Wrap(ErrCorrupt, "malformed union body of type %s", typ)
		}
		v.Uint = uint64(idx)
		v.Elems = d.resize(v.Elems, 1)
		return d.decode(&v.Elems[0], t.Types[idx], eb, en, depth+1)
	}
	if !ok {
		return errs.Wrap(ErrCorrupt, "bad %d-byte body for type %s", len(body), typ)
	}
	return nil
}

// countTagged counts the counted values in a container body.
func countTagged(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		_, _, k, ok := ConsumeTagged(b)
		if !ok {
			return 0, errs.Wrap(ErrCorrupt, "container element truncated")
		}
		b = b[k:]
		n++
	}
	return n, nil
}

func validMask(m []byte) bool {
	seenZero := false
	for _, c := range m {
		for i := 7; i >= 0; i-- {
			if c&(1<<i) == 0 {
				seenZero = true
			} else if seenZero {
				return false
			}
		}
	}
	return true
}

func float16ToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		// Subnormal: value = frac * 2^-24.
		f := float32(frac) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

func float32ToFloat16(f float32) uint16 {
	u := math.Float32bits(f)
	sign := uint16(u>>16) & 0x8000
	exp := int((u >> 23) & 0xff)
	frac := u & 0x7fffff
	if exp == 0xff {
		if frac != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		m := frac | 0x800000
		shift := uint(14 - e)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | frac>>13
	rem := frac & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++
	}
	return sign | uint16(h)
}
