package lance

import (
	"encoding/binary"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// Manifest file trailer: i64 position of the length prefix, u16 major,
// u16 minor, "LANC" (lance-table io/manifest.rs).
const manifestTrailer = 16

// Reader feature flags (lance-table feature_flags.rs). A reader must refuse
// a table with a flag it does not handle.
const (
	flagDeletionFiles   = 1 << 0
	flagStableRowIDs    = 1 << 1
	flagUseV2Format     = 1 << 2 // deprecated, harmless
	flagTableConfig     = 1 << 3
	flagBasePaths       = 1 << 4
	flagNoTransaction   = 1 << 5
	flagDataOverlays    = 1 << 6
	flagCoveringIndices = 1 << 7
	flagMixedVersions   = 1 << 8

	// handledReaderFlags are the reader flags this package reads correctly:
	// deletion files, stable row ids (a plain scan does not need the row id
	// sequences), the deprecated v2 flag, table config and disabled
	// transaction files. Covering indices concern index use only.
	handledReaderFlags = flagDeletionFiles | flagStableRowIDs | flagUseV2Format | flagTableConfig | flagNoTransaction | flagCoveringIndices
)

var flagNames = [...]string{
	"deletion files", "stable row ids", "v2 format", "table config", "base paths",
	"no transaction file", "data overlay files", "covering indices", "mixed data file versions",
}

// flagName names feature flag bit b.
func flagName(b int) string {
	if b < len(flagNames) {
		return flagNames[b]
	}
	return "unknown feature " + strconv.Itoa(b)
}

// decodeManifestAt parses a manifest file's bytes: the trailer, the length
// prefix and the Manifest protobuf. where names the file in errors. It
// also returns the protobuf's offset in the file, where errors about its
// fields are located.
func decodeManifestAt(b []byte, where string, maxSize int64) (*tablepb.Manifest, int64, error) {
	size := int64(len(b))
	if size < 4+manifestTrailer {
		return nil, 0, errs.At(ErrCorrupt, 0, where, "manifest of %d bytes is shorter than its %d-byte frame", size, 4+manifestTrailer)
	}
	t := b[size-manifestTrailer:]
	if string(t[12:]) != magic {
		return nil, 0, errs.At(ErrCorrupt, size-4, where, "manifest lacks the LANC magic")
	}
	pos := binary.LittleEndian.Uint64(t)
	if pos > uint64(size-manifestTrailer-4) {
		return nil, 0, errs.At(ErrBufferRange, size-manifestTrailer, where, "manifest position %d is past the %d bytes before the trailer", pos, size-manifestTrailer-4)
	}
	n := binary.LittleEndian.Uint32(b[pos:])
	if want := uint64(size-manifestTrailer) - pos - 4; uint64(n) != want {
		return nil, 0, errs.At(ErrCorrupt, int64(pos), where, "manifest length %d, but %d bytes lie between the prefix and the trailer", n, want)
	}
	if int64(n) > maxSize {
		return nil, 0, errs.TooLarge(ErrTooLarge, int64(pos), where, "manifest", uint64(n), maxSize)
	}
	m := &tablepb.Manifest{}
	if err := (proto.UnmarshalOptions{RecursionLimit: 32}).Unmarshal(b[pos+4:pos+4+uint64(n)], m); err != nil {
		return nil, 0, errs.At(ErrProto, int64(pos)+4, where, "Manifest: %v", err)
	}
	return m, int64(pos) + 4, nil
}

// checkManifest validates every manifest field a reader uses, before use:
// feature flags, field tree, fragments, data files and deletion files.
// at is the offset of the protobuf in the file, where errors are located
// (a decoded protobuf keeps no offsets of its fields).
func checkManifest(m *tablepb.Manifest, where string, at int64, maxColumns int) error {
	loc := func(p string) string { return where + ": " + p }
	if f := m.ReaderFeatureFlags &^ handledReaderFlags; f != 0 {
		var names []string
		for b := 0; b < 64; b++ {
			if f&(1<<b) != 0 {
				names = append(names, fmt.Sprintf("%s (flag %d)", flagName(b), uint64(1)<<b))
			}
		}
		return errs.At(ErrUnsupported, at, loc("reader_feature_flags"), "table needs %s", strings.Join(names, ", "))
	}
	if m.Version == 0 {
		return errs.At(ErrCorrupt, at, loc("version"), "version 0")
	}
	if m.Version >= detachedVersionBit {
		return errs.At(ErrUnsupported, at, loc("version"), "detached version %d", m.Version)
	}
	if len(m.Fields) > maxColumns {
		return errs.TooLarge(ErrTooLarge, at, loc("fields"), "field count", uint64(len(m.Fields)), int64(maxColumns))
	}
	if len(m.BasePaths) > 0 {
		return errs.At(ErrUnsupported, at, loc("base_paths"), "external base paths (flag %d)", flagBasePaths)
	}
	if df := m.GetDataFormat(); df != nil && df.FileFormat != "" && df.FileFormat != "lance" {
		return errs.At(ErrUnsupported, at, loc("data_format"), "data file format %s", errs.Quote(df.FileFormat))
	}
	ids := map[uint64]bool{}
	var rows uint64
	for i, fr := range m.Fragments {
		p := loc(fmt.Sprintf("fragment %d", i))
		if ids[fr.Id] {
			return errs.At(ErrCorrupt, at, p, "duplicate fragment id %d", fr.Id)
		}
		ids[fr.Id] = true
		if fr.PhysicalRows > math.MaxInt64/2 || rows+fr.PhysicalRows > math.MaxInt64/2 {
			return errs.At(ErrCorrupt, at, p, "physical_rows %d is impossible", fr.PhysicalRows)
		}
		if fr.PhysicalRows > math.MaxUint32 {
			// Row addresses are fragment<<32 | offset: a fragment holds
			// at most 2^32 rows, and deletion vectors are u32 offsets.
			return errs.At(ErrCorrupt, at, p, "physical_rows %d exceeds 2^32", fr.PhysicalRows)
		}
		rows += fr.PhysicalRows
		if len(fr.Overlays) > 0 {
			return errs.At(ErrUnsupported, at, p, "data overlay files (flag %d)", flagDataOverlays)
		}
		if len(fr.Files) == 0 {
			return errs.At(ErrCorrupt, at, p, "fragment %d has no data files", fr.Id)
		}
		cols := map[int32]bool{}
		for j, df := range fr.Files {
			fp := fmt.Sprintf("%s file %d", p, j)
			if err := checkRelPath(df.Path, fp, at); err != nil {
				return err
			}
			if df.BaseId != nil {
				return errs.At(ErrUnsupported, at, fp, "data file under external base path %d (flag %d)", *df.BaseId, flagBasePaths)
			}
			if len(df.Fields) != len(df.ColumnIndices) {
				return errs.At(ErrCorrupt, at, fp, "%d field ids but %d column indices", len(df.Fields), len(df.ColumnIndices))
			}
			if len(df.Fields) > maxColumns {
				return errs.TooLarge(ErrTooLarge, at, fp, "field id count", uint64(len(df.Fields)), int64(maxColumns))
			}
			for k, id := range df.Fields {
				if id < -2 {
					return errs.At(ErrCorrupt, at, fp, "field id %d", id)
				}
				c := df.ColumnIndices[k]
				if c < -1 {
					return errs.At(ErrCorrupt, at, fp, "column index %d", c)
				}
			}
			clear(cols)
			for _, c := range df.ColumnIndices {
				if c >= 0 && cols[c] {
					return errs.At(ErrCorrupt, at, fp, "column index %d listed twice", c)
				}
				cols[c] = true
			}
			if _, err := dataFileVersion(df.FileMajorVersion, df.FileMinorVersion); err != nil {
				return errs.Locate(err, at, fp)
			}
			if df.FileSizeBytes > math.MaxInt64 {
				return errs.At(ErrCorrupt, at, fp, "file_size_bytes %d is impossible", df.FileSizeBytes)
			}
		}
		if d := fr.DeletionFile; d != nil {
			dp := p + " deletion file"
			if d.BaseId != nil {
				return errs.At(ErrUnsupported, at, dp, "deletion file under external base path %d (flag %d)", *d.BaseId, flagBasePaths)
			}
			if d.FileType != tablepb.DeletionFile_ARROW_ARRAY && d.FileType != tablepb.DeletionFile_BITMAP {
				return errs.At(ErrUnsupported, at, dp, "deletion file type %d", int32(d.FileType))
			}
			if fr.PhysicalRows > 0 && d.NumDeletedRows > fr.PhysicalRows {
				return errs.At(ErrCorrupt, at, dp, "%d deleted rows of %d", d.NumDeletedRows, fr.PhysicalRows)
			}
		}
	}
	return nil
}

// checkRelPath refuses a path read from a manifest that is empty, absolute
// or escapes its directory: it must be a valid io/fs path of its own.
func checkRelPath(p, where string, at int64) error {
	if p == "" || !isLocalPath(p) {
		return errs.At(ErrCorrupt, at, where, "path %s escapes the table directory", errs.Quote(p))
	}
	return nil
}

// isLocalPath: a clean relative slash path without "..", "." or
// backslashes (a Windows separator would escape on os.DirFS).
func isLocalPath(p string) bool {
	return path.Clean(p) == p && p != "." && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "../") && p != ".." &&
		!strings.ContainsAny(p, "\\\x00:")
}

// dataFileVersion maps a DataFile's (major, minor) to the version string
// (lance-encoding version.rs).
func dataFileVersion(major, minor uint32) (string, error) {
	switch {
	case major == 0 && minor <= 2:
		return "", errs.Wrap(ErrUnsupported, "legacy Lance v1 data file (%d.%d)", major, minor)
	case major == 0 && minor == 3, major == 2 && minor == 0:
		return "2.0", nil
	case major == 2 && minor == 1:
		return "2.1", nil
	case major == 2 && minor == 2:
		return "2.2", nil
	}
	return "", errs.Wrap(ErrUnsupported, "data file version %d.%d", major, minor)
}

// manifestName parses a _versions entry: V2 names are the 20-digit
// u64::MAX - N, V1 names the decimal N. ok is false for anything else,
// detached (d<N>.manifest) included.
func manifestName(name string) (version uint64, v2, ok bool) {
	stem, found := strings.CutSuffix(name, ".manifest")
	if !found || stem == "" || stem[0] < '0' || stem[0] > '9' {
		return 0, false, false
	}
	n, err := strconv.ParseUint(stem, 10, 64)
	if err != nil {
		return 0, false, false
	}
	if len(name) == 29 {
		n = math.MaxUint64 - n
		v2 = true
	}
	if n == 0 || n >= detachedVersionBit {
		return 0, false, false
	}
	return n, v2, true
}

// manifestFileName is the name of version n's manifest in a scheme.
func manifestFileName(n uint64, v2 bool) string {
	if v2 {
		return fmt.Sprintf("%020d.manifest", uint64(math.MaxUint64)-n)
	}
	return strconv.FormatUint(n, 10) + ".manifest"
}
