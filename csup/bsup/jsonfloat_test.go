package bsup

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// refJSONFloat is appendJSONFloat without its fast path: strconv's
// shortest form, exponent outside [1e-6, 1e21).
func refJSONFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return `"NaN"`
	case math.IsInf(f, 1):
		return `"+Inf"`
	case math.IsInf(f, -1):
		return `"-Inf"`
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, bits)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}

// The whole-thousandths fast path writes what strconv writes.
func TestAppendJSONFloatFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(f float64) {
		t.Helper()
		if got, want := string(appendJSONFloat(nil, f, 64)), refJSONFloat(f, 64); got != want {
			t.Fatalf("%v (%x): got %s, want %s", f, math.Float64bits(f), got, want)
		}
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1e-3, -1e-3, 0.1, 0.3, 1.5, -2.25, 12.375, 1 << 40, 1<<40 - 0.001, 999.999, 1e-4, 123456789.125, 0.001 * 3, 1.0 / 3, math.Nextafter(0.3, 1), math.Nextafter(12.375, 0)} {
		check(f)
		check(-f)
	}
	for i := 0; i < 2_000_000; i++ {
		var f float64
		switch i % 5 {
		case 0:
			f = float64(r.Int64N(1<<43)-1<<42) / 1000
		case 1:
			f = float64(r.Int64N(1_000_000)) / 8
		case 2:
			f = r.Float64() * math.Pow(10, float64(r.IntN(16)-4))
		case 3:
			f = math.Float64frombits(r.Uint64())
		default:
			f = math.Nextafter(float64(r.Int64N(1<<30))/1000, math.Inf(int(r.IntN(2))*2-1))
		}
		check(f)
	}
}
