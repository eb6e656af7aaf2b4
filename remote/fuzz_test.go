package remote

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"
	"time"
)

// memObject is an Object over a byte slice.
type memObject struct{ b []byte }

func (m memObject) Size() int64        { return int64(len(m.b)) }
func (m memObject) ModTime() time.Time { return time.Time{} }
func (m memObject) Close() error       { return nil }
func (m memObject) ReadRange(_ context.Context, p []byte, off int64) error {
	copy(p, m.b[off:])
	return nil
}

// FuzzDiffReadRanges: ReadRanges (tail cache, coalescing, splitting,
// concurrency) fills every range with exactly what slicing the object
// gives.
func FuzzDiffReadRanges(f *testing.F) {
	f.Add([]byte{0, 10, 0, 5, 1, 0, 0, 200}, uint16(300), uint16(16), uint16(100))
	f.Add([]byte{5, 0, 0, 0, 5, 0, 1, 0, 255, 255, 0, 1}, uint16(5000), uint16(0), uint16(1))
	f.Fuzz(func(t *testing.T, spec []byte, size, tail, gap uint16) {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i*7 + i>>8)
		}
		fl, err := OpenObject(context.Background(), "mem", memObject{data},
			WithTailCache(int64(tail)), WithCoalesceGap(int64(gap)), WithMaxRequestSize(1<<10), WithMaxInFlight(3))
		if err != nil {
			t.Fatal(err)
		}
		var rs []Range
		for len(spec) >= 4 && len(rs) < 64 {
			off := int64(binary.LittleEndian.Uint16(spec)) % (int64(size) + 1)
			n := int64(binary.LittleEndian.Uint16(spec[2:])) % (int64(size) - off + 1)
			rs = append(rs, Range{Off: off, Buf: make([]byte, n)})
			spec = spec[4:]
		}
		if gap%2 == 1 { // prefetch every other range first
			var es []Extent
			for i := 0; i < len(rs); i += 2 {
				es = append(es, Extent{rs[i].Off, int64(len(rs[i].Buf))})
			}
			if err := fl.Prefetch(context.Background(), es); err != nil {
				t.Fatal(err)
			}
		}
		if err := fl.ReadRanges(context.Background(), rs); err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if !bytes.Equal(r.Buf, data[r.Off:r.Off+int64(len(r.Buf))]) {
				t.Fatalf("range %d+%d differs", r.Off, len(r.Buf))
			}
		}
	})
}

// FuzzParseContentRange: the parser never panics and what it accepts is
// a well-formed range within the total.
func FuzzParseContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-9/10", "bytes */0", "bytes 0--1/0", "bytes 5-4/10", "bytes 0-9223372036854775807/9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b, total, err := parseContentRange(s)
		if err == nil && (a < 0 || b < a || b >= total) {
			t.Fatalf("%q accepted as %d-%d/%d", s, a, b, total)
		}
	})
}
