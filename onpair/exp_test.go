package onpair

import "testing"

func BenchmarkExpContains(b *testing.B) {
	for _, tc := range []struct{ name, needle string }{{"c_name", "#00"}, {"urls2", "org"}, {"japanese", "qzx"}} {
		b.Run(tc.name, func(b *testing.B) {
			bc := getBenchCol(b, tc.name)
			bc.col.Contains([]byte(tc.needle))
			for b.Loop() {
				bc.col.Contains([]byte(tc.needle))
			}
		})
	}
}
