package objstore

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/remote"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob"
)

// s3Server starts an S3-compatible server in process (gofakes3, always
// available; TestS3rver runs against s3rver, a real server from the npm
// registry, when it is installed) on loopback with bucket "data" holding
// the given files of ../shared/data, and returns the s3:// query that
// points s3blob at it.
func s3Server(t *testing.T, rels ...string) string {
	t.Helper()
	root := shareddata.Path(t)
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	if err := backend.CreateBucket("data"); err != nil {
		t.Fatal(err)
	}
	q := "?endpoint=" + srv.URL + "&use_path_style=true&disable_https=true&region=us-east-1"
	b, err := blob.OpenBucket(context.Background(), "s3://data"+q)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, rel := range rels {
		err := filepath.WalkDir(filepath.Join(root, rel), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			key, _ := filepath.Rel(root, p)
			return b.WriteAll(context.Background(), filepath.ToSlash(key), data, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return q
}

// TestS3 reads files and a Lance table (listed) from an S3 server through
// s3blob: the bytes and records equal the local ones.
func TestS3(t *testing.T) {
	q := s3Server(t, "at1/qcol.at1", "lance/v2_2_alltypes_5rows.lance", "lance21/2.2/primitives.lance")
	root := shareddata.Path(t)
	for _, key := range []string{"at1/qcol.at1", "lance/v2_2_alltypes_5rows.lance"} {
		want, _ := os.ReadFile(filepath.Join(root, key))
		f, err := OpenURL(ctx, "s3://data/"+key+q, remote.WithTailCache(64))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, f.Size())
		if _, err := f.ReadAt(got, 0); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %v", key, err)
		}
		if st := f.Stats(); st.Requests != 2 {
			t.Fatalf("%s: %v, want the tail and one range", key, st)
		}
		f.Close()
	}
	b, err := blob.OpenBucket(ctx, "s3://data"+q)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	prefix := "lance21/2.2/primitives.lance"
	if got, want := readTable(t, FS(ctx, b, prefix)), readTable(t, os.DirFS(filepath.Join(root, prefix))); !bytes.Equal(got, want) {
		t.Fatal("table records over S3 differ")
	}
}
