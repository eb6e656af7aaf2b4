package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// httpSource reads an object with HTTP range requests. The validator (ETag,
// else Last-Modified) of the first response is required of every later
// one; a strong ETag is also sent as If-Match so the server refuses (412)
// rather than serves another version.
type httpSource struct {
	url          string
	name         string // url without credentials or query, for messages
	client       *http.Client
	etag         string
	lastModified string
}

func openHTTP(ctx context.Context, f *File, u *url.URL) error {
	s := &httpSource{url: u.String(), name: redact(u), client: f.cfg.client}
	f.src = s
	return f.retry(ctx, func() error { return s.open(ctx, f) })
}

// open learns the size and validator, and reads the tail cache.
func (s *httpSource) open(ctx context.Context, f *File) error {
	if f.cfg.tail == 0 {
		resp, err := s.do(ctx, f, http.MethodHead, "", false)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.ContentLength < 0 {
			return fmt.Errorf("%s: %w: HEAD gave no Content-Length", s.name, ErrUnsupported)
		}
		s.remember(resp)
		f.size, f.modTime = resp.ContentLength, modTime(resp)
		return nil
	}
	resp, err := s.do(ctx, f, http.MethodGet, fmt.Sprintf("bytes=-%d", f.cfg.tail), false)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	s.remember(resp)
	f.modTime = modTime(resp)
	switch resp.StatusCode {
	case http.StatusPartialContent:
		if cr := resp.Header.Get("Content-Range"); strings.HasSuffix(cr, "/0") && resp.ContentLength <= 0 {
			// An empty object (net/http says "bytes 0--1/0").
			f.size = 0
			return nil
		}
		start, end, total, err := parseContentRange(resp.Header.Get("Content-Range"))
		if err != nil || end >= total || end-start+1 > f.cfg.tail {
			return fmt.Errorf("%s: %w: Content-Range %q for the last %d bytes", s.name, ErrCorrupt, resp.Header.Get("Content-Range"), f.cfg.tail)
		}
		buf := make([]byte, end-start+1)
		if err := f.readBody(resp.Body, buf); err != nil {
			return err
		}
		f.size, f.tail, f.tailOff = total, buf, start
	case http.StatusRequestedRangeNotSatisfiable:
		// An empty object: "bytes */0".
		cr := resp.Header.Get("Content-Range")
		if cr != "bytes */0" {
			return fmt.Errorf("%s: %w: 416 for a suffix range (Content-Range %q)", s.name, ErrCorrupt, cr)
		}
		f.size = 0
	default: // 200: the server ignored Range and sends the whole object.
		if resp.ContentLength < 0 || resp.ContentLength > f.cfg.tail {
			return fmt.Errorf("%s: %w: server does not serve range requests (200 to a Range of the last %d bytes, object of %d bytes)", s.name, ErrUnsupported, f.cfg.tail, resp.ContentLength)
		}
		buf := make([]byte, resp.ContentLength)
		if err := f.readBody(resp.Body, buf); err != nil {
			return err
		}
		f.size, f.tail, f.tailOff = int64(len(buf)), buf, 0
	}
	return nil
}

func modTime(resp *http.Response) time.Time {
	t, _ := http.ParseTime(resp.Header.Get("Last-Modified"))
	return t
}

func (s *httpSource) remember(resp *http.Response) {
	s.etag = resp.Header.Get("ETag")
	s.lastModified = resp.Header.Get("Last-Modified")
}

// readBody fills buf from body exactly, counting the bytes.
func (f *File) readBody(body io.Reader, buf []byte) error {
	n, err := io.ReadFull(body, buf)
	f.bytes.Add(int64(n))
	if err != nil {
		return fmt.Errorf("%s: short body (%d of %d bytes): %w", f.name, n, len(buf), err)
	}
	return nil
}

func (s *httpSource) fetch(ctx context.Context, f *File, p []byte, off int64) error {
	end := off + int64(len(p)) - 1
	return f.retry(ctx, func() error { return s.fetchOnce(ctx, f, p, off, end) })
}

// retry runs try until it succeeds, fails for good, or the retries run out.
func (f *File) retry(ctx context.Context, try func() error) error {
	var last error
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			f.retries.Add(1)
			if err := sleep(ctx, backoff(f.cfg.backoff, attempt)); err != nil {
				return err
			}
		}
		err := try()
		if err == nil {
			return nil
		}
		last = err
		if !transient(ctx, err) || attempt >= f.cfg.retries {
			return last
		}
	}
}

func (s *httpSource) fetchOnce(ctx context.Context, f *File, p []byte, off, end int64) error {
	resp, err := s.do(ctx, f, http.MethodGet, fmt.Sprintf("bytes=%d-%d", off, end), true)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		if off != 0 || end != f.size-1 {
			return fmt.Errorf("%s: %w: server ignored Range bytes=%d-%d", s.name, ErrUnsupported, off, end)
		}
	} else {
		start, rend, total, err := parseContentRange(resp.Header.Get("Content-Range"))
		if err != nil || start != off || rend != end {
			return fmt.Errorf("%s: %w: Content-Range %q for bytes=%d-%d", s.name, ErrCorrupt, resp.Header.Get("Content-Range"), off, end)
		}
		if total != f.size {
			return fmt.Errorf("%s: %w: size %d, was %d at open", s.name, ErrChanged, total, f.size)
		}
	}
	if et, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"); et != s.etag || (s.etag == "" && lm != s.lastModified) {
		return fmt.Errorf("%s: %w: ETag %q Last-Modified %q, were %q %q at open", s.name, ErrChanged, et, lm, s.etag, s.lastModified)
	}
	return f.readBody(resp.Body, p)
}

// do sends one request and maps statuses to errors; it returns a response
// with status 200, 206 or 416 (ranged GET) and the caller closes its body.
func (s *httpSource) do(ctx context.Context, f *File, method, rng string, validate bool) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.url, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidArgument, err)
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	if validate {
		if s.etag != "" && !strings.HasPrefix(s.etag, "W/") {
			req.Header.Set("If-Match", s.etag)
		} else if s.etag == "" && s.lastModified != "" {
			req.Header.Set("If-Unmodified-Since", s.lastModified)
		}
	}
	start := time.Now()
	f.requests.Add(1)
	resp, err := s.client.Do(req)
	f.wallNanos.Add(int64(time.Since(start)))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = s.name // the query may hold a presigned URL's signature
		}
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusOK, resp.StatusCode == http.StatusPartialContent,
		resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && rng != "" && !validate:
		return resp, nil
	}
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPreconditionFailed:
		return nil, fmt.Errorf("%s: %w: server refused If-Match %q (412)", s.name, ErrChanged, s.etag)
	case http.StatusNotFound, http.StatusGone:
		return nil, &fs.PathError{Op: "open", Path: s.name, Err: fs.ErrNotExist}
	case http.StatusForbidden, http.StatusUnauthorized:
		return nil, &fs.PathError{Op: "open", Path: s.name, Err: fmt.Errorf("%w: %s", fs.ErrPermission, resp.Status)}
	}
	return nil, &statusError{url: s.name, status: resp.Status, code: resp.StatusCode}
}

func (s *httpSource) close() error { return nil }

type statusError struct {
	url, status string
	code        int
}

func (e *statusError) Error() string { return fmt.Sprintf("remote: %s: %s", e.url, e.status) }

// transient reports whether err is worth retrying: a 5xx or 429, a reset
// or refused connection, a timeout, a body cut short.
func transient(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var se *statusError
	if errors.As(err, &se) {
		return se.code >= 500 || se.code == http.StatusTooManyRequests || se.code == http.StatusRequestTimeout
	}
	if errors.Is(err, ErrChanged) || errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupported) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return false
	}
	var tmp interface{ Temporary() bool }
	if errors.As(err, &tmp) && tmp.Temporary() {
		return true
	}
	var ne net.Error
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE) || (errors.As(err, &ne) && ne.Timeout())
}

func backoff(base time.Duration, attempt int) time.Duration {
	d := base << min(attempt-1, 10)
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2+1) // jitter in [d/2, d]
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// parseContentRange parses "bytes start-end/total".
func parseContentRange(s string) (start, end, total int64, err error) {
	bad := fmt.Errorf("bad Content-Range %q", s)
	rest, ok := strings.CutPrefix(s, "bytes ")
	if !ok {
		return 0, 0, 0, bad
	}
	rng, tot, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, 0, bad
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return 0, 0, 0, bad
	}
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	total, err3 := strconv.ParseInt(tot, 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || start < 0 || end < start || total <= end {
		return 0, 0, 0, bad
	}
	return start, end, total, nil
}

// redact drops a URL's user info and query (presigned URLs carry their
// credentials there) so that error messages can be logged.
func redact(u *url.URL) string {
	r := *u
	r.User = nil
	if r.RawQuery != "" {
		r.RawQuery = "REDACTED"
	}
	r.Fragment, r.RawFragment = "", ""
	return r.String()
}
