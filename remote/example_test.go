package remote_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/colfmt/colfmt/remote"
)

// Open an object over HTTP and read two ranges of it in one request; the
// tail was read at open and costs nothing more.
func Example() {
	content := strings.Repeat("0123456789", 10000) // 100 kB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(content))
	}))
	defer srv.Close()

	ctx := context.Background()
	f, err := remote.Open(ctx, srv.URL+"/numbers.txt", remote.WithTailCache(1024))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	fmt.Println("size", f.Size())

	footer := make([]byte, 4)
	f.ReadAt(footer, f.Size()-4) // from the tail cache
	a, b := make([]byte, 3), make([]byte, 3)
	err = f.ReadRanges(ctx, []remote.Range{{Off: 100, Buf: a}, {Off: 2005, Buf: b}}) // one request
	fmt.Println(string(footer), string(a), string(b), err)
	st := f.Stats()
	fmt.Println(st.Requests, "requests")
	fmt.Println(bytes.Equal(a, []byte("012")))
	// Output:
	// size 100000
	// 6789 012 567 <nil>
	// 2 requests
	// true
}
