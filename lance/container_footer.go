package lance

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/colfmt/colfmt/internal/errs"
)

// Footer is the 40-byte footer that Lance 2.x files (2.0, 2.1, 2.2) share.
// Legacy v1 files have a 16-byte footer: for them only Major and Minor are
// set.
type Footer struct {
	ColumnMetaStart  uint64
	CMOTableStart    uint64 // column-metadata offset table
	GBOTableStart    uint64 // global-buffer offset table
	NumGlobalBuffers uint32
	NumColumns       uint32
	Major, Minor     uint16
}

// Supported reports whether Open reads files with this footer version.
func (ft Footer) Supported() bool {
	return ft.Major == 0 && ft.Minor == 3 || ft.Major == 2 && ft.Minor <= 2
}

// String names the version the way lance does.
func (ft Footer) String() string {
	switch {
	case ft.Major == 0 && ft.Minor < 3:
		return fmt.Sprintf("legacy v1 (footer %d.%d)", ft.Major, ft.Minor)
	case ft.Major == 0 && ft.Minor == 3, ft.Major == 2 && ft.Minor == 0:
		return fmt.Sprintf("2.0 (footer %d.%d)", ft.Major, ft.Minor)
	}
	return fmt.Sprintf("%d.%d", ft.Major, ft.Minor)
}

// ReadFooter reads only the footer of any Lance data file, including the
// versions Open refuses, to tell what a file is. A nil r or a negative
// size is ErrInvalidArgument.
func ReadFooter(r io.ReaderAt, size int64) (Footer, error) {
	var ft Footer
	switch {
	case r == nil:
		return ft, errs.Wrap(ErrInvalidArgument, "ReadFooter: nil reader")
	case size < 0:
		return ft, errs.Wrap(ErrInvalidArgument, "ReadFooter: negative size %d", size)
	}
	ft, full, err := readFooter(r, size)
	if err != nil || ft.Major == 0 && ft.Minor < 3 {
		return ft, err
	}
	if !full {
		return ft, errs.At(ErrCorrupt, 0, "footer", "file of %d bytes is too short for the 40-byte footer", size)
	}
	return ft, nil
}

// readFooter reads and parses the footer of a file of size bytes: the
// magic and the version, and the 40-byte footer's fields when the file is
// long enough for them (full). It is the one place the footer is parsed;
// ReadFooter and Open decide what to accept.
func readFooter(r io.ReaderAt, size int64) (ft Footer, full bool, err error) {
	if size < 8 {
		return ft, false, errs.At(ErrCorrupt, 0, "footer", "file of %d bytes is too short for a Lance footer", size)
	}
	tail := make([]byte, min(size, footerLen))
	off := size - int64(len(tail))
	if n, err := r.ReadAt(tail, off); n != len(tail) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return ft, false, errs.Locate(fmt.Errorf("lance: reading the footer: %w", err), off, "footer")
	}
	if string(tail[len(tail)-4:]) != magic {
		return ft, false, errs.At(ErrCorrupt, size-4, "footer", "missing LANC magic")
	}
	ft.Major = binary.LittleEndian.Uint16(tail[len(tail)-8:])
	ft.Minor = binary.LittleEndian.Uint16(tail[len(tail)-6:])
	if len(tail) < footerLen {
		return ft, false, nil
	}
	ft.ColumnMetaStart = binary.LittleEndian.Uint64(tail[0:])
	ft.CMOTableStart = binary.LittleEndian.Uint64(tail[8:])
	ft.GBOTableStart = binary.LittleEndian.Uint64(tail[16:])
	ft.NumGlobalBuffers = binary.LittleEndian.Uint32(tail[24:])
	ft.NumColumns = binary.LittleEndian.Uint32(tail[28:])
	return ft, true, nil
}
