package bsup_test

import (
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/stretchr/testify/require"
)

// Types that share subtypes (each level uses the one below twice) have a
// tree form of 2^depth nodes: String, SameType and writing stay linear.
func TestSharedSubtypes(t *testing.T) {
	build := func() *bsup.Type {
		typ := bsup.TypeInt64
		for i := 0; i < 80; i++ {
			typ = bsup.NewRecord([]bsup.Field{{Name: "a", Type: typ}, {Name: "b", Type: typ}})
		}
		return typ
	}
	a, b := build(), build()
	require.True(t, bsup.SameType(a, b))
	require.False(t, bsup.SameType(a, bsup.NewRecord([]bsup.Field{{Name: "a", Type: a.Fields[0].Type}, {Name: "b", Type: bsup.TypeString}})))
	s := a.String()
	require.LessOrEqual(t, len(s), 4200)
	require.True(t, strings.HasSuffix(s, "…"))
	var buf strings.Builder
	w, err := bsup.NewWriter(&buf)
	require.NoError(t, err)
	require.NoError(t, w.Write(bsup.NewNull(a)))
	require.NoError(t, w.Write(bsup.NewNull(b)))
	require.NoError(t, w.Close())
	require.Less(t, buf.Len(), 2000)
}

// Every float16 bit pattern decodes and re-encodes to itself (NaNs stay
// NaN), and float32 values round to the nearest float16, ties to even.
func TestFloat16(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		body := []byte{byte(h), byte(h >> 8)}
		v, err := bsup.DecodeBody(bsup.TypeFloat16, body)
		require.NoError(t, err)
		out, err := bsup.AppendValueBody(nil, v)
		require.NoError(t, err)
		got := int(out[0]) | int(out[1])<<8
		if math.IsNaN(v.Float) {
			require.True(t, got&0x7c00 == 0x7c00 && got&0x3ff != 0, "NaN %04x -> %04x", h, got)
			continue
		}
		require.Equal(t, h, got, "%04x (%g)", h, v.Float)
	}
	enc := func(f float64) int {
		out, err := bsup.AppendValueBody(nil, bsup.NewFloat(bsup.TypeFloat16, f))
		require.NoError(t, err)
		return int(out[0]) | int(out[1])<<8
	}
	require.Equal(t, 0x3c00, enc(1))
	require.Equal(t, 0x3c00, enc(1+1.0/4096))         // below half an ulp: down
	require.Equal(t, 0x3c01, enc(1+3.0/4096))         // above half: up
	require.Equal(t, 0x3c00, enc(1+1.0/2048))         // tie: to even (down)
	require.Equal(t, 0x3c02, enc(1+3.0/2048))         // tie: to even (up)
	require.Equal(t, 0x7c00, enc(70000))              // overflow: +Inf
	require.Equal(t, 0x0001, enc(math.Ldexp(1, -24))) // smallest subnormal
	require.Equal(t, 0x0000, enc(math.Ldexp(1, -26))) // underflow
	require.Equal(t, 0xfc00, enc(math.Inf(-1)))
}

func TestValueHelpers(t *testing.T) {
	tm := time.Date(2024, 6, 30, 12, 34, 56, 789e6, time.UTC)
	require.Equal(t, tm, bsup.NewTime(tm).Time())
	ip := netip.MustParseAddr("fe80::1")
	require.Equal(t, ip, bsup.NewIP(ip).Addr())
	p := netip.MustParsePrefix("10.1.2.3/8")
	require.Equal(t, "10.0.0.0/8", bsup.NewNet(p).Prefix().String())
	require.True(t, bsup.NewBool(true).Bool())
	rec := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}})
	v := bsup.NewRecordValue(bsup.NewNamed("r", rec), bsup.NewString("x"))
	f, ok := v.Field("a")
	require.True(t, ok)
	require.Equal(t, "x", string(f.Bytes))
	_, ok = v.Field("b")
	require.False(t, ok)
	require.Equal(t, rec, v.Type.Underlying())
	require.Equal(t, 2, v.Type.Depth()) // the name is a level
	require.Equal(t, `{"a":"x"}`, string(bsup.AppendJSON(nil, v, bsup.JSONZed)))
	require.Equal(t, `{"error":"boom"}`, string(bsup.AppendJSON(nil, bsup.Value{Type: bsup.NewError(bsup.TypeString), Bytes: []byte("boom")}, bsup.JSONZed)))
	tv := bsup.Value{Type: bsup.TypeType, Bytes: bsup.AppendTypeValue(nil, bsup.NewNamed("p", rec))}
	require.Equal(t, `"<p>"`, string(bsup.AppendJSON(nil, tv, bsup.JSONZed)))
	back, err := bsup.DecodeTypeValue(tv.Bytes, 10)
	require.NoError(t, err)
	require.Equal(t, "p={a:string}", back.Key())
	mt := bsup.NewMap(bsup.TypeString, bsup.TypeInt64)
	mrec := bsup.NewRecord([]bsup.Field{{Name: "m", Type: mt}})
	mv := bsup.NewRecordValue(mrec, bsup.Value{Type: mt, Elems: []bsup.Value{bsup.NewString("k"), bsup.NewInt(bsup.TypeInt64, 1)}})
	require.Equal(t, `{"m":{"k":1}}`, string(bsup.AppendJSON(nil, mv, bsup.JSONSuper)))
	require.Equal(t, `{"m":[{"key":"k","value":1}]}`, string(bsup.AppendJSON(nil, mv, bsup.JSONZed)))
}
