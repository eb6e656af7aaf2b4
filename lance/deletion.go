package lance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/lance/internal/tablepb"
)

// deletionPath is where lance puts a fragment's deletion file, relative to
// the table directory: _deletions/{fragment}-{read_version}-{id}.{arrow|bin}.
func deletionPath(fragID uint64, d *tablepb.DeletionFile) string {
	ext := "arrow"
	if d.FileType == tablepb.DeletionFile_BITMAP {
		ext = "bin"
	}
	return path.Join("_deletions", fmt.Sprintf("%d-%d-%d.%s", fragID, d.ReadVersion, d.Id, ext))
}

// decodeDeletionArrow reads an ARROW_ARRAY deletion file: an Arrow IPC file
// whose record batches hold one Int32 or UInt32 column of row offsets
// within the fragment (lance writes one batch of UInt32 "row_id", body
// buffers zstd-compressed). Every offset must be below rows. The IPC
// reader's allocations are bounded by limit.
func decodeDeletionArrow(b []byte, rows int64, where string, limit int64) (bm *roaring.Bitmap, err error) {
	la := &limitAllocator{mem: memory.DefaultAllocator, left: limit}
	defer func() {
		if r := recover(); r != nil {
			if r == errAllocLimit {
				err = errs.TooLarge(ErrTooLarge, -1, where, "deletion file buffers", uint64(limit)+1, limit)
				return
			}
			err = errs.At(ErrCorrupt, -1, where, "Arrow IPC: %v", r)
		}
	}()
	if err := checkIPCFooter(b, where, 16, limit); err != nil {
		return nil, err
	}
	rd, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(la), ipc.WithMetadataSizeLimit(limit), ipc.WithBodySizeLimit(limit))
	if err != nil {
		return nil, errs.At(ErrCorrupt, -1, where, "Arrow IPC: %v", err)
	}
	defer rd.Close()
	sc := rd.Schema()
	if sc.NumFields() != 1 {
		return nil, errs.At(ErrCorrupt, -1, where, "deletion file has %d columns, want 1", sc.NumFields())
	}
	if id := sc.Field(0).Type.ID(); id != arrow.UINT32 && id != arrow.INT32 {
		return nil, errs.At(ErrCorrupt, -1, where, "deletion column of type %s, want uint32", sc.Field(0).Type)
	}
	bm = roaring.New()
	for i := 0; i < rd.NumRecords(); i++ {
		rec, err := rd.RecordBatch(i)
		if err != nil {
			return nil, errs.At(ErrCorrupt, -1, where, "Arrow IPC batch %d: %v", i, err)
		}
		col := rec.Column(0)
		if col.NullN() > 0 {
			return nil, errs.At(ErrCorrupt, -1, where, "batch %d: null row offsets", i)
		}
		switch c := col.(type) {
		case *array.Uint32:
			for _, v := range c.Uint32Values() {
				if int64(v) >= rows {
					return nil, errs.At(ErrCorrupt, -1, where, "deleted row %d of a fragment of %d rows", v, rows)
				}
				bm.Add(v)
			}
		case *array.Int32:
			for _, v := range c.Int32Values() {
				if v < 0 || int64(v) >= rows {
					return nil, errs.At(ErrCorrupt, -1, where, "deleted row %d of a fragment of %d rows", v, rows)
				}
				bm.Add(uint32(v))
			}
		}
	}
	return bm, nil
}

// decodeDeletionBitmap reads a BITMAP deletion file: a roaring bitmap in
// the portable serialization (what Rust roaring's serialize_into writes).
// Every offset must be below rows.
func decodeDeletionBitmap(b []byte, rows int64, where string) (bm *roaring.Bitmap, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errs.At(ErrCorrupt, -1, where, "roaring bitmap: %v", r)
		}
	}()
	bm = roaring.New()
	n, err := bm.FromBuffer(bytes.Clone(b))
	if err != nil {
		return nil, errs.At(ErrCorrupt, -1, where, "roaring bitmap: %v", err)
	}
	if n != int64(len(b)) {
		return nil, errs.At(ErrCorrupt, n, where, "%d bytes after the roaring bitmap", int64(len(b))-n)
	}
	if err := bm.Validate(); err != nil {
		return nil, errs.At(ErrCorrupt, -1, where, "roaring bitmap: %v", err)
	}
	if !bm.IsEmpty() && int64(bm.Maximum()) >= rows {
		return nil, errs.At(ErrCorrupt, -1, where, "deleted row %d of a fragment of %d rows", bm.Maximum(), rows)
	}
	return bm, nil
}

// readDeletions reads and checks fragment fr's deletion file: nil when it
// has none.
func readDeletions(fsys fs.FS, dir string, fr *tablepb.DataFragment, rows int64, cfg *config) (*roaring.Bitmap, error) {
	d := fr.DeletionFile
	if d == nil {
		return nil, nil
	}
	rel := deletionPath(fr.Id, d)
	b, err := readWhole(fsys, path.Join(dir, rel), rel, cfg.maxBuffer)
	if err != nil {
		return nil, err
	}
	var bm *roaring.Bitmap
	if d.FileType == tablepb.DeletionFile_BITMAP {
		bm, err = decodeDeletionBitmap(b, rows, rel)
	} else {
		bm, err = decodeDeletionArrow(b, rows, rel, cfg.maxBuffer)
	}
	if err != nil {
		return nil, err
	}
	if d.NumDeletedRows != 0 && bm.GetCardinality() != d.NumDeletedRows {
		return nil, errs.At(ErrCorrupt, -1, rel, "%d deleted rows, but the manifest says %d", bm.GetCardinality(), d.NumDeletedRows)
	}
	return bm, nil
}

// readWhole reads a small file (manifest, deletion file) whole, refusing
// one larger than limit before reading it.
func readWhole(fsys fs.FS, name, where string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("lance: %s: %w", where, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("lance: %s: %w", where, err)
	}
	if st.Size() > limit {
		return nil, errs.TooLarge(ErrTooLarge, -1, where, "file", uint64(st.Size()), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("lance: %s: %w", where, err)
	}
	if int64(len(b)) > limit {
		return nil, errs.TooLarge(ErrTooLarge, -1, where, "file", uint64(len(b)), limit)
	}
	return b, nil
}

// errAllocLimit is the panic value of a limitAllocator over its budget;
// the decoder that installed it recovers it into ErrTooLarge.
var errAllocLimit = errors.New("lance: allocation limit")

// limitAllocator bounds what a third-party decoder (arrow-go's IPC reader)
// may allocate for input this package does not trust.
type limitAllocator struct {
	mem  memory.Allocator
	left int64
}

func (l *limitAllocator) take(n int) {
	if n <= 0 {
		return
	}
	if int64(n) > l.left {
		panic(errAllocLimit)
	}
	l.left -= int64(n)
}

func (l *limitAllocator) Allocate(n int) []byte { l.take(n); return l.mem.Allocate(n) }
func (l *limitAllocator) Reallocate(n int, b []byte) []byte {
	l.take(n - len(b))
	return l.mem.Reallocate(n, b)
}
func (l *limitAllocator) Free(b []byte) { l.mem.Free(b) }
