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
