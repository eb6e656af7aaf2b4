package varint

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBoundaries(t *testing.T) {
	// For every length 1..10, the smallest and largest value of that length.
	for n := 1; n <= MaxLen; n++ {
		lo := uint64(0)
		if n > 1 {
			lo = 1 << (7 * (n - 1))
		}
		hi := uint64(math.MaxUint64)
		if n < MaxLen {
			hi = 1<<(7*n) - 1
		}
		for _, v := range []uint64{lo, hi} {
			enc := Append(nil, v)
			require.Len(t, enc, n, "value %d", v)
			require.Equal(t, n, Size(v))
			// Cross-check against the standard library's encoding.
			require.Equal(t, binary.AppendUvarint(nil, v), enc)
			got, m := Consume(enc)
			require.Equal(t, n, m)
			require.Equal(t, v, got)
			// Every proper prefix is truncated.
			for k := 0; k < n; k++ {
				_, m := Consume(enc[:k])
				require.Equal(t, Truncated, m, "value %d prefix %d", v, k)
			}
			// Trailing bytes are not consumed.
			got, m = Consume(append(enc, 0xff, 0x01))
			require.Equal(t, n, m)
			require.Equal(t, v, got)
		}
	}
}

func TestGolden(t *testing.T) {
	cases := []struct {
		v   uint64
		enc []byte
	}{
		{0, []byte{0x00}},
		{1, []byte{0x01}},
		{127, []byte{0x7f}},
		{128, []byte{0x80, 0x01}},
		{300, []byte{0xac, 0x02}},
		{16383, []byte{0xff, 0x7f}},
		{16384, []byte{0x80, 0x80, 0x01}},
		{math.MaxUint64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	}
	for _, c := range cases {
		require.Equal(t, c.enc, Append(nil, c.v))
		v, n := Consume(c.enc)
		require.Equal(t, len(c.enc), n)
		require.Equal(t, c.v, v)
	}
}

func TestOverflow(t *testing.T) {
	// A 10th byte above 1 overflows.
	b := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}
	_, n := Consume(b)
	require.Equal(t, Overflow, n)
	// An 11-byte encoding (continuation in the 10th byte) overflows.
	b = []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00}
	_, n = Consume(b)
	require.Equal(t, Overflow, n)
	// Ten continuation bytes: overflow as soon as it is certain, even with
	// no further input (encoding/binary would say truncated).
	_, n = Consume([]byte{0xff, 0xff, 0xbd, 0xbd, 0xbd, 0xbd, 0xbd, 0xbd, 0xbd, 0xbd})
	require.Equal(t, Overflow, n)
	// Non-minimal but in-range encodings are accepted (as encoding/binary does).
	v, n := Consume([]byte{0x80, 0x00})
	require.Equal(t, 2, n)
	require.Zero(t, v)
	_, n = Consume(nil)
	require.Equal(t, Truncated, n)
}

func TestRead(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 300, 1 << 35, math.MaxUint64} {
		enc := Append(nil, v)
		r := bytes.NewReader(append(enc, 0x05))
		got, n, err := Read(r)
		require.NoError(t, err)
		require.Equal(t, v, got)
		require.Equal(t, len(enc), n)
		next, _ := r.ReadByte()
		require.Equal(t, byte(0x05), next, "reads no further than the varint")
		for k := 1; k < len(enc); k++ {
			_, _, err := Read(bytes.NewReader(enc[:k]))
			require.ErrorIs(t, err, io.ErrUnexpectedEOF)
		}
	}
	_, n, err := Read(bytes.NewReader(nil))
	require.ErrorIs(t, err, io.EOF)
	require.Zero(t, n)
	_, _, err = Read(bytes.NewReader([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}))
	require.ErrorIs(t, err, ErrOverflow)
	_, _, err = Read(bytes.NewReader([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00}))
	require.ErrorIs(t, err, ErrOverflow)
}

func TestZigzag(t *testing.T) {
	cases := []struct {
		s int64
		u uint64
	}{{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2, 4}, {math.MaxInt64, math.MaxUint64 - 1}, {math.MinInt64, math.MaxUint64}}
	for _, c := range cases {
		require.Equal(t, c.u, EncodeZigzag(c.s))
		require.Equal(t, c.s, DecodeZigzag(c.u))
		enc := AppendSigned(nil, c.s)
		require.Equal(t, binary.AppendVarint(nil, c.s), enc)
		require.Equal(t, len(enc), SizeSigned(c.s))
		got, n := ConsumeSigned(enc)
		require.Equal(t, len(enc), n)
		require.Equal(t, c.s, got)
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(0), int64(0), []byte{0x80})
	f.Add(uint64(math.MaxUint64), int64(math.MinInt64), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, u uint64, s int64, raw []byte) {
		enc := Append(nil, u)
		if len(enc) != Size(u) {
			t.Fatalf("Size(%d)=%d, encoded %d", u, Size(u), len(enc))
		}
		if v, n := Consume(enc); n != len(enc) || v != u {
			t.Fatalf("round trip %d: got %d,%d", u, v, n)
		}
		if v, n := ConsumeSigned(AppendSigned(nil, s)); n <= 0 || v != s {
			t.Fatalf("signed round trip %d: got %d,%d", s, v, n)
		}
		// Arbitrary bytes: agree with encoding/binary on success, and on the
		// kind of failure.
		v, n := Consume(raw)
		sv, sn := binary.Uvarint(raw)
		switch {
		case n > 0:
			if sn != n || sv != v {
				t.Fatalf("%x: got %d,%d want %d,%d", raw, v, n, sv, sn)
			}
		case n == Truncated:
			if sn != 0 {
				t.Fatalf("%x: truncated, std says %d", raw, sn)
			}
		case n == Overflow:
			// encoding/binary reports 10 continuation bytes at the end of
			// the input as truncated; we already know no 64-bit value can
			// follow and say overflow.
			if sn > 0 || (sn == 0 && !(len(raw) >= MaxLen && raw[MaxLen-1] >= 0x80)) {
				t.Fatalf("%x: overflow, std says %d", raw, sn)
			}
		default:
			t.Fatalf("unexpected n %d", n)
		}
	})
}

var sink uint64

func BenchmarkAppend(b *testing.B) {
	vals := benchValues()
	buf := make([]byte, 0, len(vals)*MaxLen)
	b.ReportAllocs()
	b.SetBytes(int64(len(vals)) * 8)
	for i := 0; i < b.N; i++ {
		buf = buf[:0]
		for _, v := range vals {
			buf = Append(buf, v)
		}
	}
}

func BenchmarkConsume(b *testing.B) {
	vals := benchValues()
	var enc []byte
	for _, v := range vals {
		enc = Append(enc, v)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(enc)))
	for i := 0; i < b.N; i++ {
		for p := enc; len(p) > 0; {
			v, n := Consume(p)
			sink += v
			p = p[n:]
		}
	}
}

// BenchmarkStdUvarint is the baseline: encoding/binary on the same input.
func BenchmarkStdUvarint(b *testing.B) {
	vals := benchValues()
	var enc []byte
	for _, v := range vals {
		enc = Append(enc, v)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(enc)))
	for i := 0; i < b.N; i++ {
		for p := enc; len(p) > 0; {
			v, n := binary.Uvarint(p)
			sink += v
			p = p[n:]
		}
	}
}

// benchValues mixes lengths the way real columns do: mostly short.
func benchValues() []uint64 {
	vals := make([]uint64, 4096)
	x := uint64(88172645463325252)
	for i := range vals {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		switch i % 8 {
		case 0, 1, 2, 3:
			vals[i] = x & 0x7f
		case 4, 5:
			vals[i] = x & 0x3fff
		case 6:
			vals[i] = x & 0xffffffff
		default:
			vals[i] = x
		}
	}
	return vals
}
