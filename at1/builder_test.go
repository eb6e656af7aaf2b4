package at1

// A minimal AT-1 writer for tests: it builds files from stream contents
// the tests choose, so each decoder path can be reached on purpose. It is
// not the encoder (a later issue); it follows the notes' encoder policy
// where it matters (backend bytes, zstd content size, stored blocks).

import (
	"bytes"
	"crypto/sha256"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/colfmt/colfmt/internal/varint"
)

type tstream struct {
	name    string
	backend byte
	data    []byte
}

// xzEncode, when set, replaces the ulikunitz/xz writer (the benchmarks
// set it to liblzma's xz command when present, as the real encoder writes
// liblzma streams).
var xzEncode func(testing.TB, []byte) []byte

func compress(t testing.TB, backend byte, data []byte) []byte {
	t.Helper()
	switch backend {
	case BackendXZ:
		if xzEncode != nil {
			return xzEncode(t, data)
		}
		var buf bytes.Buffer
		w, err := xz.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	case BackendZstd:
		enc, err := testZstd()
		if err != nil {
			t.Fatal(err)
		}
		return enc.EncodeAll(data, nil)
	}
	return data
}

// testZstd is one encoder for every compress call (EncodeAll may be
// called concurrently), not a new one per block.
var testZstd = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithSingleSegment(true))
})

func lstr(dst []byte, s []byte) []byte {
	dst = varint.Append(dst, uint64(len(s)))
	return append(dst, s...)
}

// packSet builds a packed stream set with backend bytes.
func packSet(t testing.TB, streams ...tstream) []byte {
	t.Helper()
	out := varint.Append(nil, uint64(len(streams)))
	for _, s := range streams {
		out = lstr(out, []byte(s.name))
		out = append(out, s.backend)
		out = lstr(out, compress(t, s.backend, s.data))
	}
	return out
}

func wholeFile(codec Codec, body []byte) []byte {
	return append(append(append([]byte{}, MagicWhole...), byte(codec)), body...)
}

func withTrailer(file, orig []byte) []byte {
	sum := sha256.Sum256(orig)
	return append(append(append([]byte{}, file...), sum[:]...), trailerMagic...)
}

// framed builds an AT1\x03 file from frame payloads (method byte included).
func framed(codec Codec, payloads ...[]byte) []byte {
	out := append(append([]byte{}, MagicFramed...), byte(codec), 2)
	for _, p := range payloads {
		out = lstr(out, p)
	}
	return out
}

// streamsOf turns a name->content map (in the given order) into stored streams.
func stored(kv ...string) []tstream {
	var out []tstream
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, tstream{kv[i], BackendStored, []byte(kv[i+1])})
	}
	return out
}

func uvs(vals ...uint64) string {
	var b []byte
	for _, v := range vals {
		b = varint.Append(b, v)
	}
	return string(b)
}

func svs(vals ...int64) string {
	var b []byte
	for _, v := range vals {
		b = varint.AppendSigned(b, v)
	}
	return string(b)
}

// columnarFile encodes rows of fields (all structured, unquoted unless a
// field needs quotes) with per-column types: "int", "decN", "dict",
// "shuf" (values within 65,535 of the least), "text" or "qint" (an int
// column whose every value is quoted).
// The delimiter is ",". Rows may be ragged.
func columnarFile(t testing.TB, backend byte, header string, rows [][]string, types []string, trailing bool) []byte {
	t.Helper()
	ncols := len(types)
	cols := make([][]string, ncols)
	var fieldcounts, rowModes []byte
	for _, r := range rows {
		rowModes = append(rowModes, 1)
		fieldcounts = varint.Append(fieldcounts, uint64(len(r)))
		for i, f := range r {
			cols[i] = append(cols[i], f)
		}
	}
	var coltypes, colIndex, values, quotemodes, quotebits []byte
	for k, typ := range types {
		var chunk []byte
		quote := byte(0)
		switch {
		case typ == "dict":
			coltypes = append(coltypes, colDict)
			ids := map[string]uint64{}
			var entries, idx []byte
			for _, v := range cols[k] {
				j, ok := ids[v]
				if !ok {
					j = uint64(len(ids))
					ids[v] = j
					entries = lstr(entries, []byte(v))
				}
				idx = varint.Append(idx, j)
			}
			chunk = varint.Append(chunk, uint64(len(cols[k])))
			chunk = varint.Append(chunk, uint64(len(ids)))
			chunk = append(append(chunk, entries...), idx...)
		case typ == "shuf": // two byte planes above the minimum
			coltypes = append(coltypes, colShuf)
			mn := int64(math.MaxInt64)
			var ns []int64
			for _, v := range cols[k] {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				ns = append(ns, n)
				mn = min(mn, n)
			}
			chunk = varint.Append(chunk, uint64(len(ns)))
			chunk = varint.AppendSigned(chunk, mn)
			chunk = append(chunk, 2)
			for p := 0; p < 2; p++ {
				for _, n := range ns {
					chunk = append(chunk, byte((n-mn)>>(8*p)))
				}
			}
		case typ == "int" || typ == "qint":
			if typ == "qint" {
				quote = 1
			}
			coltypes = append(coltypes, colInt)
			var acc int64
			for _, v := range cols[k] {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				chunk = varint.AppendSigned(chunk, n-acc)
				acc = n
			}
		case strings.HasPrefix(typ, "dec"):
			coltypes = append(coltypes, colDec)
			d, _ := strconv.Atoi(typ[3:])
			chunk = append(chunk, byte(d))
			var acc int64
			for _, v := range cols[k] {
				n, err := strconv.ParseInt(strings.Replace(v, ".", "", 1), 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				chunk = varint.AppendSigned(chunk, n-acc)
				acc = n
			}
		default:
			coltypes = append(coltypes, colText)
			chunk = []byte(strings.Join(cols[k], "\n"))
		}
		colIndex = varint.Append(colIndex, uint64(len(chunk)))
		values = append(values, chunk...)
		quotemodes = append(quotemodes, quote)
	}
	meta := varint.Append(nil, uint64(len(rows)))
	meta = append(meta, b2i(trailing), b2i(header != ""), 1, ',')
	meta = varint.Append(meta, uint64(ncols))
	var streams []tstream
	for _, s := range []struct {
		n string
		d []byte
	}{{"meta", meta}, {"row_modes", rowModes}, {"fieldcounts", fieldcounts}, {"coltypes", coltypes},
		{"col_index", colIndex}, {"values", values}, {"quotemodes", quotemodes}, {"quotebits", quotebits},
		{"verbatim", nil}, {"header", []byte(header)}} {
		streams = append(streams, tstream{s.n, backend, s.d})
	}
	return wholeFile(CodecColumnar, packSet(t, streams...))
}

func b2i(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// qFile encodes a qcolumnar (delim != "") or qjson (segs != nil) file from
// structured rows; verbatim lines are placed where lines[i] has no row.
type qLine struct {
	verbatim string
	row      []string
}

func qFile(t testing.TB, codec Codec, delim string, segs []string, paths []string, types []byte, rg int, lines []qLine, trailing bool, tag byte) []byte {
	t.Helper()
	return qFileHook(t, codec, delim, segs, paths, types, rg, lines, trailing, tag, nil)
}

// qFileHook is qFile with hook, if not nil, given each block ([tag]
// [payload]) of group g, column c to replace (to damage it, or to hold
// other values).
func qFileHook(t testing.TB, codec Codec, delim string, segs []string, paths []string, types []byte, rg int, lines []qLine, trailing bool, tag byte, hook func(g, c int, block []byte) []byte) []byte {
	t.Helper()
	ncols := len(types)
	var rowModes []byte
	var verbatim []string
	var rows [][]string
	for _, l := range lines {
		if l.row == nil {
			rowModes = append(rowModes, 0)
			verbatim = append(verbatim, l.verbatim)
		} else {
			rowModes = append(rowModes, 1)
			rows = append(rows, l.row)
		}
	}
	nrg := (len(rows) + rg - 1) / rg
	var index, blocks []byte
	for g := 0; g < nrg; g++ {
		part := rows[g*rg : min(len(rows), (g+1)*rg)]
		for c := 0; c < ncols; c++ {
			vals := make([]string, len(part))
			for i, r := range part {
				vals[i] = r[c]
			}
			block := append([]byte{tag}, compress(t, map[byte]byte{tagXZ: BackendXZ, tagZstd: BackendZstd}[tag], []byte(strings.Join(vals, "\n")))...)
			if hook != nil {
				block = hook(g, c, block)
			}
			index = varint.Append(index, uint64(len(block)))
			switch types[c] {
			case QInt:
				mn, mx := int64(math.MaxInt64), int64(math.MinInt64)
				for _, v := range vals {
					n, _ := strconv.ParseInt(v, 10, 64)
					mn, mx = min(mn, n), max(mx, n)
				}
				index = varint.AppendSigned(varint.AppendSigned(index, mn), mx)
			case QDecimal:
				mn, mx := math.Inf(1), math.Inf(-1)
				for _, v := range vals {
					f, _ := strconv.ParseFloat(v, 64)
					mn, mx = math.Min(mn, f), math.Max(mx, f)
				}
				index = appendF64(appendF64(index, mn), mx)
			}
			blocks = append(blocks, block...)
		}
	}
	meta := varint.Append(nil, uint64(len(lines)))
	meta = append(meta, b2i(trailing))
	if codec == CodecQColumnar {
		meta = lstr(meta, []byte(delim))
	}
	meta = varint.Append(meta, uint64(ncols))
	meta = varint.Append(meta, uint64(rg))
	meta = varint.Append(meta, uint64(len(rows)))
	meta = varint.Append(meta, uint64(nrg))
	meta = append(meta, types...)
	streams := []tstream{{"meta", BackendXZ, meta}}
	if codec == CodecQJSON {
		tpl := varint.Append(nil, uint64(len(segs)))
		for _, s := range segs {
			tpl = lstr(tpl, []byte(s))
		}
		ps := varint.Append(nil, uint64(len(paths)))
		for _, p := range paths {
			ps = lstr(ps, []byte(p))
		}
		streams = append(streams, tstream{"template", BackendXZ, tpl}, tstream{"paths", BackendZstd, ps})
	}
	streams = append(streams, tstream{"row_modes", BackendZstd, rowModes},
		tstream{"verbatim", BackendZstd, []byte(strings.Join(verbatim, "\n"))},
		tstream{"index", BackendZstd, index}, tstream{"blocks", BackendStored, blocks})
	return wholeFile(codec, packSet(t, streams...))
}

func appendF64(b []byte, f float64) []byte {
	u := math.Float64bits(f)
	for i := 0; i < 8; i++ {
		b = append(b, byte(u>>(8*i)))
	}
	return b
}
