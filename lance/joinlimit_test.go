package lance

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJoinedResultLimit: every page fits WithMaxBufferSize, but a read
// joining several of them would not; it must fail with ErrTooLarge on
// the direct and the general (compressed pages) paths alike, while a
// range that fits still reads.
func TestJoinedResultLimit(t *testing.T) {
	const pages, per = 3, 100
	var plain, packed, strs tCol
	for p := 0; p < pages; p++ {
		var v []byte
		var s []*string
		for i := 0; i < per; i++ {
			v = binary.LittleEndian.AppendUint64(v, uint64(p*per+i))
			s = append(s, sp(fmt.Sprintf("%08d", p*per+i)))
		}
		plain.pages = append(plain.pages, flatPage(per, 64, v))
		packed.pages = append(packed.pages, tPage{bufs: [][]byte{zstdRaw(v)}, length: per, enc: noNull(flatC(64, pbuf(0), "zstd"))})
		strs.pages = append(strs.pages, stringPage(s))
	}
	b := (&tFile{rows: pages * per, fields: top(fld(0, -1, "plain", "int64", false), fld(1, -1, "packed", "int64", false), fld(2, -1, "s", "string", false)),
		cols: []tCol{plain, packed, strs}}).bytes()
	// Each page is 800 bytes of values; two pages fit, three do not.
	f, err := Open(bytes.NewReader(b), int64(len(b)), WithMaxBufferSize(2000))
	require.NoError(t, err)
	for _, col := range []string{"plain", "packed", "s"} {
		for _, general := range []bool{false, true} {
			nodes, schema, _, _, err := f.selection(ReadOptions{Columns: []string{col}})
			require.NoError(t, err)
			r := f.newReader()
			r.general = general
			_, err = r.record(nodes, schema, 0, pages*per)
			require.ErrorIs(t, err, ErrTooLarge, "%s general=%v", col, general)
			require.ErrorContains(t, err, "joined pages")
			rec, err := r.record(nodes, schema, 50, 50+2*per)
			require.NoError(t, err, "%s general=%v", col, general)
			require.EqualValues(t, 2*per, rec.NumRows())
			rec.Release()
			r.release()
		}
	}
	// Batches below the limit read the whole column.
	rows := int64(0)
	for rec, err := range f.Records(ReadOptions{BatchRows: 150}) {
		require.NoError(t, err)
		rows += rec.NumRows()
		rec.Release()
	}
	require.EqualValues(t, pages*per, rows)
}
