package lance

import (
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/x448/float16"
)

// JSONOptions controls AppendJSONRow.
type JSONOptions struct {
	// Raw prints temporal values as their stored integers (days, the unit's
	// count) and decimals as the unscaled integer, for exact comparison.
	Raw bool
	// LanceDB renders values as LanceDB's query().toArrow() results print
	// as JSON (the rendering in the shared lance21 data README, what
	// `colfmt cat` prints for data files and tables alike): int64 and uint64 as decimal strings,
	// floats as the JavaScript number of the value widened to float64 with
	// "NaN", "Infinity", "-Infinity" and "-0" as strings, timestamps in
	// UTC with a Z, decimals with exactly scale fraction digits. Raw wins
	// over it for temporal and decimal values.
	LanceDB bool
}

// WriteJSONLines writes each row of rec as one JSON object per line, fields
// in schema order: integers exact, floats with NaN/Infinity/-Infinity as
// strings, binary as base64, temporals in ISO 8601 with the unit's
// precision, decimals as strings with the scale applied.
func WriteJSONLines(w io.Writer, rec arrow.RecordBatch, o JSONOptions) error {
	var buf []byte
	for i := 0; i < int(rec.NumRows()); i++ {
		buf = AppendJSONRow(buf[:0], rec, i, o)
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// AppendJSONRow appends row i of rec as a JSON object.
func AppendJSONRow(dst []byte, rec arrow.RecordBatch, i int, o JSONOptions) []byte {
	dst = append(dst, '{')
	for c, f := range rec.Schema().Fields() {
		if c > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, f.Name)
		dst = append(dst, ':')
		dst = AppendJSONValue(dst, rec.Column(c), i, o)
	}
	return append(dst, '}')
}

// AppendJSONValue appends element i of a as JSON.
func AppendJSONValue(dst []byte, a arrow.Array, i int, o JSONOptions) []byte {
	if a.IsNull(i) {
		return append(dst, "null"...)
	}
	switch x := a.(type) {
	case *array.Boolean:
		return strconv.AppendBool(dst, x.Value(i))
	case *array.Int8:
		return strconv.AppendInt(dst, int64(x.Value(i)), 10)
	case *array.Int16:
		return strconv.AppendInt(dst, int64(x.Value(i)), 10)
	case *array.Int32:
		return strconv.AppendInt(dst, int64(x.Value(i)), 10)
	case *array.Int64:
		if o.LanceDB {
			return append(strconv.AppendInt(append(dst, '"'), x.Value(i), 10), '"')
		}
		return strconv.AppendInt(dst, x.Value(i), 10)
	case *array.Uint8:
		return strconv.AppendUint(dst, uint64(x.Value(i)), 10)
	case *array.Uint16:
		return strconv.AppendUint(dst, uint64(x.Value(i)), 10)
	case *array.Uint32:
		return strconv.AppendUint(dst, uint64(x.Value(i)), 10)
	case *array.Uint64:
		if o.LanceDB {
			return append(strconv.AppendUint(append(dst, '"'), x.Value(i), 10), '"')
		}
		return strconv.AppendUint(dst, x.Value(i), 10)
	case *array.Float16:
		// arrow-go's float16.Num.Float32 gets subnormals wrong; x448's
		// conversion is exact for all 65536 values (TestFloat16Exhaustive).
		v := float64(float16.Frombits(x.Value(i).Uint16()).Float32())
		if o.LanceDB {
			return appendJSNumber(dst, v)
		}
		return appendFloat(dst, v, 32)
	case *array.Float32:
		if o.LanceDB {
			return appendJSNumber(dst, float64(x.Value(i)))
		}
		return appendFloat(dst, float64(x.Value(i)), 32)
	case *array.Float64:
		if o.LanceDB {
			return appendJSNumber(dst, x.Value(i))
		}
		return appendFloat(dst, x.Value(i), 64)
	case *array.String:
		return appendJSONString(dst, x.Value(i))
	case *array.LargeString:
		return appendJSONString(dst, x.Value(i))
	case *array.Binary:
		return appendBase64(dst, x.Value(i))
	case *array.LargeBinary:
		return appendBase64(dst, x.Value(i))
	case *array.FixedSizeBinary:
		return appendBase64(dst, x.Value(i))
	case *array.Date32:
		if o.Raw {
			return strconv.AppendInt(dst, int64(x.Value(i)), 10)
		}
		return appendQuotedTime(dst, time.Unix(int64(x.Value(i))*86400, 0).UTC(), "2006-01-02")
	case *array.Date64:
		if o.Raw {
			return strconv.AppendInt(dst, int64(x.Value(i)), 10)
		}
		t := time.UnixMilli(int64(x.Value(i))).UTC()
		if t.Truncate(24*time.Hour).Equal(t) && t.Nanosecond() == 0 {
			return appendQuotedTime(dst, t, "2006-01-02")
		}
		return appendQuotedTime(dst, t, "2006-01-02T15:04:05.000Z07:00")
	case *array.Time32:
		u := x.DataType().(*arrow.Time32Type).Unit
		if o.Raw {
			return strconv.AppendInt(dst, int64(x.Value(i)), 10)
		}
		return appendQuotedTime(dst, time.Unix(0, int64(x.Value(i))*int64(u.Multiplier())).UTC(), "15:04:05"+fraction(u))
	case *array.Time64:
		u := x.DataType().(*arrow.Time64Type).Unit
		if o.Raw {
			return strconv.AppendInt(dst, int64(x.Value(i)), 10)
		}
		return appendQuotedTime(dst, time.Unix(0, int64(x.Value(i))*int64(u.Multiplier())).UTC(), "15:04:05"+fraction(u))
	case *array.Timestamp:
		t := x.DataType().(*arrow.TimestampType)
		v := int64(x.Value(i))
		if o.Raw {
			return strconv.AppendInt(dst, v, 10)
		}
		if o.LanceDB {
			sec, frac := splitUnit(v, t.Unit)
			return appendQuotedTime(dst, time.Unix(sec, frac).UTC(), "2006-01-02T15:04:05"+fraction(t.Unit)+"Z")
		}
		return appendTimestamp(dst, v, t)
	case *array.Duration:
		u := x.DataType().(*arrow.DurationType).Unit
		v := int64(x.Value(i))
		if o.Raw {
			return strconv.AppendInt(dst, v, 10)
		}
		return appendDuration(dst, v, u)
	case *array.Decimal128:
		if o.Raw {
			return append(dst, x.Value(i).BigInt().String()...)
		}
		if o.LanceDB {
			return appendDecimal(dst, x.Value(i).BigInt(), x.DataType().(*arrow.Decimal128Type).Scale)
		}
		return appendJSONString(dst, x.Value(i).ToString(x.DataType().(*arrow.Decimal128Type).Scale))
	case *array.Decimal256:
		if o.Raw {
			return append(dst, x.Value(i).BigInt().String()...)
		}
		if o.LanceDB {
			return appendDecimal(dst, x.Value(i).BigInt(), x.DataType().(*arrow.Decimal256Type).Scale)
		}
		return appendJSONString(dst, x.Value(i).ToString(x.DataType().(*arrow.Decimal256Type).Scale))
	case *array.Map:
		// An array of [key, value] pairs, as LanceDB prints maps.
		s, e := x.ValueOffsets(i)
		dst = append(dst, '[')
		for j := int(s); j < int(e); j++ {
			if j > int(s) {
				dst = append(dst, ',')
			}
			dst = append(dst, '[')
			dst = AppendJSONValue(dst, x.Keys(), j, o)
			dst = append(dst, ',')
			dst = AppendJSONValue(dst, x.Items(), j, o)
			dst = append(dst, ']')
		}
		return append(dst, ']')
	case *array.List:
		s, e := x.ValueOffsets(i)
		return appendJSONList(dst, x.ListValues(), int(s), int(e), o)
	case *array.LargeList:
		s, e := x.ValueOffsets(i)
		return appendJSONList(dst, x.ListValues(), int(s), int(e), o)
	case *array.FixedSizeList:
		s, e := x.ValueOffsets(i)
		return appendJSONList(dst, x.ListValues(), int(s), int(e), o)
	case *array.Struct:
		dst = append(dst, '{')
		st := x.DataType().(*arrow.StructType)
		for c := 0; c < x.NumField(); c++ {
			if c > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, st.Field(c).Name)
			dst = append(dst, ':')
			dst = AppendJSONValue(dst, x.Field(c), i, o)
		}
		return append(dst, '}')
	case *array.Dictionary:
		return AppendJSONValue(dst, x.Dictionary(), x.GetValueIndex(i), o)
	case *array.Null:
		return append(dst, "null"...)
	}
	return appendJSONString(dst, fmt.Sprintf("unsupported type %s", a.DataType()))
}

func appendJSONList(dst []byte, v arrow.Array, s, e int, o JSONOptions) []byte {
	dst = append(dst, '[')
	for j := s; j < e; j++ {
		if j > s {
			dst = append(dst, ',')
		}
		dst = AppendJSONValue(dst, v, j, o)
	}
	return append(dst, ']')
}

func appendFloat(dst []byte, v float64, bits int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, bits)
}

// appendJSNumber prints v as JavaScript's Number.prototype.toString does
// (shortest round-trip digits; plain notation for exponents -7 < e < 21,
// else d.ddde+N), with NaN, the infinities and -0 as strings.
func appendJSNumber(dst []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(dst, `"-Infinity"`...)
	case v == 0 && math.Signbit(v):
		return append(dst, `"-0"`...)
	case v == 0:
		return append(dst, '0')
	}
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], v, 'e', -1, 64) // d.ddde±XX
	k := bytesIndex(e, 'e')
	digits := make([]byte, 0, 17)
	for _, c := range e[:k] {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	exp, _ := strconv.Atoi(string(e[k+1:]))
	n := exp + 1 // decimal point position, as in ECMA-262 Number::toString
	switch {
	case len(digits) <= n && n <= 21:
		dst = append(dst, digits...)
		for j := len(digits); j < n; j++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for j := n; j < 0; j++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if len(digits) > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

func bytesIndex(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// appendDecimal prints an unscaled decimal with exactly scale fraction
// digits (a negative scale multiplies by powers of ten).
func appendDecimal(dst []byte, v *big.Int, scale int32) []byte {
	dst = append(dst, '"')
	if v.Sign() < 0 {
		dst = append(dst, '-')
	}
	s := new(big.Int).Abs(v).String()
	switch {
	case scale <= 0:
		dst = append(dst, s...)
		if s != "0" {
			for j := int32(0); j < -scale; j++ {
				dst = append(dst, '0')
			}
		}
	default:
		for int32(len(s)) <= scale {
			s = "0" + s
		}
		p := len(s) - int(scale)
		dst = append(dst, s[:p]...)
		dst = append(dst, '.')
		dst = append(dst, s[p:]...)
	}
	return append(dst, '"')
}

func appendBase64(dst, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

func fraction(u arrow.TimeUnit) string {
	switch u {
	case arrow.Millisecond:
		return ".000"
	case arrow.Microsecond:
		return ".000000"
	case arrow.Nanosecond:
		return ".000000000"
	}
	return ""
}

func appendQuotedTime(dst []byte, t time.Time, layout string) []byte {
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, layout)
	return append(dst, '"')
}

// appendTimestamp prints RFC 3339 with the unit's digits: in the column's
// zone when it names one Go knows (UTC otherwise), and without a zone for
// a naive timestamp.
func appendTimestamp(dst []byte, v int64, t *arrow.TimestampType) []byte {
	sec, frac := splitUnit(v, t.Unit)
	tm := time.Unix(sec, frac).UTC()
	layout := "2006-01-02T15:04:05" + fraction(t.Unit)
	if t.TimeZone != "" {
		if loc, err := t.GetZone(); err == nil && loc != nil {
			tm = tm.In(loc)
		}
		layout += "Z07:00"
	}
	return appendQuotedTime(dst, tm, layout)
}

// splitUnit splits a count of unit into seconds and nanoseconds (floored).
func splitUnit(v int64, u arrow.TimeUnit) (int64, int64) {
	per := int64(time.Second) / int64(u.Multiplier())
	sec, rem := v/per, v%per
	if rem < 0 {
		sec--
		rem += per
	}
	return sec, rem * int64(u.Multiplier())
}

// appendDuration prints ISO 8601 "PT<seconds>[.fraction]S".
func appendDuration(dst []byte, v int64, u arrow.TimeUnit) []byte {
	dst = append(dst, '"')
	if v < 0 {
		dst = append(dst, '-')
	}
	mag := uint64(v)
	if v < 0 {
		mag = uint64(-v) // two's complement: -MinInt64 wraps to its own magnitude
	}
	per := uint64(time.Second) / uint64(u.Multiplier())
	dst = append(dst, "PT"...)
	dst = strconv.AppendUint(dst, mag/per, 10)
	if digits := len(fraction(u)) - 1; digits > 0 {
		dst = append(dst, '.')
		s := strconv.FormatUint(mag%per, 10)
		for k := len(s); k < digits; k++ {
			dst = append(dst, '0')
		}
		dst = append(dst, s...)
	}
	return append(dst, 'S', '"')
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as JSON, replacing invalid UTF-8 with U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
