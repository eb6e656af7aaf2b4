package at1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/internal/shareddata"
)

// roundTrip encodes src, decodes it (Decode, NewReader, Open) and fails
// unless all give src back.
func roundTrip(t *testing.T, name string, src []byte, opts ...Option) []byte {
	t.Helper()
	enc, err := Encode(src, opts...)
	if err != nil {
		t.Fatalf("%s: Encode: %v", name, err)
	}
	got, err := Decode(enc, WithStrict())
	if err != nil {
		t.Fatalf("%s: Decode: %v", name, err)
	}
	if !bytes.Equal(got, src) {
		t.Fatalf("%s: round trip differs: %d bytes, want %d", name, len(got), len(src))
	}
	z, err := NewReader(bytes.NewReader(enc))
	if err != nil {
		t.Fatalf("%s: NewReader: %v", name, err)
	}
	var buf bytes.Buffer
	if _, err := z.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), src) {
		t.Fatalf("%s: NewReader round trip: %v", name, err)
	}
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatalf("%s: Open: %v", name, err)
	}
	if err := f.Validate(); err != nil {
		t.Fatalf("%s: Validate: %v", name, err)
	}
	checkReference(t, name, enc, src)
	return enc
}

// referenceDecoder is the AT-1 reference decoder's binary (at1_decode,
// built from its public C source outside this module: cc -O2 -o
// at1_decode at1_decode.c -llzma -lzstd), named by AT1_REFERENCE_DECODER.
// When it is set, every encoding roundTrip checks is also decoded by the
// reference and compared with the input; unset, the check is not made
// (the source is not part of this module, so CI cannot build it).
var referenceDecoder = os.Getenv("AT1_REFERENCE_DECODER")

func checkReference(t *testing.T, name string, enc, want []byte) {
	t.Helper()
	if referenceDecoder == "" {
		return
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.at1"), filepath.Join(dir, "out")
	if err := os.WriteFile(in, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(referenceDecoder, in, out).CombinedOutput(); err != nil {
		t.Fatalf("%s: the reference decoder rejects the encoding: %v: %s", name, err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: the reference decoder gives %d bytes, want %d (first difference at %d)", name, len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func codecOf(enc []byte) Codec { return Codec(enc[4]) }

// allCodecs round-trips src under every codec, structured ones forced,
// and returns the encodings.
// testEncoder is an encoding call with opts, for tests of its parts.
func testEncoder(opts ...Option) (*encoder, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.encoder(), nil
}

func allCodecs(t *testing.T, name string, src []byte, opts ...Option) map[Codec][]byte {
	t.Helper()
	out := map[Codec][]byte{}
	for _, codec := range []Codec{CodecAuto, CodecColumnar, CodecQColumnar, CodecQJSON, CodecRaw} {
		o := append([]Option{WithCodec(codec), WithKeepCodec(true)}, opts...)
		if codec == CodecAuto {
			o = opts
		}
		out[codec] = roundTrip(t, name+"/"+codec.String(), src, o...)
	}
	return out
}

func TestEncodeAdversarial(t *testing.T) {
	cases := map[string]string{
		"empty":            "",
		"newline":          "\n",
		"newlines":         "\n\n\n",
		"no trailing":      "a,b\n1,2",
		"crlf":             "a,b\r\n1,2\r\n3,4\r\n",
		"stray quotes":     "a,b\n\"x,1\n\"y\"z,2\n\"\"\"\",3\n",
		"ragged":           "a,b,c\n1\n1,2\n1,2,3,4,5\n,,\n",
		"invalid utf8":     "a,b\n\xff\xfe,\x80\n",
		"quoted delims":    "name,v\n\"a,b\",1\n\"say \"\"hi\"\"\",2\n\"\",3\n",
		"numbers":          "i,d,n\n1,0.50,N/A\n-2,-0.05,7\n007,12.00,-0\n9223372036854775807,1.5,+1\n-9223372036854775808,-0.00,1e3\n",
		"header only":      "a,b,c\n",
		"one line no nl":   "hello",
		"tabs":             "x\ty\n1\t2\n3\t4\n",
		"multiline quoted": "a,b\n\"line1\nline2\",3\n",
		"nul bytes":        "\x00,\x00\n\x00\n",
		"wide line":        strings.Repeat("1,", 5000) + "\n" + strings.Repeat("2,", 5000) + "\n",
		"json":             "{\"a\": 1, \"b\": \"x,y\"}\n{\"a\": -2, \"b\": null}\n{\"b\": 1}\n{\"a\":3,\"b\":{\"c\":[1,\"}\"]}}\r\n{}\n{\"a\": 1.50, \"b\": \"\\\"q\"}",
		"json broken":      "{\"a\": 1\n{\"a\": \"unterminated}\n{\"a\" 1}\n",
	}
	for name, s := range cases {
		allCodecs(t, name, []byte(s))
		allCodecs(t, name+"/rg1", []byte(s), WithRowGroupSize(1))
	}
}

func TestEncodeColumnarTypes(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,price,name,flag,small,num,flagname\n")
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 3000; i++ {
		price := itoa(r.IntN(100000)-500) + "." + itoa(10+r.IntN(90))
		name := []string{"alpha", "beta", "\"g,amma\"", "delta"}[r.IntN(4)]
		num := []string{"N/A", itoa(r.IntN(1000)), itoa(-r.IntN(1000)), itoa(r.IntN(50))}[r.IntN(4)]
		flag := r.IntN(2)
		b.WriteString(strings.Join([]string{
			itoa(1000000 + i*3), price, name, []string{"yes", "no"}[flag], itoa(r.IntN(200)), num,
			[]string{"\"Yes, sir\"", "No"}[flag],
		}, ","))
		b.WriteByte('\n')
	}
	src := []byte(b.String())
	enc := roundTrip(t, "types", src, WithCodec(CodecColumnar))
	if codecOf(enc) != CodecColumnar {
		t.Fatalf("codec %v, want columnar", codecOf(enc))
	}
	// The types of the table as split at its delimiter (the encoder may
	// keep its token table instead, see TestEncodeTokenTables).
	c, err := testEncoder()
	if err != nil {
		t.Fatal(err)
	}
	var types []byte
	for _, st := range c.columnarStreamsOf(c.tableOf(src)) {
		if st.name == "coltypes" {
			types = st.data
		}
	}
	// id INT or SHUF, price DEC, name DICT, flag DICT, small INT/SHUF,
	// num NUMEXC, flagname DERIVED from flag.
	t.Logf("column types %v", types)
	if types[1] != colDec || types[5] != colNumExc || types[6] != colDerived || types[2] != colDict {
		t.Errorf("column types %v, want DEC at 1, DICT at 2, NUMEXC at 5, DERIVED at 6", types)
	}
	raw, _ := AppendRaw(nil, src, RawAuto)
	t.Logf("columnar %d bytes, raw %d bytes, input %d", len(enc), len(raw), len(src))
	if len(enc) >= len(raw) {
		t.Errorf("columnar %d bytes is not smaller than RAW %d", len(enc), len(raw))
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string { return string(appendNum(nil, int64(i), -1)) }

func TestEncodeSharedCorpora(t *testing.T) {
	dir := shareddata.Path(t, "at1")
	files, _ := filepath.Glob(filepath.Join(dir, "*.expected"))
	if d := shareddata.Dir("onpair", "dbtext"); d != "" {
		more, _ := filepath.Glob(filepath.Join(d, "*"))
		files = append(files, more...)
	}
	if len(files) == 0 {
		t.Fatal("no inputs")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(src) > 128<<10 {
			src = src[:128<<10]
		}
		enc := roundTrip(t, filepath.Base(f), src)
		// Each file as a table (dbtext: one column), forced even where
		// RAW would be smaller.
		col := roundTrip(t, filepath.Base(f)+"/columnar", src, WithCodec(CodecColumnar), WithLevel(1), WithKeepCodec(true))
		if len(src) > 0 && codecOf(col) != CodecColumnar {
			t.Errorf("%s: forced columnar wrote codec %v", filepath.Base(f), codecOf(col))
		}
		t.Logf("%s: %d -> %d bytes, codec %v (columnar %d)", filepath.Base(f), len(src), len(enc), codecOf(enc), len(col))
	}
}

func TestWriterFramesRoundTrip(t *testing.T) {
	var b strings.Builder
	b.WriteString("ts,v,s\n")
	for i := 0; b.Len() < 300<<10; i++ {
		b.WriteString(fmtInt(1700000000+i) + "," + fmtInt(i%1000) + ".5," + []string{"a", "bb", "ccc"}[i%3] + "\n")
	}
	b.WriteString("tail without newline")
	src := []byte(b.String())
	for _, step := range []int{1 << 20, 7777, 1} {
		if step == 1 {
			src = src[:100<<10+3]
		}
		enc, _ := writeAll(t, src, step, WithChunkSize(64<<10), nil) // a nil Option is ignored
		got, err := Decode(enc, WithStrict())
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("step %d: Decode: %v (equal %v)", step, err, bytes.Equal(got, src))
		}
		f, err := Open(bytes.NewReader(enc), int64(len(enc)))
		if err != nil || !f.Framed || len(f.Frames) < 2 || f.Codec != CodecColumnar {
			t.Fatalf("step %d: Open: %v, framed %v, %d frames, codec %v", step, err, f != nil && f.Framed, len(f.Frames), f.Codec)
		}
		if step == 1<<20 {
			t.Logf("Writer: %d bytes in %d frames -> %d bytes", len(src), len(f.Frames), len(enc))
		}
	}
	var out bytes.Buffer
	z, _ := NewWriter(&out)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := Decode(out.Bytes()); err != nil || len(got) != 0 {
		t.Fatalf("empty Writer: %q, %v", got, err)
	}
	// Encode of input beyond one chunk is framed too, and round-trips,
	// reporting progress up to the whole input.
	var last, calls int64
	enc := roundTrip(t, "framed Encode", src, WithChunkSize(64<<10), WithProgress(func(done, total int64) {
		if total != int64(len(src)) || done < last {
			t.Errorf("progress %d / %d after %d", done, total, last)
		}
		last, calls = done, calls+1
	}))
	if last != int64(len(src)) || calls < 2 {
		t.Errorf("progress ended at %d of %d after %d calls", last, len(src), calls)
	}
	if !bytes.Equal(enc[:4], MagicFramed) {
		t.Fatalf("Encode of %d bytes with 64 KiB chunks is not framed", len(src))
	}
}

func TestEncodeQueryCodecs(t *testing.T) {
	var csv, jl strings.Builder
	csv.WriteString("ts,price,sym\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&csv, "%d,%d.%02d,%s\n", 1000+i, i%97, i%100, []string{"AAA", "\"B,B\"", "CCC"}[i%3])
		fmt.Fprintf(&jl, "{\"id\": %d, \"name\": \"n%d\", \"tags\": [\"x\", %d]}\n", i, i%10, i%7)
	}
	for _, tc := range []struct {
		codec Codec
		src   string
		col   int
		path  string
	}{{CodecQColumnar, csv.String(), 0, ""}, {CodecQJSON, jl.String(), 0, "id"}} {
		enc := roundTrip(t, tc.codec.String(), []byte(tc.src), WithCodec(tc.codec), WithRowGroupSize(500), WithKeepCodec(true))
		if codecOf(enc) != tc.codec {
			t.Fatalf("codec %v, want %v", codecOf(enc), tc.codec)
		}
		f, err := Open(bytes.NewReader(enc), int64(len(enc)))
		if err != nil {
			t.Fatal(err)
		}
		if f.RowGroupSize() != 500 || len(f.RowGroups()) != 10 {
			t.Fatalf("%v: row groups of %d, %d groups", tc.codec, f.RowGroupSize(), len(f.RowGroups()))
		}
		rows, err := f.Query(Query{Where: []Range{{Column: tc.col, Path: tc.path, Min: "1200", Max: "1209"}}})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, err := range rows.All() {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		st := rows.Stats()
		if n != 10 || st.GroupsSkipped == 0 {
			t.Fatalf("%v: %d rows (want 10), stats %+v", tc.codec, n, st)
		}
	}
	// Auto tries qjson and columnar token tables for JSON Lines and keeps
	// the smallest of them and RAW.
	auto := roundTrip(t, "auto json", []byte(jl.String()))
	raw := roundTrip(t, "raw json", []byte(jl.String()), WithCodec(CodecRaw))
	q := roundTrip(t, "qjson", []byte(jl.String()), WithCodec(CodecQJSON), WithKeepCodec(true))
	col := roundTrip(t, "columnar json", []byte(jl.String()), WithCodec(CodecColumnar), WithKeepCodec(true))
	if len(auto) != min(len(raw), len(q), len(col)) {
		t.Errorf("auto on JSON Lines: %d bytes (%v); RAW %d, qjson %d, columnar %d", len(auto), codecOf(auto), len(raw), len(q), len(col))
	}
}

// The output does not depend on the parallelism (streams, columns,
// blocks and frames are encoded concurrently but laid out in order).
func TestEncodeDeterministic(t *testing.T) {
	csv := tradesCSV(200 << 10)
	jl := eventsJSONL(100 << 10)
	for _, src := range [][]byte{csv, jl} {
		for _, opts := range [][]Option{nil, {WithChunkSize(64 << 10)}, {WithCodec(CodecQColumnar), WithRowGroupSize(300)}} {
			one, err := Encode(src, append(opts, WithConcurrency(1), WithLevel(2))...)
			if err != nil {
				t.Fatal(err)
			}
			four, err := Encode(src, append(opts, WithConcurrency(4), WithLevel(2))...)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(one, four) {
				t.Fatalf("output differs with concurrency 1 and 4 (%d and %d bytes)", len(one), len(four))
			}
		}
	}
}

// A framed qcolumnar/qjson file (every frame structured) answers queries
// frame by frame, with row indexes counted across frames.
func TestQueryFramed(t *testing.T) {
	var csv strings.Builder
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&csv, "%d,%d.5,s%d\n", i, i%100, i%10)
	}
	for _, codec := range []Codec{CodecQColumnar} {
		enc := roundTrip(t, "framed "+codec.String(), []byte(csv.String()), WithCodec(codec), WithChunkSize(128<<10), WithRowGroupSize(1000), WithKeepCodec(true))
		f, err := Open(bytes.NewReader(enc), int64(len(enc)))
		if err != nil {
			t.Fatal(err)
		}
		if f.StructuredRows() != 40000 || f.Lines() != 40000 || f.RowGroupSize() != 1000 || string(f.Delimiter()) != "," {
			t.Fatalf("framed table: %d rows, %d lines, groups of %d, delimiter %q", f.StructuredRows(), f.Lines(), f.RowGroupSize(), f.Delimiter())
		}
		if !f.Framed || len(f.Frames) < 3 || len(f.Columns()) != 3 {
			t.Fatalf("framed %v, %d frames, %d columns", f.Framed, len(f.Frames), len(f.Columns()))
		}
		rows, err := f.Query(Query{Columns: []int{0, 2}, Where: []Range{{Column: 0, Min: "30000", Max: "30004"}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for row, err := range rows.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d:%s:%s", row.Index, row.Values[0], row.Values[1]))
		}
		want := "30000:30000:s0 30001:30001:s1 30002:30002:s2 30003:30003:s3 30004:30004:s4"
		if strings.Join(got, " ") != want {
			t.Fatalf("rows %v, want %s", got, want)
		}
		if st := rows.Stats(); st.GroupsSkipped < st.Groups-2 {
			t.Errorf("stats %+v: zone maps should skip all but one or two groups", st)
		}
	}
}

// Files written by this encoder and checked in: they must keep decoding
// to their originals (whatever later encoders write).
func TestEncodedVectors(t *testing.T) {
	for _, name := range []string{"enc_columnar_types", "enc_qjson", "enc_framed_qcol", "enc_tokens_csv", "enc_tokens_jsonl"} {
		src, want := readVector(t, name+".at1"), readVector(t, name+".expected")
		got, err := Decode(src, WithStrict())
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: Decode: %v", name, err)
		}
		if strings.HasPrefix(name, "enc_tokens") {
			if delim, _ := tokenMeta(t, src); len(delim) != 0 {
				t.Fatalf("%s: delimiter %q, want a token table", name, delim)
			}
		}
		z, err := NewReader(bytes.NewReader(src), WithStrict())
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := z.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("%s: NewReader: %v", name, err)
		}
	}
}

// checkReferenceRules walks an encoded file and checks what the reference
// decoder requires beyond what our decoder enforces on its own: a backend
// byte everywhere (never the spec-literal form), backends 0..2 only, block
// tags 0 or 1, zstd frames that declare their content size, no empty
// frame, and the trailer.
func checkReferenceRules(t *testing.T, name string, enc []byte) {
	t.Helper()
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if f.Trailer == nil {
		t.Errorf("%s: no integrity trailer", name)
	}
	checkStream := func(backend byte, data []byte, what string) {
		if backend > BackendStored {
			t.Errorf("%s: %s: backend %d", name, what, backend)
		}
		if backend == BackendZstd {
			if _, _, msg := zstdFrame(data); msg != "" {
				t.Errorf("%s: %s: zstd frame: %s", name, what, msg)
			}
		}
	}
	var dirs [][]StreamInfo
	switch {
	case f.Framed:
		for i, fr := range f.Frames {
			if fr.Size == 0 {
				t.Errorf("%s: frame %d is empty", name, i)
			}
			if fr.Method == methodRaw {
				b := enc[fr.Offset+1]
				checkStream(b, enc[fr.Offset+2:fr.Offset+fr.Size], "raw frame")
				continue
			}
			dir, err := f.dec.parseDirectory(f.src, fr.Offset+1, fr.Offset+fr.Size)
			if err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dir)
		}
	case f.Codec == CodecRaw:
		if f.RawBackend < 0 {
			t.Errorf("%s: RAW payload without a backend byte", name)
		} else {
			checkStream(byte(f.RawBackend), enc[6:len(enc)-TrailerSize], "raw payload")
		}
	default:
		dirs = append(dirs, f.Streams)
	}
	for _, dir := range dirs {
		for _, s := range dir {
			if s.Legacy {
				t.Errorf("%s: stream %q without a backend byte", name, s.Name)
			}
			checkStream(s.Backend, enc[s.Offset:s.Offset+s.Size], "stream "+s.Name)
		}
	}
	for g, group := range f.RowGroups() {
		for c, b := range group {
			blk := enc[f.BlocksOffset()+b.Offset : f.BlocksOffset()+b.Offset+b.Size]
			if blk[0] > 1 {
				t.Errorf("%s: block (%d,%d) tag %d", name, g, c, blk[0])
			}
			if blk[0] == 1 {
				checkStream(BackendZstd, blk[1:], "block")
			}
		}
	}
}

func TestEncodedFilesFollowReferenceRules(t *testing.T) {
	inputs := map[string][]byte{
		"trades": tradesCSV(100 << 10), "events": eventsJSONL(100 << 10), "empty": nil, "tiny": []byte("a,b\n"),
	}
	for name, src := range inputs {
		for _, codec := range encodeCodecs {
			for _, chunk := range []int64{DefaultChunkSize, 64 << 10} {
				enc, err := Encode(src, WithCodec(codec), WithChunkSize(chunk), WithLevel(1), WithKeepCodec(true))
				if err != nil {
					t.Fatal(err)
				}
				checkReferenceRules(t, name+"/"+codec.String(), enc)
			}
		}
	}
}

// TestEncodeSampledXZBaseline: above 1 MiB the default encoder skips
// plain xz when its sampled estimate says the table wins by far, and
// tries it otherwise; either way the output is no larger than plain xz
// and plain zstd (plus the container), and the estimate is close.
func TestEncodeSampledXZBaseline(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compresses 2.4 MB with xz several times")
	}
	r := rand.New(rand.NewPCG(5, 6))
	var hexLines []byte
	for len(hexLines) < 1200<<10 {
		hexLines = fmt.Appendf(hexLines, "%016x%016x\n", r.Uint64(), r.Uint64())
	}
	for _, c := range []struct {
		name string
		src  []byte
		skip bool // the plain xz is expected to be skipped
	}{{"trades", tradesCSV(1200 << 10), true}, {"hex", hexLines, false}} {
		t.Run(c.name, func(t *testing.T) {
			var cfg encoder
			cfg.enc = defaultEncConfig()
			est, _, _, err := cfg.xzEstimate(c.src, len(c.src) > xzExactMax)
			if err != nil {
				t.Fatal(err)
			}
			x, err := xzCompress(nil, c.src, DefaultLevel, true)
			if err != nil {
				t.Fatal(err)
			}
			if r := float64(len(x)) / float64(est); r < 0.9 || r > 1.1 {
				t.Errorf("plain xz %d, estimate %d: ratio %.3f", len(x), est, r)
			}
			enc, err := Encode(c.src)
			if err != nil {
				t.Fatal(err)
			}
			bound := min(len(x), len(zstdCompress(nil, c.src, DefaultLevel)), len(c.src)) + 6 + TrailerSize
			if len(enc) > bound {
				t.Fatalf("Encode gave %d bytes, more than the plain bound %d", len(enc), bound)
			}
			if skipped := float64(len(enc)) < xzSkipRatio*float64(est); skipped != c.skip {
				t.Errorf("encoded %d, estimate %d: skip %v, want %v", len(enc), est, skipped, c.skip)
			}
		})
	}
}

// TestSecondaryDelimiter: one-column text whose lines share a separator
// is split on it (and only then); the split table beats plain xz.
func TestSecondaryDelimiter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	hosts := []string{"gmail.com", "yahoo.com", "hotmail.com", "example.org", "mail.ru"}
	var emails, names, prose []byte
	for i := 0; i < 4000; i++ {
		emails = fmt.Appendf(emails, "user%x%d@%s\n", r.Uint32(), i%97, hosts[r.IntN(len(hosts))])
		names = fmt.Appendf(names, "Customer#%09d\n", r.IntN(150000))
		prose = fmt.Appendf(prose, "line %d of some prose, words and more words\n", r.IntN(1000))
	}
	for _, c := range []struct {
		name string
		src  []byte
		want byte
		ok   bool
	}{{"emails", emails, '@', true}, {"names", names, '#', true}, {"prose", prose, ',', true},
		{"plain", []byte("alpha\nbeta\ngamma: x\n"), 0, false}} {
		d, ok := detectDelim(sampleLines(c.src))
		if ok != c.ok || ok && d != c.want {
			t.Errorf("%s: delimiter %q %v, want %q %v", c.name, d, ok, c.want, c.ok)
		}
	}
	enc, err := Encode(emails)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := xzCompress(nil, emails, DefaultLevel, true)
	if codecOf(enc) != CodecColumnar || len(enc) >= len(x) {
		t.Errorf("emails: codec %v, %d bytes, plain xz %d", codecOf(enc), len(enc), len(x))
	}
}

// TestSpaceDelimiter: a log of space-separated fields (dpkg's, with
// shorter lines among them) is split on spaces and beats plain xz by far;
// prose, whose lines have any number of words, and indented markup are
// not split on spaces.
func TestSpaceDelimiter(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	actions := []string{"status installed", "status unpacked", "status half-configured", "configure", "upgrade", "trigproc"}
	words := strings.Fields("the of and a to in is it that was for on are as with his they at be this from have or by one had not but what all were when we there can an your which their said if do will each about how up out them then she many some so these would other into has more her two like him see time could no make than first been its who now people my made over did down only way find use may water long little very after words called just where most know")
	var log, prose []byte
	sec := 0
	for i := 0; i < 4000; i++ {
		sec += r.IntN(3)
		ts := fmt.Sprintf("2025-06-%02d %02d:%02d:%02d", 24+sec/86400, sec/3600%24, sec/60%60, sec%60)
		switch a := actions[r.IntN(len(actions))]; {
		case i%50 == 0:
			log = fmt.Appendf(log, "%s startup archives unpack\n", ts)
		case strings.HasPrefix(a, "status"):
			log = fmt.Appendf(log, "%s %s lib%s%d:amd64 %d.%d-%d\n", ts, a, words[r.IntN(len(words))], r.IntN(9), r.IntN(5), r.IntN(40), 1+r.IntN(9))
		default:
			log = fmt.Appendf(log, "%s %s lib%s%d:amd64 %d.%d-%d <none>\n", ts, a, words[r.IntN(len(words))], r.IntN(9), r.IntN(5), r.IntN(40), 1+r.IntN(9))
		}
		n := 3 + r.IntN(12)
		for j := 0; j < n; j++ {
			prose = append(prose, words[r.IntN(len(words))]...)
			prose = append(prose, " \n"[j/(n-1)])
		}
	}
	if d, ok := detectDelim(sampleLines(log)); !ok || d != ' ' {
		t.Errorf("log: delimiter %q %v, want a space", d, ok)
	}
	if d, ok := detectDelim(sampleLines(prose)); ok {
		t.Errorf("prose: delimiter %q, want none", d)
	}
	// Indented markup has as many spaces on every line, but its fields
	// would be the indentation's empty ones: not split there (aligned).
	var xml []byte
	for i := 0; i < 2000; i++ {
		xml = fmt.Appendf(xml, "    <key name=k%d type=s/>\n", r.IntN(500))
	}
	if d, ok := detectDelim(sampleLines(xml)); ok && d == ' ' {
		t.Errorf("indented: split on spaces")
	}
	enc := roundTrip(t, "log", log)
	x, _ := xzCompress(nil, log, DefaultLevel, true)
	t.Logf("log: %d bytes, %v %d, plain xz %d", len(log), codecOf(enc), len(enc), len(x))
	if codecOf(enc) != CodecColumnar || float64(len(enc)) > 0.8*float64(len(x)) {
		t.Errorf("log: codec %v, %d bytes, want columnar at most 0.8x plain xz %d", codecOf(enc), len(enc), len(x))
	}
}

// RFC 4180's CRLF lines with a quoted last field: the field's '\r'
// follows the closing quote, so it is kept as raw text instead of being
// split at the delimiters inside its quotes (which made such rows
// verbatim, or the file one column: IEEE's oui.csv went to RAW).
func TestEncodeCRLFQuotedLastField(t *testing.T) {
	var b strings.Builder
	b.WriteString("Registry,Assignment,Name,Address\r\n")
	for i := 0; i < 600; i++ {
		name := []string{"\"Cisco Systems, Inc\"", "IGT", "\"Aruba, a \"\"HPE\"\" Company\""}[i%3]
		addr := []string{"80 West Tasman Drive San Jose CA US 94568 ", "\"No.3001, Bao He Road, Longgang, Shenzhen CN 518116 \""}[i%2]
		b.WriteString("MA-L," + itoa(100000+i*7) + "," + name + "," + addr + "\r\n")
	}
	src := []byte(b.String())
	allCodecs(t, "crlf quoted", src)
	c, err := testEncoder()
	if err != nil {
		t.Fatal(err)
	}
	tab := c.tableOf(src)
	if len(tab.cols) != 4 || len(tab.verbatim) != 0 {
		t.Fatalf("%d columns, %d verbatim rows; want 4 and none", len(tab.cols), len(tab.verbatim))
	}
	last := tab.cols[3].field(1)
	if want := "\"No.3001, Bao He Road, Longgang, Shenzhen CN 518116 \"\r"; string(last.val) != want || last.quoted {
		t.Errorf("last field %q quoted %v, want raw %q", last.val, last.quoted, want)
	}
	if name := tab.cols[2].field(2); string(name.val) != "Aruba, a \"HPE\" Company" || !name.quoted {
		t.Errorf("inner field %q quoted %v, want it unquoted", name.val, name.quoted)
	}
	// A quoted last field whose quotes are not well formed stays split.
	fs := splitFields(nil, []byte("a,\"b,\"c\"\r"), ',')
	if len(fs) != 3 {
		t.Errorf("malformed quoted last field: %d fields, want 3", len(fs))
	}
}

// qjson moves the quotes of columns whose values are all strings into the
// template: a string of digits becomes an integer or decimal column that
// range queries can use, and its values come back without quotes. A
// column with a non-string value somewhere keeps its quotes (and stays
// text), and strings with escaped quotes and backslashes round-trip.
func TestEncodeQJSONUnquotes(t *testing.T) {
	var jl strings.Builder
	for i := range 3000 {
		note := []string{`"plain"`, `"say \"hi\""`, `"back\\"`, `""`}[i%4]
		mixed := `"m"`
		if i == 1234 {
			mixed = "null"
		}
		fmt.Fprintf(&jl, `{"lat":"%d.%03d","id":"%d","note":%s,"mixed":%s,"n":%d}`+"\n", 40+i/100, i%1000, i, note, mixed, i)
	}
	enc := roundTrip(t, "qjson", []byte(jl.String()), WithCodec(CodecQJSON), WithRowGroupSize(300), WithKeepCodec(true))
	f, err := Open(bytes.NewReader(enc), int64(len(enc)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]byte{"lat": QDecimal, "id": QInt, "note": QText, "mixed": QText, "n": QInt}
	for _, c := range f.Columns() {
		if c.Type != want[c.Path] {
			t.Errorf("column %q: type %d, want %d", c.Path, c.Type, want[c.Path])
		}
	}
	rows, err := f.Query(Query{Paths: []string{"lat", "note", "mixed"}, Where: []Range{{Path: "lat", Min: "45.5", Max: "45.502"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r, err := range rows.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s|%s|%s", r.Index, r.Values[0], r.Values[1], r.Values[2]))
	}
	wantRows := []string{`500 45.500|plain|"m"`, `501 45.501|say \"hi\"|"m"`, `502 45.502|back\\|"m"`}
	if !slices.Equal(got, wantRows) {
		t.Fatalf("rows %q, want %q", got, wantRows)
	}
	if st := rows.Stats(); st.GroupsSkipped != st.Groups-1 {
		t.Fatalf("zone maps skipped %d of %d groups, want all but one", st.GroupsSkipped, st.Groups)
	}
}

// Small files that AT-1's 42 bytes of container put over xz -9e with
// the encoder's first choice are brought under it by underXZ9e's search:
// of the RAW payload's nice lengths, or of the layouts the encoder pruned
// and qcolumnar; xz -9e's size is the encoder's own first model plus
// CRC64's 8 bytes, and the real xz agrees when installed.
func TestEncodeUnderXZ9e(t *testing.T) {
	for _, tc := range []struct {
		name       string
		structured bool // the encoding under xz -9e is a structured one
		gen        func() []byte
		opts       []Option
	}{
		// Free text: the RAW payload's search (smallestXZSearch).
		{"ml_IN", false, nil, nil},
		// JSON Lines whose zstd estimates prune the columnar layout that
		// xz makes smallest (smallestLayout packs the pruned layouts).
		{"flights-10k-8k.jsonl", true, nil, nil},
		// Over xzExactTrialMax (underXZ9eLarge): fixed-width records
		// whose literal model, chosen on pieces, is worse on the whole
		// input than xz's own, whose stream the encoder did not make;
		// with that one the container is still over, and the nice
		// lengths bring it under.
		// (Without token tables: cut into their runs, the records are
		// a token table far under xz -9e.)
		{"fixed-width (generated)", false, fixedWidthRecords, []Option{WithTokenTables(false)}},
		{"fixed-width (generated, RAW)", false, fixedWidthRecords, []Option{WithCodec(CodecRaw)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.gen != nil && raceEnabled {
				// A minute each under the race detector, for one goroutine's
				// xz searches; the run without it checks them.
				t.Skip("sizes over xzExactTrialMax, single-threaded: checked without -race")
			}
			path := filepath.Join("testdata", "small", tc.name)
			if tc.gen != nil {
				path = filepath.Join(t.TempDir(), "input")
				if err := os.WriteFile(path, tc.gen(), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, err := xzFirst(src, 6, true)
			if err != nil {
				t.Fatal(err)
			}
			xz9e := len(first) + xzCRC64Extra
			if xzPath, err := exec.LookPath("xz"); err == nil {
				out, err := exec.Command(xzPath, "-9e", "-T1", "-c", path).Output()
				if err != nil {
					t.Fatal(err)
				}
				if len(out) != xz9e {
					t.Fatalf("xz -9e gives %d bytes, the encoder's estimate of it %d", len(out), xz9e)
				}
			}
			c, err := testEncoder(tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			structured, _, body, made, err := c.encodeUnit(src, c.chooseCodec(src))
			if err != nil {
				t.Fatal(err)
			}
			if unsearched := len(MagicWhole) + 1 + len(body) + TrailerSize; unsearched <= xz9e {
				t.Fatalf("without the search %d bytes, xz -9e %d: the test no longer needs it", unsearched, xz9e)
			}
			if len(src) > xzExactTrialMax {
				// The model chosen on pieces was not xz's, whose stream
				// only a structured body close to it has; with xz's model
				// the file is still over.
				if (made != nil) != structured {
					t.Fatalf("structured %v, first-model stream made %v", structured, made != nil)
				}
				if n := len(MagicWhole) + 2 + len(first) + TrailerSize; n <= xz9e {
					t.Fatalf("with xz's model %d bytes, xz -9e %d: the nice lengths are not needed", n, xz9e)
				}
			}
			enc := roundTrip(t, tc.name, src, tc.opts...)
			if len(enc) > xz9e {
				t.Fatalf("%d bytes, xz -9e %d", len(enc), xz9e)
			}
			t.Logf("%d bytes: %d unsearched, xz -9e %d", len(enc), len(MagicWhole)+1+len(body)+TrailerSize, xz9e)
			if got := Codec(enc[len(MagicWhole)]) != CodecRaw; got != tc.structured {
				t.Fatalf("structured %v, want %v (codec %d)", got, tc.structured, enc[len(MagicWhole)])
			}
		})
	}
}

// A structured encoding within xzNearPlain of the plain xz, whose model
// was chosen on pieces, has xz's own model's stream made, so that
// underXZ9e knows xz -9e's size.
func TestXZNearPlain(t *testing.T) {
	src := fixedWidthRecords()
	c, err := testEncoder(WithCodec(CodecColumnar), WithKeepCodec(true))
	if err != nil {
		t.Fatal(err)
	}
	structured, _, _, first, err := c.encodeUnit(src, c.chooseCodec(src))
	if err != nil {
		t.Fatal(err)
	}
	if !structured || first == nil {
		t.Fatalf("fixed-width records as a table: structured %v, first-model stream made %v", structured, first != nil)
	}
}

// Under CodecAuto the search packs qcolumnar too, whose fewer streams can
// win on a few KiB: on flights-airport-2k.csv its body is the smallest
// the search finds (it was what brought the file under xz -9e until the
// columns were ranked by xz, xzRank, and columnar got there alone); a
// codec the caller named is searched in its own layouts only.
func TestSmallestLayoutQColumnar(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "small", "flights-airport-2k.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts []Option
		want Codec
	}{{nil, CodecQColumnar}, {[]Option{WithCodec(CodecColumnar)}, CodecColumnar}} {
		c, err := testEncoder(tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		body, codec, err := c.smallestLayout(src, c.chooseCodec(src))
		if err != nil {
			t.Fatal(err)
		}
		if codec != tc.want {
			t.Errorf("options %d: smallest layout %v (%d bytes), want %v", len(tc.opts), codec, len(body), tc.want)
		}
		if codec == CodecQColumnar {
			if got, err := Decode(withTrailer(wholeFile(codec, body), src)); err != nil || !bytes.Equal(got, src) {
				t.Fatalf("qcolumnar body does not decode to the input: %v", err)
			}
		}
	}
}

// fixedWidthRecords is 4,000 fixed-width records of 82 bytes (names
// padded with spaces, dates and amounts as digits, CRLF), shaped like
// mysql's emp.txt test table.
func fixedWidthRecords() []byte {
	r := rand.New(rand.NewPCG(7, 82))
	last := []string{"MARTIN", "BERNARD", "DUBOIS", "THOMAS", "ROBERT", "RICHARD", "PETIT", "DURAND", "LEROY", "MOREAU",
		"SIMON", "LAURENT", "LEFEBVRE", "MICHEL", "GARCIA", "DAVID", "BERTRAND", "ROUX", "VINCENT", "FOURNIER"}
	first := []string{"JEAN", "MARIE", "PIERRE", "ANNE", "MICHEL", "ALAIN", "SYLVIE", "ROGER", "LAURENCE", "BENEDICTE",
		"MARIE HELENE", "PHILIPPE"}
	codes := []string{"TECHN", "ANGL ", "SANS ", "CADRE", "EMPL "}
	var b bytes.Buffer
	for range 4000 {
		fmt.Fprintf(&b, "%04d%-16s%-20s%d%04d %d%04d%02d%04d%02d%02d%08d.%02d %d%c%s\r\n",
			r.IntN(10000), last[r.IntN(len(last))], first[r.IntN(len(first))], 1+r.IntN(2), 1930+r.IntN(40),
			r.IntN(10), 1950+r.IntN(20), 1+r.IntN(12), 1980+r.IntN(16), 1+r.IntN(12), 1+r.IntN(28),
			r.IntN(100000000), r.IntN(100), r.IntN(2), "MCV"[r.IntN(3)], codes[r.IntN(len(codes))])
	}
	return b.Bytes()
}

// layoutsOf's picks split the layouts: the kept and the pruned are
// disjoint and together all of them, so underXZ9e, packing the pruned
// after encodeUnit packed the kept, tries every layout once.
func TestLayoutPicks(t *testing.T) {
	var jsonl bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&jsonl, "{\"id\":%d,\"name\":\"n%d\",\"x\":%d.%02d}\n", i, i%7, i*37%1000, i%100)
	}
	for _, name := range []string{"flights-10k-8k.jsonl", "flights-airport-2k.csv", "generated.jsonl"} {
		src := jsonl.Bytes()
		if name != "generated.jsonl" {
			var err error
			if src, err = os.ReadFile(filepath.Join("testdata", "small", name)); err != nil {
				t.Fatal(err)
			}
		}
		c, err := testEncoder()
		if err != nil {
			t.Fatal(err)
		}
		codec := c.chooseCodec(src)
		pick := func(p layoutPick) []layoutSet {
			ls, _, err := c.layoutsOf(src, codec, p)
			if err != nil {
				t.Fatal(err)
			}
			return ls
		}
		all, kept, pruned := pick(pickAll), pick(pickKept), pick(pickPruned)
		if len(kept) == 0 || len(kept)+len(pruned) != len(all) {
			t.Fatalf("%s: %d kept + %d pruned, %d in all", name, len(kept), len(pruned), len(all))
		}
		used := make([]bool, len(all))
		for _, l := range append(kept, pruned...) {
			i := slices.IndexFunc(all, func(a layoutSet) bool {
				return a.codec == l.codec && slices.EqualFunc(a.streams, l.streams, func(x, y namedStream) bool {
					return x.name == y.name && bytes.Equal(x.data, y.data)
				})
			})
			if i < 0 || used[i] {
				t.Fatalf("%s: a picked layout (codec %d) is not one of all's, or is picked twice", name, l.codec)
			}
			used[i] = true
		}
		t.Logf("%s: %d kept, %d pruned", name, len(kept), len(pruned))
	}
}

// The xz streams the encoder writes carry no check (xzCheck), and
// xzMinSize is the smallest of them: one byte's stream. The reference
// decoder accepts check type None (its lzma_stream_decoder has flags 0);
// with AT1_REFERENCE_DECODER set, roundTrip runs it on such a stream here.
func TestXZStreamsCheckNone(t *testing.T) {
	x, err := xzCompress(nil, []byte("a"), 6, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(x) != xzMinSize {
		t.Fatalf("one byte's xz stream is %d bytes, xzMinSize %d", len(x), xzMinSize)
	}
	// Stream flags (bytes 6-7 of the header): the check type is the low
	// nibble of the second byte.
	if check := x[7] & 0x0F; check != 0 {
		t.Fatalf("xz stream check type %d, want 0 (none)", check)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "small", "ml_IN"))
	if err != nil {
		t.Fatal(err)
	}
	enc := roundTrip(t, "ml_IN", src) // RAW with an xz payload
	if codecOf(enc) != CodecRaw || enc[5] != BackendXZ || enc[6+7]&0x0F != 0 {
		t.Fatalf("codec %d, RAW payload backend %d, check type %d; want RAW xz with none", enc[4], enc[5], enc[6+7]&0x0F)
	}
}

// WithKeepCodec keeps the codec asked for where RAW is smaller; without
// it the encoder writes RAW there. Under CodecAuto it keeps the detected
// structure.
func TestWithKeepCodec(t *testing.T) {
	var b bytes.Buffer
	r := rand.New(rand.NewPCG(4, 4))
	for range 60 {
		fmt.Fprintf(&b, "%d,%x\n", r.IntN(1000), r.Uint64())
	}
	src := b.Bytes()
	for _, tc := range []struct {
		codec Codec
		keep  bool
		want  Codec
	}{
		{CodecQColumnar, false, CodecRaw},
		{CodecQColumnar, true, CodecQColumnar},
		{CodecAuto, false, CodecRaw},
		{CodecAuto, true, CodecColumnar},
	} {
		enc := roundTrip(t, "keep", src, WithCodec(tc.codec), WithKeepCodec(tc.keep))
		if got := codecOf(enc); got != tc.want {
			t.Errorf("WithCodec(%v), WithKeepCodec(%v): codec %v, want %v", tc.codec, tc.keep, got, tc.want)
		}
	}
}
