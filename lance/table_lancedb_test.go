package lance

// Interop with LanceDB (npm @lancedb/lancedb 0.39) through
// scripts/lancedb/table.mjs. Runs when `node` is on PATH and the packages
// are found (internal/lancedbnode); skips with a message saying so
// otherwise, fails under COLFMT_REQUIRE_LANCEDB.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt/internal/lancedbnode"
)

func runLanceDB(t *testing.T, args ...string) string {
	t.Helper()
	cmd := lancedbnode.Find(t).Command("table.mjs", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node %s: %s", strings.Join(args, " "), stderr.String())
	return string(out)
}

// lancedbRows is what LanceDB returns for the table, one JSON line a row.
func lancedbRows(t *testing.T, db, name string) []string {
	out := strings.TrimSuffix(runLanceDB(t, "dump", db, name), "\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// ourRows renders the table as `colfmt cat` does (LanceDB's rendering).
func ourRows(t *testing.T, db, name string) []string {
	tb, err := OpenTable(os.DirFS(db), name)
	require.NoError(t, err)
	var buf bytes.Buffer
	for rec, err := range tb.Records(ReadOptions{}) {
		require.NoError(t, err)
		require.NoError(t, WriteJSONLines(&buf, rec, JSONOptions{LanceDB: true}))
		rec.Release()
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// sameRows compares row by row as JSON values (key order aside).
func sameRows(t *testing.T, want, got []string) {
	t.Helper()
	require.Equal(t, len(want), len(got), "row counts")
	for i := range want {
		require.JSONEq(t, want[i], got[i], "row %d", i)
	}
}

func TestLanceDBOpensOurTables(t *testing.T) {
	lancedbnode.Find(t)
	for _, fv := range []string{"2.0", "2.1", "2.2"} {
		t.Run(fv, func(t *testing.T) {
			db := t.TempDir()
			b1, b2 := twBatchNulls(t, 0, 300, fv != "2.0"), twBatchNulls(t, 300, 45, fv != "2.0")
			defer b1.Release()
			defer b2.Release()
			_, err := CreateTable(DirFS(db), "ours.lance", twSchema, Batches(b1, b2), WithFormatVersion(fv), WithMaxRowsPerFile(200))
			require.NoError(t, err)
			ours := ourRows(t, db, "ours.lance")
			require.Len(t, ours, 345)
			sameRows(t, ours, lancedbRows(t, db, "ours"))

			// LanceDB appends to our table (its first 50 rows again).
			var info struct{ Rows, Version int }
			require.NoError(t, json.Unmarshal([]byte(runLanceDB(t, "add", db, "ours", "50")), &info))
			require.Equal(t, 395, info.Rows)
			require.Equal(t, 2, info.Version)
			theirs := lancedbRows(t, db, "ours")
			sameRows(t, theirs, ourRows(t, db, "ours.lance"))
			sameRows(t, ours[:50], theirs[345:])
			tb, err := OpenTable(DirFS(db), "ours.lance")
			require.NoError(t, err)
			require.NoError(t, tb.Validate())
			for _, fr := range tb.Fragments() {
				require.Equal(t, fv, fr.Files[0].Version, "LanceDB keeps our file format version")
			}

			// And we append once more after LanceDB.
			tb3, err := tb.Append(Batches(b2))
			require.NoError(t, err)
			require.EqualValues(t, 3, tb3.Version().Number)
			sameRows(t, ourRows(t, db, "ours.lance"), lancedbRows(t, db, "ours"))
		})
	}
}

func TestWeAppendToLanceDBTable(t *testing.T) {
	lancedbnode.Find(t)
	db := t.TempDir()
	runLanceDB(t, "create", db, "theirs", "40")
	tb, err := OpenTable(DirFS(db), "theirs.lance")
	require.NoError(t, err)
	before := ourRows(t, db, "theirs.lance")
	sameRows(t, lancedbRows(t, db, "theirs"), before)
	// Append the table's own rows, through its schema (LanceDB's inferred
	// Float64 ids, List<Float64> vectors), in two data files.
	var recs []arrow.RecordBatch
	for rec, err := range tb.Records(ReadOptions{}) {
		require.NoError(t, err)
		recs = append(recs, rec)
	}
	tb2, err := tb.Append(Batches(recs...), WithMaxRowsPerFile(25))
	for _, r := range recs {
		r.Release()
	}
	require.NoError(t, err)
	require.Len(t, tb2.Fragments(), 3)
	require.Equal(t, "2.2", tb2.Fragments()[2].Files[0].Version)
	theirs := lancedbRows(t, db, "theirs")
	require.Len(t, theirs, 80)
	sameRows(t, append(before, before...), theirs)
	sameRows(t, theirs, ourRows(t, db, "theirs.lance"))
	// LanceDB appends after us: version 3.
	runLanceDB(t, "add", db, "theirs", "5")
	sameRows(t, lancedbRows(t, db, "theirs"), ourRows(t, db, "theirs.lance"))
	// tb2 (version 2) is stale now: LanceDB won version 3.
	_, err = tb2.Append(tb2.Records(ReadOptions{Limit: 3}))
	require.ErrorIs(t, err, ErrConflict)
	entries, err := os.ReadDir(filepath.Join(db, "theirs.lance", "data"))
	require.NoError(t, err)
	require.Len(t, entries, 4, "the losing append leaves no data file")
}

// TestWeAppendToLanceDBStableRowIDs: a table LanceDB made with stable row
// ids (feature flag 2) takes our append (row ids and version sequences for
// the new fragment) and LanceDB appends after it.
func TestWeAppendToLanceDBStableRowIDs(t *testing.T) {
	lancedbnode.Find(t)
	db := t.TempDir()
	runLanceDB(t, "create", db, "st", "30", "stable")
	tb, err := OpenTable(DirFS(db), "st.lance")
	require.NoError(t, err)
	require.NotZero(t, tb.manifest.WriterFeatureFlags&flagStableRowIDs)
	before := ourRows(t, db, "st.lance")
	tb2, err := tb.Append(tb.Records(ReadOptions{}))
	require.NoError(t, err)
	require.EqualValues(t, 60, tb2.manifest.NextRowId)
	sameRows(t, append(before, before...), lancedbRows(t, db, "st"))
	var info struct{ Rows, Version int }
	require.NoError(t, json.Unmarshal([]byte(runLanceDB(t, "add", db, "st", "4")), &info))
	require.Equal(t, 64, info.Rows)
	require.Equal(t, 3, info.Version)
	tb3, err := OpenTable(DirFS(db), "st.lance")
	require.NoError(t, err)
	require.EqualValues(t, 64, tb3.manifest.NextRowId)
	sameRows(t, lancedbRows(t, db, "st"), ourRows(t, db, "st.lance"))
}

// TestLanceDBReadsOurStableRowIDs: a table we create WithStableRowIDs is
// read by LanceDB, which appends to it keeping stable row ids (its
// next_row_id follows ours), and we read LanceDB's append.
func TestLanceDBReadsOurStableRowIDs(t *testing.T) {
	lancedbnode.Find(t)
	db := t.TempDir()
	b := twBatch(t, 0, 30)
	defer b.Release()
	_, err := CreateTable(DirFS(db), "ours.lance", twSchema, Batches(b), WithStableRowIDs(true), WithMaxRowsPerFile(20))
	require.NoError(t, err)
	sameRows(t, ourRows(t, db, "ours.lance"), lancedbRows(t, db, "ours"))
	var info struct{ Rows, Version int }
	require.NoError(t, json.Unmarshal([]byte(runLanceDB(t, "add", db, "ours", "5")), &info))
	require.Equal(t, 35, info.Rows)
	require.Equal(t, 2, info.Version)
	tb, err := OpenTable(DirFS(db), "ours.lance")
	require.NoError(t, err)
	require.NotZero(t, tb.manifest.ReaderFeatureFlags&flagStableRowIDs)
	require.EqualValues(t, 35, tb.manifest.NextRowId)
	require.Equal(t, rowIDRange(30, 35), tb.manifest.Fragments[2].GetInlineRowIds())
	sameRows(t, lancedbRows(t, db, "ours"), ourRows(t, db, "ours.lance"))
}
