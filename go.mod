module github.com/colfmt/colfmt

go 1.25

require (
	github.com/klauspost/compress v1.20.3
	github.com/stretchr/testify v1.12.1
	github.com/therootcompany/xz v1.0.1
	github.com/ulikunitz/xz v0.5.17
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
