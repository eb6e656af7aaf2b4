module github.com/colfmt/colfmt

go 1.24

require (
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
