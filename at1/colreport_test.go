package at1

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/xz"
)

// TestColumnReport prints, for the file in AT1_COLUMN_REPORT, each
// columnar layout's columns: type, chunk bytes, the chunk under xz -9e
// alone and the column's text under xz -9e alone (where the bytes go).
func TestColumnReport(t *testing.T) {
	path := os.Getenv("AT1_COLUMN_REPORT")
	if path == "" {
		t.Skip("AT1_COLUMN_REPORT not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := testEncoder()
	if err != nil {
		t.Fatal(err)
	}
	xz9 := func(b []byte) int {
		x, err := xzCompress(nil, b, 9, true)
		if err != nil {
			t.Fatal(err)
		}
		return len(x)
	}
	t.Logf("whole file: %d bytes, xz -9e %d", len(src), xz9(src))
	tab := c.tableOf(src)
	layouts := map[string]*table{"split": tab}
	if tt := tokenTable(tab, c.concurrency); tt != nil {
		layouts["tokens"] = tt
	}
	if isJSONLines(sampleLines(src)) {
		layouts["jsontokens"] = jsonTokenTable(src, c.concurrency)
		layouts["jsonunion"] = jsonUnionTable(src, c.concurrency)
	}
	for _, name := range []string{"split", "tokens", "jsontokens", "jsonunion"} {
		tb := layouts[name]
		if tb == nil {
			continue
		}
		streams := c.columnarStreamsOf(tb)
		packed, err := c.packStreams(nil, streams)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "layout %s: packed %d\n", name, len(packed))
		for _, s := range streams {
			p, _ := smallest(s.data, c.enc.level, c.enc.xzExtreme())
			fmt.Fprintf(&sb, "  stream %-12s %8d -> %7d (backend %d)\n", s.name, len(s.data), len(p.data), p.backend)
		}
		for _, s := range streams {
			if s.name != "values" {
				continue
			}
			for _, m := range []xz.LiteralModel{{LC: 3, PB: 2}, {LC: 3}, {LC: 4}, {LC: 2}, {LC: 1}, {}, {PB: 2}} {
				x, _ := xz.AppendEncode(nil, s.data, xz.WithPreset(6), xz.WithExtreme(true), xz.WithLiteralModel(m.LC, m.LP, m.PB))
				fmt.Fprintf(&sb, "  values lc=%d lp=%d pb=%d: %d\n", m.LC, m.LP, m.PB, len(x))
			}
		}
		sumAlone := 0
		for k, col := range tb.cols {
			cands := colCandidates(col)
			if d, ok := derivedChunk(tb.cols, derivedIDs(tb.cols, 1), k); ok {
				cands = append(cands, candidate{colDerived, d})
			}
			ch := pickChunk(cands, col.small)
			alone := xz9(ch.chunk)
			sumAlone += alone
			text := cands[0].chunk
			sample := string(col.val(0))
			if len(sample) > 24 {
				sample = sample[:24]
			}
			fmt.Fprintf(&sb, "  col %2d %-8q type %d chunk %8d xz9e(chunk) %7d xz9e(text) %7d  cands:", k, sample, ch.typ, len(ch.chunk), alone, xz9(text))
			for _, cd := range cands {
				fmt.Fprintf(&sb, " %d:%d", cd.typ, xz9(cd.chunk))
			}
			sb.WriteString("\n")
		}
		fmt.Fprintf(&sb, "  sum of columns alone %d\n", sumAlone)
		t.Log(sb.String())
	}
}

// TestSizes prints the encoded size of each file in AT1_SIZE_FILES
// (colon-separated, directories as in BenchmarkEncodeFile), default
// options: a quick size-only sweep to compare two versions of the encoder.
func TestSizes(t *testing.T) {
	list := os.Getenv("AT1_SIZE_FILES")
	if list == "" {
		t.Skip("AT1_SIZE_FILES not set")
	}
	paths, err := encodeBenchFiles(list)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := Encode(src)
		if err != nil {
			t.Fatal(p, err)
		}
		fmt.Printf("SIZE %s %d %d %v\n", p, len(src), len(enc), codecOf(enc))
	}
}
