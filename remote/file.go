package remote

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// source is one transport: it fetches exact byte ranges of one object.
type source interface {
	// fetch fills p with the bytes at off; off+len(p) is within the size.
	fetch(ctx context.Context, f *File, p []byte, off int64) error
	close() error
}

// File is an object opened for random access: an io.ReaderAt with a size,
// and an fs.File (Read, Stat, Close) for io/fs users. It is safe for
// concurrent use; ReadAt and ReadRanges may run at once.
type File struct {
	name    string
	src     source
	size    int64
	modTime time.Time
	cfg     config
	ctx     context.Context
	sem     chan struct{}

	// tail holds the object's last bytes, read at open: tail[i] is the
	// byte at tailOff+i.
	tail    []byte
	tailOff int64

	pre prefetched // what Prefetch read

	requests, bytes, retries, wallNanos atomic.Int64
	rounds, inflight                    atomic.Int64

	mu  sync.Mutex // guards pos
	pos int64      // for Read
}

// Stats counts what a File cost so far.
type Stats struct {
	Requests int64 // requests sent, retries included (ReadAt calls on a local file)
	Bytes    int64 // body bytes received
	Retries  int64 // requests that were retries of a transient failure
	// Rounds counts sequential round trips: Open's, then every ReadAt,
	// ReadRanges or Prefetch batch that went to the store while no other
	// was in flight (concurrent requests of one batch count once; retries
	// are not counted).
	Rounds int64
	Wall   time.Duration // time spent in requests, summed over concurrent ones
}

func (s Stats) String() string {
	return fmt.Sprintf("%d round trips, %d requests (%d retries), %d bytes, %v in requests", s.Rounds, s.Requests, s.Retries, s.Bytes, s.Wall.Round(time.Microsecond))
}

// Open opens the object at rawURL: http:// or https:// (range requests),
// file:// or a plain path (the local file). It reads the object's size
// and its last WithTailCache bytes in one request. ctx bounds Open and
// every later ReadAt and Read; ReadRanges takes its own.
func Open(ctx context.Context, rawURL string, opts ...Option) (*File, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if rawURL == "" {
		return nil, fmt.Errorf("%w: Open: empty URL", ErrInvalidArgument)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	f := &File{name: rawURL, cfg: cfg, ctx: ctx, sem: make(chan struct{}, cfg.maxInFlight)}
	scheme, rest := splitScheme(rawURL)
	switch scheme {
	case "http", "https":
		u, err := url.Parse(rawURL)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
		}
		f.name = path.Base(u.Path)
		f.rounds.Add(1)
		if err := openHTTP(ctx, f, u); err != nil {
			return nil, err
		}
	case "file", "":
		p := rest
		if scheme == "file" {
			u, err := url.Parse(rawURL)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
			}
			p = u.Path
		}
		f.name = p
		if err := openLocal(ctx, f, p); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w: scheme %q (read: http, https, file)", ErrUnsupported, scheme)
	}
	return f, nil
}

// IsURL reports whether s names a remote object Open reads (http, https,
// file), as opposed to a plain path.
func IsURL(s string) bool {
	scheme, _ := splitScheme(s)
	switch scheme {
	case "http", "https", "file":
		return true
	}
	return false
}

// splitScheme returns the lower-cased scheme of s ("" for a plain path,
// including Windows drive letters) and the rest after "://".
func splitScheme(s string) (string, string) {
	i := strings.Index(s, "://")
	if i <= 1 {
		return "", s
	}
	for _, c := range s[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return "", s
		}
	}
	return strings.ToLower(s[:i]), s[i+3:]
}

// Size returns the object's size in bytes, read at open.
func (f *File) Size() int64 { return f.size }

// Stats returns what the File has cost so far.
func (f *File) Stats() Stats {
	return Stats{Rounds: f.rounds.Load(), Requests: f.requests.Load(), Bytes: f.bytes.Load(), Retries: f.retries.Load(), Wall: time.Duration(f.wallNanos.Load())}
}

// Close releases the File.
func (f *File) Close() error { return f.src.close() }

// ReadAt reads len(p) bytes at off: from the tail cache where it holds
// them, else in one request (split at WithMaxRequestSize). It returns
// io.EOF with n < len(p) at the end of the object.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: ReadAt: negative offset %d", ErrInvalidArgument, off)
	}
	if off >= f.size {
		if len(p) == 0 && off == f.size {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := len(p)
	if int64(n) > f.size-off {
		n = int(f.size - off)
	}
	if err := f.ReadRanges(f.ctx, []Range{{Off: off, Buf: p[:n]}}); err != nil {
		return 0, err
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Read reads from the File's position (for fs.File users), advancing it.
func (f *File) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, err := f.ReadAt(p, f.pos)
	f.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// Seek sets the position of Read.
func (f *File) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch whence {
	case io.SeekCurrent:
		offset += f.pos
	case io.SeekEnd:
		offset += f.size
	}
	if offset < 0 {
		return 0, fmt.Errorf("%w: Seek to %d", ErrInvalidArgument, offset)
	}
	f.pos = offset
	return offset, nil
}

// Stat describes the File as an fs.FileInfo.
func (f *File) Stat() (fs.FileInfo, error) { return fileInfo{f}, nil }

type fileInfo struct{ f *File }

func (i fileInfo) Name() string       { return path.Base(i.f.name) }
func (i fileInfo) Size() int64        { return i.f.size }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return i.f.modTime }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }

// local reads a file of the local file system.
type local struct{ fh *os.File }

func openLocal(ctx context.Context, f *File, p string) error {
	fh, err := os.Open(p)
	if err != nil {
		return err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return err
	}
	if st.IsDir() {
		fh.Close()
		return &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("%w: is a directory (use FS)", ErrInvalidArgument)}
	}
	f.src, f.size, f.modTime = local{fh}, st.Size(), st.ModTime()
	// Local reads are cheap: no tail cache, so Stats counts every read
	// that reached the file.
	return nil
}

func (l local) fetch(ctx context.Context, f *File, p []byte, off int64) error {
	start := time.Now()
	f.requests.Add(1)
	_, err := l.fh.ReadAt(p, off)
	f.wallNanos.Add(int64(time.Since(start)))
	f.bytes.Add(int64(len(p)))
	if err == io.EOF {
		return fmt.Errorf("%s: %w (file shrank while reading: %w)", f.name, io.ErrUnexpectedEOF, ErrChanged)
	}
	return err
}

func (l local) close() error { return l.fh.Close() }
