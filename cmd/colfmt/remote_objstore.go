//go:build colfmt_objstore

package main

import (
	"context"
	"io/fs"

	"github.com/colfmt/colfmt/remote"
	"github.com/colfmt/colfmt/remote/objstore"
	_ "gocloud.dev/blob/s3blob" // s3:// (credentials, region and endpoint from the environment or the URL's query)
)

// Built with -tags colfmt_objstore, the command reads s3:// URLs through
// package remote/objstore. It is a tag because gocloud.dev and the AWS SDK
// double the binary (22 MB to 44 MB).
func init() { linkObjstore() }

func linkObjstore() {
	objstoreSchemes = []string{"s3"}
	objstoreOpen = func(ctx context.Context, rawURL string) (*remote.File, error) {
		return objstore.OpenURL(ctx, rawURL)
	}
	objstoreFS = func(ctx context.Context, rawURL string) (fs.FS, func() error, error) {
		return objstore.FSURL(ctx, rawURL)
	}
}
