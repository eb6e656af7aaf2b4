package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	require.Equal(t, `spec layout (csup version 1), 2 super types
{"name":"ann","addr":{"city":"paris","zip":75001},"tags":["a","b"]}
{"name":"bob","addr":null,"tags":[]}
42
projection of addr.city:
{"addr":{"city":"paris"}}
{"addr":null}
`, out.String())
}
