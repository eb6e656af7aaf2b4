// Package pb holds the protobuf definitions of the Lance file format: the
// seed encodings proto (lance 0.14, unchanged), and the file-level messages
// written from the implementer notes. The Go code in the sub-packages is
// generated; run `go generate ./lance/...` (needs protoc and protoc-gen-go).
// The files register under their repository paths
// (lance/internal/pb/*.proto) so they cannot clash with other protos.
package pb

//go:generate protoc -I ../../.. --go_out=../../.. --go_opt=module=github.com/colfmt/colfmt --go_opt=Mlance/internal/pb/encodings.proto=github.com/colfmt/colfmt/lance/internal/pb/encpb --go_opt=Mlance/internal/pb/file.proto=github.com/colfmt/colfmt/lance/internal/pb/filepb --go_opt=Mlance/internal/pb/file2.proto=github.com/colfmt/colfmt/lance/internal/pb/file2pb lance/internal/pb/encodings.proto lance/internal/pb/file.proto lance/internal/pb/file2.proto
