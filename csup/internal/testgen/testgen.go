// Package testgen generates random Super types and values of every kind for
// the round-trip tests and fuzz targets of csup and csup/bsup.
package testgen

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/colfmt/colfmt/csup/bsup"
)

// Gen draws types and values from a seeded source.
type Gen struct {
	R *rand.Rand
	// NullRate is the chance, in percent, that a value is null.
	NullRate int
}

// New returns a generator seeded with seed.
func New(seed uint64) *Gen {
	return &Gen{R: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), NullRate: 15}
}

// Primitives lists every primitive type.
var Primitives = []*bsup.Type{
	bsup.TypeUint8, bsup.TypeUint16, bsup.TypeUint32, bsup.TypeUint64,
	bsup.TypeInt8, bsup.TypeInt16, bsup.TypeInt32, bsup.TypeInt64,
	bsup.TypeDuration, bsup.TypeTime, bsup.TypeFloat16, bsup.TypeFloat32, bsup.TypeFloat64,
	bsup.TypeBool, bsup.TypeBytes, bsup.TypeString, bsup.TypeIP, bsup.TypeNet, bsup.TypeType, bsup.TypeNull,
}

// Type returns a random type nesting at most depth levels.
func (g *Gen) Type(depth int) *bsup.Type {
	if depth <= 0 || g.R.IntN(3) == 0 {
		return Primitives[g.R.IntN(len(Primitives))]
	}
	switch g.R.IntN(8) {
	case 0, 1:
		n := 1 + g.R.IntN(4)
		fields := make([]bsup.Field, n)
		for i := range fields {
			fields[i] = bsup.Field{Name: "f" + strconv.Itoa(i), Type: g.Type(depth - 1)}
		}
		return bsup.NewRecord(fields)
	case 2:
		return bsup.NewArray(g.Type(depth - 1))
	case 3:
		return bsup.NewSet(g.Type(depth - 1))
	case 4:
		return bsup.NewMap(g.Type(depth-1), g.Type(depth-1))
	case 5:
		// Members must differ; mix a record with primitives.
		return bsup.NewUnion([]*bsup.Type{bsup.TypeInt64, bsup.TypeString, g.Type(depth - 1)})
	case 6:
		return bsup.NewEnum([]string{"red", "green", "blue"})
	default:
		if g.R.IntN(2) == 0 {
			return bsup.NewError(g.Type(depth - 1))
		}
		return bsup.NewNamed("n"+strconv.Itoa(g.R.IntN(3)), g.Type(depth-1))
	}
}

// Value returns a random value of t.
func (g *Gen) Value(t *bsup.Type) bsup.Value {
	u := t
	for u.Kind == bsup.KindNamed || u.Kind == bsup.KindError {
		u = u.Elem
	}
	if u.Kind == bsup.KindNull || g.R.IntN(100) < g.NullRate {
		return bsup.NewNull(t)
	}
	v := bsup.Value{Type: t}
	switch u.Kind {
	case bsup.KindUint8:
		v.Uint = uint64(g.R.IntN(256))
	case bsup.KindUint16:
		v.Uint = uint64(g.R.IntN(1 << 16))
	case bsup.KindUint32:
		v.Uint = uint64(g.R.Uint32())
	case bsup.KindUint64:
		v.Uint = g.pick64()
	case bsup.KindInt8:
		v.Int = int64(int8(g.R.Uint32()))
	case bsup.KindInt16:
		v.Int = int64(int16(g.R.Uint32()))
	case bsup.KindInt32:
		v.Int = int64(int32(g.R.Uint32()))
	case bsup.KindInt64, bsup.KindDuration, bsup.KindTime:
		v.Int = int64(g.pick64())
	case bsup.KindFloat16:
		v.Float = float64(g.R.IntN(2000)-1000) / 4
	case bsup.KindFloat32:
		v.Float = float64(float32(g.R.NormFloat64() * 1e3))
	case bsup.KindFloat64:
		switch g.R.IntN(10) {
		case 0:
			v.Float = math.Inf(-1)
		case 1:
			v.Float = math.MaxFloat64
		default:
			v.Float = g.R.NormFloat64() * 1e6
		}
	case bsup.KindBool:
		v.Uint = uint64(g.R.IntN(2))
	case bsup.KindBytes, bsup.KindString:
		b := make([]byte, g.R.IntN(12))
		for i := range b {
			b[i] = byte('a' + g.R.IntN(26))
		}
		if u.Kind == bsup.KindBytes && len(b) > 0 {
			b[0] = 0xff
		}
		v.Bytes = b
	case bsup.KindIP:
		if g.R.IntN(2) == 0 {
			v.Bytes = []byte{10, byte(g.R.IntN(256)), 0, 1}
		} else {
			v.Bytes = []byte{0xfe, 0x80, 15: byte(g.R.IntN(256))}
		}
	case bsup.KindNet:
		v.Bytes = []byte{10, byte(g.R.IntN(256)), 0, 0, 255, 255, 0, 0}
	case bsup.KindType:
		v.Bytes = bsup.AppendTypeValue(nil, g.Type(2))
	case bsup.KindRecord:
		v.Elems = make([]bsup.Value, len(u.Fields))
		for i, f := range u.Fields {
			v.Elems[i] = g.Value(f.Type)
		}
	case bsup.KindArray, bsup.KindSet:
		n := g.R.IntN(4)
		v.Elems = make([]bsup.Value, n)
		for i := range v.Elems {
			v.Elems[i] = g.Value(u.Elem)
		}
	case bsup.KindMap:
		n := g.R.IntN(3)
		v.Elems = make([]bsup.Value, 2*n)
		for i := 0; i < n; i++ {
			v.Elems[2*i] = g.Value(u.Elem)
			v.Elems[2*i+1] = g.Value(u.Val)
		}
	case bsup.KindUnion:
		tag := g.R.IntN(len(u.Types))
		v.Uint = uint64(tag)
		v.Elems = []bsup.Value{g.Value(u.Types[tag])}
	case bsup.KindEnum:
		v.Uint = uint64(g.R.IntN(len(u.Symbols)))
	}
	return v
}

func (g *Gen) pick64() uint64 {
	switch g.R.IntN(6) {
	case 0:
		return 0
	case 1:
		return math.MaxInt64
	case 2:
		return 1 << 63 // MinInt64 as a signed value
	case 3:
		return uint64(g.R.IntN(1000))
	}
	return g.R.Uint64()
}
