// Package enc21pb holds the generated Go code for the Lance 2.1/2.2 page
// encodings (lance.encodings21). Run `go generate ./lance/...` (needs protoc
// and protoc-gen-go) after editing encodings_v2_1.proto.
package enc21pb

//go:generate protoc -I ../../.. --go_out=../../.. --go_opt=module=github.com/colfmt/colfmt --go_opt=Mlance/internal/enc21pb/encodings_v2_1.proto=github.com/colfmt/colfmt/lance/internal/enc21pb lance/internal/enc21pb/encodings_v2_1.proto
