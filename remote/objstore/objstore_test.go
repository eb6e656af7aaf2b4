package objstore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/lance"
	"github.com/colfmt/colfmt/remote"
	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/blob/memblob"
)

var ctx = context.Background()

func sharedBucket(t *testing.T) (*blob.Bucket, string) {
	root := shareddata.Path(t)
	b, err := fileblob.OpenBucket(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, root
}

// TestOpenMatchesLocal reads real files through gocloud's fileblob driver
// (the same blob.Bucket API s3blob, gcsblob and azureblob implement).
func TestOpenMatchesLocal(t *testing.T) {
	b, root := sharedBucket(t)
	for _, key := range []string{"lance/v2_2_alltypes_5rows.lance", "csup/csup-v16_super-v0.3.0/nested.csup", "at1/qcol.at1"} {
		want, err := os.ReadFile(filepath.Join(root, key))
		if err != nil {
			t.Fatal(err)
		}
		for _, tail := range []int64{0, 100, remote.DefaultTailCache} {
			f, err := Open(ctx, b, key, remote.WithTailCache(tail))
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, f.Size())
			if _, err := f.ReadAt(got, 0); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s tail %d: %v, bytes equal %v", key, tail, err, bytes.Equal(got, want))
			}
			f.Close()
		}
	}
	if _, err := Open(ctx, b, "nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

// TestTableOverBucket opens a Lance table below a bucket prefix, with
// listing, and reads the same records as from the local directory.
func TestTableOverBucket(t *testing.T) {
	b, root := sharedBucket(t)
	for _, prefix := range []string{"lance21/2.2/primitives.lance", "lance21/2.1/versions.lance"} {
		want := readTable(t, os.DirFS(filepath.Join(root, prefix)))
		got := readTable(t, FS(ctx, b, prefix))
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: records differ", prefix)
		}
	}
}

func readTable(t *testing.T, fsys fs.FS) []byte {
	t.Helper()
	tb, err := lance.OpenTable(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for rec, err := range tb.Records(lance.ReadOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		err = lance.WriteJSONLines(&out, rec, lance.JSONOptions{})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if out.Len() == 0 {
		t.Fatal("no records")
	}
	return out.Bytes()
}

// TestChanged: an object rewritten after open fails the next read.
func TestChanged(t *testing.T) {
	b := memblob.OpenBucket(nil)
	defer b.Close()
	if err := b.WriteAll(ctx, "k", bytes.Repeat([]byte("a"), 1000), nil); err != nil {
		t.Fatal(err)
	}
	f, err := Open(ctx, b, "k", remote.WithTailCache(0))
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 10)
	if _, err := f.ReadAt(p, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteAll(ctx, "k", bytes.Repeat([]byte("b"), 999), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadAt(p, 0); !errors.Is(err, remote.ErrChanged) {
		t.Fatalf("after rewrite: %v", err)
	}
	if _, err := io.ReadAll(io.NewSectionReader(f, 0, 5)); !errors.Is(err, remote.ErrChanged) {
		t.Fatalf("section after rewrite: %v", err)
	}
}

func TestSplitURL(t *testing.T) {
	bu, key, err := split("s3://bucket/dir/x.lance?region=eu-west-1")
	if err != nil || bu != "s3://bucket?region=eu-west-1" || key != "dir/x.lance" {
		t.Fatalf("split: %q %q %v", bu, key, err)
	}
	if _, _, err := split("s3://bucket"); !errors.Is(err, remote.ErrInvalidArgument) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := OpenURL(ctx, "nosuchscheme://b/k"); err == nil {
		t.Fatal("unknown scheme opened")
	}
}
