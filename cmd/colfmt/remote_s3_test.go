package main

import (
	"context"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/s3rver"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/remote"
	"github.com/colfmt/colfmt/remote/objstore"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob"
)

// linkObjstoreForTest links s3:// as remote_objstore.go does in a build
// with -tags colfmt_objstore, so the tests run in every build.
func linkObjstoreForTest(t *testing.T) {
	t.Helper()
	if objstoreOpen != nil {
		return
	}
	objstoreSchemes = []string{"s3"}
	objstoreOpen = func(ctx context.Context, rawURL string) (*remote.File, error) { return objstore.OpenURL(ctx, rawURL) }
	objstoreFS = func(ctx context.Context, rawURL string) (fs.FS, func() error, error) {
		return objstore.FSURL(ctx, rawURL)
	}
	t.Cleanup(func() { objstoreSchemes, objstoreOpen, objstoreFS = nil, nil, nil })
}

// uploadShared writes the shared inputs (files and table directories,
// relative to root) into bucket "data" at bucketURL.
func uploadShared(t *testing.T, bucketURL, root string, rels []string) {
	t.Helper()
	b, err := blob.OpenBucket(context.Background(), bucketURL)
	require.NoError(t, err)
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
		require.NoError(t, err)
	}
}

// TestRemoteInputS3: the same commands over s3:// URLs (an in-process
// S3 server, gofakes3, on loopback; tables listed with ListObjectsV2)
// print what they print for the local paths.
func TestRemoteInputS3(t *testing.T) {
	root := shareddata.Path(t)
	linkObjstoreForTest(t)
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	require.NoError(t, backend.CreateBucket("data"))
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	q := "?endpoint=" + srv.URL + "&use_path_style=true&disable_https=true&region=us-east-1"
	files, tables := sharedInputs(t, root)
	uploadShared(t, "s3://data"+q, root, append(files, tables...))
	checkRemoteCommands(t, root, func(rel string) string { return "s3://data/" + rel + q })

	code, _, stderr := runCLI(t, "cat", "s3://data/missing.lance"+q)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "not exist")
}

// TestRemoteInputS3rver: the same identity checks against s3rver, a real
// S3-compatible server from the npm registry started on loopback
// (internal/s3rver; skipped with a message when it is not installed).
func TestRemoteInputS3rver(t *testing.T) {
	root := shareddata.Path(t)
	endpoint := s3rver.Start(t, "data")
	linkObjstoreForTest(t)
	q := s3rver.BucketQuery(endpoint)
	files, tables := sharedInputs(t, root)
	uploadShared(t, "s3://data"+q, root, append(files, tables...))
	checkRemoteCommands(t, root, func(rel string) string { return "s3://data/" + rel + q })
}
