package bsup

import (
	"encoding/hex"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// JSONStyle selects how AppendJSON renders the types JSON cannot express.
// JSONRawTime may be or-ed into either style.
type JSONStyle int

const (
	// JSONZed renders as zed v1.x `zq -j` does: a map is an array of
	// {"key":…,"value":…} objects and an empty map is null.
	JSONZed JSONStyle = 0
	// JSONSuper renders as `super -f json` does: a map is an object whose
	// keys are the map keys as text.
	JSONSuper JSONStyle = 1
	// JSONRawTime writes time and duration as their stored integer
	// nanoseconds instead of text.
	JSONRawTime JSONStyle = 2
)

// AppendJSON appends v as one line of JSON (no newline). Records keep their
// field order; unions and named types render their value; an error is
// {"error":<value>}; time is RFC 3339 with nanoseconds in UTC; duration is
// zed's duration text ("1h2m3s", "-2ms"); bytes are "0x…"; ip and net are
// their text; a type value is "<type>". Strings are escaped as Go's
// encoding/json does with HTML escaping off. Float NaN and infinities,
// which JSON lacks, are written as the strings "NaN", "+Inf" and "-Inf".
func AppendJSON(dst []byte, v Value, style JSONStyle) []byte {
	if v.Null || v.Type == nil {
		return append(dst, "null"...)
	}
	t := v.Type
	for t.Kind == KindNamed {
		t = t.Elem
	}
	switch t.Kind {
	case KindUint8, KindUint16, KindUint32, KindUint64:
		return strconv.AppendUint(dst, v.Uint, 10)
	case KindInt8, KindInt16, KindInt32, KindInt64:
		return strconv.AppendInt(dst, v.Int, 10)
	case KindDuration:
		if style&JSONRawTime != 0 {
			return strconv.AppendInt(dst, v.Int, 10)
		}
		return appendJSONString(dst, FormatDuration(v.Int))
	case KindTime:
		if style&JSONRawTime != 0 {
			return strconv.AppendInt(dst, v.Int, 10)
		}
		return appendJSONString(dst, time.Unix(0, v.Int).UTC().Format(time.RFC3339Nano))
	case KindFloat16, KindFloat32:
		return appendJSONFloat(dst, v.Float, 32)
	case KindFloat64:
		return appendJSONFloat(dst, v.Float, 64)
	case KindBool:
		if v.Uint != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case KindBytes:
		dst = append(dst, `"0x`...)
		dst = hex.AppendEncode(dst, v.Bytes)
		return append(dst, '"')
	case KindString:
		return appendJSONString(dst, string(v.Bytes))
	case KindIP:
		return appendJSONString(dst, v.Addr().String())
	case KindNet:
		return appendJSONString(dst, v.Prefix().String())
	case KindType:
		tt, err := DecodeTypeValue(v.Bytes, DefaultMaxDepth)
		if err != nil {
			return append(dst, "null"...)
		}
		return appendJSONString(dst, "<"+tt.String()+">")
	case KindRecord:
		dst = append(dst, '{')
		for i, f := range t.Fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, f.Name)
			dst = append(dst, ':')
			if i < len(v.Elems) {
				dst = AppendJSON(dst, v.Elems[i], style)
			} else {
				dst = append(dst, "null"...)
			}
		}
		return append(dst, '}')
	case KindArray, KindSet:
		dst = append(dst, '[')
		for i := range v.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, v.Elems[i], style)
		}
		return append(dst, ']')
	case KindMap:
		if style&JSONSuper != 0 {
			dst = append(dst, '{')
			for i := 0; i+1 < len(v.Elems); i += 2 {
				if i > 0 {
					dst = append(dst, ',')
				}
				k := v.Elems[i]
				if PayloadKind(k.Type) == KindString && !k.Null {
					dst = appendJSONString(dst, string(k.Bytes))
				} else {
					dst = appendJSONString(dst, string(AppendJSON(nil, k, style)))
				}
				dst = append(dst, ':')
				dst = AppendJSON(dst, v.Elems[i+1], style)
			}
			return append(dst, '}')
		}
		if len(v.Elems) == 0 {
			return append(dst, "null"...)
		}
		dst = append(dst, '[')
		for i := 0; i+1 < len(v.Elems); i += 2 {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"key":`...)
			dst = AppendJSON(dst, v.Elems[i], style)
			dst = append(dst, `,"value":`...)
			dst = AppendJSON(dst, v.Elems[i+1], style)
			dst = append(dst, '}')
		}
		return append(dst, ']')
	case KindUnion:
		if len(v.Elems) == 1 {
			return AppendJSON(dst, v.Elems[0], style)
		}
		return append(dst, "null"...)
	case KindEnum:
		if v.Uint < uint64(len(t.Symbols)) {
			return appendJSONString(dst, t.Symbols[v.Uint])
		}
		return appendJSONString(dst, "<bad enum>")
	case KindError:
		dst = append(dst, `{"error":`...)
		inner := v
		inner.Type = t.Elem
		dst = AppendJSON(dst, inner, style)
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// AppendJSONFloat appends f as AppendJSON writes a float of the given
// width (32 for float16 and float32, 64 for float64).
func AppendJSONFloat(dst []byte, f float64, bits int) []byte {
	if bits != 32 {
		bits = 64
	}
	return appendJSONFloat(dst, f, bits)
}

// AppendJSONString appends s as AppendJSON writes a string (quoted,
// escaped, invalid UTF-8 replaced).
func AppendJSONString(dst []byte, s []byte) []byte { return appendJSONString(dst, string(s)) }

// appendJSONFloat formats as encoding/json does: shortest representation,
// exponent form outside [1e-6, 1e21).
func appendJSONFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"+Inf"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Inf"`...)
	}
	abs := math.Abs(f)
	if bits == 64 && abs >= 1e-3 && abs < 1<<40 {
		// Fast path for values that are whole thousandths (most data):
		// when mi/1000 rounds to f, its decimal is f's shortest form, as
		// no decimal of fewer digits lies within half an ulp (< 1e-4).
		if mi := int64(f * 1000); float64(mi)/1000 == f {
			return appendThousandths(dst, mi)
		}
	}
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// e-07 becomes e-7, as encoding/json writes it.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// appendThousandths appends m/1000 in decimal, without trailing zeros
// in the fraction (and without a point when it is whole).
func appendThousandths(dst []byte, m int64) []byte {
	if m < 0 {
		dst = append(dst, '-')
		m = -m
	}
	dst = strconv.AppendInt(dst, m/1000, 10)
	frac := m % 1000
	if frac == 0 {
		return dst
	}
	d := [3]byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
	n := 3
	for d[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, d[:n]...)
}

const hexDigits = "0123456789abcdef"

func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// FormatDuration formats nanoseconds as zed does: years, days, hours and
// minutes as whole units, then seconds, milliseconds, microseconds or
// nanoseconds with a decimal fraction ("1y2d3h4m5.5s", "-2ms", "0s").
func FormatDuration(ns int64) string {
	if ns == math.MinInt64 {
		return "-292y171d23h47m16.854775808s"
	}
	if ns == 0 {
		return "0s"
	}
	var b []byte
	if ns < 0 {
		ns = -ns
		b = append(b, '-')
	}
	const (
		second = int64(1_000_000_000)
		minute = 60 * second
		hour   = 60 * minute
		day    = 24 * hour
		year   = 365 * day
	)
	units := [...]struct {
		name string
		size int64
	}{{"y", year}, {"d", day}, {"h", hour}, {"m", minute}}
	for _, u := range units {
		if ns >= u.size {
			b = strconv.AppendInt(b, ns/u.size, 10)
			b = append(b, u.name...)
			ns %= u.size
			if ns == 0 {
				return string(b)
			}
		}
	}
	fixed := func(scale int64, unit string) {
		b = strconv.AppendInt(b, ns/scale, 10)
		if rem := ns % scale; rem != 0 {
			b = append(b, '.')
			for scale /= 10; rem > 0; scale /= 10 {
				b = append(b, byte('0'+rem/scale))
				rem %= scale
			}
		}
		b = append(b, unit...)
	}
	switch {
	case ns%second == 0 || ns > second:
		fixed(second, "s")
	case ns%1_000_000 == 0 || ns > 1_000_000:
		fixed(1_000_000, "ms")
	case ns%1_000 == 0 || ns > 1_000:
		fixed(1_000, "us")
	default:
		b = strconv.AppendInt(b, ns, 10)
		b = append(b, "ns"...)
	}
	return string(b)
}
