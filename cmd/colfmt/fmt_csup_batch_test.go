package main

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/stretchr/testify/require"
)

// cat of a many-object CSUP v16 file renders objects in parallel and
// writes the bytes the row reader's values give, in file order, whole and
// projected, with any number of workers.
func TestCatCSUPBatchesParallel(t *testing.T) {
	rt := bsup.NewRecord([]bsup.Field{{Name: "id", Type: bsup.TypeInt64}, {Name: "s", Type: bsup.TypeString},
		{Name: "l", Type: bsup.NewArray(bsup.TypeFloat64)}})
	var buf bytes.Buffer
	w, err := csup.NewWriter(&buf, csup.WithLayout(csup.LayoutCSUP16), csup.WithObjectRows(333))
	require.NoError(t, err)
	for i := 0; i < 5000; i++ {
		l := bsup.Value{Type: rt.Fields[2].Type, Elems: make([]bsup.Value, i%4)}
		for j := range l.Elems {
			l.Elems[j] = bsup.NewFloat(bsup.TypeFloat64, float64(i*j)/7)
		}
		require.NoError(t, w.Write(bsup.NewRecordValue(rt, bsup.NewInt(bsup.TypeInt64, int64(i)), bsup.NewString(string(rune('a'+i%26))), l)))
	}
	require.NoError(t, w.Close())
	f, err := csup.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), csup.WithBatchRows(100))
	require.NoError(t, err)
	require.Equal(t, 16, f.Objects())
	for _, cols := range [][]string{nil, {"l"}} {
		var want []byte
		for v, err := range f.Project(cols...) {
			require.NoError(t, err)
			want = append(bsup.AppendJSON(want, v, bsup.JSONSuper), '\n')
		}
		if cols == nil {
			want = nil
			for v, err := range f.Values() {
				require.NoError(t, err)
				want = append(bsup.AppendJSON(want, v, bsup.JSONSuper), '\n')
			}
		}
		for _, workers := range []int{1, 2, 3, 8} {
			var out bytes.Buffer
			require.NoError(t, catCSUPBatches(&out, f, cols, bsup.JSONSuper, workers))
			require.Equal(t, string(want), out.String(), "workers %d cols %v", workers, cols)
		}
	}
	// A failing writer stops the workers with its error.
	fail := errors.New("disk full")
	require.ErrorIs(t, catCSUPBatches(failWriter{err: fail}, f, nil, bsup.JSONSuper, 3), fail)
	require.NoError(t, catCSUPBatches(io.Discard, f, nil, bsup.JSONSuper, 3))
}

type failWriter struct{ err error }

func (w failWriter) Write(p []byte) (int, error) {
	return 0, w.err
}
