package lance

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/lance/internal/pb/encpb"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
)

var update = flag.Bool("update", false, "rewrite the golden and bad files in testdata")

// golden is a hand-built file: its builder, and the rows it must read back.
type golden struct {
	name  string
	build func() []byte
	want  []string // JSON lines
	raw   []string // JSON lines with JSONOptions.Raw, when they differ
	// rebuilt reports whether the builder's bytes are reproducible (not
	// compressed by a library whose output may change between versions).
	rebuilt bool
}

func top(fields ...*filepb.Field) []*filepb.Field { return fields }

func oneCol(p tPage) tCol { return tCol{pages: []tPage{p}} }

func flatPage(n uint64, bits uint64, data []byte) tPage {
	return tPage{bufs: [][]byte{data}, length: n, enc: noNull(flatE(bits, pbuf(0)))}
}

func someNullPage(n uint64, bits uint64, validity, data []byte) tPage {
	return tPage{bufs: [][]byte{validity, data}, length: n, enc: someNull(flatE(1, pbuf(0)), flatE(bits, pbuf(1)))}
}

// goldenFlat: notes §8 columns 0, 1, 2 and 6 of the 5-row file.
func goldenFlat() []byte {
	f64 := func(vs ...float64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	return (&tFile{pad: true, rows: 5,
		fields: top(fld(0, -1, "id", "int32", false), fld(1, -1, "i64n", "int64", true),
			fld(2, -1, "f64", "double", false), fld(3, -1, "flag", "bool", true)),
		cols: []tCol{
			oneCol(flatPage(5, 32, u32s(0, 1, 2, 3, 4))),
			oneCol(someNullPage(5, 64, []byte{0x0d}, u64s(0, 0, 2000, 3000, 0))),
			oneCol(flatPage(5, 64, f64(0, 1.5, 3, 4.5, 6))),
			oneCol(flatPage(5, 1, []byte{0x15})),
		}}).bytes()
}

// goldenBinary: notes §8 column 4 (Binary, adj 21), the same strings with
// the 0.14-0.17 Nullable bytes, binary with nulls and an empty value.
func goldenBinary() []byte {
	s := tPage{bufs: [][]byte{u64s(4, 9, 15, 36, 20), []byte("str0str1xstr2xxstr4x")}, length: 5,
		enc: binaryE(noNull(flatE(64, pbuf(0))), flatE(8, pbuf(1)), 21)}
	old := tPage{bufs: s.bufs, length: 5, enc: binaryE(noNull(flatE(64, pbuf(0))), noNull(flatE(8, pbuf(1))), 21)}
	// A Nullable around a Binary that has nulls of its own: both count.
	wrapped := tPage{bufs: append([][]byte{{0x1b}}, s.bufs...), length: 5,
		enc: someNull(flatE(1, pbuf(0)), binaryE(noNull(flatE(64, pbuf(1))), flatE(8, pbuf(2)), 21))}
	return (&tFile{pad: false, rows: 5,
		fields: top(fld(0, -1, "s", "string", true), fld(1, -1, "s_old", "string", true),
			fld(2, -1, "bin", "binary", true), fld(3, -1, "ls", "large_string", true), fld(4, -1, "sw", "string", true)),
		cols: []tCol{oneCol(s), oneCol(old),
			oneCol(stringPage([]*string{sp("\x00\xff"), nil, sp(""), sp("L2"), nil})),
			oneCol(stringPage([]*string{sp("a\"b"), sp("\\"), sp("é"), sp("\n"), sp("")})), oneCol(wrapped)},
	}).bytes()
}

// goldenList: notes §8 columns 7-10 (l and ls) byte for byte, a list whose
// offsets span two pages while its items span two other pages, a
// large_list with a null empty list at row 0 (stored exactly as adj), and
// a list of structs.
func goldenList() []byte {
	l := tPage{bufs: [][]byte{u64s(1, 6, 1, 2, 4)}, length: 5, enc: listE(noNull(flatE(64, pbuf(0))), 5, 4)}
	ls := tPage{bufs: [][]byte{u64s(2, 4, 13, 6, 8)}, length: 5, enc: listE(noNull(flatE(64, pbuf(0))), 9, 8)}
	lsItems := tPage{bufs: [][]byte{u64s(2, 4, 6, 19, 8, 21, 10, 12), []byte("a0b0a1a3a4b4")}, length: 8,
		enc: binaryE(noNull(flatE(64, pbuf(0))), flatE(8, pbuf(1)), 13)}
	return (&tFile{pad: true, rows: 5,
		fields: top(fld(0, -1, "l", "list", true), fld(1, 0, "item", "int32", true),
			fld(2, -1, "ls", "list", true), fld(3, 2, "item", "string", true),
			fld(4, -1, "lm", "list", true), fld(5, 4, "item", "int32", true),
			fld(6, -1, "ll", "large_list", true), fld(7, 6, "item", "int64", true),
			fld(8, -1, "lst", "list.struct", true), fld(9, 8, "item", "struct", true), fld(10, 9, "x", "int32", true)),
		cols: []tCol{
			oneCol(l), oneCol(flatPage(4, 32, u32s(0, 30, 40, 41))),
			oneCol(ls), oneCol(lsItems),
			{pages: []tPage{listPage([]int{1, -1, 0}), listPage([]int{1, 2})}},
			{pages: []tPage{flatPage(2, 32, u32s(0, 30)), flatPage(2, 32, u32s(40, 41))}},
			oneCol(listPage([]int{-1, 1, 0, 2, -1})), oneCol(flatPage(3, 64, u64s(5, 6, 7))),
			oneCol(listPage([]int{1, 0, -1, 2, 0})),
			oneCol(tPage{length: 3, enc: structE()}), oneCol(flatPage(3, 32, u32s(1, 2, 3))),
		}}).bytes()
}

// goldenNested: struct header + children (notes §8 columns 11-13), a
// fixed_size_list<float,4> (column 14) and a nullable FSL with item nulls.
func goldenNested() []byte {
	var vec []byte
	for i := 0; i < 5; i++ {
		for _, v := range []float32{float32(i), float32(i) + 0.5, -float32(i), 1 / float32(i+1)} {
			vec = binary.LittleEndian.AppendUint32(vec, math.Float32bits(v))
		}
	}
	var i16 []byte
	for _, v := range []int16{1, 2, 0, 0, 0, 4, 5, 6, 0, 0} {
		i16 = binary.LittleEndian.AppendUint16(i16, uint16(v))
	}
	names := stringPage([]*string{sp("n0"), sp("n1"), sp("n2"), sp("n3"), sp("n4")})
	return (&tFile{pad: true, rows: 5,
		fields: top(fld(0, -1, "st", "struct", true), fld(1, 0, "a", "int32", true), fld(2, 0, "b", "string", true),
			fld(3, -1, "vec", "fixed_size_list:float:4", true), fld(4, -1, "fsln", "fixed_size_list:int16:2", true)),
		cols: []tCol{
			oneCol(tPage{length: 5, enc: structE()}),
			oneCol(someNullPage(5, 32, []byte{0x15}, u32s(0, 0, 2, 0, 4))),
			oneCol(names),
			oneCol(tPage{bufs: [][]byte{vec}, length: 5, enc: noNull(fslE(4, noNull(flatE(32, pbuf(0)))))}),
			oneCol(tPage{bufs: [][]byte{{0x0d}, {0xef, 0x03}, i16}, length: 5,
				enc: someNull(flatE(1, pbuf(0)), fslE(2, someNull(flatE(1, pbuf(1)), flatE(16, pbuf(2)))))}),
		}}).bytes()
}

// goldenDict: the automatic string dictionary of notes §8 (200-row file's
// cat: indices u8 with 0 = null, items a Binary of first-seen strings) and
// an Arrow dictionary field (raw int8 keys, nulls via Nullable).
func goldenDict() []byte {
	auto := tPage{bufs: [][]byte{{1, 2, 3, 1, 0, 2}, u64s(3, 8, 12), []byte("redgreenblue")}, length: 6,
		enc: dictE(noNull(flatE(8, pbuf(0))), binaryE(noNull(flatE(64, pbuf(1))), flatE(8, pbuf(2)), 13), 3)}
	arrowDict := tPage{bufs: [][]byte{{0x2f}, {0, 1, 1, 0, 0, 1}, u64s(1, 3), []byte("xyy")}, length: 6,
		enc: dictE(someNull(flatE(1, pbuf(0)), flatE(8, pbuf(1))), binaryE(noNull(flatE(64, pbuf(2))), flatE(8, pbuf(3)), 4), 2)}
	return (&tFile{pad: true, rows: 6,
		fields: top(fld(0, -1, "cat", "string", true), fld(1, -1, "d", "dict:string:int8:false", true)),
		cols:   []tCol{oneCol(auto), oneCol(arrowDict)}}).bytes()
}

func zstdRaw(b []byte) []byte {
	e, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	defer e.Close()
	return e.EncodeAll(b, nil)
}

// goldenCompression: Flat buffers compressed every way lance does (notes
// §6): raw zstd frame, two concatenated raw frames, u64-length-prefixed
// zstd, lz4 block with a u32 size, "none", and compressed indices.
func goldenCompression() []byte {
	strs := []string{"hello-0-", "hello-1-abcabc", "", "hello-3-abcabcabcabc"}
	var data []byte
	var ends []uint64
	for _, s := range strs {
		data = append(data, s...)
		ends = append(ends, uint64(len(data)))
	}
	idx := u64s(ends...)
	adj := uint64(len(data)) + 1
	page := func(bytesBuf []byte, scheme string, idxBuf []byte, idxScheme string) tPage {
		ie := flatE(64, pbuf(0))
		if idxScheme != "" {
			ie = flatC(64, pbuf(0), idxScheme)
		}
		return tPage{bufs: [][]byte{idxBuf, bytesBuf}, length: 4, enc: binaryE(noNull(ie), flatC(8, pbuf(1), scheme), adj)}
	}
	prefixed := binary.LittleEndian.AppendUint64(nil, uint64(len(data)))
	prefixed = append(prefixed, zstdRaw(data)...)
	twoFrames := append(zstdRaw(data[:10]), zstdRaw(data[10:])...)
	lz := make([]byte, lz4.CompressBlockBound(len(data)))
	n, err := lz4.CompressBlock(data, lz, nil)
	if err != nil || n == 0 {
		panic("lz4")
	}
	lzBuf := binary.LittleEndian.AppendUint32(nil, uint32(len(data)))
	lzBuf = append(lzBuf, lz[:n]...)
	f := &tFile{pad: true, rows: 4,
		fields: top(fld(0, -1, "zraw", "string", true), fld(1, -1, "zframes", "string", true),
			fld(2, -1, "zlen", "string", true), fld(3, -1, "lz", "string", true),
			fld(4, -1, "none", "string", true), fld(5, -1, "zidx", "string", true), fld(6, -1, "zint", "int64", true)),
		cols: []tCol{
			oneCol(page(zstdRaw(data), "zstd", idx, "")),
			oneCol(page(twoFrames, "zstd", idx, "")),
			oneCol(page(prefixed, "zstd", idx, "")),
			oneCol(page(lzBuf, "lz4", idx, "")),
			oneCol(page(data, "none", idx, "")),
			oneCol(page(zstdRaw(data), "zstd", zstdRaw(idx), "zstd")),
			oneCol(tPage{bufs: [][]byte{zstdRaw(u64s(1, 1<<40, 3, math.MaxUint64))}, length: 4, enc: noNull(flatC(64, pbuf(0), "zstd"))}),
		}}
	return f.bytes()
}

// goldenBuffers: values held in a column buffer and in a file (global)
// buffer, and a ZoneIndex column whose zone map (a mini Lance file with
// min, max, null_count and no schema) sits in a column buffer.
func goldenBuffers() []byte {
	zm := (&tFile{cols: []tCol{
		oneCol(flatPage(3, 32, u32s(1, 3, 5))),
		oneCol(flatPage(3, 32, u32s(2, 4, 5))),
		oneCol(flatPage(3, 32, u32s(0, 0, 0))),
	}}).bytes()
	return (&tFile{pad: true, rows: 5,
		fields:  top(fld(0, -1, "c", "int32", false), fld(1, -1, "g", "int32", false), fld(2, -1, "z", "int32", false)),
		globals: [][]byte{u32s(100, 101, 102, 103, 104)},
		cols: []tCol{
			{pages: []tPage{{length: 5, enc: noNull(flatE(32, &encpb.Buffer{BufferIndex: 0, BufferType: encpb.Buffer_column}))}},
				colBufs: [][]byte{u32s(10, 11, 12, 13, 14)}},
			oneCol(tPage{length: 5, enc: noNull(flatE(32, &encpb.Buffer{BufferIndex: 1, BufferType: encpb.Buffer_file}))}),
			{pages: []tPage{flatPage(5, 32, u32s(1, 2, 3, 4, 5))}, colBufs: [][]byte{zm},
				zone: &encpb.ZoneIndex{RowsPerZone: 2, ZoneMapBuffer: &encpb.Buffer{BufferIndex: 0, BufferType: encpb.Buffer_column}}},
		}}).bytes()
}

// goldenTypes: every fixed-width Arrow type the logical type strings name,
// for the JSON rendering (and --raw), plus null and all-null columns.
func goldenTypes() []byte {
	le := func(width int, vs ...int64) []byte {
		var b []byte
		for _, v := range vs {
			var w [32]byte
			binary.LittleEndian.PutUint64(w[:], uint64(v))
			if v < 0 {
				for k := 8; k < 32; k++ {
					w[k] = 0xff
				}
			}
			b = append(b, w[:width]...)
		}
		return b
	}
	type c struct {
		name, lt string
		bits     uint64
		data     []byte
		nul      []byte // validity, nil = NoNull
	}
	cs := []c{
		{"i8", "int8", 8, le(1, -128, 127), nil},
		{"u8", "uint8", 8, le(1, 255, 0), nil},
		{"i16", "int16", 16, le(2, -2, 300), nil},
		{"u16", "uint16", 16, le(2, 65535, 1), nil},
		{"u32", "uint32", 32, le(4, 4294967295, 7), nil},
		{"u64", "uint64", 64, le(8, -1, 9007199254740993), nil},
		{"i64", "int64", 64, le(8, math.MinInt64, 9007199254740993), nil},
		{"f16", "halffloat", 16, le(2, 0x3e00, 0xc000), nil},
		{"f32", "float", 32, u32s(math.Float32bits(float32(math.NaN())), math.Float32bits(float32(math.Inf(-1)))), nil},
		{"f64", "double", 64, u64s(math.Float64bits(math.Inf(1)), math.Float64bits(-0.5)), nil},
		{"d32", "date32:day", 32, le(4, 19723, -1), nil},
		{"d64", "date64:ms", 64, le(8, 86400000, 1704067200000), nil},
		{"t32s", "time32:s", 32, le(4, 3661, 0), nil},
		{"t32ms", "time32:ms", 32, le(4, 3661001, 0), []byte{1}},
		{"t64us", "time64:us", 64, le(8, 1, 86399999999), nil},
		{"t64ns", "time64:ns", 64, le(8, 5, 0), nil},
		{"ts", "timestamp:us:-", 64, le(8, 1704067200123456, -1), nil},
		{"tsz", "timestamp:ns:UTC", 64, le(8, 1704067200000000001, 0), nil},
		{"dur", "duration:ms", 64, le(8, 1500, -1), nil},
		{"dec", "decimal:128:10:2", 128, le(16, 12345, -5), nil},
		{"dec256", "decimal:256:40:5", 256, le(32, 1, 0), []byte{1}},
		{"fsb", "fixed_size_binary:3", 24, []byte("abc\x00\x01\x02"), nil},
		{"bf16", "fixed_size_list:lance.bfloat16:2", 0, []byte{0x80, 0x3f, 0, 0x40, 0, 0, 0, 0}, nil},
	}
	tf := &tFile{pad: true, rows: 2}
	for i, x := range cs {
		tf.fields = append(tf.fields, fld(int32(i), -1, x.name, x.lt, true))
		switch {
		case x.bits == 0:
			tf.cols = append(tf.cols, oneCol(tPage{bufs: [][]byte{x.data}, length: 2, enc: noNull(fslE(2, noNull(flatE(16, pbuf(0)))))}))
		case x.nul != nil:
			tf.cols = append(tf.cols, oneCol(someNullPage(2, x.bits, x.nul, x.data)))
		default:
			tf.cols = append(tf.cols, oneCol(flatPage(2, x.bits, x.data)))
		}
	}
	n := int32(len(cs))
	tf.fields = append(tf.fields, fld(n, -1, "nul", "null", true), fld(n+1, -1, "allnull", "int32", true),
		fld(n+2, -1, "lbin", "large_binary", true))
	tf.cols = append(tf.cols, oneCol(tPage{length: 2, enc: allNull()}), oneCol(tPage{length: 2, enc: allNull()}),
		oneCol(stringPage([]*string{sp("hi"), nil})))
	return tf.bytes()
}

// goldenLegacyStrings: the 0.13 layout (notes §7): a string stored as a
// List offsets column plus a u8 items column.
func goldenLegacyStrings() []byte {
	return (&tFile{rows: 3,
		fields: top(fld(0, -1, "strings", "string", true), fld(1, -1, "n", "int64", true)),
		cols: []tCol{
			oneCol(tPage{bufs: [][]byte{u64s(3, 6, 9)}, length: 3, enc: listE(noNull(flatE(64, pbuf(0))), 10, 9)}),
			oneCol(tPage{bufs: [][]byte{[]byte("foobarbaz")}, length: 9, enc: noNull(flatE(8, pbuf(0)))}),
			oneCol(flatPage(3, 64, u64s(4, 5, 6))),
		}}).bytes()
}

var goldens = []golden{
	{name: "golden_flat.lance", build: goldenFlat, rebuilt: true, want: []string{
		`{"id":0,"i64n":0,"f64":0,"flag":true}`,
		`{"id":1,"i64n":null,"f64":1.5,"flag":false}`,
		`{"id":2,"i64n":2000,"f64":3,"flag":true}`,
		`{"id":3,"i64n":3000,"f64":4.5,"flag":false}`,
		`{"id":4,"i64n":null,"f64":6,"flag":true}`}},
	{name: "golden_binary.lance", build: goldenBinary, rebuilt: true, want: []string{
		`{"s":"str0","s_old":"str0","bin":"AP8=","ls":"a\"b","sw":"str0"}`,
		`{"s":"str1x","s_old":"str1x","bin":null,"ls":"\\","sw":"str1x"}`,
		`{"s":"str2xx","s_old":"str2xx","bin":"","ls":"é","sw":null}`,
		`{"s":null,"s_old":null,"bin":"TDI=","ls":"\n","sw":null}`,
		`{"s":"str4x","s_old":"str4x","bin":null,"ls":"","sw":"str4x"}`}},
	{name: "golden_list.lance", build: goldenList, rebuilt: true, want: []string{
		`{"l":[0],"ls":["a0","b0"],"lm":[0],"ll":null,"lst":[{"x":1}]}`,
		`{"l":null,"ls":["a1",null],"lm":null,"ll":[5],"lst":[]}`,
		`{"l":[],"ls":null,"lm":[],"ll":[],"lst":null}`,
		`{"l":[30],"ls":["a3",null],"lm":[30],"ll":[6,7],"lst":[{"x":2},{"x":3}]}`,
		`{"l":[40,41],"ls":["a4","b4"],"lm":[40,41],"ll":null,"lst":[]}`}},
	{name: "golden_nested.lance", build: goldenNested, rebuilt: true, want: []string{
		`{"st":{"a":0,"b":"n0"},"vec":[0,0.5,-0,1],"fsln":[1,2]}`,
		`{"st":{"a":null,"b":"n1"},"vec":[1,1.5,-1,0.5],"fsln":null}`,
		`{"st":{"a":2,"b":"n2"},"vec":[2,2.5,-2,0.33333334],"fsln":[null,4]}`,
		`{"st":{"a":null,"b":"n3"},"vec":[3,3.5,-3,0.25],"fsln":[5,6]}`,
		`{"st":{"a":4,"b":"n4"},"vec":[4,4.5,-4,0.2],"fsln":null}`}},
	{name: "golden_dict.lance", build: goldenDict, rebuilt: true, want: []string{
		`{"cat":"red","d":"x"}`, `{"cat":"green","d":"yy"}`, `{"cat":"blue","d":"yy"}`,
		`{"cat":"red","d":"x"}`, `{"cat":null,"d":null}`, `{"cat":"green","d":"yy"}`}},
	{name: "golden_compression.lance", build: goldenCompression, want: []string{
		`{"zraw":"hello-0-","zframes":"hello-0-","zlen":"hello-0-","lz":"hello-0-","none":"hello-0-","zidx":"hello-0-","zint":1}`,
		`{"zraw":"hello-1-abcabc","zframes":"hello-1-abcabc","zlen":"hello-1-abcabc","lz":"hello-1-abcabc","none":"hello-1-abcabc","zidx":"hello-1-abcabc","zint":1099511627776}`,
		`{"zraw":"","zframes":"","zlen":"","lz":"","none":"","zidx":"","zint":3}`,
		`{"zraw":"hello-3-abcabcabcabc","zframes":"hello-3-abcabcabcabc","zlen":"hello-3-abcabcabcabc","lz":"hello-3-abcabcabcabc","none":"hello-3-abcabcabcabc","zidx":"hello-3-abcabcabcabc","zint":-1}`}},
	{name: "golden_buffers.lance", build: goldenBuffers, rebuilt: true, want: []string{
		`{"c":10,"g":100,"z":1}`, `{"c":11,"g":101,"z":2}`, `{"c":12,"g":102,"z":3}`, `{"c":13,"g":103,"z":4}`, `{"c":14,"g":104,"z":5}`}},
	{name: "golden_types.lance", build: goldenTypes, rebuilt: true, want: []string{
		`{"i8":-128,"u8":255,"i16":-2,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"i64":-9223372036854775808,"f16":1.5,"f32":"NaN","f64":"Infinity","d32":"2024-01-01","d64":"1970-01-02","t32s":"01:01:01","t32ms":"01:01:01.001","t64us":"00:00:00.000001","t64ns":"00:00:00.000000005","ts":"2024-01-01T00:00:00.123456","tsz":"2024-01-01T00:00:00.000000001Z","dur":"PT1.500S","dec":"123.45","dec256":"0.00001","fsb":"YWJj","bf16":["gD8=","AEA="],"nul":null,"allnull":null,"lbin":"aGk="}`,
		`{"i8":127,"u8":0,"i16":300,"u16":1,"u32":7,"u64":9007199254740993,"i64":9007199254740993,"f16":-2,"f32":"-Infinity","f64":-0.5,"d32":"1969-12-31","d64":"2024-01-01","t32s":"00:00:00","t32ms":null,"t64us":"23:59:59.999999","t64ns":"00:00:00.000000000","ts":"1969-12-31T23:59:59.999999","tsz":"1970-01-01T00:00:00.000000000Z","dur":"-PT0.001S","dec":"-0.05","dec256":null,"fsb":"AAEC","bf16":["AAA=","AAA="],"nul":null,"allnull":null,"lbin":null}`},
		raw: []string{
			`{"i8":-128,"u8":255,"i16":-2,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"i64":-9223372036854775808,"f16":1.5,"f32":"NaN","f64":"Infinity","d32":19723,"d64":86400000,"t32s":3661,"t32ms":3661001,"t64us":1,"t64ns":5,"ts":1704067200123456,"tsz":1704067200000000001,"dur":1500,"dec":12345,"dec256":1,"fsb":"YWJj","bf16":["gD8=","AEA="],"nul":null,"allnull":null,"lbin":"aGk="}`,
			`{"i8":127,"u8":0,"i16":300,"u16":1,"u32":7,"u64":9007199254740993,"i64":9007199254740993,"f16":-2,"f32":"-Infinity","f64":-0.5,"d32":-1,"d64":1704067200000,"t32s":0,"t32ms":null,"t64us":86399999999,"t64ns":0,"ts":-1,"tsz":0,"dur":-1,"dec":-5,"dec256":null,"fsb":"AAEC","bf16":["AAA=","AAA="],"nul":null,"allnull":null,"lbin":null}`}},
	{name: "golden_legacy_strings.lance", build: goldenLegacyStrings, rebuilt: true, want: []string{
		`{"strings":"foo","n":4}`, `{"strings":"bar","n":5}`, `{"strings":"baz","n":6}`}},
}

func jsonLines(t testing.TB, f *File, o JSONOptions) []string {
	t.Helper()
	var buf bytes.Buffer
	for rec, err := range f.Records(ReadOptions{BatchRows: 2}) {
		require.NoError(t, err)
		require.NoError(t, WriteJSONLines(&buf, rec, o))
		rec.Release()
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			path := filepath.Join("testdata", g.name)
			built := g.build()
			if *update {
				require.NoError(t, os.WriteFile(path, built, 0o644))
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			if g.rebuilt {
				require.Equal(t, b, built, "builder and committed golden differ; run with -update after checking why")
			}
			f, err := Open(bytes.NewReader(b), int64(len(b)))
			require.NoError(t, err)
			require.NoError(t, f.Validate())
			require.Equal(t, g.want, jsonLines(t, f, JSONOptions{}))
			if g.raw != nil {
				require.Equal(t, g.raw, jsonLines(t, f, JSONOptions{Raw: true}))
			}
		})
	}
}
