package lance

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"path"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// Writing tables: CreateTable and Table.Append write data files under
// data/, then commit a new manifest version (table_commit.go).

// writerLibrary is what manifests written here give as writer_version
// (informational: lance applies its bug workarounds only to "lance").
var writerLibrary = &tablepb.Manifest_WriterVersion{Library: "colfmt", Version: "0.1.0"}

// Writer feature flags this package honours when it appends (lance-table
// feature_flags.rs): a table needing another one is refused.
const handledWriterFlags = flagDeletionFiles | flagStableRowIDs | flagUseV2Format | flagTableConfig | flagNoTransaction

// Batches yields recs one by one, for CreateTable and Append.
func Batches(recs ...arrow.RecordBatch) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		for _, r := range recs {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// CreateTable writes a new table in directory dir of fsys (LanceDB's
// table "name" of a database directory db is db/name.lance): the records,
// cut into data files of at most WithMaxRowsPerFile rows, one fragment
// each, and version 1 of the manifest, named as LanceDB 0.39 names it
// (_versions/{u64::MAX-1}.manifest), with _versions/latest_version_hint.json
// and the transaction file _transactions/0-<uuid>.txn LanceDB writes.
// Writer options apply (WithFormatVersion, default 2.2; WithPageBytes;
// WithCompression), and WithStableRowIDs; reader options apply to the
// returned Table.
//
// Every batch must have schema's fields (by name, any order; the types
// equal up to the names of list items and map entries). The records are
// not released. dir must not hold a table yet: a directory whose
// _versions/ holds a manifest fails with an error wrapping fs.ErrExist,
// and a concurrent CreateTable of the same directory that commits first
// makes this one fail with ErrConflict.
func CreateTable(fsys WriteFS, dir string, schema *arrow.Schema, records iter.Seq2[arrow.RecordBatch, error], opts ...Option) (*Table, error) {
	cfg := defaultConfig()
	if err := opt.Apply(&cfg, opts); err != nil {
		return nil, err
	}
	if fsys == nil {
		return nil, fmt.Errorf("%w: CreateTable: nil WriteFS", ErrInvalidArgument)
	}
	if !fs.ValidPath(dir) {
		return nil, fmt.Errorf("%w: CreateTable: %s is not a valid io/fs path", ErrInvalidArgument, errs.Quote(dir))
	}
	if schema == nil {
		return nil, fmt.Errorf("%w: CreateTable: nil schema", ErrInvalidArgument)
	}
	if records == nil {
		records = Batches()
	}
	if ents, err := fs.ReadDir(fsys, path.Join(dir, "_versions")); err == nil {
		for _, e := range ents {
			if _, _, ok := manifestName(e.Name()); ok {
				return nil, fmt.Errorf("lance: CreateTable: %s already holds a table (%s): %w", errs.Quote(dir), e.Name(), fs.ErrExist)
			}
		}
	}
	fields, _, err := lanceFields(schema, 0)
	if err != nil {
		return nil, err
	}
	version := formatVersionString(cfg.write.major, cfg.write.minor)
	w := &tableWriter{fsys: fsys, dir: dir, cfg: cfg, schema: schema, fields: fields, version: version}
	if err := w.writeAll(records); err != nil {
		w.cleanup()
		return nil, err
	}
	m := &tablepb.Manifest{
		Fields:         fields,
		Fragments:      w.frags,
		Version:        1,
		SchemaMetadata: schemaMetadataBytes(schema.Metadata()),
		DataFormat:     &tablepb.Manifest_DataStorageFormat{FileFormat: "lance", Version: version},
	}
	if len(w.frags) > 0 {
		m.MaxFragmentId = proto.Uint32(uint32(w.frags[len(w.frags)-1].Id))
	}
	if cfg.table.stableRowIDs {
		// As lance 12 writes a table created with stable row ids.
		m.ReaderFeatureFlags |= flagStableRowIDs
		m.WriterFeatureFlags |= flagStableRowIDs
		m.NextRowId = assignRowIDs(w.frags, 0, 1)
	}
	txn, err := overwriteTransaction(w.frags, fields, m.SchemaMetadata)
	if err != nil {
		w.cleanup()
		return nil, err
	}
	if err := commitManifest(fsys, dir, m, true, nil, txn, 0); err != nil {
		w.cleanup()
		return nil, err
	}
	return OpenTable(fsys, dir, withConfig(cfg), WithVersion(1))
}

// Append writes records as new fragments after the table's and commits
// the next version: t's version + 1, in t's manifest naming scheme, with
// the table's file format version (WithFormatVersion is overridden), its
// schema and field ids, and everything else of t's manifest (deletion
// files, indices, config) kept. It returns the new version; t stays the
// version it was. Records without rows commit nothing and return t.
//
// The table must have been opened through a WriteFS (OpenTable(DirFS(db),
// "name.lance")); otherwise Append fails with ErrInvalidArgument. Every
// batch must have the table's columns (by name, any order); a column whose
// type differs fails with ErrInvalidArgument naming it, and so do nulls in
// a field the table declares non-nullable, at any level (a struct member,
// a list item: the error names the path, info.city or tags[]).
//
// If t is not the latest version any more, or another writer commits
// t's version + 1 first, Append fails with ErrConflict and removes the
// data files it wrote: open the table again and retry. Tables with
// stable row ids get the next row ids and version sequences for the new
// fragments; tables that need a writer feature this package lacks
// (external base paths, unknown flags) fail with ErrUnsupported.
func (t *Table) Append(records iter.Seq2[arrow.RecordBatch, error], opts ...Option) (*Table, error) {
	fsys, ok := t.fsys.(WriteFS)
	if !ok {
		return nil, fmt.Errorf("%w: Append: the table was opened from an fs.FS that cannot write; open it through a WriteFS such as lance.DirFS", ErrInvalidArgument)
	}
	cfg := t.cfg
	cfg.table = tableConfig{maxRowsPerFile: t.cfg.table.maxRowsPerFile}
	if err := opt.Apply(&cfg, opts); err != nil {
		return nil, err
	}
	if records == nil {
		return t, nil
	}
	m := t.manifest
	where := "_versions/" + manifestFileName(m.Version, t.v2)
	if f := m.WriterFeatureFlags &^ handledWriterFlags; f != 0 {
		var names []string
		for b := 0; b < 64; b++ {
			if f&(1<<b) != 0 {
				names = append(names, fmt.Sprintf("%s (flag %d)", flagName(b), uint64(1)<<b))
			}
		}
		return nil, errs.At(ErrUnsupported, t.manAt, where+": writer_feature_flags", "appending needs %s", strings.Join(names, ", "))
	}
	version, err := t.formatVersion(cfg)
	if err != nil {
		return nil, err
	}
	switch version {
	case "2.0":
		cfg.write.major, cfg.write.minor = 0, 3
	case "2.1":
		cfg.write.major, cfg.write.minor = 2, 1
	case "2.2":
		cfg.write.major, cfg.write.minor = 2, 2
	default:
		return nil, errs.At(ErrUnsupported, t.manAt, where+": data_format", "appending to a table of file format %s", errs.Quote(version))
	}
	next := m.Version + 1
	if next >= detachedVersionBit {
		return nil, errs.At(ErrUnsupported, t.manAt, where, "version %d is the last one", m.Version)
	}
	// Fail early, before writing data, when the next version exists.
	if _, err := fs.Stat(fsys, path.Join(t.dir, "_versions", manifestFileName(next, t.v2))); err == nil {
		return nil, conflict(t.dir, next)
	}
	var firstID uint64
	if m.MaxFragmentId != nil {
		firstID = uint64(*m.MaxFragmentId) + 1
	}
	for _, fr := range m.Fragments {
		firstID = max(firstID, fr.Id+1)
	}
	if firstID > 1<<32-1 {
		return nil, errs.At(ErrUnsupported, t.manAt, where, "no fragment id left after %d", firstID-1)
	}
	w := &tableWriter{fsys: fsys, dir: t.dir, cfg: cfg, schema: t.schema, fields: m.Fields, version: version, nextID: firstID}
	if err := w.writeAll(records); err != nil {
		w.cleanup()
		return nil, err
	}
	if len(w.frags) == 0 {
		return t, nil
	}
	nm := proto.Clone(m).(*tablepb.Manifest)
	if m.WriterFeatureFlags&flagStableRowIDs != 0 {
		nm.NextRowId = assignRowIDs(w.frags, m.NextRowId, next)
	}
	nm.Version = next
	nm.Fragments = append(nm.Fragments, w.frags...)
	nm.MaxFragmentId = proto.Uint32(uint32(w.frags[len(w.frags)-1].Id))
	nm.VersionAuxData, nm.Tag = 0, ""
	if nm.DataFormat == nil || !strings.Contains(nm.DataFormat.Version, ".") {
		nm.DataFormat = &tablepb.Manifest_DataStorageFormat{FileFormat: "lance", Version: version}
	}
	var index []byte
	if m.IndexSection != nil {
		// Indices live in the manifest file: carry their section over.
		if index, err = t.indexSection(where); err != nil {
			return nil, err
		}
	}
	var txn []byte
	if m.WriterFeatureFlags&flagNoTransaction == 0 {
		if txn, err = appendTransaction(w.frags); err != nil {
			w.cleanup()
			return nil, err
		}
	}
	if err := commitManifest(fsys, t.dir, nm, t.v2, index, txn, m.Version); err != nil {
		w.cleanup()
		return nil, err
	}
	return OpenTable(t.fsys, t.dir, withConfig(cfg), WithVersion(next))
}

// FormatVersion returns the data file format version of the table: "2.0",
// "2.1" or "2.2" (what Append writes), from the manifest's data_format or,
// when that names none, from the data files; "" for an empty table that
// names none.
func (t *Table) FormatVersion() string {
	v, _ := t.formatVersion(config{})
	return v
}

// formatVersion is the file format version new data files of the table
// get: the manifest's data_format when it names a version, else the data
// files', else the configured one (an empty table without one).
func (t *Table) formatVersion(cfg config) (string, error) {
	if v := normalizeVersion(t.manifest.GetDataFormat().GetVersion()); strings.Contains(v, ".") {
		return v, nil
	}
	for _, f := range t.frags {
		if len(f.Files) > 0 {
			return f.Files[0].Version, nil
		}
	}
	if cfg.write.major == 0 && cfg.write.minor == 0 {
		return "", nil
	}
	return formatVersionString(cfg.write.major, cfg.write.minor), nil
}

// indexSection returns the u32-prefixed IndexSection of the open version's
// manifest file.
func (t *Table) indexSection(where string) ([]byte, error) {
	name := manifestFileName(t.manifest.Version, t.v2)
	if listed, ok := t.names[t.manifest.Version]; ok {
		name = listed
	}
	b, err := readWhole(t.fsys, path.Join(t.dir, "_versions", name), where, 4*t.cfg.maxMetadata)
	if err != nil {
		return nil, err
	}
	at := *t.manifest.IndexSection
	if at > uint64(len(b)) || uint64(len(b))-at < 4 {
		return nil, errs.At(ErrBufferRange, int64(at), where, "index section outside the manifest file")
	}
	n := uint64(b[at]) | uint64(b[at+1])<<8 | uint64(b[at+2])<<16 | uint64(b[at+3])<<24
	if n > uint64(len(b))-at-4 {
		return nil, errs.At(ErrBufferRange, int64(at), where, "index section of %d bytes past the end of the manifest file", n)
	}
	return b[at : at+4+n], nil
}

// assignRowIDs gives each of frags, in order, the next stable row ids from
// first and version sequences saying its rows were created and last
// updated at version, as lance 12 writes them; it returns the next free
// row id.
func assignRowIDs(frags []*tablepb.DataFragment, first, version uint64) uint64 {
	id := first
	for _, f := range frags {
		n := f.PhysicalRows
		f.RowIdSequence = &tablepb.DataFragment_InlineRowIds{InlineRowIds: rowIDRange(id, id+n)}
		f.LastUpdatedAtVersionSequence = &tablepb.DataFragment_InlineLastUpdatedAtVersions{InlineLastUpdatedAtVersions: versionRun(n, version)}
		f.CreatedAtVersionSequence = &tablepb.DataFragment_InlineCreatedAtVersions{InlineCreatedAtVersions: versionRun(n, version)}
		id += n
	}
	return id
}

// rangeSegment is a U64Segment{range: {start, end}} (lance rowids.proto).
func rangeSegment(start, end uint64) []byte {
	var r []byte
	if start != 0 {
		r = protowire.AppendTag(r, 1, protowire.VarintType)
		r = protowire.AppendVarint(r, start)
	}
	r = protowire.AppendTag(r, 2, protowire.VarintType)
	r = protowire.AppendVarint(r, end)
	seg := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(seg, r)
}

// rowIDRange is a RowIdSequence of the ids start..end-1.
func rowIDRange(start, end uint64) []byte {
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(b, rangeSegment(start, end))
}

// versionRun is a RowLatestUpdateVersionSequence of one run: rows 0..n-1
// at version v.
func versionRun(n, v uint64) []byte {
	run := protowire.AppendTag(nil, 1, protowire.BytesType)
	run = protowire.AppendBytes(run, rangeSegment(0, n))
	run = protowire.AppendTag(run, 2, protowire.VarintType)
	run = protowire.AppendVarint(run, v)
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(b, run)
}

func formatVersionString(major, minor uint16) string {
	if v, err := dataFileVersion(uint32(major), uint32(minor)); err == nil {
		return v
	}
	return fmt.Sprintf("%d.%d", major, minor)
}

// schemaMetadataBytes converts Arrow schema metadata to the manifest map.
func schemaMetadataBytes(md arrow.Metadata) map[string][]byte {
	if md.Len() == 0 {
		return nil
	}
	out := make(map[string][]byte, md.Len())
	for i, k := range md.Keys() {
		out[k] = []byte(md.Values()[i])
	}
	return out
}

// tableWriter writes the data files of one commit.
type tableWriter struct {
	fsys    WriteFS
	dir     string
	cfg     config
	schema  *arrow.Schema   // the table's
	fields  []*filepb.Field // the table's, with ids
	version string          // "2.0", "2.1", "2.2"
	nextID  uint64          // next fragment id

	frags   []*tablepb.DataFragment
	written []string // data files created, for cleanup

	cur     *Writer
	curFile io.WriteCloser
	curBuf  *bufio.Writer
	curName string
}

// writeAll writes every batch, cutting data files at maxRowsPerFile.
func (w *tableWriter) writeAll(records iter.Seq2[arrow.RecordBatch, error]) error {
	if err := w.fsys.MkdirAll(path.Join(w.dir, "data")); err != nil {
		return fmt.Errorf("lance: %w", err)
	}
	limit := w.cfg.table.rowsPerFile()
	for rec, err := range records {
		if err != nil {
			return err
		}
		if rec == nil {
			return fmt.Errorf("%w: nil record batch", ErrInvalidArgument)
		}
		if rec.NumRows() == 0 {
			continue
		}
		cols, err := conformBatch(rec, w.schema)
		if err != nil {
			return err
		}
		full := array.NewRecordBatch(w.schema, cols, rec.NumRows())
		for _, c := range cols {
			c.Release()
		}
		err = w.writeRecord(full, limit)
		full.Release()
		if err != nil {
			return err
		}
	}
	return w.finishFile()
}

func (w *tableWriter) writeRecord(rec arrow.RecordBatch, limit int64) error {
	for off := int64(0); off < rec.NumRows(); {
		if w.cur == nil {
			if err := w.openFile(); err != nil {
				return err
			}
		}
		n := min(rec.NumRows()-off, limit-w.cur.NumRows())
		part := rec
		if off != 0 || n != rec.NumRows() {
			part = rec.NewSlice(off, off+n)
		}
		err := w.cur.Write(part)
		if part != rec {
			part.Release()
		}
		if err != nil {
			return err
		}
		off += n
		if w.cur.NumRows() >= limit {
			if err := w.finishFile(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *tableWriter) openFile() error {
	name := dataFileName()
	f, err := w.fsys.Create(path.Join(w.dir, "data", name))
	if err != nil {
		return fmt.Errorf("lance: %w", err)
	}
	w.written = append(w.written, name)
	w.curFile, w.curName = f, name
	w.curBuf = bufio.NewWriterSize(f, 1<<20)
	wr, err := newWriterWithFieldIDs(w.curBuf, w.schema, w.fields, withConfig(w.cfg))
	if err != nil {
		return err
	}
	w.cur = wr
	return nil
}

// finishFile closes the open data file, if any, and records its fragment.
func (w *tableWriter) finishFile() error {
	if w.cur == nil {
		return nil
	}
	wr, f := w.cur, w.curFile
	w.cur, w.curFile = nil, nil
	err := wr.Close()
	if err == nil {
		err = w.curBuf.Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("lance: %w", cerr)
	}
	if err != nil {
		return err
	}
	ids, cols, major, minor, size := wr.dataFileInfo()
	if major == 0 && minor == 3 {
		major, minor = 2, 0 // lance lists 2.0 files as (2, 0)
	}
	w.frags = append(w.frags, &tablepb.DataFragment{
		Id: w.nextID,
		Files: []*tablepb.DataFile{{
			Path: w.curName, Fields: ids, ColumnIndices: cols,
			FileMajorVersion: major, FileMinorVersion: minor, FileSizeBytes: uint64(size),
		}},
		PhysicalRows: uint64(wr.NumRows()),
	})
	w.nextID++
	return nil
}

// cleanup removes the data files of a commit that failed: no manifest
// names them.
func (w *tableWriter) cleanup() {
	if w.cur != nil {
		w.curFile.Close()
		w.cur = nil
	}
	for _, n := range w.written {
		_ = w.fsys.Remove(path.Join(w.dir, "data", n))
	}
}

// dataFileName is a new data file name as lance 12 makes them: the first
// 3 bytes of a random UUID as 24 binary digits, then the other 13 in hex.
func dataFileName() string {
	u := newUUID()
	var sb strings.Builder
	for _, b := range u[:3] {
		fmt.Fprintf(&sb, "%08b", b)
	}
	sb.WriteString(hex.EncodeToString(u[3:]))
	sb.WriteString(".lance")
	return sb.String()
}

func newUUID() [16]byte {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return u
}

func uuidString(u [16]byte) string {
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// conformBatch returns rec's columns in the order of the table schema,
// relabelled to its types. A missing, extra or differently typed column,
// or nulls in a field the table declares non-nullable (at any level: a
// struct member, a list item), fail with ErrInvalidArgument naming the
// column path.
func conformBatch(rec arrow.RecordBatch, schema *arrow.Schema) ([]arrow.Array, error) {
	bs := rec.Schema()
	if int(rec.NumCols()) != len(bs.Fields()) {
		return nil, fmt.Errorf("%w: record batch has %d columns, its schema %d", ErrInvalidArgument, rec.NumCols(), len(bs.Fields()))
	}
	out := make([]arrow.Array, 0, schema.NumFields())
	release := func() {
		for _, a := range out {
			a.Release()
		}
	}
	used := 0
	for _, f := range schema.Fields() {
		idx := bs.FieldIndices(f.Name)
		if len(idx) == 0 {
			release()
			return nil, fmt.Errorf("%w: record batch lacks column %s of the table", ErrInvalidArgument, errs.Quote(f.Name))
		}
		if len(idx) > 1 {
			release()
			return nil, fmt.Errorf("%w: record batch has column %s twice", ErrInvalidArgument, errs.Quote(f.Name))
		}
		used++
		col := rec.Column(idx[0])
		if err := sameShape(col.DataType(), f.Type, f.Name); err != nil {
			release()
			return nil, err
		}
		d, ok := relabel(col.Data(), f.Type)
		if !ok {
			release()
			return nil, fmt.Errorf("%w: column %s is %s in the batch, %s in the table", ErrInvalidArgument, errs.Quote(f.Name), col.DataType(), f.Type)
		}
		a := array.MakeFromData(d)
		d.Release()
		if err := checkNulls(a, f); err != nil {
			a.Release()
			release()
			return nil, err
		}
		out = append(out, a)
	}
	if used != len(bs.Fields()) {
		for _, f := range bs.Fields() {
			if len(schema.FieldIndices(f.Name)) == 0 {
				release()
				return nil, fmt.Errorf("%w: record batch column %s is not in the table", ErrInvalidArgument, errs.Quote(f.Name))
			}
		}
	}
	return out, nil
}

// sameShape reports, naming the column path, where have and want differ
// in more than list item names and nullability.
func sameShape(have, want arrow.DataType, p string) error {
	bad := func() error {
		return fmt.Errorf("%w: column %s is %s in the batch, %s in the table", ErrInvalidArgument, errs.Quote(p), have, want)
	}
	if arrow.TypeEqual(have, want) {
		return nil
	}
	if have.ID() != want.ID() {
		return bad()
	}
	switch w := want.(type) {
	case *arrow.StructType:
		h := have.(*arrow.StructType)
		if h.NumFields() != w.NumFields() {
			return bad()
		}
		for i, f := range w.Fields() {
			if h.Field(i).Name != f.Name {
				return fmt.Errorf("%w: struct column %s has member %s where the table has %s", ErrInvalidArgument, errs.Quote(p), errs.Quote(h.Field(i).Name), errs.Quote(f.Name))
			}
			if err := sameShape(h.Field(i).Type, f.Type, p+"."+f.Name); err != nil {
				return err
			}
		}
		return nil
	case arrow.ListLikeType:
		if fw, ok := want.(*arrow.FixedSizeListType); ok && fw.Len() != have.(*arrow.FixedSizeListType).Len() {
			return bad()
		}
		return sameShape(have.(arrow.ListLikeType).Elem(), w.Elem(), p+"[]")
	}
	return bad()
}

// conflict is the error of a commit that lost the race for version n.
func conflict(dir string, n uint64) error {
	return fmt.Errorf("%w: version %d of table %s was committed by another writer", ErrConflict, n, errs.Quote(dir))
}
