package objstore

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/s3rver"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/remote"
	"gocloud.dev/blob"
)

// TestS3rver reads every real file and table of ../shared/data (but
// hostile/) from s3rver, a real S3-compatible server from the npm
// registry started on loopback: every object's bytes (whole and in
// ranges) equal the file's, ReadDir (ListObjectsV2 with a delimiter)
// lists what the directory holds, and every table's records equal the
// local table's.
func TestS3rver(t *testing.T) {
	root := shareddata.Path(t)
	endpoint := s3rver.Start(t, "data")
	q := s3rver.BucketQuery(endpoint)
	b, err := blob.OpenBucket(ctx, "s3://data"+q)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var files, tables []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "hostile" {
				return filepath.SkipDir
			}
			if strings.HasSuffix(rel, ".lance") {
				tables = append(tables, rel)
			}
			return nil
		}
		files = append(files, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return b.WriteAll(ctx, rel, data, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range files {
		want, _ := os.ReadFile(filepath.Join(root, key))
		f, err := OpenURL(ctx, "s3://data/"+key+q, remote.WithTailCache(1024))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, f.Size())
		if _, err := f.ReadAt(got, 0); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %v (got %d bytes, want %d)", key, err, len(got), len(want))
		}
		if n := int64(len(want)); n > 10 {
			rs := []remote.Range{{Off: 1, Buf: make([]byte, 3)}, {Off: n / 2, Buf: make([]byte, n/4)}}
			if err := f.ReadRanges(ctx, rs); err != nil || !bytes.Equal(rs[0].Buf, want[1:4]) || !bytes.Equal(rs[1].Buf, want[n/2:n/2+n/4]) {
				t.Fatalf("%s: ranges: %v", key, err)
			}
		}
		f.Close()
	}
	for _, prefix := range tables {
		local := filepath.Join(root, prefix)
		fsys := FS(ctx, b, prefix)
		ents, err := fs.ReadDir(fsys, "_versions")
		if err != nil {
			t.Fatal(err)
		}
		lents, _ := os.ReadDir(filepath.Join(local, "_versions"))
		var got, want []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		for _, e := range lents {
			want = append(want, e.Name())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: listed %v, want %v", prefix, got, want)
		}
		if got, want := readTable(t, fsys), readTable(t, os.DirFS(local)); !bytes.Equal(got, want) || len(want) == 0 {
			t.Fatalf("%s: table records over s3rver differ", prefix)
		}
	}
}
