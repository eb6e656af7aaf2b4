package lance

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// badFile breaks one validation rule; Open or Validate must fail with want.
type badFile struct {
	name  string
	build func() []byte
	want  error
}

func int32File(p tPage, rows uint64) []byte {
	return (&tFile{rows: rows, fields: top(fld(0, -1, "x", "int32", true)), cols: []tCol{oneCol(p)}}).bytes()
}

var badFiles = []badFile{
	{"bad_magic.lance", func() []byte {
		b := goldenFlat()
		copy(b[len(b)-4:], "LANX")
		return b
	}, ErrCorrupt},
	{"bad_buffer_range.lance", func() []byte {
		// A page buffer whose recorded size runs past the end of the file.
		return int32File(tPage{bufs: [][]byte{u32s(1, 2)}, sizes: []uint64{1 << 40}, length: 2, enc: noNull(flatE(32, pbuf(0)))}, 2)
	}, ErrBufferRange},
	{"bad_table_range.lance", func() []byte {
		b := goldenFlat()
		binary.LittleEndian.PutUint64(b[len(b)-32:], uint64(len(b))) // CMO table start past the footer
		return b
	}, ErrBufferRange},
	{"bad_buffer_size.lance", func() []byte {
		return int32File(tPage{bufs: [][]byte{u32s(1, 2, 3)}, length: 5, enc: noNull(flatE(32, pbuf(0)))}, 5)
	}, ErrBufferSize},
	{"bad_bitmap_size.lance", func() []byte {
		return int32File(tPage{bufs: [][]byte{{}, u32s(1, 2, 3)}, length: 3, enc: someNull(flatE(1, pbuf(0)), flatE(32, pbuf(1)))}, 3)
	}, ErrBufferSize},
	{"bad_list_offsets.lance", func() []byte {
		return listFile(tPage{bufs: [][]byte{u64s(3, 1)}, length: 2, enc: listE(noNull(flatE(64, pbuf(0))), 4, 3)}, 3)
	}, ErrOffsets},
	{"bad_list_adjustment.lance", func() []byte {
		// 9 >= 2*adj: neither a valid nor a null offset.
		return listFile(tPage{bufs: [][]byte{u64s(1, 9)}, length: 2, enc: listE(noNull(flatE(64, pbuf(0))), 4, 3)}, 3)
	}, ErrOffsets},
	{"bad_list_num_items.lance", func() []byte {
		// An offset past num_items.
		return listFile(tPage{bufs: [][]byte{u64s(1, 3)}, length: 2, enc: listE(noNull(flatE(64, pbuf(0))), 9, 2)}, 2)
	}, ErrOffsets},
	{"bad_binary_offsets.lance", func() []byte {
		return (&tFile{rows: 3, fields: top(fld(0, -1, "s", "string", true)), cols: []tCol{oneCol(tPage{
			bufs: [][]byte{u64s(2, 1, 3), []byte("abc")}, length: 3, enc: binaryE(noNull(flatE(64, pbuf(0))), flatE(8, pbuf(1)), 4)})}}).bytes()
	}, ErrOffsets},
	{"bad_dict_index.lance", func() []byte {
		return (&tFile{rows: 3, fields: top(fld(0, -1, "cat", "string", true)), cols: []tCol{oneCol(tPage{
			bufs: [][]byte{{1, 4, 2}, u64s(3, 8, 12), []byte("redgreenblue")}, length: 3,
			enc: dictE(noNull(flatE(8, pbuf(0))), binaryE(noNull(flatE(64, pbuf(1))), flatE(8, pbuf(2)), 13), 3)})}}).bytes()
	}, ErrDictIndex},
	{"bad_dict_key.lance", func() []byte {
		return (&tFile{rows: 2, fields: top(fld(0, -1, "d", "dict:string:int8:false", true)), cols: []tCol{oneCol(tPage{
			bufs: [][]byte{{0, 2}, u64s(1, 3), []byte("xyy")}, length: 2,
			enc: dictE(noNull(flatE(8, pbuf(0))), binaryE(noNull(flatE(64, pbuf(1))), flatE(8, pbuf(2)), 4), 2)})}}).bytes()
	}, ErrDictIndex},
	{"bad_length.lance", func() []byte {
		return int32File(flatPage(4, 32, u32s(1, 2, 3, 4)), 5)
	}, ErrLength},
	{"bad_list_items.lance", func() []byte {
		return (&tFile{rows: 2, fields: top(fld(0, -1, "l", "list", true), fld(1, 0, "item", "int32", true)),
			cols: []tCol{oneCol(listPage([]int{2, 2})), oneCol(flatPage(3, 32, u32s(1, 2, 3)))}}).bytes()
	}, ErrLength},
	{"bad_schema_columns.lance", func() []byte {
		return (&tFile{rows: 1, fields: top(fld(0, -1, "x", "int32", true), fld(1, -1, "y", "int32", true)),
			cols: []tCol{oneCol(flatPage(1, 32, u32s(1)))}}).bytes()
	}, ErrLength},
	{"bad_proto.lance", func() []byte {
		return (&tFile{rows: 1, fields: top(fld(0, -1, "x", "int32", true)), cols: []tCol{oneCol(flatPage(1, 32, u32s(1)))},
			rawColMeta: map[int][]byte{0: {0x12, 0xff, 0x01}}}).bytes()
	}, ErrProto},
	{"bad_flat_width.lance", func() []byte {
		return int32File(flatPage(2, 12, []byte{1, 2, 3}), 2)
	}, ErrUnsupported},
	{"bad_type_width.lance", func() []byte {
		return int32File(flatPage(2, 64, u64s(1, 2)), 2)
	}, ErrCorrupt},
	{"bad_struct_header.lance", func() []byte {
		return (&tFile{rows: 1, fields: top(fld(0, -1, "st", "struct", true), fld(1, 0, "a", "int32", true)),
			cols: []tCol{oneCol(flatPage(1, 32, u32s(9))), oneCol(flatPage(1, 32, u32s(1)))}}).bytes()
	}, ErrCorrupt},
	{"bad_zstd.lance", func() []byte {
		frame := zstdRaw([]byte("hello hello hello"))
		frame[len(frame)-3] ^= 0xff
		return (&tFile{rows: 1, fields: top(fld(0, -1, "s", "string", true)), cols: []tCol{oneCol(tPage{
			bufs: [][]byte{u64s(17), frame}, length: 1, enc: binaryE(noNull(flatE(64, pbuf(0))), flatC(8, pbuf(1), "zstd"), 18)})}}).bytes()
	}, ErrCorrupt},
	{"bad_zstd_length.lance", func() []byte {
		buf := binary.LittleEndian.AppendUint64(nil, 1<<62)
		buf = append(buf, zstdRaw([]byte("abc"))...)
		return (&tFile{rows: 1, fields: top(fld(0, -1, "s", "string", true)), cols: []tCol{oneCol(tPage{
			bufs: [][]byte{u64s(3), buf}, length: 1, enc: binaryE(noNull(flatE(64, pbuf(0))), flatC(8, pbuf(1), "zstd"), 4)})}}).bytes()
	}, ErrTooLarge},
}

func listFile(p tPage, items uint64) []byte {
	var vals []uint32
	for i := uint64(0); i < items; i++ {
		vals = append(vals, uint32(i))
	}
	return (&tFile{rows: p.length, fields: top(fld(0, -1, "l", "list", true), fld(1, 0, "item", "int32", true)),
		cols: []tCol{oneCol(p), oneCol(flatPage(items, 32, u32s(vals...)))}}).bytes()
}

func TestBadFiles(t *testing.T) {
	for _, bf := range badFiles {
		t.Run(bf.name, func(t *testing.T) {
			path := filepath.Join("testdata", bf.name)
			built := bf.build()
			if *update {
				require.NoError(t, os.WriteFile(path, built, 0o644))
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			if bf.name != "bad_zstd.lance" && bf.name != "bad_zstd_length.lance" {
				require.Equal(t, built, b)
			}
			err = ValidateBytes(b)
			require.ErrorIs(t, err, bf.want)
			var ce *CorruptError
			require.True(t, errors.As(err, &ce), "%v carries no location", err)
			// Reading must fail cleanly too (or succeed where only
			// Validate's extra checks object), never panic.
			if f, err := Open(bytes.NewReader(b), int64(len(b))); err == nil {
				rec, err := f.Read(ReadOptions{})
				if err == nil {
					rec.Release()
				}
			}
		})
	}
}
