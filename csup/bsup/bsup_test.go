package bsup_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/csup/internal/testgen"
	"github.com/stretchr/testify/require"
)

func roundTrip(t testing.TB, vals []bsup.Value, opts ...bsup.Option) []bsup.Value {
	t.Helper()
	var buf bytes.Buffer
	w, err := bsup.NewWriter(&buf, opts...)
	require.NoError(t, err)
	for _, v := range vals {
		require.NoError(t, w.Write(v))
	}
	require.NoError(t, w.Close())
	return readAll(t, buf.Bytes())
}

func readAll(t testing.TB, b []byte, opts ...bsup.Option) []bsup.Value {
	t.Helper()
	r, err := bsup.NewReader(bytes.NewReader(b), opts...)
	require.NoError(t, err)
	var out []bsup.Value
	for {
		v, err := r.Read()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		out = append(out, v)
	}
}

func TestRoundTripGenerated(t *testing.T) {
	g := testgen.New(1)
	var vals []bsup.Value
	for i := 0; i < 3000; i++ {
		vals = append(vals, g.Value(g.Type(4)))
	}
	for _, opts := range [][]bsup.Option{nil, {bsup.WithCompression(false)}, {bsup.WithFrameThreshold(100)}} {
		got := roundTrip(t, vals, opts...)
		require.Len(t, got, len(vals))
		for i := range vals {
			require.True(t, bsup.Equal(vals[i], got[i]), "value %d: %s vs %s", i,
				bsup.AppendJSON(nil, vals[i], bsup.JSONSuper), bsup.AppendJSON(nil, got[i], bsup.JSONSuper))
		}
	}
}

// The example bytes of the implementer notes, §1.3 (from primitives.zst).
func TestPrimitiveBodies(t *testing.T) {
	cases := []struct {
		v   bsup.Value
		hex string
	}{
		{bsup.NewUint(bsup.TypeUint8, 255), "02ff"},
		{bsup.NewUint(bsup.TypeUint8, 0), "01"},
		{bsup.NewInt(bsup.TypeInt64, 1), "0202"},
		{bsup.NewInt(bsup.TypeInt64, -1), "0203"},
		{bsup.NewInt(bsup.TypeInt32, -300), "035902"},
		{bsup.NewInt(bsup.TypeDuration, 1e9), "0500943577"},
		{bsup.NewInt(bsup.TypeTime, 0), "01"},
		{bsup.NewFloat(bsup.TypeFloat32, 2.5), "0500002040"},
		{bsup.NewBool(true), "0201"},
		{bsup.NewBytes(nil), "01"},
		{bsup.NewString(""), "01"},
		{bsup.Value{Type: bsup.TypeIP, Bytes: []byte{10, 0, 0, 1}}, "050a000001"},
		{bsup.Value{Type: bsup.TypeNet, Bytes: []byte{10, 0, 0, 0, 255, 0, 0, 0}}, "090a000000ff000000"},
		{bsup.NewNull(bsup.TypeNull), "00"},
		{bsup.NewUint(bsup.NewEnum([]string{"red", "green", "blue"}), 2), "0202"},
		{bsup.NewInt(bsup.TypeInt64, math.MinInt64), "0201"},
	}
	for _, c := range cases {
		b, err := bsup.AppendTagged(nil, c.v)
		require.NoError(t, err)
		require.Equal(t, c.hex, hex.EncodeToString(b), c.v.Type.String())
		want, _ := hex.DecodeString(c.hex)
		got, n, err := bsup.DecodeTagged(c.v.Type, want)
		require.NoError(t, err)
		require.Equal(t, len(want), n)
		require.True(t, bsup.Equal(c.v, got), c.v.Type.String())
	}
}

func TestLongTag(t *testing.T) {
	s := strings.Repeat("x", 300)
	b, err := bsup.AppendTagged([]byte{9}, bsup.NewString(s))
	require.NoError(t, err)
	require.Equal(t, []byte{9, 0xad, 0x02}, b[:3])
	v, _, err := bsup.DecodeTagged(bsup.TypeString, b[1:])
	require.NoError(t, err)
	require.Equal(t, s, string(v.Bytes))
}

func TestFormatDuration(t *testing.T) {
	const s = int64(1e9)
	for in, want := range map[int64]string{
		0: "0s", 1e9: "1s", -2e6: "-2ms", 1230e6: "1.23s", 2716e3: "2.716ms", 1234: "1.234us", 123: "123ns",
		3600 * s: "1h", (7*24*3600 + 12*3600) * s * 3 / 2 / 3 * 2: "7d12h", 2*365*24*3600*s + 3*24*3600*s + 5*3600*s + 24*60*s + s: "2y3d5h24m1s",
		9793714061 + 2*3600*s + 43*60*s: "2h43m9.793714061s", math.MinInt64: "-292y171d23h47m16.854775808s",
	} {
		require.Equal(t, want, bsup.FormatDuration(in), in)
	}
}

func TestJSONFloats(t *testing.T) {
	for _, c := range []struct {
		t    *bsup.Type
		f    float64
		want string
	}{
		{bsup.TypeFloat64, 1e300, "1e+300"}, {bsup.TypeFloat64, -0.25, "-0.25"}, {bsup.TypeFloat64, 1e-7, "1e-7"},
		{bsup.TypeFloat32, float64(float32(0.1)), "0.1"}, {bsup.TypeFloat32, -1, "-1"}, {bsup.TypeFloat64, 1e20, "100000000000000000000"},
		{bsup.TypeFloat64, math.NaN(), `"NaN"`},
	} {
		require.Equal(t, c.want, string(bsup.AppendJSON(nil, bsup.NewFloat(c.t, c.f), bsup.JSONZed)))
	}
	require.Equal(t, `"a\"\\\n\u0001<>&\ufffd\u2028"`, string(bsup.AppendJSON(nil, bsup.NewString("a\"\\\n\x01<>&\xff\u2028"), bsup.JSONZed)))
}

// The trailer of hello.zst is a standalone Super Binary stream with an LZ4
// types frame and named types (notes §1.7).
func TestReadZSTTrailer(t *testing.T) {
	b, err := os.ReadFile("../testdata/zst-v2_zed-v1.2.0/hello.zst")
	require.NoError(t, err)
	tr := b[0x76:]
	require.True(t, bsup.IsStream(tr))
	vals := readAll(t, tr)
	require.Len(t, vals, 1)
	require.Equal(t, "zngio.Trailer", vals[0].Type.Name)
	require.Equal(t, `{"magic":"ZNG Trailer","type":"zst","version":2,"sections":[31,87],"meta":{"skew_thresh":26214400,"segment_thresh":5242880}}`,
		string(bsup.AppendJSON(nil, vals[0], bsup.JSONZed)))
	// The reassembly section is a stream too: 2N+1 = 3 values.
	vals = readAll(t, b[31:31+87])
	require.Len(t, vals, 3)
	require.True(t, vals[0].Null)
	require.Equal(t, "{a:string,b:string}", vals[0].Type.String())
}

func TestBadInput(t *testing.T) {
	valid := func() []byte {
		var buf bytes.Buffer
		w, _ := bsup.NewWriter(&buf, bsup.WithCompression(false))
		rt := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}})
		require.NoError(t, w.Write(bsup.NewRecordValue(rt, bsup.NewString(strings.Repeat("hello", 20)))))
		require.NoError(t, w.Close())
		return buf.Bytes()
	}
	read := func(b []byte, opts ...bsup.Option) error {
		r, err := bsup.NewReader(bytes.NewReader(b), opts...)
		require.NoError(t, err)
		for {
			_, err := r.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	require.NoError(t, read(valid()))
	for name, c := range map[string]struct {
		b    []byte
		want error
		opts []bsup.Option
	}{
		"truncated":         {valid()[:8], bsup.ErrCorrupt, nil},
		"bit7 code":         {[]byte{0x80, 0}, bsup.ErrCorrupt, nil},
		"frame type 3":      {[]byte{0x30, 0}, bsup.ErrCorrupt, nil},
		"version 5":         {[]byte{0x85, 0x10, 0}, bsup.ErrUnsupported, nil},
		"v2 then v0 frame":  {[]byte{0x82, 0x00, 0x00, 0x10, 0}, bsup.ErrCorrupt, nil},
		"v2 fusion typedef": {[]byte{0x82, 0x02, 0x00, 0x08, 0x19, 0xff}, bsup.ErrUnsupported, nil},
		"v2 optional field": {[]byte{0x82, 0x06, 0x00, 0x00, 0x01, 0x01, 0x61, 0x19, 0x01, 0xff}, bsup.ErrUnsupported, nil},
		"huge frame":        {[]byte{0x10, 0xff, 0xff, 0xff, 0xff, 0x0f}, bsup.ErrTooLarge, nil},
		"frame over limit":  {valid(), bsup.ErrTooLarge, []bsup.Option{bsup.WithMaxFrameSize(16)}},
		"unknown type":      {[]byte{0x13, 0x00, 0x63, 0x01, 0xff}, bsup.ErrCorrupt, nil},
		"bad typedef":       {[]byte{0x01, 0x09, 0xff}, bsup.ErrCorrupt, nil},
		"lz4 lie":           {[]byte{0x54, 0x00, 0x00, 0xff, 0xff, 0x03, 0x00, 0xff}, bsup.ErrCorrupt, nil},
		"bad compression":   {[]byte{0x54, 0x00, 0x07, 0x01, 0x00, 0x00, 0xff}, bsup.ErrUnsupported, nil},
		"deep types":        {deepTypes(50), bsup.ErrTooLarge, []bsup.Option{bsup.WithMaxDepth(20)}},
		"too many types":    {deepTypes(5), bsup.ErrTooLarge, []bsup.Option{bsup.WithMaxTypes(2)}},
		"bad bool":          {[]byte{0x13, 0x00, 0x17, 0x02, 0x07, 0xff}, bsup.ErrCorrupt, nil},
		"value past frame":  {[]byte{0x12, 0x00, 0x19, 0x05, 0xff}, bsup.ErrCorrupt, nil},
		"record extra byte": {[]byte{0x04, 0x00, 0x00, 0x01, 0x01, 0x61, 0x19, 0x15, 0x00, 0x1e, 0x04, 0x02, 0x61, 0x00, 0x00, 0xff}, bsup.ErrCorrupt, nil},
	} {
		err := read(c.b, c.opts...)
		require.Error(t, err, name)
		require.True(t, errors.Is(err, c.want), "%s: %v", name, err)
		var ce *bsup.CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v has no location", name, err)
	}
}

// deepTypes returns a stream defining n nested array types.
func deepTypes(n int) []byte {
	var defs []byte
	for i := 0; i < n; i++ {
		id := byte(9)
		if i > 0 {
			id = byte(30 + i - 1)
		}
		defs = append(defs, 1, id)
	}
	return append([]byte{byte(len(defs) & 0xf), byte(len(defs) >> 4)}, append(defs, 0xff)...)
}

// After an end of stream the type table resets: a second stream may give
// ID 30 another type. Control frames are skipped.
func TestConcatenatedStreamsAndControlFrames(t *testing.T) {
	var buf bytes.Buffer
	w, err := bsup.NewWriter(&buf)
	require.NoError(t, err)
	recA := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}})
	recB := bsup.NewRecord([]bsup.Field{{Name: "b", Type: bsup.TypeInt64}})
	require.NoError(t, w.Write(bsup.NewRecordValue(recA, bsup.NewString("x"))))
	require.NoError(t, w.EndStream())
	buf.Write([]byte{0x25, 0x00, 1, '{', '}', '\n', 'z'}) // control frame: JSON, 5 bytes
	require.NoError(t, w.Write(bsup.NewRecordValue(recB, bsup.NewInt(bsup.TypeInt64, 7))))
	require.NoError(t, w.Close())
	// Without the reset, the second stream's value (type ID 30) would be
	// read as {a:string}.
	r, err := bsup.NewReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	v1, err := r.Read()
	require.NoError(t, err)
	v2, err := r.Read()
	require.NoError(t, err)
	_, err = r.Read()
	require.ErrorIs(t, err, io.EOF)
	require.Equal(t, 2, r.EndsOfStream())
	require.Equal(t, `{"a":"x"}`, string(bsup.AppendJSON(nil, v1, bsup.JSONZed)))
	require.Equal(t, `{"b":7}`, string(bsup.AppendJSON(nil, v2, bsup.JSONZed)))
	require.Equal(t, "{b:int64}", v2.Type.String())
}
