package remote

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/colfmt/colfmt/internal/shareddata"
)

var ctx = context.Background()

func mustOpen(t testing.TB, url string, opts ...Option) *File {
	t.Helper()
	f, err := Open(ctx, url, opts...)
	if err != nil {
		t.Fatalf("Open(%s): %v", url, err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func readAll(t testing.TB, r io.ReaderAt, size int64) []byte {
	t.Helper()
	b := make([]byte, size)
	if _, err := r.ReadAt(b, 0); err != nil && err != io.EOF {
		t.Fatalf("ReadAt: %v", err)
	}
	return b
}

// TestReadAtMatchesLocal reads every byte of real files over HTTP, through
// file:// and as a plain path, and compares them with os.ReadFile, at
// several tail cache sizes (whole file cached, part, none).
func TestReadAtMatchesLocal(t *testing.T) {
	s := newTestServer(t)
	for _, rel := range [][]string{
		{"lance", "v2_2_alltypes_5rows.lance"},
		{"csup", "csup-v16_super-v0.3.0", "nested.csup"},
		{"at1", "qcol.at1"},
		{"at1", "raw_empty.expected"}, // empty
	} {
		want, err := os.ReadFile(filepath.Join(append([]string{s.root}, rel...)...))
		if err != nil {
			t.Fatal(err)
		}
		local := filepath.Join(append([]string{s.root}, rel...)...)
		for _, url := range []string{s.url(rel...), "file://" + local, local} {
			for _, tail := range []int64{0, 100, DefaultTailCache} {
				f := mustOpen(t, url, WithTailCache(tail))
				if f.Size() != int64(len(want)) {
					t.Fatalf("%s: Size %d, want %d", url, f.Size(), len(want))
				}
				if got := readAll(t, f, f.Size()); !bytes.Equal(got, want) {
					t.Fatalf("%s tail %d: bytes differ", url, tail)
				}
				// Odd ranges, one past the end.
				for _, off := range []int64{0, 1, int64(len(want)) / 2, int64(len(want)) - 1} {
					if off < 0 || off >= int64(len(want)) {
						continue
					}
					p := make([]byte, 7)
					n, err := f.ReadAt(p, off)
					wn := min(7, len(want)-int(off))
					if n != wn || !bytes.Equal(p[:n], want[off:int(off)+wn]) || (n < 7) != (err == io.EOF) {
						t.Fatalf("%s: ReadAt(7, %d) = %d, %v", url, off, n, err)
					}
				}
				if n, err := f.ReadAt(make([]byte, 1), f.Size()); n != 0 || err != io.EOF {
					t.Fatalf("%s: ReadAt at the end = %d, %v", url, n, err)
				}
				got, err := io.ReadAll(f)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s: Read: %v", url, err)
				}
			}
		}
	}
}

// TestTailCacheServesFooter: a file smaller than the tail cache costs one
// request at open and none after.
func TestTailCacheServesFooter(t *testing.T) {
	s := newTestServer(t)
	f := mustOpen(t, s.url("lance", "v2_2_alltypes_5rows.lance"))
	readAll(t, f, f.Size())
	if n, _ := s.count(); n != 1 || f.Stats().Requests != 1 {
		t.Fatalf("%d requests (Stats %v), want 1", n, f.Stats())
	}
}

// TestChanged: the object's ETag changes between open and a later read;
// the read fails with ErrChanged, whether the server honours If-Match
// (412) or ignores it and sends the other version.
func TestChanged(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		s := newTestServer(t)
		s.set(func(s *testServer) { s.ignoreIfMatch = ignore })
		f := mustOpen(t, s.url("lance21", "2.2", "primitives.lance", "data", dataFile(t)), WithTailCache(1024))
		p := make([]byte, 100)
		if _, err := f.ReadAt(p, 0); err != nil {
			t.Fatal(err)
		}
		s.set(func(s *testServer) { s.etag = `"v2"` })
		_, err := f.ReadAt(p, 0)
		if !errors.Is(err, ErrChanged) {
			t.Fatalf("ignoreIfMatch=%v: err %v, want ErrChanged", ignore, err)
		}
		if f.Stats().Retries != 0 {
			t.Fatalf("a change was retried: %v", f.Stats())
		}
	}
}

// TestRetryTransient: 503s are retried with backoff until the retries run
// out.
func TestRetryTransient(t *testing.T) {
	s := newTestServer(t)
	s.set(func(s *testServer) { s.fail = 2 })
	f := mustOpen(t, s.url("at1", "qcol.at1"), WithBackoff(time.Millisecond), WithTailCache(0))
	if st := f.Stats(); st.Retries != 2 || st.Requests != 3 {
		t.Fatalf("open: %v, want 2 retries of 3 requests", st)
	}
	s.set(func(s *testServer) { s.fail = 1 })
	p := make([]byte, 10)
	if _, err := f.ReadAt(p, 5); err != nil || f.Stats().Retries != 3 {
		t.Fatalf("ReadAt after a 503: %v, %v", err, f.Stats())
	}
	s.set(func(s *testServer) { s.fail = 5 })
	_, err := Open(ctx, s.url("at1", "qcol.at1"), WithBackoff(time.Millisecond), WithRetries(1))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("503")) {
		t.Fatalf("Open with 5 failures and 1 retry: %v", err)
	}
}

// TestRetryReset: a connection closed without an answer is retried.
func TestRetryReset(t *testing.T) {
	s := newTestServer(t)
	f := mustOpen(t, s.url("at1", "qcol.at1"), WithBackoff(time.Millisecond), WithTailCache(0))
	want, _ := os.ReadFile(filepath.Join(s.root, "at1", "qcol.at1"))
	s.set(func(s *testServer) { s.reset = 2 })
	p := make([]byte, 20)
	if _, err := f.ReadAt(p, 3); err != nil || !bytes.Equal(p, want[3:23]) {
		t.Fatalf("ReadAt after resets: %v", err)
	}
	if r, _ := s.count(); f.Stats().Retries < 1 || r < 3 {
		t.Fatalf("no retry counted: %v, server saw %d requests", f.Stats(), r)
	}
}

func TestNotFoundAndNoRanges(t *testing.T) {
	s := newTestServer(t)
	_, err := Open(ctx, s.url("nope.lance"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing object: %v", err)
	}
	s.set(func(s *testServer) { s.noRanges = true })
	// Small enough for the tail cache: read whole.
	f := mustOpen(t, s.url("at1", "qcol.at1"))
	want, _ := os.ReadFile(filepath.Join(s.root, "at1", "qcol.at1"))
	if !bytes.Equal(readAll(t, f, f.Size()), want) {
		t.Fatal("bytes differ")
	}
	_, err = Open(ctx, s.url("at1", "qcol.at1"), WithTailCache(16))
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("server without ranges, larger object: %v", err)
	}
}

func dataFile(t testing.TB) string {
	t.Helper()
	ents, err := os.ReadDir(shareddata.Path(t, "lance21", "2.2", "primitives.lance", "data"))
	if err != nil || len(ents) == 0 {
		t.Fatalf("data files: %v", err)
	}
	return ents[0].Name()
}

// TestCoalesce: nearby ranges become one request, far ones separate
// requests run concurrently, and every range gets its bytes.
func TestCoalesce(t *testing.T) {
	s := newTestServer(t)
	rel := []string{"lance21", "2.2", "primitives.lance", "data", dataFile(t)}
	want, _ := os.ReadFile(filepath.Join(append([]string{s.root}, rel...)...))
	f := mustOpen(t, s.url(rel...), WithTailCache(0), WithCoalesceGap(1000))
	if len(want) < 200000 {
		t.Fatalf("data file of %d bytes; the test needs 200 kB", len(want))
	}
	n0, _ := s.count()
	rs := []Range{
		{Off: 50000, Buf: make([]byte, 100)}, // out of order on purpose
		{Off: 100, Buf: make([]byte, 100)},
		{Off: 150, Buf: make([]byte, 100)},   // overlaps
		{Off: 1200, Buf: make([]byte, 10)},   // 950 after: joins
		{Off: 3000, Buf: make([]byte, 10)},   // 1790 after: a new request
		{Off: 50100, Buf: make([]byte, 100)}, // adjacent to the first
		{Off: 9999, Buf: nil},                // empty: no request
	}
	if err := f.ReadRanges(ctx, rs); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if !bytes.Equal(r.Buf, want[r.Off:r.Off+int64(len(r.Buf))]) {
			t.Fatalf("range at %d: bytes differ", r.Off)
		}
	}
	if n, _ := s.count(); n-n0 != 3 {
		t.Fatalf("%d requests for 3 spans (%q)", n-n0, s.ranges[n0:])
	}
	if st := f.Stats(); st.Rounds != 2 || st.Requests != 4 {
		t.Fatalf("%v: want open's round and one round of 3 requests", st)
	}
	// A range outside the object is the caller's mistake.
	if err := f.ReadRanges(ctx, []Range{{Off: f.Size() - 1, Buf: make([]byte, 2)}}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("range past the end: %v", err)
	}
}

func TestPlanSplitsLargeRanges(t *testing.T) {
	buf := make([]byte, 2500)
	sp := plan([]Range{{Off: 0, Buf: buf}, {Off: 2600, Buf: make([]byte, 10)}}, 10, 1024)
	if len(sp) != 4 || sp[0].end != 1024 || sp[2].off != 2048 || sp[2].end != 2500 || sp[3].off != 2600 {
		t.Fatalf("plan: %d spans", len(sp))
	}
}

func TestInvalidOptions(t *testing.T) {
	for _, o := range []Option{WithRetries(-1), WithMaxInFlight(0), WithCoalesceGap(-1), WithTailCache(MaxTailCache + 1), WithHTTPClient(nil), WithBackoff(-1), WithMaxRequestSize(1)} {
		if _, err := Open(ctx, "x", o); !errors.Is(err, ErrInvalidOption) || !errors.Is(err, ErrInvalidArgument) {
			t.Fatalf("err %v", err)
		}
	}
	if _, err := Open(ctx, "s3://bucket/key"); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("s3: %v", err)
	}
	if _, err := Open(ctx, ""); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("empty: %v", err)
	}
}

// TestPrefetch: prefetched extents serve later reads without requests;
// the bound is enforced before reading.
func TestPrefetch(t *testing.T) {
	s := newTestServer(t)
	rel := []string{"lance21", "2.2", "primitives.lance", "data", dataFile(t)}
	want, _ := os.ReadFile(filepath.Join(append([]string{s.root}, rel...)...))
	f := mustOpen(t, s.url(rel...), WithTailCache(0), WithCoalesceGap(100), WithMaxPrefetch(20000))
	n0, _ := s.count()
	if err := f.Prefetch(ctx, []Extent{{5000, 1000}, {0, 100}, {6050, 10}, {100000, 5000}}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.count(); n-n0 != 3 {
		t.Fatalf("%d requests for 3 spans", n-n0)
	}
	for _, e := range []Extent{{5000, 1000}, {5500, 560}, {0, 1}, {100100, 10}} {
		p := make([]byte, e.Len)
		if _, err := f.ReadAt(p, e.Off); err != nil || !bytes.Equal(p, want[e.Off:e.Off+e.Len]) {
			t.Fatalf("ReadAt %v: %v", e, err)
		}
	}
	if n, _ := s.count(); n-n0 != 3 {
		t.Fatalf("reads inside prefetched blocks sent %d requests", n-n0-3)
	}
	p := make([]byte, 10)
	if _, err := f.ReadAt(p, 4995); err != nil || !bytes.Equal(p, want[4995:5005]) { // straddles: fetched
		t.Fatal(err)
	}
	if err := f.Prefetch(ctx, []Extent{{200000, 20000}}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over WithMaxPrefetch: %v", err)
	}
	if err := f.Prefetch(ctx, []Extent{{f.Size(), 1}}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("past the end: %v", err)
	}
}

// TestErrorsHideQuery: a presigned URL's signature stays out of errors.
func TestErrorsHideQuery(t *testing.T) {
	s := newTestServer(t)
	_, err := Open(ctx, s.url("nope.lance")+"?X-Amz-Signature=secret")
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Fatalf("error %v", err)
	}
	s.Close()
	_, err = Open(ctx, s.url("at1", "qcol.at1")+"?X-Amz-Signature=secret", WithRetries(0))
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Fatalf("error %v", err)
	}
}

// TestSmallFilesOneRequest: a CSUP or AT-1 file within the tail cache is
// opened and decoded whole with the one request Open sends.
func TestSmallFilesOneRequest(t *testing.T) {
	s := newTestServer(t)
	for _, c := range []struct {
		format string
		rel    []string
	}{
		{"csup", []string{"csup", "csup-v16_super-v0.3.0", "nested.csup"}},
		{"at1", []string{"at1", "qcol.at1"}},
		{"lance", []string{"lance", "v2_2_alltypes_5rows.lance"}},
	} {
		f := mustOpen(t, s.url(c.rel...))
		decodeAs(t, c.format, f, f.Size())
		if st := f.Stats(); st.Requests != 1 || st.Bytes != f.Size() {
			t.Fatalf("%v: %v for a %d-byte file", c.rel, st, f.Size())
		}
	}
}
