package lance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// errTableArgument is the sentinel of caller mistakes in OpenTable.
var errTableArgument = ErrInvalidArgument

// Table is one version of a Lance table (a LanceDB dataset directory):
// its schema from the manifest and its fragments, each a set of data files
// holding different columns of the same rows, minus deleted rows.
// OpenTable reads the manifest only; data and deletion files are read by
// Records. A Table is safe for concurrent use if its fs.FS is.
type Table struct {
	fsys fs.FS
	dir  string
	cfg  config

	v2       bool              // manifest naming scheme
	lastAt   int64             // protobuf offset of the manifest readManifest read last
	names    map[uint64]string // manifest file name per version, as listed
	versions []uint64
	// hinted: _versions/ could not be listed, so versions holds only the
	// hint's version (and the one opened); older ones are probed by name
	// once, when Versions asks (probe guards that).
	hinted   bool
	probe    sync.Once
	probed   []uint64 // all versions of a hinted table, once probed
	manifest *tablepb.Manifest
	manAt    int64 // offset of the manifest protobuf, where its errors sit
	version  Version
	fields   []*tableField // top level
	byID     map[int32]*tableField
	schema   *arrow.Schema
	frags    []Fragment
}

// Version describes one version of a table.
type Version struct {
	// Number counts commits from 1.
	Number uint64
	// Timestamp is the commit time (zero if the manifest has none).
	Timestamp time.Time
	// Rows is the number of rows a full scan returns: physical rows minus
	// deleted rows over all fragments.
	Rows int64
}

// Fragment is one fragment of a table version, in scan order.
type Fragment struct {
	// ID is the fragment id, unique in the table.
	ID uint64
	// PhysicalRows counts the rows in each data file, deleted ones included.
	PhysicalRows int64
	// DeletedRows counts the rows the deletion file removes.
	DeletedRows int64
	// Files are the data files, each holding some of the fields.
	Files []DataFile
	// DeletionFile is the deletion file's path relative to the table
	// directory, "" if the fragment has none.
	DeletionFile string

	pb *tablepb.DataFragment
}

// DataFile is one Lance data file of a fragment.
type DataFile struct {
	// Path is relative to the table directory ("data/<name>.lance").
	Path string
	// FieldIDs are the table field ids stored in the file; -2 marks a
	// field superseded by a later file. ColumnIndices gives, for each, the
	// file's column index or -1.
	FieldIDs, ColumnIndices []int32
	// Version is the data file format: "2.0", "2.1" or "2.2".
	Version string
	// Size is the file size in bytes, 0 if the manifest does not say.
	Size int64
}

// tableField is one field of the manifest's schema.
type tableField struct {
	pb       *filepb.Field
	path     string
	dt       arrow.DataType
	children []*tableField
	top      *tableField // top-level ancestor (itself at top level)
	parent   *tableField
}

func (n *tableField) arrowField() arrow.Field {
	return arrow.Field{Name: n.pb.Name, Type: n.dt, Nullable: n.pb.Nullable, Metadata: bytesMetadata(n.pb.Metadata)}
}

func bytesMetadata(m map[string][]byte) arrow.Metadata {
	if len(m) == 0 {
		return arrow.Metadata{}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = string(m[k])
	}
	return arrow.NewMetadata(keys, vals)
}

// OpenTable opens the table in directory dir of fsys (a LanceDB table is
// the directory <name>.lance): the latest version, or the one WithVersion
// names. It lists _versions/ (both manifest naming schemes), reads and
// checks that manifest, and the deletion counts it needs; it reads no
// data file unless the manifest lacks a fragment's row count. Tables that
// need a feature this package does not read (data overlays, external base
// paths, unknown reader feature flags) fail with ErrUnsupported naming it.
// Only io/fs is used, so any fs.FS (os.DirFS, an object store adapter)
// works; files that implement io.ReaderAt are read in ranges, others whole
// (within WithMaxBufferSize). A store that cannot list directories is read
// through _versions/latest_version_hint.json: opening it checks only the
// manifest it opens (one Stat), as over HTTP each check is a request.
//
// What is read: manifests in both naming schemes (V2 u64::MAX-N, V1 N);
// reader feature flags deletion files, stable row ids, table config, no
// transaction file; data files of format 2.0, 2.1 and 2.2; Arrow IPC and
// roaring deletion files. Detached versions (d<N>.manifest), indices,
// _refs, transactions and row id sequences are not needed for a scan and
// are ignored. Where lance's protos and the files LanceDB writes disagree
// (an Arrow deletion column is UInt32 in the files, Int32 in the proto),
// both are accepted.
//
// # Security
//
// Every manifest field is checked before use: feature flags, field ids and
// parents (at most WithMaxColumns fields, WithMaxDepth deep), fragment ids
// and row counts (at most 2^32 per fragment), data file paths (relative,
// no "..", no absolute or backslash paths), field/column index lists,
// file versions and sizes, deletion counts. Manifest files are limited to
// 4×WithMaxMetadataSize bytes and their protobuf to WithMaxMetadataSize;
// deletion files to WithMaxBufferSize. Arrow IPC deletion files have their
// footer's flatbuffer vectors bounds-checked before arrow-go reads them
// (it sizes slices from those counts unchecked) and its allocations are
// capped; a panic inside arrow-go or roaring on hostile bytes becomes
// ErrCorrupt. Errors are located: the file (manifest, deletion or data
// file path) and, for manifest fields, the protobuf's offset.
func OpenTable(fsys fs.FS, dir string, opts ...Option) (*Table, error) {
	cfg := defaultConfig()
	if err := opt.Apply(&cfg, opts); err != nil {
		return nil, err
	}
	if fsys == nil {
		return nil, fmt.Errorf("%w: OpenTable: nil fs.FS", errTableArgument)
	}
	if !fs.ValidPath(dir) {
		return nil, fmt.Errorf("%w: OpenTable: %s is not a valid io/fs path", errTableArgument, errs.Quote(dir))
	}
	t := &Table{fsys: fsys, dir: dir, cfg: cfg}
	if err := t.listVersions(); err != nil {
		return nil, err
	}
	want := t.versions[len(t.versions)-1]
	if cfg.table.hasVersion {
		want = cfg.table.version
		_, found := slices.BinarySearch(t.versions, want)
		if !found && t.hinted && want < t.versions[0] && t.manifestExists(want, t.v2) {
			// Without a listing, only the version asked for is probed.
			t.versions = append([]uint64{want}, t.versions...)
			found = true
		}
		if !found {
			return nil, fmt.Errorf("lance: table has no version %d (latest %d): %w", want, t.versions[len(t.versions)-1], fs.ErrNotExist)
		}
	}
	m, where, err := t.readManifest(want)
	if err != nil {
		return nil, err
	}
	t.manifest, t.manAt = m, t.lastAt
	if err := t.buildSchema(where); err != nil {
		return nil, err
	}
	if err := t.buildFragments(where); err != nil {
		return nil, err
	}
	t.version = Version{Number: m.Version, Rows: t.rows()}
	if ts := m.GetTimestamp(); ts != nil {
		t.version.Timestamp = ts.AsTime()
	}
	return t, nil
}

// listVersions lists _versions/ into t.versions (sorted) and the naming
// scheme. Detached versions (d<N>.manifest) and other files are skipped.
func (t *Table) listVersions() error {
	vdir := path.Join(t.dir, "_versions")
	ents, err := fs.ReadDir(t.fsys, vdir)
	if err != nil {
		// A store that cannot list: latest_version_hint.json names the
		// latest version ({"version":N}); older ones are found by name.
		if hint, herr := t.versionHint(); herr == nil {
			return t.probeLatest(hint)
		}
		return fmt.Errorf("lance: table %s: %w", errs.Quote(t.dir), err)
	}
	var v1, v2 int
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		n, isV2, ok := manifestName(e.Name())
		if !ok {
			continue
		}
		if isV2 {
			v2++
		} else {
			v1++
		}
		if t.names == nil {
			t.names = map[uint64]string{}
		}
		t.names[n] = e.Name()
		t.versions = append(t.versions, n)
	}
	if len(t.versions) == 0 {
		return fmt.Errorf("lance: table %s: no manifest in _versions: %w", errs.Quote(t.dir), fs.ErrNotExist)
	}
	if v1 > 0 && v2 > 0 {
		return errs.At(ErrCorrupt, -1, "_versions", "both manifest naming schemes in one directory (%d V1, %d V2 names)", v1, v2)
	}
	t.v2 = v2 > 0
	slices.Sort(t.versions)
	for i := 1; i < len(t.versions); i++ {
		if t.versions[i] == t.versions[i-1] {
			return errs.At(ErrCorrupt, -1, "_versions", "two manifests for version %d", t.versions[i])
		}
	}
	return nil
}

// versionHint reads _versions/latest_version_hint.json.
func (t *Table) versionHint() (uint64, error) {
	b, err := readWhole(t.fsys, path.Join(t.dir, "_versions", "latest_version_hint.json"), "_versions/latest_version_hint.json", 1<<10)
	if err != nil {
		return 0, err
	}
	var h struct {
		Version uint64 `json:"version"`
	}
	if err := json.Unmarshal(b, &h); err != nil || h.Version == 0 || h.Version >= detachedVersionBit {
		return 0, errs.At(ErrCorrupt, -1, "_versions/latest_version_hint.json", "no version in the hint")
	}
	return h.Version, nil
}

// probeLatest starts the version list of a store that cannot list
// _versions/ from the hint: the hint's manifest must exist (either naming
// scheme, V2 first). Opening needs no more; older versions are probed
// only if Versions asks, so an open over HTTP costs one request here, not
// one per version.
func (t *Table) probeLatest(hint uint64) error {
	switch {
	case t.manifestExists(hint, true):
		t.v2 = true
	case t.manifestExists(hint, false):
	default:
		return fmt.Errorf("lance: table %s: version hint %d names no manifest: %w", errs.Quote(t.dir), hint, fs.ErrNotExist)
	}
	t.versions = []uint64{hint}
	t.hinted = true
	return nil
}

// manifestExists says whether version n's manifest is in _versions/.
func (t *Table) manifestExists(n uint64, v2 bool) bool {
	_, err := fs.Stat(t.fsys, path.Join(t.dir, "_versions", manifestFileName(n, v2)))
	return err == nil
}

// allVersions is t.versions, completed the first time it is needed for a
// table opened through the hint: the 1023 versions before the latest are
// probed by name (one Stat each, in order).
func (t *Table) allVersions() []uint64 {
	if !t.hinted {
		return t.versions
	}
	t.probe.Do(func() {
		latest := t.versions[len(t.versions)-1]
		var vs []uint64
		for n := max(latest, 1024) - 1023; n <= latest; n++ { // the last 1024 at most
			if n == latest || n == t.version.Number || t.manifestExists(n, t.v2) {
				vs = append(vs, n)
			}
		}
		t.probed = vs
	})
	return t.probed
}

// readManifest reads and checks version n's manifest.
func (t *Table) readManifest(n uint64) (*tablepb.Manifest, string, error) {
	name := manifestFileName(n, t.v2)
	if listed, ok := t.names[n]; ok {
		name = listed // V1 names may carry leading zeros
	}
	where := "_versions/" + name
	// The file holds the manifest and optionally the transaction and index
	// sections before it.
	b, err := readWhole(t.fsys, path.Join(t.dir, "_versions", name), where, 4*t.cfg.maxMetadata)
	if err != nil {
		return nil, where, err
	}
	m, at, err := decodeManifestAt(b, where, t.cfg.maxMetadata)
	if err != nil {
		return nil, where, err
	}
	if m.Version != n {
		return nil, where, errs.At(ErrCorrupt, at, where, "manifest says version %d", m.Version)
	}
	if err := checkManifest(m, where, at, t.cfg.maxColumns); err != nil {
		return nil, where, err
	}
	t.lastAt = at
	return m, where, nil
}

// buildSchema turns the manifest's flattened field list (parent before
// child, parent_id -1 at top level) into the Arrow schema.
func (t *Table) buildSchema(where string) error {
	t.byID = map[int32]*tableField{}
	depth := map[int32]int{}
	for i, p := range t.manifest.Fields {
		loc := fmt.Sprintf("%s: field %d (%s)", where, i, errs.Quote(p.Name))
		if p.Id < 0 {
			return errs.At(ErrCorrupt, t.manAt, loc, "field id %d", p.Id)
		}
		if _, dup := t.byID[p.Id]; dup {
			return errs.At(ErrCorrupt, t.manAt, loc, "duplicate field id %d", p.Id)
		}
		n := &tableField{pb: p}
		if p.ParentId == -1 {
			n.path, n.top = p.Name, n
			t.fields = append(t.fields, n)
			depth[p.Id] = 1
		} else {
			parent, ok := t.byID[p.ParentId]
			if !ok {
				return errs.At(ErrCorrupt, t.manAt, loc, "parent id %d is not defined before the field", p.ParentId)
			}
			if depth[p.ParentId] >= t.cfg.maxDepth {
				return errs.At(ErrTooLarge, t.manAt, loc, "schema nested deeper than %d", t.cfg.maxDepth)
			}
			depth[p.Id] = depth[p.ParentId] + 1
			n.path, n.top, n.parent = parent.path+"."+p.Name, parent.top, parent
			parent.children = append(parent.children, n)
		}
		t.byID[p.Id] = n
	}
	fields := make([]arrow.Field, len(t.fields))
	for i, n := range t.fields {
		if err := n.setType(where, t.manAt); err != nil {
			return err
		}
		fields[i] = n.arrowField()
	}
	md := bytesMetadata(t.manifest.SchemaMetadata)
	t.schema = arrow.NewSchema(fields, &md)
	return nil
}

// setType derives the Arrow type of n and its children from the Lance
// logical types.
func (n *tableField) setType(where string, at int64) error {
	lt := n.pb.LogicalType
	loc := where + ": " + errs.Quote(n.path)
	for _, c := range n.children {
		if err := c.setType(where, at); err != nil {
			return err
		}
	}
	one := func() error {
		if len(n.children) != 1 {
			return errs.At(ErrCorrupt, at, loc, "%s field has %d children, want 1", lt, len(n.children))
		}
		return nil
	}
	switch {
	case lt == "struct":
		fs := make([]arrow.Field, len(n.children))
		for i, c := range n.children {
			fs[i] = c.arrowField()
		}
		n.dt = arrow.StructOf(fs...)
	case lt == "list" || lt == "list.struct":
		if err := one(); err != nil {
			return err
		}
		n.dt = arrow.ListOfField(n.children[0].arrowField())
	case lt == "large_list" || lt == "large_list.struct":
		if err := one(); err != nil {
			return err
		}
		n.dt = arrow.LargeListOfField(n.children[0].arrowField())
	case lt == "map" || strings.HasPrefix(lt, "map:"):
		if err := one(); err != nil {
			return err
		}
		e := n.children[0]
		if e.pb.LogicalType != "struct" || len(e.children) != 2 {
			return errs.At(ErrCorrupt, at, loc, "map entries must be a struct of key and value")
		}
		mt := arrow.MapOfWithMetadata(e.children[0].dt, e.children[0].arrowField().Metadata, e.children[1].dt, e.children[1].arrowField().Metadata)
		mt.SetItemNullable(e.children[1].pb.Nullable)
		mt.KeysSorted = strings.HasSuffix(lt, ":true")
		n.dt = mt
	case lt == "blob" || metaTrue(n.pb.Metadata["lance-encoding:blob"]) || string(n.pb.Metadata["ARROW:extension:name"]) == "lance.blob.v2":
		return errs.At(ErrUnsupported, at, loc, "blob column (blob v2 files are not read)")
	default:
		dt, err := parseLogicalType(lt, 0)
		if err != nil {
			return errs.Locate(err, at, loc)
		}
		if len(n.children) > 0 {
			return errs.At(ErrUnsupported, at, loc, "children under %s", errs.Quote(lt))
		}
		n.dt = dt
	}
	return nil
}

// buildFragments converts the manifest's fragments, filling row counts
// the manifest leaves out from the data and deletion files.
func (t *Table) buildFragments(where string) error {
	for i, fr := range t.manifest.Fragments {
		loc := fmt.Sprintf("%s: fragment %d", where, i)
		f := Fragment{ID: fr.Id, PhysicalRows: int64(fr.PhysicalRows), pb: fr}
		for _, df := range fr.Files {
			v, _ := dataFileVersion(df.FileMajorVersion, df.FileMinorVersion) // checked
			// Aliases ("stable", "next") name different versions in different
			// lance releases: only explicit versions are compared.
			if want := t.manifest.GetDataFormat().GetVersion(); strings.Contains(want, ".") && normalizeVersion(want) != v {
				return errs.At(ErrCorrupt, t.manAt, loc, "data file %s has version %s, the table %s", errs.Quote(df.Path), v, errs.Quote(want))
			}
			f.Files = append(f.Files, DataFile{
				Path: path.Join("data", df.Path), FieldIDs: df.Fields, ColumnIndices: df.ColumnIndices,
				Version: v, Size: int64(df.FileSizeBytes),
			})
		}
		if f.PhysicalRows == 0 {
			df, c, err := t.OpenDataFile(f.Files[0])
			if err != nil {
				return err
			}
			f.PhysicalRows = df.NumRows()
			c.Close()
		}
		if d := fr.DeletionFile; d != nil {
			f.DeletionFile = deletionPath(fr.Id, d)
			f.DeletedRows = int64(d.NumDeletedRows)
			if f.DeletedRows == 0 {
				bm, err := readDeletions(t.fsys, t.dir, fr, f.PhysicalRows, &t.cfg)
				if err != nil {
					return err
				}
				f.DeletedRows = int64(bm.GetCardinality())
			}
			if f.DeletedRows > f.PhysicalRows {
				return errs.At(ErrCorrupt, t.manAt, loc, "%d deleted rows of %d", f.DeletedRows, f.PhysicalRows)
			}
		}
		t.frags = append(t.frags, f)
	}
	return nil
}

// normalizeVersion maps data_format.version strings to file versions.
func normalizeVersion(s string) string {
	switch s {
	case "0.3", "2.0":
		return "2.0"
	}
	return s
}

func (t *Table) rows() int64 {
	var n int64
	for _, f := range t.frags {
		n += f.PhysicalRows - f.DeletedRows
	}
	return n
}

// Schema returns the table schema (from the manifest; dropped columns are
// gone even though data files may still hold them).
func (t *Table) Schema() *arrow.Schema { return t.schema }

// Version returns the open version.
func (t *Table) Version() Version { return t.version }

// NumRows returns the rows a full scan returns.
func (t *Table) NumRows() int64 { return t.version.Rows }

// Fragments returns the fragments in scan order. The slices are shared:
// do not modify them.
func (t *Table) Fragments() []Fragment { return slices.Clone(t.frags) }

// ReaderFeatureFlags returns the manifest's reader feature flags.
func (t *Table) ReaderFeatureFlags() uint64 { return t.manifest.ReaderFeatureFlags }

// Versions lists every version in _versions/ (oldest first) with its
// timestamp and row count, reading each manifest. On a store that cannot
// list _versions/ (a table opened through latest_version_hint.json), the
// first call finds the 1023 versions before the latest by name, one Stat
// each; opening such a table does not.
func (t *Table) Versions() ([]Version, error) {
	versions := t.allVersions()
	out := make([]Version, 0, len(versions))
	for _, n := range versions {
		if n == t.version.Number {
			out = append(out, t.version)
			continue
		}
		m, where, err := t.readManifest(n)
		if err != nil {
			return nil, err
		}
		v := Version{Number: n}
		if ts := m.GetTimestamp(); ts != nil {
			v.Timestamp = ts.AsTime()
		}
		for i, fr := range m.Fragments {
			d := int64(fr.GetDeletionFile().GetNumDeletedRows())
			if fr.PhysicalRows == 0 || (fr.DeletionFile != nil && d == 0) {
				// Counts missing from the manifest: open that version.
				o, err := OpenTable(t.fsys, t.dir, withConfig(t.cfg), WithVersion(n))
				if err != nil {
					return nil, errs.Locate(err, -1, fmt.Sprintf("%s: fragment %d", where, i))
				}
				v.Rows = o.NumRows()
				break
			}
			v.Rows += int64(fr.PhysicalRows) - d
		}
		out = append(out, v)
	}
	return out, nil
}

// withConfig copies a whole config (for reopening at another version).
func withConfig(c config) Option {
	return func(d *config) error { *d = c; return nil }
}

// DeletedRows returns the deleted row offsets of fragment i (0-based
// physical rows within the fragment), ascending; nil if none.
func (t *Table) DeletedRows(i int) ([]uint32, error) {
	if i < 0 || i >= len(t.frags) {
		return nil, fmt.Errorf("%w: fragment %d of %d", errTableArgument, i, len(t.frags))
	}
	bm, err := t.deletions(i)
	if err != nil || bm == nil {
		return nil, err
	}
	return bm.ToArray(), nil
}

func (t *Table) deletions(i int) (*roaring.Bitmap, error) {
	f := &t.frags[i]
	return readDeletions(t.fsys, t.dir, f.pb, f.PhysicalRows, &t.cfg)
}

// OpenDataFile opens one of the table's data files with the table's
// options. Close the returned io.Closer when done with the File.
func (t *Table) OpenDataFile(df DataFile) (*File, io.Closer, error) {
	name := path.Join(t.dir, df.Path)
	fh, err := t.fsys.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("lance: %s: %w", df.Path, err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, nil, fmt.Errorf("lance: %s: %w", df.Path, err)
	}
	if df.Size != 0 && st.Size() != df.Size {
		fh.Close()
		return nil, nil, errs.At(ErrCorrupt, -1, df.Path, "file has %d bytes, the manifest says %d", st.Size(), df.Size)
	}
	ra, ok := fh.(io.ReaderAt)
	if !ok {
		// An fs.File without ReadAt: read it whole, within the limit.
		b, err := readWhole(t.fsys, name, df.Path, t.cfg.maxBuffer)
		fh.Close()
		if err != nil {
			return nil, nil, err
		}
		f, err := Open(readerAtBytes(b), int64(len(b)), withConfig(t.cfg))
		if err == nil {
			err = checkFileVersion(f, df)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("lance: data file %s: %w", df.Path, err)
		}
		return f, io.NopCloser(nil), nil
	}
	f, err := Open(ra, st.Size(), withConfig(t.cfg))
	if err == nil {
		err = checkFileVersion(f, df)
	}
	if err != nil {
		fh.Close()
		return nil, nil, fmt.Errorf("lance: data file %s: %w", df.Path, err)
	}
	return f, fh, nil
}

// checkFileVersion: a data file's footer must carry the version the
// manifest lists for it (lance 12 refuses mixed versions too).
func checkFileVersion(f *File, df DataFile) error {
	major, minor := f.Version()
	v, err := dataFileVersion(uint32(major), uint32(minor))
	if err != nil || v != df.Version {
		return errs.At(ErrCorrupt, -1, df.Path, "footer version %d.%d, the manifest says %s", major, minor, df.Version)
	}
	return nil
}

type readerAtBytes []byte

func (b readerAtBytes) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, errors.New("lance: read outside the file")
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
