package lance

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/errs"
)

// planOf lists each column's page decoders.
func planOf(f *File) map[string][]decoderKind {
	out := map[string][]decoderKind{}
	for _, c := range f.columns {
		for _, p := range c.pages {
			out[c.path] = append(out[c.path], p.decoder)
		}
	}
	return out
}

func onlyDecoder(t *testing.T, f *File, col int, want decoderKind) {
	t.Helper()
	c := f.columns[col]
	require.NotEmpty(t, c.pages, c.path)
	for _, p := range c.pages {
		require.Equal(t, want, p.decoder, "%s page %d: planned %s, want %s", c.path, p.index, p.decoder, want)
	}
}

// Open plans the direct decoders for the layouts lance writes by default,
// in 2.0 and 2.2 alike, and the general decoder for the others.
func TestPlanChoosesDecoders(t *testing.T) {
	b20 := benchFile()
	f20, err := Open(bytes.NewReader(b20), int64(len(b20)))
	require.NoError(t, err)
	// i, f, s, l (offsets), l.item, v
	for col, want := range []decoderKind{decFixed20, decFixed20, decBinary20, decList20, decFixed20, decFixed20} {
		onlyDecoder(t, f20, col, want)
	}
	require.Equal(t, decList20, f20.columns[3].decoder, "a list's offsets column is planned as a whole")

	b22 := bench22File()
	f22, err := Open(bytes.NewReader(b22), int64(len(b22)))
	require.NoError(t, err)
	// Leaves only: i, f, s, l.item, v.
	for col, want := range []decoderKind{decLeaf21, decLeaf21, decLeaf21, decList21, decLeaf21} {
		onlyDecoder(t, f22, col, want)
	}

	// A 2.0 column mixing a plain and a compressed page: each page gets
	// its decoder, and a read across both joins the runs.
	var v []byte
	for i := 0; i < 100; i++ {
		v = binary.LittleEndian.AppendUint64(v, uint64(i))
	}
	mixed := tCol{pages: []tPage{flatPage(100, 64, v), {bufs: [][]byte{zstdRaw(v)}, length: 100, enc: noNull(flatC(64, pbuf(0), "zstd"))}}}
	bm := (&tFile{rows: 200, fields: top(fld(0, -1, "x", "int64", false)), cols: []tCol{mixed}}).bytes()
	fm, err := Open(bytes.NewReader(bm), int64(len(bm)))
	require.NoError(t, err)
	require.Equal(t, []decoderKind{decFixed20, decGeneral}, planOf(fm)[fm.columns[0].path])
	rec, err := fm.Read(ReadOptions{Offset: 90, Limit: 20})
	require.NoError(t, err)
	require.Equal(t, `{"x":95}`, string(AppendJSONRow(nil, rec, 5, JSONOptions{})))
	require.Equal(t, `{"x":5}`, string(AppendJSONRow(nil, rec, 15, JSONOptions{})))
	rec.Release()
}

// forceGeneral runs the general decoders on every page, with the same
// output.
func TestForceGeneralSameOutput(t *testing.T) {
	for _, b := range [][]byte{benchFile(), bench22File()} {
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		o := ReadOptions{Offset: 1234, Limit: 5000}
		rec, err := f.Read(o)
		require.NoError(t, err)
		f.cfg.forceGeneral = true
		r := f.newReader()
		require.True(t, r.general)
		r.release()
		gen, err := f.Read(o)
		require.NoError(t, err)
		f.cfg.forceGeneral = false
		var x, y bytes.Buffer
		require.NoError(t, WriteJSONLines(&x, rec, JSONOptions{}))
		require.NoError(t, WriteJSONLines(&y, gen, JSONOptions{}))
		require.Equal(t, x.String(), y.String())
		rec.Release()
		gen.Release()
	}
}

// A direct decoder that finds the data wrong fails with a located
// ErrCorrupt naming the page, and does not hand the page to another
// decoder.
func TestDirectDecoderLocatedErrors(t *testing.T) {
	b := bench22File()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	p := f.columns[0].pages[0]
	require.Equal(t, decLeaf21, p.decoder)
	meta := p.buffers[0]
	bad := bytes.Clone(b)
	// Make the first chunk claim 2^15 items: more than the page holds.
	ws := int64(2)
	if p.layout.large {
		ws = 4
	}
	require.Greater(t, meta.size, ws, "the page needs two chunks")
	bad[meta.off] |= 0x0f
	fb, err := Open(bytes.NewReader(bad), int64(len(bad)))
	require.NoError(t, err)
	require.Equal(t, decLeaf21, fb.columns[0].pages[0].decoder)
	_, err = fb.Read(ReadOptions{Columns: []string{"i"}, Limit: 10})
	t.Log(err)
	require.ErrorIs(t, err, ErrCorrupt)
	var ce *errs.CorruptError
	require.True(t, errors.As(err, &ce))
	require.True(t, strings.Contains(ce.Path, "page 0"), ce.Path)
	require.Equal(t, meta.off, ce.Offset, "the chunk word's offset")
}

// recordsJSON renders every batch of a read as JSON Lines.
func recordsJSON(t *testing.T, f *File, o ReadOptions) string {
	t.Helper()
	var buf bytes.Buffer
	for rec, err := range f.Records(o) {
		require.NoError(t, err)
		require.NoError(t, WriteJSONLines(&buf, rec, JSONOptions{}))
		rec.Release()
	}
	return buf.String()
}

// A column whose pages mix direct and general decoders reads its runs
// and joins them: every third page of every column is planned general
// here, and the rows match a read through the general decoders only, for
// batches that start and end inside runs.
func TestMixedRunsJoin(t *testing.T) {
	for _, b := range [][]byte{benchFile(), bench22File()} {
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		changed := 0
		for _, c := range f.columns {
			for i, p := range c.pages {
				if i%3 == 1 && p.decoder != decGeneral && c.decoder == decGeneral {
					p.decoder = decGeneral
					changed++
				}
			}
		}
		require.Greater(t, changed, 3)
		for _, o := range []ReadOptions{{BatchRows: 7777}, {Offset: 5000, Limit: 40000, BatchRows: 12345}, {Columns: []string{"l"}, BatchRows: 9000}} {
			got := recordsJSON(t, f, o)
			f.cfg.forceGeneral = true
			want := recordsJSON(t, f, o)
			f.cfg.forceGeneral = false
			require.Equal(t, want, got, "%+v", o)
		}
	}
}
