package remote

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// testServer serves a directory with http.ServeContent (ranges, If-Match)
// and lets a test count requests, inject latency and failures, and change
// the ETag of every file.
type testServer struct {
	root string
	*httptest.Server

	mu            sync.Mutex
	requests      int
	bytes         int64
	ranges        []string
	etag          string // sent for every file; "" sends none
	fail          int    // answer the next fail requests with 503
	reset         int    // close the connection of the next reset requests unanswered
	latency       time.Duration
	bandwidth     int64 // bytes per second a response is sent at; 0: unlimited
	ignoreIfMatch bool  // serve whatever If-Match says
	noRanges      bool  // ignore Range (answer 200)
}

func newTestServer(t testing.TB) *testServer {
	s := &testServer{root: shareddata.Path(t), etag: `"v1"`}
	s.Server = httptest.NewServer(s)
	t.Cleanup(s.Close)
	return s
}

func (s *testServer) set(fn func(s *testServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s)
}

func (s *testServer) count() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, s.bytes
}

// countingWriter counts body bytes before they are sent, so the count is
// complete by the time the client has read them.
type countingWriter struct {
	http.ResponseWriter
	s *testServer
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	w.s.bytes += int64(len(p))
	bw := w.s.bandwidth
	w.s.mu.Unlock()
	if bw > 0 {
		time.Sleep(time.Duration(int64(len(p)) * int64(time.Second) / bw))
	}
	return w.ResponseWriter.Write(p)
}

func (s *testServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	latency, etag, ignore, noRanges := s.latency, s.etag, s.ignoreIfMatch, s.noRanges
	fail := s.fail > 0
	if fail {
		s.fail--
	}
	reset := s.reset > 0
	if reset {
		s.reset--
	}
	s.mu.Unlock()
	if reset {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	time.Sleep(latency)
	if fail {
		http.Error(w, "try later", http.StatusServiceUnavailable)
		return
	}
	name := filepath.Join(s.root, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
	fh, err := os.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || st.IsDir() {
		http.NotFound(w, r)
		return
	}
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	if ignore {
		r.Header.Del("If-Match")
	}
	if noRanges {
		r.Header.Del("Range")
	}
	http.ServeContent(&countingWriter{ResponseWriter: w, s: s}, r, "", st.ModTime(), fh)
}

// url returns the server's URL of rel (a path below ../shared/data).
func (s *testServer) url(rel ...string) string {
	return s.URL + "/" + strings.Join(rel, "/")
}
