package at1

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/colfmt/colfmt/internal/readlog"
)

func TestOpenAndQueryReadOnlyWhatTheyNeed(t *testing.T) {
	src := readVector(t, "golden_qcol_trades.at1")
	cr := readlog.New(bytes.NewReader(src))
	f, err := Open(cr, int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	blocksStart := f.BlocksOffset()
	if blocksStart < 0 {
		t.Fatal("blocks not stored")
	}
	bs := f.Streams[f.stream("blocks")]
	blocksEnd := blocksStart + bs.Size
	// Reading the blocks stream's comp_len varint may look up to 10
	// bytes ahead; nothing else of the blocks is read.
	if n := cr.BytesIn(blocksStart, blocksEnd); n > 10 {
		t.Fatalf("Open read %d bytes of blocks", n)
	}
	before := cr.BytesIn(blocksStart, blocksEnd)
	rs, err := f.Query(Query{Columns: []int{2}, Where: []Range{{Column: 0, Min: "10000", Max: "10003"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, rs); len(got) != 2 {
		t.Fatalf("rows %q", got)
	}
	st := rs.Stats()
	if n := cr.BytesIn(blocksStart, blocksEnd) - before; n != st.BytesRead || st.BlocksRead != 2 {
		t.Fatalf("read %d block bytes, stats %+v", n, st)
	}
	// Exactly the blocks of group 2, columns 0 and 2, were read.
	g := f.RowGroups()[2]
	if want := g[0].Size + g[2].Size; st.BytesRead != want {
		t.Fatalf("read %d bytes, want %d", st.BytesRead, want)
	}
	if st.BytesRead*3 > bs.Size {
		t.Fatalf("read %d of %d block bytes", st.BytesRead, bs.Size)
	}
}

// failAfter serves n bytes, then fails.
type failAfter struct {
	r io.Reader
	n int
}

var errBroken = errors.New("broken pipe")

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errBroken
	}
	p = p[:min(len(p), f.n)]
	n, err := f.r.Read(p)
	f.n -= n
	return n, err
}

func TestNewReaderStreamsFrameByFrame(t *testing.T) {
	f1 := append([]byte{1, 2}, "first frame\n"...)
	f2 := append([]byte{1, 2}, "second frame\n"...)
	src := framed(CodecRaw, f1, f2)
	// The source breaks inside the second frame: the first frame's
	// output must still arrive before the error.
	z, err := NewReader(&failAfter{r: bytes.NewReader(src), n: len(src) - 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(z)
	if string(got) != "first frame\n" || !errors.Is(err, errBroken) {
		t.Fatalf("got %q, %v", got, err)
	}
}
