package csup_test

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
)

// The benchmark input: 1M rows of bigRecord (int64, string with nulls,
// float64, array of strings, nested record), written once per run both as
// a spec-layout Super Columnar file and as a Super Binary stream; each
// benchmark reads the same rows, so MB/s compare the formats directly.
// b.SetBytes is the size of the file read.
var benchData = sync.OnceValues(func() ([]byte, []byte) {
	vals := bigRows(1_000_000)
	var c bytes.Buffer
	w, _ := csup.NewWriter(&c)
	for _, v := range vals {
		_ = w.Write(v)
	}
	_ = w.Close()
	var s bytes.Buffer
	bw, _ := bsup.NewWriter(&s)
	for _, v := range vals {
		_ = bw.Write(v)
	}
	_ = bw.Close()
	return c.Bytes(), s.Bytes()
})

func benchCSUP(b *testing.B, reuse bool, fields ...string) {
	file, _ := benchData()
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	b.ResetTimer()
	rows := 0
	for i := 0; i < b.N; i++ {
		f, err := csup.Open(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			b.Fatal(err)
		}
		r := f.NewReader(fields...)
		var v bsup.Value
		for {
			var err error
			if reuse {
				err = r.ReadInto(&v)
			} else {
				v, err = r.Read()
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rows++
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "values/s")
}

// BenchmarkScanCSUP reads every value of the 1M-row file into one reused
// Value (Reader.Read).
func BenchmarkScanCSUP(b *testing.B) { benchCSUP(b, true) }

// BenchmarkScanCSUPAlloc reads every value as a new Value (Reader.Next).
func BenchmarkScanCSUPAlloc(b *testing.B) { benchCSUP(b, false) }

// BenchmarkScanCSUPProjected reads one column (name) of the same file.
func BenchmarkScanCSUPProjected(b *testing.B) { benchCSUP(b, true, "name") }

// BenchmarkScanBSUP reads the same rows from Super Binary (the baseline)
// into one reused Value (Reader.ReadInto).
func BenchmarkScanBSUP(b *testing.B) { benchBSUP(b, true) }

// BenchmarkScanBSUPAlloc reads them as new Values (Reader.Read).
func BenchmarkScanBSUPAlloc(b *testing.B) { benchBSUP(b, false) }

func benchBSUP(b *testing.B, reuse bool) {
	_, stream := benchData()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	b.ResetTimer()
	rows := 0
	for i := 0; i < b.N; i++ {
		r, _ := bsup.NewReader(bytes.NewReader(stream))
		var v bsup.Value
		for {
			var err error
			if reuse {
				err = r.ReadInto(&v)
			} else {
				v, err = r.Read()
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rows++
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "values/s")
}

// BenchmarkCopyBaseline copies the CSUP file's bytes: the memory-bandwidth
// ceiling on this machine.
func BenchmarkCopyBaseline(b *testing.B) {
	file, _ := benchData()
	dst := make([]byte, len(file))
	b.SetBytes(int64(len(file)))
	for i := 0; i < b.N; i++ {
		copy(dst, file)
	}
}

var benchRows = sync.OnceValue(func() []bsup.Value { return bigRows(1_000_000) })

// BenchmarkWriteCSUP writes the 1M rows as a spec-layout file; b.SetBytes
// is the Super Binary size of the rows, as for BenchmarkWriteBSUP.
func BenchmarkWriteCSUP(b *testing.B) {
	vals := benchRows()
	_, stream := benchData()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w, _ := csup.NewWriter(io.Discard)
		for _, v := range vals {
			if err := w.Write(v); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteBSUP writes the same rows as Super Binary (the baseline).
func BenchmarkWriteBSUP(b *testing.B) {
	vals := benchRows()
	_, stream := benchData()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w, _ := bsup.NewWriter(io.Discard)
		for _, v := range vals {
			if err := w.Write(v); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
