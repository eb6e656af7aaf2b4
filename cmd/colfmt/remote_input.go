package main

import (
	"context"

	"github.com/colfmt/colfmt/remote"
)

// openRemoteInput opens an http://, https:// or file:// URL through package
// remote: the formats then read it in byte ranges, as they read a file.
// ok is false when path is not such a URL.
func openRemoteInput(path string) (in *input, closeFn func(), ok bool, err error) {
	if !remote.IsURL(path) {
		return nil, nil, false, nil
	}
	f, err := remote.Open(context.Background(), path)
	if err != nil {
		return nil, nil, true, err
	}
	return &input{Name: path, R: f, Size: f.Size()}, func() { f.Close() }, true, nil
}
