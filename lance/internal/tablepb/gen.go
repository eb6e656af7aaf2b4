// Package tablepb holds the generated Go code for the Lance table messages
// (manifest, fragment, data file, deletion file) in table.proto. The
// manifest's fields reuse lance.file.Field from ../pb/file.proto. Run
// `go generate ./lance/...` (needs protoc and protoc-gen-go) after editing
// table.proto; the generated table.pb.go is committed.
package tablepb

//go:generate protoc -I ../../.. --go_out=../../.. --go_opt=module=github.com/colfmt/colfmt --go_opt=Mlance/internal/pb/file.proto=github.com/colfmt/colfmt/lance/internal/pb/filepb --go_opt=Mlance/internal/tablepb/table.proto=github.com/colfmt/colfmt/lance/internal/tablepb lance/internal/tablepb/table.proto
