package lance

// LanceDB interop for the data-file writer: LanceDB writes a table from
// the same rows, we write its data file again with our writer (same field
// ids), swap it into the table's manifest and let LanceDB read the table
// back. Runs when node and @lancedb/lancedb are installed (see
// internal/lancedbnode); skips otherwise.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"

	"github.com/colfmt/colfmt/internal/lancedbnode"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// lancedbNode finds node and LanceDB (see internal/lancedbnode), or skips.
func lancedbNode(t testing.TB) lancedbnode.Env {
	t.Helper()
	return lancedbnode.Find(t)
}

func runNode(t testing.TB, env lancedbnode.Env, args ...string) []byte {
	t.Helper()
	cmd := env.Command("interop.mjs", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

func writeIPC(t testing.TB, path string, schema *arrow.Schema, recs []arrow.RecordBatch) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// swapResult is what lancedbSwap measured.
type swapResult struct {
	lanceMS            float64
	theirSize, ourSize int64
}

// lancedbSwap makes LanceDB write recs as a table (format version), then
// rewrites its data file with our writer and checks LanceDB reads the same
// rows back from it.
func lancedbSwap(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch, version string, opts ...Option) swapResult {
	t.Helper()
	np := lancedbNode(t)
	dir := t.TempDir()
	ipcPath := filepath.Join(dir, "in.arrow")
	writeIPC(t, ipcPath, schema, recs)
	var res swapResult
	var created struct {
		MS   float64 `json:"ms"`
		Rows int64   `json:"rows"`
	}
	if err := json.Unmarshal(runNode(t, np, "create", dir, "t", ipcPath, version), &created); err != nil {
		t.Fatal(err)
	}
	res.lanceMS = created.MS
	runNode(t, np, "dump", dir, "t", filepath.Join(dir, "theirs.jsonl"))

	tdir := filepath.Join(dir, "t.lance")
	mans, _ := filepath.Glob(filepath.Join(tdir, "_versions", "*.manifest"))
	if len(mans) != 1 {
		t.Fatalf("want one manifest, got %v", mans)
	}
	mb, err := os.ReadFile(mans[0])
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := decodeManifestAt(mb, "manifest", 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Fragments) != 1 || len(m.Fragments[0].Files) != 1 {
		t.Fatalf("want one fragment with one file, got %d", len(m.Fragments))
	}
	df := m.Fragments[0].Files[0]
	theirPath := filepath.Join(tdir, "data", df.Path)
	theirs, err := os.ReadFile(theirPath)
	if err != nil {
		t.Fatal(err)
	}
	res.theirSize = int64(len(theirs))
	// Read LanceDB's rows with our reader: the schema and values exactly as
	// LanceDB stored them.
	tf, err := Open(bytes.NewReader(theirs), int64(len(theirs)))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := tf.Read(ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	var out bytes.Buffer
	w, err := newWriterWithFieldIDs(&out, rec.Schema(), m.Fields, append([]Option{WithFormatVersion(version)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ids, cols, major, minor, size := w.dataFileInfo()
	res.ourSize = size
	ourName := "ours-" + df.Path
	if err := os.WriteFile(filepath.Join(tdir, "data", ourName), out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if !equalInt32(ids, df.Fields) || !equalInt32(cols, df.ColumnIndices) || major != df.FileMajorVersion || minor != df.FileMinorVersion {
		t.Errorf("DataFile info: fields %v cols %v version %d.%d; LanceDB wrote %v %v %d.%d",
			ids, cols, major, minor, df.Fields, df.ColumnIndices, df.FileMajorVersion, df.FileMinorVersion)
	}
	df.Path, df.FileSizeBytes = ourName, uint64(size)
	df.Fields, df.ColumnIndices = ids, cols
	if err := os.WriteFile(mans[0], reencodeManifest(t, mb, m), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(theirPath); err != nil {
		t.Fatal(err)
	}
	runNode(t, np, "dump", dir, "t", filepath.Join(dir, "ours.jsonl"))
	a, _ := os.ReadFile(filepath.Join(dir, "theirs.jsonl"))
	b, _ := os.ReadFile(filepath.Join(dir, "ours.jsonl"))
	if !bytes.Equal(a, b) {
		la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
		for i := range min(len(la), len(lb)) {
			if la[i] != lb[i] {
				t.Fatalf("LanceDB reads row %d of our file as\n%s\nbut its own as\n%s", i, lb[i], la[i])
			}
		}
		t.Fatalf("LanceDB reads %d rows from our file, %d from its own", len(lb), len(la))
	}
	return res
}

func equalInt32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// reencodeManifest replaces the Manifest protobuf of a manifest file,
// keeping what precedes it (inline transaction) and the trailer's version.
func reencodeManifest(t testing.TB, old []byte, m *tablepb.Manifest) []byte {
	t.Helper()
	tr := old[len(old)-manifestTrailer:]
	pos := binary.LittleEndian.Uint64(tr)
	pb, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), old[:pos]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(pb)))
	out = append(out, pb...)
	out = binary.LittleEndian.AppendUint64(out, pos)
	return append(out, tr[8:]...)
}

func interopSchema() *arrow.Schema {
	// The types LanceDB's JS client accepts (no large types, float16,
	// decimal or map through apache-arrow JS).
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "d32", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "vec", Type: arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "big", Type: arrow.FixedSizeListOf(128, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "li", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "lstr", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "lli", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), Nullable: true},
		{Name: "st", Type: st, Nullable: true},
		{Name: "lst", Type: arrow.ListOf(st), Nullable: true},
		{Name: "long", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "allnull", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
}

func TestWriteLanceDBInterop(t *testing.T) {
	if testing.Short() {
		t.Skip("LanceDB interop takes node start-ups: skipped in -short")
	}
	schema := interopSchema()
	r := rand.New(rand.NewPCG(7, 7))
	g := genOpts{pNull: 0.15, pEmpty: 0.15, maxList: 4, maxStr: 20}
	rec := randRecord(schema, 3000, r, g)
	for _, v := range []string{"2.2", "2.1"} {
		t.Run(v, func(t *testing.T) {
			res := lancedbSwap(t, schema, []arrow.RecordBatch{rec}, v)
			t.Logf("%s: LanceDB %d bytes, ours %d bytes (%.3fx)", v, res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
		})
	}
	t.Run("2.2-mixed", func(t *testing.T) {
		// Sentences (FSST), categories (dictionary), vectors (full-zip).
		ms, mrecs, _ := mixedRecords(3000, 1000)
		res := lancedbSwap(t, ms, mrecs, "2.2")
		t.Logf("2.2 mixed: LanceDB %d bytes, ours %d bytes (%.3fx)", res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
	})
	t.Run("2.2-constant", func(t *testing.T) {
		g := g
		g.card, g.pNull = 1, 0.1
		rec := randRecord(schema, 3000, r, g)
		res := lancedbSwap(t, schema, []arrow.RecordBatch{rec}, "2.2")
		t.Logf("2.2 constant: LanceDB %d bytes, ours %d bytes (%.3fx)", res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
	})
	t.Run("2.2-lowcard", func(t *testing.T) {
		g := g
		g.card = 5
		rec := randRecord(schema, 3000, r, g)
		res := lancedbSwap(t, schema, []arrow.RecordBatch{rec}, "2.2")
		t.Logf("2.2 low cardinality: LanceDB %d bytes, ours %d bytes (%.3fx)", res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
	})
	t.Run("2.2-dict64-runs", func(t *testing.T) {
		// 64-bit dictionaries and RLE pages (write_enc22_test.go data).
		for _, v := range []string{"2.2", "2.1"} {
			ls, lrec := lowCardRecord(5000, 11)
			res := lancedbSwap(t, ls, []arrow.RecordBatch{lrec}, v)
			lrec.Release()
			t.Logf("%s 64-bit low cardinality: LanceDB %d bytes, ours %d bytes (%.3fx)", v, res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
			rs, rrec := runsRecord(20000, 11)
			res = lancedbSwap(t, rs, []arrow.RecordBatch{rrec}, v)
			rrec.Release()
			t.Logf("%s runs: LanceDB %d bytes, ours %d bytes (%.3fx)", v, res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
		}
	})
	t.Run("2.2-bss-zstd", func(t *testing.T) {
		// Byte-stream-split floats under zstd (write_enc22_test.go data).
		fs, frec := floatWalkRecord(6000, 13)
		res := lancedbSwap(t, fs, []arrow.RecordBatch{frec}, "2.2", WithCompression("zstd"))
		frec.Release()
		t.Logf("2.2 float walk, zstd: LanceDB %d bytes, ours %d bytes (%.3fx)", res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
	})
	for _, sc := range []string{"lz4", "zstd"} {
		t.Run("2.2-"+sc, func(t *testing.T) {
			res := lancedbSwap(t, schema, []arrow.RecordBatch{rec}, "2.2", WithCompression(sc))
			t.Logf("2.2 %s: LanceDB %d bytes, ours %d bytes (%.3fx)", sc, res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
		})
	}
	t.Run("2.0", func(t *testing.T) {
		g.noStructNull = true
		rec := randRecord(schema, 3000, r, g)
		res := lancedbSwap(t, schema, []arrow.RecordBatch{rec}, "2.0", WithPageBytes(64<<10))
		t.Logf("2.0: LanceDB %d bytes, ours %d bytes (%.3fx)", res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
		res = lancedbSwap(t, schema, []arrow.RecordBatch{rec}, "2.0", WithCompression("zstd"))
		t.Logf("2.0 zstd: LanceDB %d bytes, ours %d bytes (%.3fx)", res.theirSize, res.ourSize, float64(res.ourSize)/float64(res.theirSize))
	})
}
