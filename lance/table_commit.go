package lance

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/colfmt/colfmt/lance/internal/pb/filepb"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// Lance's commit protocol (lance-table io/commit.rs) on a WriteFS:
//
//  1. the transaction file _transactions/{read_version}-{uuid}.txn (a raw
//     Transaction protobuf, what LanceDB reads to resolve its own
//     concurrent commits), created exclusively;
//  2. the manifest file under a temporary name that does not end in
//     "manifest" (_versions/.tmp_{N}.manifest_{uuid}), so no reader
//     lists it;
//  3. a rename without overwrite to the version's name: whoever renames
//     first owns version N; the loser removes its temporary file and
//     transaction file and reports ErrConflict;
//  4. _versions/latest_version_hint.json ({"version":N}), replaced through
//     a temporary name; readers list _versions/ and only use it as a
//     hint, so a failure to write it does not fail the commit.
//
// An existing version is never rewritten. A crash between the steps leaves
// files no manifest names (temporary manifest, transaction, data files),
// as a crashed lance writer does; they are harmless.

// ErrConflict reports that another writer committed the table version a
// CreateTable or Append was about to commit (or that the Table given to
// Append is not the latest version any more). The losing commit leaves no
// manifest and removes the data and transaction files it wrote. It wraps
// no other sentinel: retry by opening the table again.
var ErrConflict = errors.New("lance: commit conflict")

// manifestBytes frames m as lance writes a manifest file: an optional
// index section (u32-prefixed IndexSection, carried over from the previous
// version) at offset 0, then u32 length, the Manifest protobuf, i64
// position of that length, u16 0, u16 2 and "LANC".
func manifestBytes(m *tablepb.Manifest, index []byte) ([]byte, error) {
	m = proto.Clone(m).(*tablepb.Manifest)
	m.IndexSection = nil
	if len(index) > 0 {
		m.IndexSection = proto.Uint64(0)
	}
	pb, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("lance: manifest: %w", err)
	}
	b := make([]byte, 0, len(index)+len(pb)+4+manifestTrailer)
	b = append(b, index...)
	pos := uint64(len(b))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(pb)))
	b = append(b, pb...)
	b = binary.LittleEndian.AppendUint64(b, pos)
	b = append(b, 0, 0, 2, 0)
	return append(b, magic...), nil
}

// commitManifest commits m as version m.Version of the table in dir:
// txn (a Transaction protobuf without read_version and uuid, nil for
// none) built from readVersion, then the manifest, then the hint.
func commitManifest(fsys WriteFS, dir string, m *tablepb.Manifest, v2 bool, index, txn []byte, readVersion uint64) error {
	n := m.Version
	vdir := path.Join(dir, "_versions")
	if err := fsys.MkdirAll(vdir); err != nil {
		return fmt.Errorf("lance: %w", err)
	}
	final := path.Join(vdir, manifestFileName(n, v2))
	if _, err := fs.Stat(fsys, final); err == nil {
		return conflict(dir, n)
	}
	id := uuidString(newUUID())
	m = proto.Clone(m).(*tablepb.Manifest)
	m.Timestamp = timestamppb.New(time.Now())
	m.WriterVersion = proto.Clone(writerLibrary).(*tablepb.Manifest_WriterVersion)
	m.TransactionSection = nil
	m.TransactionFile = ""
	var txnPath string
	if txn != nil {
		if err := fsys.MkdirAll(path.Join(dir, "_transactions")); err != nil {
			return fmt.Errorf("lance: %w", err)
		}
		name := strconv.FormatUint(readVersion, 10) + "-" + id + ".txn"
		txnPath = path.Join(dir, "_transactions", name)
		var head []byte
		if readVersion != 0 {
			head = protowire.AppendTag(head, 1, protowire.VarintType)
			head = protowire.AppendVarint(head, readVersion)
		}
		head = protowire.AppendTag(head, 2, protowire.BytesType)
		head = protowire.AppendString(head, id)
		if err := writeNew(fsys, txnPath, append(head, txn...)); err != nil {
			return err
		}
		m.TransactionFile = name
	}
	b, err := manifestBytes(m, index)
	if err != nil {
		return err
	}
	tmp := path.Join(vdir, ".tmp_"+strconv.FormatUint(n, 10)+".manifest_"+id)
	if err := writeNew(fsys, tmp, b); err != nil {
		removeIf(fsys, txnPath)
		return err
	}
	if err := fsys.RenameNoReplace(tmp, final); err != nil {
		_ = fsys.Remove(tmp)
		removeIf(fsys, txnPath)
		if errors.Is(err, fs.ErrExist) {
			return conflict(dir, n)
		}
		return fmt.Errorf("lance: commit version %d: %w", n, err)
	}
	// The hint, best effort (lance only logs its failure too).
	hint := path.Join(vdir, "latest_version_hint.json")
	htmp := path.Join(vdir, ".tmp_latest_version_hint.json_"+id)
	if err := writeNew(fsys, htmp, []byte(`{"version":`+strconv.FormatUint(n, 10)+`}`)); err == nil {
		if fsys.Rename(htmp, hint) != nil {
			_ = fsys.Remove(htmp)
		}
	}
	return nil
}

func removeIf(fsys WriteFS, name string) {
	if name != "" {
		_ = fsys.Remove(name)
	}
}

// writeNew creates name (which must not exist) with b.
func writeNew(fsys WriteFS, name string, b []byte) error {
	f, err := fsys.Create(name)
	if err != nil {
		return fmt.Errorf("lance: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		_ = fsys.Remove(name)
		return fmt.Errorf("lance: %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		_ = fsys.Remove(name)
		return fmt.Errorf("lance: %s: %w", name, err)
	}
	return nil
}

// Transaction operations (lance protos/transaction.proto): the fields
// after read_version (1) and uuid (2).
const (
	txnAppend    = 100 // Append { repeated DataFragment fragments = 1; }
	txnOverwrite = 102 // Overwrite { fragments = 1; repeated Field schema = 2; map<string, bytes> schema_metadata = 3; }
)

func appendTransaction(frags []*tablepb.DataFragment) ([]byte, error) {
	var op []byte
	var err error
	for _, f := range frags {
		if op, err = appendMessage(op, 1, f); err != nil {
			return nil, err
		}
	}
	b := protowire.AppendTag(nil, txnAppend, protowire.BytesType)
	return protowire.AppendBytes(b, op), nil
}

func overwriteTransaction(frags []*tablepb.DataFragment, fields []*filepb.Field, md map[string][]byte) ([]byte, error) {
	var op []byte
	var err error
	for _, f := range frags {
		if op, err = appendMessage(op, 1, f); err != nil {
			return nil, err
		}
	}
	for _, f := range fields {
		if op, err = appendMessage(op, 2, f); err != nil {
			return nil, err
		}
	}
	for _, k := range sortedKeys(md) {
		var e []byte
		e = protowire.AppendTag(e, 1, protowire.BytesType)
		e = protowire.AppendString(e, k)
		e = protowire.AppendTag(e, 2, protowire.BytesType)
		e = protowire.AppendBytes(e, md[k])
		op = protowire.AppendTag(op, 3, protowire.BytesType)
		op = protowire.AppendBytes(op, e)
	}
	b := protowire.AppendTag(nil, txnOverwrite, protowire.BytesType)
	return protowire.AppendBytes(b, op), nil
}

func appendMessage(b []byte, num protowire.Number, m proto.Message) ([]byte, error) {
	pb, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		// Invalid UTF-8 in a name, for one.
		return nil, fmt.Errorf("%w: transaction: %v", ErrInvalidArgument, err)
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, pb), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
