package at1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tradesCSV is a trades-style CSV of about n bytes: ids, ms timestamps,
// 2- and 5-decimal prices, quantities, enums, cities with quoted commas,
// notes with doubled quotes.
func tradesCSV(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("trade_id,ts,symbol,price,fx,qty,side,venue,city,note\n")
	syms := []string{"AAPL", "MSFT", "GOOG", "AMZN", "TSLA", "NVDA", "META", "BRK.B"}
	cities := []string{"New York", "\"Paris, FR\"", "London", "\"Tokyo, JP\"", "Zürich", "São Paulo"}
	notes := []string{"", "", "", "\"said \"\"ok\"\"\"", "late fill", "N/A"}
	ts := int64(1700000000000)
	price := 10000
	for id := 100000; b.Len() < n; id++ {
		ts += int64(r.IntN(250))
		price += r.IntN(21) - 10
		fmt.Fprintf(&b, "%d,%d,%s,%d.%02d,%d.%05d,%d,%s,%s,%s,%s\n", id, ts, syms[r.IntN(len(syms))],
			price/100, price%100, 1, r.IntN(100000), 1+r.IntN(500), []string{"B", "S"}[r.IntN(2)],
			[]string{"XNAS", "XNYS", "BATS"}[r.IntN(3)], cities[r.IntN(len(cities))], notes[r.IntN(len(notes))])
	}
	return []byte(b.String())
}

// eventsJSONL is JSON Lines of about n bytes with nested objects.
func eventsJSONL(n int) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	ts := int64(1700000000)
	for id := 0; b.Len() < n; id++ {
		ts += int64(r.IntN(5))
		fmt.Fprintf(&b, "{\"id\": %d, \"ts\": %d, \"user\": \"u%d\", \"event\": \"%s\", \"value\": %d.%02d, \"meta\": {\"ok\": %v, \"tags\": [\"a\", \"b%d\"]}}\n",
			id, ts, r.IntN(2000), []string{"click", "view", "buy", "scroll"}[r.IntN(4)], r.IntN(1000), r.IntN(100), r.IntN(2) == 0, r.IntN(9))
	}
	return []byte(b.String())
}

// external compresses src with an installed tool (0 if it is missing).
func external(tb testing.TB, src []byte, name string, args ...string) int {
	if _, err := exec.LookPath(name); err != nil {
		return 0
	}
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return len(out)
}

// BenchmarkEncodeRatio encodes each corpus and reports the output size
// against xz -9e and zstd -19 (liblzma and libzstd, same input, same run)
// and against our own plain xz and zstd backends.
func BenchmarkEncodeRatio(b *testing.B) { benchmarkEncodeRatio(b, false) }

// BenchmarkEncodeRatioFast is BenchmarkEncodeRatio with WithXZBaseline(false).
func BenchmarkEncodeRatioFast(b *testing.B) { benchmarkEncodeRatio(b, true) }

func benchmarkEncodeRatio(b *testing.B, fastBaseline bool) {
	for _, c := range []struct {
		name string
		src  []byte
	}{{"trades.csv", tradesCSV(4 << 20)}, {"events.jsonl", eventsJSONL(4 << 20)}} {
		b.Run(c.name, func(b *testing.B) {
			xz9 := external(b, c.src, "xz", "-9e", "-c")
			zs19 := external(b, c.src, "zstd", "-19", "-c")
			ownXZ, _ := xzCompress(nil, c.src, DefaultLevel, false)
			ownZstd := zstdCompress(nil, c.src, DefaultLevel)
			b.SetBytes(int64(len(c.src)))
			b.ReportAllocs()
			b.ResetTimer()
			var enc []byte
			for i := 0; i < b.N; i++ {
				dropEstCache()
				var err error
				if enc, err = Encode(c.src, WithVerify(false), WithXZBaseline(!fastBaseline)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(enc)), "bytes")
			if xz9 > 0 {
				b.ReportMetric(float64(len(enc))/float64(xz9), "x_xz-9e")
			}
			if zs19 > 0 {
				b.ReportMetric(float64(len(enc))/float64(zs19), "x_zstd-19")
			}
			b.ReportMetric(float64(len(enc))/float64(len(ownXZ)), "x_ownxz")
			b.ReportMetric(float64(len(enc))/float64(len(ownZstd)), "x_ownzstd")
			b.Logf("%s: %d bytes -> at1 %d (codec %v), xz -9e %d, zstd -19 %d, own xz %d, own zstd %d",
				c.name, len(c.src), len(enc), codecOf(enc), xz9, zs19, len(ownXZ), len(ownZstd))
		})
	}
}

// BenchmarkEncodeFile encodes the files named in AT1_BENCH_ENCODE_FILES
// (colon-separated; a directory stands for its *.csv, *.tsv, *.jsonl and
// *.ndjson files, so the vega-datasets table in doc.go is
// AT1_BENCH_ENCODE_FILES=vega-datasets/data:jl, see doc.go; skipped when
// unset) with the default options
// (AT1_BENCH_ENCODE_FAST=1: WithXZBaseline(false)) and reports, in the
// same run, the size against xz -9e and zstd -19 and the speed against
// xz -9e -T1 by CPU time (cpu_x_xz-9e above 1: less CPU than xz; the
// machine is shared, so CPU time is steadier than wall time):
// go test -run '^$' -bench EncodeFile -benchtime 1x.
func BenchmarkEncodeFile(b *testing.B) {
	list := os.Getenv("AT1_BENCH_ENCODE_FILES")
	if list == "" {
		b.Skip("AT1_BENCH_ENCODE_FILES not set")
	}
	var opts []Option
	if os.Getenv("AT1_BENCH_ENCODE_FAST") != "" {
		opts = append(opts, WithXZBaseline(false))
	}
	paths, err := encodeBenchFiles(list)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(p), func(b *testing.B) {
			xz9, xzCPU := externalCPU(b, src, "xz", "-9e", "-T1", "-c")
			zs19, _ := externalCPU(b, src, "zstd", "-19", "-c")
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU()
			var enc []byte
			for i := 0; i < b.N; i++ {
				dropEstCache()
				if enc, err = Encode(src, opts...); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			per := (processCPU() - cpu) / time.Duration(b.N)
			b.ReportMetric(float64(len(enc)), "bytes")
			if xz9 > 0 {
				b.ReportMetric(float64(len(enc))/float64(xz9), "x_xz-9e")
				if per > 0 {
					b.ReportMetric(xzCPU.Seconds()/per.Seconds(), "cpu_x_xz-9e")
				}
			}
			if zs19 > 0 {
				b.ReportMetric(float64(len(enc))/float64(zs19), "x_zstd-19")
			}
			b.Logf("%s: %d bytes -> at1 %d (codec %v, %v CPU), xz -9e %d (%v CPU), zstd -19 %d",
				p, len(src), len(enc), codecOf(enc), per, xz9, xzCPU, zs19)
		})
	}
}

// externalCPU is external with the tool's CPU time (user+system).
func externalCPU(tb testing.TB, src []byte, name string, args ...string) (int, time.Duration) {
	if _, err := exec.LookPath(name); err != nil {
		return 0, 0
	}
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return len(out), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// encodeBenchFiles expands a colon-separated list of files and directories (a
// directory gives its table files, sorted by name).
func encodeBenchFiles(list string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(list, ":") {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			switch filepath.Ext(e.Name()) {
			case ".csv", ".tsv", ".jsonl", ".ndjson":
				if e.Type().IsRegular() {
					out = append(out, filepath.Join(p, e.Name()))
				}
			}
		}
	}
	return out, nil
}
