// Package remote reads files where they live: it opens an http://,
// https://, file:// URL or a plain path as an io.ReaderAt with a size (a
// *File), and a directory URL as an io/fs.FS, so every colfmt format
// (lance.Open, lance.OpenTable, csup.Open, at1.Open, onpair) reads a remote
// object the way it reads a local file: only the byte ranges it needs.
//
// Entry points: Open (one object), FS (a directory, e.g. a Lance table),
// (*File).ReadAt, (*File).ReadRanges (many ranges at once), (*File).Stats.
//
// # Requests
//
// Open sends one request: a ranged GET of the object's last
// WithTailCache bytes (default DefaultTailCache, 64 KiB), which gives the
// size, the validator (ETag, else Last-Modified) and the tail. Every
// format here reads its footer and metadata from the end first, so those
// reads are served from this cache without another round trip; a file
// smaller than the cache costs exactly one request in all.
//
// ReadAt sends one ranged GET per call (parts the tail cache holds are
// copied from it). ReadRanges takes many ranges, serves the cached ones,
// sorts the rest and merges ranges less than WithCoalesceGap apart
// (default DefaultCoalesceGap, 64 KiB) into one request, and sends the
// requests concurrently, at most WithMaxInFlight (default 8) at once per
// File. Requests larger than WithMaxRequestSize are split.
//
// Transient failures (5xx, 429, 408, a reset or refused connection, a
// timeout, a body cut short) are retried WithRetries times (default 3)
// with exponential backoff and jitter from WithBackoff (default 100 ms).
//
// # Consistency
//
// Every response after the first must carry the first one's ETag (or,
// without an ETag, its Last-Modified) and total size. A strong ETag is
// sent as If-Match (else Last-Modified as If-Unmodified-Since), so a
// conforming server answers 412 instead of another version's bytes. Either
// way a file that changes while it is read fails with an error wrapping
// ErrChanged, never a silent mix of two versions; it is not retried. A
// server that sends neither validator cannot be checked beyond the size.
// Local files are read through os.File and are not checked (a file that
// shrinks fails with ErrChanged).
//
// # Directories
//
// FS over file:// or a path is os.DirFS. Over HTTP there is no listing:
// Open(name) opens base/name as a *File (which is an fs.File: Stat, Read,
// ReadAt), Stat sends a HEAD, and ReadDir fails with ErrUnsupported.
// lance.OpenTable needs no more: it falls back to _versions/latest_version_hint.json and opens the
// manifest and data files by name.
//
// # Object stores
//
// s3://, gs://, azblob:// are read by package remote/objstore through
// gocloud.dev/blob (Open fails on them with ErrUnsupported), kept apart so
// programs reading HTTP and files do not link gocloud. It builds on
// OpenObject, the hook that turns any store's range reads into a *File.
//
// # Planned reads (Prefetch, package remote/lancefetch)
//
// A reader that knows its plan hands the extents to Prefetch, which reads
// them in one wave of coalesced, concurrent requests. Package
// remote/lancefetch does so for Lance from outside package lance: it
// lists the selected columns' metadata, column buffers and page buffers
// from lance.File.Columns (Extents), prefetches them (Prefetch), and for
// a table (NewFS, (*FS).PrefetchTable) opens the data files of all
// fragments ahead, at most 8 at once, instead of two round trips per
// fragment one after another. colfmt cat and validate use it for remote
// Lance files and tables.
//
// Measured (BenchmarkOneColumn in remote/lancefetch, 20 ms injected per
// request, one column "id" of a 25 MB LanceDB table of 4 fragments, 0.63
// MB of column pages per 6.3 MB data file, same run): one data file, plain
// 3 requests and 3 round trips (open included), with Prefetch 2 and 2;
// 697 KB received either way, 1.10x the column's bytes (the 64 KiB tail
// holds footer and metadata), against 9.1x (6.33 MB) for one GET of the
// whole file. The table: 26 requests and 3.45 MB plain, 14 requests and
// 2.79 MB (1.10x the column's bytes) with NewFS+PrefetchTable, wall time
// 0.78 s against 0.31 s (2.5x). Through colfmt over HTTP (TestRemotePrefetch,
// lance21/2.1/multipage.lance, 8 to 14 pages a column): cat of the table
// 179 requests without the prefetch, 11 with; cat --columns s 49 and 11;
// validate of its data file 203 and 3.
//
// What a lance hook would add (package lance is not changed here):
// Table exposing its read plan (the data files and field ids a
// ReadOptions selects) would spare PrefetchTable the one file per
// field-id set it opens to learn which files matter; a reader that finds
// a Prefetch(ctx, []Extent) method on its io.ReaderAt, called with the
// plan's page extents, would spare lancefetch its second parse of the
// footer; and probing versions concurrently (OpenTable over a store that
// cannot list, HTTP, sends one HEAD per version, one after another)
// would cut about one round trip per version from opening a table over
// HTTP.
//
// # Command line
//
// colfmt takes URLs wherever it takes a path: files and table
// directories over http(s) and file:// (a table over HTTP found through
// _versions/latest_version_hint.json), s3:// in a build with -tags
// colfmt_objstore; --version, query, csup-query and grep too.
//
// # Testing
//
// Tests serve ../shared/data with httptest (with injected latency and
// faults), and through remote/objstore from gofakes3 (in process, always)
// and s3rver, a real S3-compatible server from the npm registry started
// on loopback when installed (npm install --prefix scripts/s3; see
// internal/s3rver): every real file's bytes and every table's records
// equal the local ones, and colfmt prints the same for the URL as for the
// path.
//
// # Security
//
// Nothing is logged; credentials belong to the http.Client given with
// WithHTTPClient. A server's Content-Range must match the range asked
// for exactly and its body fill it exactly, or the read fails with
// ErrCorrupt; buffers are sized from the caller's ranges and the tail
// cache bound, never from a response header, except that a server that
// ignores Range is read whole only up to the tail cache size. The formats
// above keep their own limits on what they read.
package remote
