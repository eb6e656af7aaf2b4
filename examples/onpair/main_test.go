package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2)
	require.Contains(t, lines[0], "2000 rows, 40000 bytes")
	require.Equal(t, fmt.Sprintf("row 1234: user%04d@example.com", 1234*7919%10000), lines[1])
}
