package onpair
import "testing"
func BenchmarkZZContains(b *testing.B) {
	for _, ns := range []string{"i@y", "qqq", "yahoo", ".com"} {
	b.Run(ns, func(b *testing.B) {
	bc := getBenchCol(b, "email")
	n := []byte(ns)
	bc.col.Contains(nil)
	defer lockThread()()
	t0 := threadCPU()
	for b.Loop() { bc.col.Contains(n) }
	b.ReportMetric(float64((threadCPU()-t0).Nanoseconds())/float64(b.N*len(bc.col.parts.Codes)), "cpu-ns/code")
	})
	}
}
func BenchmarkZZAll(b *testing.B) {
	bc := getBenchCol(b, "email")
	var buf []byte
	defer lockThread()()
	t0 := threadCPU()
	for b.Loop() { buf = bc.col.AppendAll(buf[:0]) }
	b.ReportMetric(float64((threadCPU()-t0).Nanoseconds())/float64(b.N*len(bc.col.parts.Codes)), "cpu-ns/code")
}
