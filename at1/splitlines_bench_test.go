package at1

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// splitLinesIndexByte is splitLines with one IndexByte call per value
// (the form before the word-at-a-time scan), for BenchmarkSplitLines.
func splitLinesIndexByte(b []byte) colVals {
	n := bytes.Count(b, []byte{'\n'})
	offs := make([]uint32, 0, n+2)
	offs = append(offs, 0)
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		offs = append(offs, uint32(i))
	}
	offs = append(offs, uint32(len(b)+1))
	return colVals{buf: b, offs: offs}
}

// BenchmarkSplitLines compares splitLines with one IndexByte call per
// value on 1 MB of values of a given length.
func BenchmarkSplitLines(b *testing.B) {
	for _, l := range []int{2, 6, 12, 24, 48, 100} {
		var sb strings.Builder
		for i := 0; sb.Len() < 1<<20; i++ {
			s := strconv.Itoa(i * 7919)
			for len(s) < l {
				s += s
			}
			sb.WriteString(s[:l])
			sb.WriteByte('\n')
		}
		data := []byte(sb.String())
		for _, f := range []struct {
			name string
			fn   func([]byte) colVals
		}{{"splitLines", splitLines}, {"indexbyte", splitLinesIndexByte}} {
			b.Run(f.name+"/"+strconv.Itoa(l), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for i := 0; i < b.N; i++ {
					f.fn(data)
				}
			})
		}
	}
}
