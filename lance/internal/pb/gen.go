// Package pb holds the protobuf definitions of the Lance file format: the
// seed encodings proto (lance 0.14, unchanged), and the file-level messages
// written from the implementer notes. The Go code in the sub-packages is
// generated; run `go generate ./lance/...` (needs protoc and protoc-gen-go).
package pb

//go:generate protoc -I . --go_out=. --go_opt=Mencodings.proto=github.com/colfmt/colfmt/lance/internal/pb/encpb --go_opt=Mfile.proto=github.com/colfmt/colfmt/lance/internal/pb/filepb --go_opt=Mfile2.proto=github.com/colfmt/colfmt/lance/internal/pb/file2pb --go_opt=module=github.com/colfmt/colfmt/lance/internal/pb encodings.proto file.proto file2.proto
