package lance

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

const benchRows = 100_000
const benchPageRows = 8192

var benchOnce sync.Once
var benchBytes []byte

var sink []byte

// benchFile builds a ~12 MB 2.0 file: int64, double (10% nulls), string, list<int32>
// and fixed_size_list<float,16> columns in pages of 8192 rows, laid out
// the way lance's writer does (notes §5).
func benchFile() []byte {
	benchOnce.Do(func() {
		tf := &tFile{pad: true, rows: benchRows, fields: top(
			fld(0, -1, "i", "int64", false), fld(1, -1, "f", "double", true), fld(2, -1, "s", "string", true),
			fld(3, -1, "l", "list", true), fld(4, 3, "item", "int32", true), fld(5, -1, "v", "fixed_size_list:float:16", true))}
		var ci, cf, cs, cl, citems, cv tCol
		item := 0
		for start := 0; start < benchRows; start += benchPageRows {
			n := min(benchPageRows, benchRows-start)
			var iv, fv, vv []byte
			var strs []*string
			var lens []int
			for r := start; r < start+n; r++ {
				iv = binary.LittleEndian.AppendUint64(iv, uint64(r*7919))
				fv = binary.LittleEndian.AppendUint64(fv, math.Float64bits(float64(r)*0.25))
				if r%10 == 0 {
					strs = append(strs, nil)
				} else {
					strs = append(strs, sp(fmt.Sprintf("value-%d", r)))
				}
				lens = append(lens, r%5)
				for k := 0; k < 16; k++ {
					vv = binary.LittleEndian.AppendUint32(vv, math.Float32bits(float32(r+k)))
				}
			}
			ci.pages = append(ci.pages, flatPage(uint64(n), 64, iv))
			// f: every 10th row null (SomeNull).
			valid := make([]byte, (n+7)/8)
			for k := 0; k < n; k++ {
				if (start+k)%10 != 5 {
					valid[k/8] |= 1 << (k % 8)
				}
			}
			cf.pages = append(cf.pages, someNullPage(uint64(n), 64, valid, fv))
			cs.pages = append(cs.pages, stringPage(strs))
			lp := listPage(lens)
			cl.pages = append(cl.pages, lp)
			var items []uint32
			for _, l := range lens {
				for k := 0; k < l; k++ {
					items = append(items, uint32(item))
					item++
				}
			}
			citems.pages = append(citems.pages, flatPage(uint64(len(items)), 32, u32s(items...)))
			cv.pages = append(cv.pages, tPage{bufs: [][]byte{vv}, length: uint64(n), enc: noNull(fslE(16, noNull(flatE(32, pbuf(0)))))})
		}
		tf.cols = []tCol{ci, cf, cs, cl, citems, cv}
		benchBytes = tf.bytes()
	})
	return benchBytes
}

func arrowBytes(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len()
		}
	}
	for _, c := range d.Children() {
		n += arrowBytes(c)
	}
	return n
}

// BenchmarkDecode reads every column of the bench file into Arrow
// ("decode") against copy() of the same decoded byte count ("copy"), both
// with SetBytes = decoded Arrow buffer bytes.
func BenchmarkDecode(b *testing.B) {
	data := benchFile()
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	rec, err := f.Read(ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	decoded := 0
	for _, c := range rec.Columns() {
		decoded += arrowBytes(c.Data())
	}
	rec.Release()
	b.Logf("file %d bytes, decoded Arrow buffers %d bytes", len(data), decoded)
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(decoded))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rec, err := f.Read(ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	})
	b.Run("copy", func(b *testing.B) {
		src := make([]byte, decoded)
		dst := make([]byte, decoded)
		b.SetBytes(int64(decoded))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			copy(dst, src)
		}
	})
	// The floor for any decoder that returns fresh memory: allocate the
	// output and copy into it.
	b.Run("make+copy", func(b *testing.B) {
		src := make([]byte, decoded)
		b.SetBytes(int64(decoded))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			dst := make([]byte, decoded)
			copy(dst, src)
			sink = dst
		}
	})
	for _, col := range []string{"i", "f", "s", "l", "v"} {
		rec, err := f.Read(ReadOptions{Columns: []string{col}})
		if err != nil {
			b.Fatal(err)
		}
		size := arrowBytes(rec.Column(0).Data())
		rec.Release()
		b.Run("column="+col, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				rec, err := f.Read(ReadOptions{Columns: []string{col}})
				if err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
		})
		// The same floor at the column's own size (caches favour small
		// sizes, so the whole-file baselines flatter small columns).
		b.Run("column="+col+"/make+copy", func(b *testing.B) {
			src := make([]byte, size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dst := make([]byte, size)
				copy(dst, src)
				sink = dst
			}
		})
	}
}

func TestBenchFileReads(t *testing.T) {
	data := benchFile()
	if len(data) < 4<<20 {
		t.Fatalf("bench file is only %d bytes", len(data))
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	rec, err := f.Read(ReadOptions{Offset: 99_999})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	got := string(AppendJSONRow(nil, rec, 0, JSONOptions{}))
	// Row 99999: 4 list items, after sum(r%5 for r < 99999) = 199996.
	var v []string
	for k := 0; k < 16; k++ {
		v = append(v, fmt.Sprint(99999+k))
	}
	want := fmt.Sprintf(`{"i":%d,"f":24999.75,"s":"value-99999","l":[199996,199997,199998,199999],"v":[%s]}`, 99999*7919, strings.Join(v, ","))
	if got != want {
		t.Fatalf("row 99999 = %s, want %s", got, want)
	}
}
