package lance

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"

	pb "github.com/colfmt/colfmt/lance/internal/enc21pb"
)

func flat(bits uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: bits}}}
}

func miniLayout(value *pb.CompressiveEncoding, items uint64, large bool, ls ...pb.RepDefLayer) *pb.PageLayout {
	if len(ls) == 0 {
		ls = []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}
	}
	return &pb.PageLayout{Layout: &pb.PageLayout_MiniBlockLayout{MiniBlockLayout: &pb.MiniBlockLayout{
		ValueCompression: value, NumItems: items, NumBuffers: 1, HasLargeChunk: large, Layers: ls}}}
}

// oneChunk builds the two buffers of a 2.2 mini-block page with one chunk
// holding one value buffer and no levels.
func oneChunk(values []byte) [][]byte {
	chunk := make([]byte, 8, 8+len(values)+8)
	binary.LittleEndian.PutUint32(chunk[2:], uint32(len(values)))
	chunk = append(chunk, values...)
	for len(chunk)%8 != 0 {
		chunk = append(chunk, 0xfe)
	}
	meta := make([]byte, 4)
	binary.LittleEndian.PutUint32(meta, uint32((len(chunk)/8-1)<<4))
	return [][]byte{meta, chunk}
}

func fsstTableBytes(n int, lens []byte) []byte {
	b := make([]byte, 2312)
	binary.LittleEndian.PutUint64(b, uint64(fsstMagic)<<32|1<<24|uint64(n))
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(b[8+8*i:], 0x6867666564636261) // "abcdefgh"
	}
	copy(b[8+8*n:], lens)
	return b
}

// Hand-built bad pages: each fails with a located error wrapping the
// right sentinel, never a panic.
func TestV21BadPages(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	str := arrow.BinaryTypes.String
	vals := func(n int) []byte { return make([]byte, 4*n) }
	variable := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{Variable: &pb.Variable{Offsets: flat(32)}}}
	fsst := func(tab []byte) *pb.CompressiveEncoding {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Fsst{Fsst: &pb.Fsst{SymbolTable: tab, Values: variable}}}
	}
	strBuf := func(s []byte) []byte { // one string in the mini-block variable form
		b := make([]byte, 8, 8+len(s))
		binary.LittleEndian.PutUint32(b, 8)
		binary.LittleEndian.PutUint32(b[4:], uint32(8+len(s)))
		return append(b, s...)
	}
	lens := func(n int, l byte) []byte { return []byte(strings.Repeat(string(l), n)) }
	for _, c := range []struct {
		name   string
		minor  uint16
		layout *pb.PageLayout
		bufs   [][]byte
		rows   int64
		leaf   arrow.DataType
		want   error
		text   string
	}{
		{"ok", 2, miniLayout(flat(32), 4, true), oneChunk(vals(4)), 4, i32, nil, ""},
		{"truncated chunk", 2, miniLayout(flat(32), 4, true), [][]byte{oneChunk(vals(4))[0], oneChunk(vals(4))[1][:12]}, 4, i32, ErrBufferSize, "ends past"},
		{"short values", 2, miniLayout(flat(32), 40, true), oneChunk(vals(4)), 40, i32, ErrBufferSize, "fewer than 40 values"},
		{"huge item count", 2, miniLayout(flat(32), 1<<40, true), oneChunk(vals(4)), 4, i32, ErrTooLarge, "mini-block items"},
		{"bad bit width word", 2, miniLayout(&pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: 32}}}, 4, true),
			oneChunk(append([]byte{40, 0, 0, 0}, make([]byte, 128*40)...)), 4, i32, ErrCorrupt, "width 40"},
		{"bad lane width", 2, miniLayout(&pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: 24}}}, 4, true),
			oneChunk(vals(4)), 4, i32, ErrCorrupt, "24-bit"},
		{"odd flat width", 2, miniLayout(flat(12), 4, true), oneChunk(vals(4)), 4, i32, ErrCorrupt, "12 bits"},
		{"fsst symbol of 9 bytes", 2, miniLayout(fsst(fsstTableBytes(3, []byte{2, 9, 1})), 1, true), oneChunk(strBuf([]byte{0})), 1, str, ErrCorrupt, "length 9"},
		{"fsst table too short", 2, miniLayout(fsst(fsstTableBytes(200, lens(200, 2))[:100]), 1, true), oneChunk(strBuf([]byte{0})), 1, str, ErrCorrupt, "200 symbols in 100 bytes"},
		{"fsst code past the table", 2, miniLayout(fsst(fsstTableBytes(3, lens(3, 2))), 1, true), oneChunk(strBuf([]byte{0, 7})), 1, str, ErrCorrupt, "code 7"},
		{"fsst escape at the end", 2, miniLayout(fsst(fsstTableBytes(3, lens(3, 2))), 1, true), oneChunk(strBuf([]byte{0, 255})), 1, str, ErrCorrupt, "escape"},
		{"fsst 255 symbols decode", 2, miniLayout(fsst(fsstTableBytes(255, lens(255, 8))), 1, true), oneChunk(strBuf([]byte{254, 255, 'z'})), 1, str, nil, ""},
		{"2.1 with u32 chunks", 1, miniLayout(flat(32), 4, true), oneChunk(vals(4)), 4, i32, ErrUnsupported, "not part of the Lance 2.1 grammar"},
		{"2.2 without u32 chunks", 2, miniLayout(flat(32), 4, false), oneChunk(vals(4)), 4, i32, ErrUnsupported, "u32 chunk grammar"},
		{"range encoding", 2, miniLayout(&pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Range{Range: &pb.Range{}}}, 4, true), oneChunk(vals(4)), 4, i32, ErrUnsupported, "Range"},
		{"delta encoding", 2, miniLayout(&pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Delta{Delta: &pb.Delta{}}}, 4, true), oneChunk(vals(4)), 4, i32, ErrUnsupported, "Delta"},
		{"sparse layout", 2, &pb.PageLayout{Layout: &pb.PageLayout_SparseLayout{SparseLayout: &pb.SparseLayout{}}}, nil, 4, i32, ErrUnsupported, "SparseLayout"},
		{"blob layout", 1, &pb.PageLayout{Layout: &pb.PageLayout_BlobLayout{BlobLayout: &pb.BlobLayout{}}}, nil, 4, i32, ErrUnsupported, "BlobLayout"},
		{"2.1 scalar constant", 1, &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{InlineValue: []byte{1, 0, 0, 0}, Layers: []pb.RepDefLayer{1}}}}, nil, 4, i32, ErrUnsupported, "all-null form"},
		{"2.2 constant too long", 2, &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{InlineValue: make([]byte, 33), Layers: []pb.RepDefLayer{1}}}}, nil, 4, i32, ErrCorrupt, "33 bytes"},
		{"constant of the wrong width", 2, &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{InlineValue: []byte{1, 2}, Layers: []pb.RepDefLayer{1}}}}, nil, 4, i32, ErrCorrupt, "16-bit"},
		{"def level past the layers", 1, &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{Layers: []pb.RepDefLayer{3}}}},
			[][]byte{{}, {1, 0, 5, 0, 0, 0, 1, 0}}, 4, i32, ErrCorrupt, "definition level 1 = 5"},
		{"layers do not fit the field", 1, &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{Layers: []pb.RepDefLayer{3}}}},
			nil, 4, arrow.ListOf(i32), ErrCorrupt, "layer"},
		{"full-zip value past the end", 2, &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: &pb.FullZipLayout{
			Details: &pb.FullZipLayout_BitsPerOffset{BitsPerOffset: 32}, NumItems: 2, NumVisibleItems: 2, ValueCompression: variable, Layers: []pb.RepDefLayer{1}}}},
			[][]byte{{3, 0, 0, 0, 'a', 'b', 'c', 200, 0, 0, 0, 'x'}}, 2, str, ErrBufferSize, "entry 1"},
		{"full-zip of 12 bits", 2, &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: &pb.FullZipLayout{
			Details: &pb.FullZipLayout_BitsPerValue{BitsPerValue: 12}, NumItems: 2, NumVisibleItems: 2, ValueCompression: flat(12), Layers: []pb.RepDefLayer{1}}}},
			[][]byte{{1, 2, 3}}, 2, i32, ErrCorrupt, "12 bits"},
		{"rle runs too short", 2, miniLayout(&pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{Values: flat(32), RunLengths: flat(8)}}}, 10, true),
			func() [][]byte {
				b := oneChunk(nil)
				chunk := []byte{0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0xfe, 0xfe, 0xfe, 0xfe, 7, 0, 0, 0, 0xfe, 0xfe, 0xfe, 0xfe, 3, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe}
				binary.LittleEndian.PutUint32(b[0], uint32((len(chunk)/8-1)<<4))
				return [][]byte{b[0], chunk}
			}(), 10, i32, ErrCorrupt, "runs cover 3 of 10"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if ml := c.layout.GetMiniBlockLayout(); ml != nil && c.name == "rle runs too short" {
				ml.NumBuffers = 2
			}
			raw, err := proto.Marshal(c.layout)
			if err != nil {
				t.Fatal(err)
			}
			_, err = decodeOnePage(c.minor, raw, c.bufs, c.rows, c.leaf)
			if c.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("error %v, want %v containing %q", err, c.want, c.text)
			}
			var ce *CorruptError
			if !errors.As(err, &ce) || ce.Path == "" {
				t.Fatalf("error %v is not located", err)
			}
		})
	}
}
