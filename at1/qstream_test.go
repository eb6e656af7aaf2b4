package at1

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// qStreamLines builds n structured lines of three columns, with a
// verbatim line every 37 lines, and returns them with the original.
func qStreamLines(n int) ([]qLine, string) {
	var lines []qLine
	var out []string
	for i := 0; i < n; i++ {
		if i%37 == 5 {
			l := "# verbatim " + strconv.Itoa(i)
			lines = append(lines, qLine{verbatim: l})
			out = append(out, l)
		}
		row := []string{strconv.Itoa(7 * i), fmt.Sprintf("%d.%02d", i%13, i%100), []string{"a", "", "\"c,d\"", "long text value " + strconv.Itoa(i)}[i%4]}
		lines = append(lines, qLine{row: row})
		out = append(out, strings.Join(row, ","))
	}
	return lines, strings.Join(out, "\n") + "\n"
}

// streamed decodes src with DecodeTo and with Reader.WriteTo, at the
// given concurrency, checks that both write the same bytes and return
// the same error, and returns them.
func streamed(t *testing.T, src []byte, conc int, opts ...Option) ([]byte, error) {
	t.Helper()
	opts = append(opts[:len(opts):len(opts)], WithConcurrency(conc))
	var a bytes.Buffer
	n, err := DecodeTo(&a, src, opts...)
	if n != int64(a.Len()) {
		t.Fatalf("DecodeTo reports %d bytes, wrote %d", n, a.Len())
	}
	z, rerr := NewReader(bytes.NewReader(src), opts...)
	if rerr != nil {
		t.Fatal(rerr)
	}
	var b bytes.Buffer
	if _, rerr = z.WriteTo(&b); fmt.Sprint(rerr) != fmt.Sprint(err) || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("conc %d: DecodeTo %d bytes, %v; WriteTo %d bytes, %v", conc, a.Len(), err, b.Len(), rerr)
	}
	return a.Bytes(), err
}

// TestQStreamGroups checks the group-at-a-time streaming of qcolumnar and
// qjson tables against Decode, serially and with workers decoding ahead,
// with row groups of every relation to the slots (one group, fewer groups
// than slots, many), xz and zstd blocks, verbatim lines and none, and a
// table without columns.
func TestQStreamGroups(t *testing.T) {
	lines, want := qStreamLines(600)
	segs := []string{`{"a":`, `,"b":`, `,"c":"`, `"}`}
	var jlines []qLine
	var jwant []string
	for _, l := range lines {
		if l.row == nil {
			jlines = append(jlines, l)
			jwant = append(jwant, l.verbatim)
			continue
		}
		jlines = append(jlines, l)
		jwant = append(jwant, segs[0]+l.row[0]+segs[1]+l.row[1]+segs[2]+l.row[2]+segs[3])
	}
	type tc struct {
		name string
		src  []byte
		want string
	}
	var cases []tc
	for _, rg := range []int{1, 7, 250, 600, 1000} {
		for _, tag := range []byte{tagXZ, tagZstd} {
			if tag == tagXZ && rg < 250 {
				continue // an xz stream per block is slow to write
			}
			cases = append(cases, tc{fmt.Sprintf("qcolumnar rg %d tag %d", rg, tag),
				qFile(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, rg, lines, true, tag), want})
		}
		cases = append(cases, tc{fmt.Sprintf("qjson rg %d", rg),
			qFile(t, CodecQJSON, "", segs, []string{"a", "b", "c"}, []byte{QInt, QDecimal, QText}, rg, jlines, false, tagZstd), strings.Join(jwant, "\n")})
	}
	// A two-byte delimiter, and a template segment longer than 16 bytes.
	var dwant, lwant []string
	long := []string{`{"first field name":`, `,"b":`, `,"a much longer third field name":"`, `"}`}
	for _, l := range lines {
		if l.row == nil {
			dwant, lwant = append(dwant, l.verbatim), append(lwant, l.verbatim)
			continue
		}
		dwant = append(dwant, strings.Join(l.row, ";;"))
		lwant = append(lwant, long[0]+l.row[0]+long[1]+l.row[1]+long[2]+l.row[2]+long[3])
	}
	cases = append(cases, tc{"qcolumnar delimiter ;;", qFile(t, CodecQColumnar, ";;", nil, nil, []byte{QInt, QDecimal, QText}, 100, lines, false, tagZstd), strings.Join(dwant, "\n")},
		tc{"qjson long segments", qFile(t, CodecQJSON, "", long, nil, []byte{QInt, QDecimal, QText}, 100, jlines, false, tagZstd), strings.Join(lwant, "\n")})
	// No columns: every structured line is the template's only segment.
	empty := []qLine{{row: []string{}}, {verbatim: "v"}, {row: []string{}}}
	cases = append(cases, tc{"qjson no columns", qFile(t, CodecQJSON, "", []string{"{}"}, nil, nil, 4, empty, true, tagZstd), "{}\nv\n{}\n"})
	// Blocks whose sizes grow from group to group (the slot buffers are
	// replaced) and shrink.
	var grow []qLine
	var gwant []string
	for i := 0; i < 64; i++ {
		v := strings.Repeat(strconv.Itoa(i%10), 1+(i/8)*(i/8)*40)
		if i >= 48 {
			v = "s"
		}
		grow = append(grow, qLine{row: []string{v}})
		gwant = append(gwant, v)
	}
	cases = append(cases, tc{"growing blocks", qFile(t, CodecQColumnar, "\t", nil, nil, []byte{QText}, 8, grow, false, tagXZ), strings.Join(gwant, "\n")})
	for _, c := range cases {
		dec, err := Decode(c.src, WithStrict())
		if err != nil || string(dec) != c.want {
			t.Fatalf("%s: Decode %v (%d/%d bytes)", c.name, err, len(dec), len(c.want))
		}
		for _, conc := range []int{1, 2, 3, 8} {
			got, err := streamed(t, c.src, conc, WithStrict())
			if err != nil || string(got) != c.want {
				t.Fatalf("%s conc %d: %v (%d/%d bytes)", c.name, conc, err, len(got), len(c.want))
			}
		}
	}
}

// TestQStreamErrors checks that streaming a damaged table returns the
// error Decode returns (decoding every block first, serially), whatever
// the concurrency: a block that does not decode before a short block, a
// short block before a line error, the first of each; and that the bytes
// written before it are the lines of the groups before the error.
func TestQStreamErrors(t *testing.T) {
	lines, want := qStreamLines(400)
	const rg = 16
	short := func(t testing.TB) []byte { return append([]byte{tagZstd}, compress(t, BackendZstd, []byte("1\n2"))...) }
	damaged := func(block []byte) []byte {
		b := bytes.Clone(block)
		b[len(b)/2] ^= 0x55
		b[len(b)/2+1] ^= 0x21
		return b
	}
	type tc struct {
		name   string
		hook   func(g, c int, block []byte) []byte
		opts   []Option
		sentry error
		msg    string
	}
	cases := []tc{
		{name: "bad tag at (5,1)", hook: func(g, c int, b []byte) []byte {
			if g == 5 && c == 1 {
				b = append([]byte{2}, b[1:]...)
			}
			return b
		}, sentry: ErrCorrupt, msg: "block (5,1)"},
		{name: "damaged xz at (9,2)", hook: func(g, c int, b []byte) []byte {
			if g == 9 && c == 2 {
				b = damaged(b)
			}
			return b
		}, sentry: ErrCorrupt, msg: "block (9,2)"},
		{name: "short (3,0)", hook: func(g, c int, b []byte) []byte {
			if g == 3 && c == 0 {
				b = short(t)
			}
			return b
		}, sentry: ErrCorrupt, msg: "block (3,0)"},
		{name: "short (3,0), short (4,1), bad tag (20,2)", hook: func(g, c int, b []byte) []byte {
			switch {
			case g == 3 && c == 0, g == 4 && c == 1:
				b = short(t)
			case g == 20 && c == 2:
				b = append([]byte{7}, b[1:]...)
			}
			return b
		}, sentry: ErrCorrupt, msg: "block (20,2)"},
		{name: "empty block (24,2) last", hook: func(g, c int, b []byte) []byte {
			if g == 24 && c == 2 {
				b = nil
			}
			return b
		}, sentry: ErrCorrupt, msg: "block (24,2)"},
		{name: "limit", opts: []Option{WithMaxDecodedSize(int64(len(want)) - 100)}, sentry: ErrTooLarge},
		{name: "limit, short (24,0)", opts: []Option{WithMaxDecodedSize(int64(len(want)) - 100)}, hook: func(g, c int, b []byte) []byte {
			if g == 24 && c == 0 {
				b = short(t)
			}
			return b
		}, sentry: ErrCorrupt, msg: "block (24,0)"},
		{name: "decoded budget", opts: []Option{WithMaxDecodedSize(1000)}, sentry: ErrTooLarge},
	}
	for _, c := range cases {
		for _, tag := range []byte{tagXZ, tagZstd} {
			if tag == tagXZ && !strings.Contains(c.name, "xz") {
				continue // an xz stream per block is slow to write
			}
			src := qFileHook(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, rg, lines, true, tag, c.hook)
			_, derr := Decode(src, append(c.opts, WithConcurrency(1))...)
			if !errors.Is(derr, c.sentry) || !strings.Contains(fmt.Sprint(derr), c.msg) {
				t.Fatalf("%s tag %d: Decode %v, want %v %q", c.name, tag, derr, c.sentry, c.msg)
			}
			var first []byte
			for _, conc := range []int{1, 2, 4} {
				got, err := streamed(t, src, conc, c.opts...)
				if fmt.Sprint(err) != fmt.Sprint(derr) && !(c.sentry == ErrTooLarge && errors.Is(err, ErrTooLarge)) {
					t.Fatalf("%s tag %d conc %d: streamed %v, Decode %v", c.name, tag, conc, err, derr)
				}
				if !strings.HasPrefix(want, string(got)) {
					t.Fatalf("%s tag %d conc %d: %d bytes written are not the original's start", c.name, tag, conc, len(got))
				}
				if conc == 1 {
					first = got
				} else if !bytes.Equal(got, first) {
					t.Fatalf("%s tag %d conc %d: %d bytes written, %d serially", c.name, tag, conc, len(got), len(first))
				}
			}
		}
	}
	// Strict: the verbatim lines run out (a line error) before a damaged
	// block: the block is reported, as Decode does; without it, the line
	// error.
	for _, dmg := range []bool{false, true} {
		src := qFileHook(t, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, rg, lines, true, tagXZ, func(g, c int, b []byte) []byte {
			if dmg && g == 22 && c == 1 {
				b = damaged(b)
			}
			return b
		})
		src = replaceStreams(t, src, CodecQColumnar, map[string][]byte{"verbatim": []byte("# one\n# two")})
		_, derr := Decode(src, WithStrict(), WithConcurrency(1))
		if want := map[bool]string{false: "verbatim lines run out", true: "block (22,1)"}[dmg]; !strings.Contains(fmt.Sprint(derr), want) {
			t.Fatalf("verbatim, damaged %v: Decode %v, want %q", dmg, derr, want)
		}
		for _, conc := range []int{1, 2} {
			_, err := streamed(t, src, conc, WithStrict())
			if fmt.Sprint(err) != fmt.Sprint(derr) {
				t.Fatalf("verbatim, damaged %v, conc %d: streamed %v, Decode %v", dmg, conc, err, derr)
			}
		}
	}
}

// TestQStreamBudget decodes a table whose blocks take more than the
// decoded budget (the output limit plus 1 MiB): the workers stop
// decoding ahead once the blocks decoded take more than it, and the
// error is the one of charging the blocks in file order, as Decode's.
func TestQStreamBudget(t *testing.T) {
	var lines []qLine
	var total int
	for i := 0; i < 5000; i++ {
		row := []string{strings.Repeat(strconv.Itoa(i%10), 150), strings.Repeat("x", 100+i%50), strconv.Itoa(i)}
		lines = append(lines, qLine{row: row})
		total += len(row[0]) + len(row[1]) + len(row[2]) + 3
	}
	if total < 1<<20+200_000 {
		t.Fatalf("only %d bytes", total)
	}
	src := qFile(t, CodecQColumnar, ",", nil, nil, []byte{QText, QText, QInt}, 50, lines, true, tagZstd)
	opts := []Option{WithMaxDecodedSize(100_000)}
	_, derr := Decode(src, append(opts, WithConcurrency(1))...)
	if !errors.Is(derr, ErrTooLarge) || !strings.Contains(derr.Error(), "decoded blocks exceed") {
		t.Fatalf("Decode: %v", derr)
	}
	for _, conc := range []int{1, 2, 4} {
		if _, err := streamed(t, src, conc, opts...); fmt.Sprint(err) != fmt.Sprint(derr) {
			t.Fatalf("conc %d: streamed %v, Decode %v", conc, err, derr)
		}
	}
}

// replaceStreams rebuilds a whole-file container with the named streams
// replaced (all stored).
func replaceStreams(t *testing.T, src []byte, codec Codec, change map[string][]byte) []byte {
	t.Helper()
	ss, err := (&config{maxStreams: 256, maxDecoded: 1 << 30, maxStream: 1 << 30, memoryLimit: 1 << 30, maxDict: 1 << 26}).decoder().parseStreamSet(src[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range ss.streams {
		names = append(names, s.Name)
	}
	if err := ss.load(names...); err != nil {
		t.Fatal(err)
	}
	var streams []tstream
	for _, s := range ss.streams {
		d := ss.get(s.Name)
		if c, ok := change[s.Name]; ok {
			d = c
		}
		streams = append(streams, tstream{s.Name, BackendStored, d})
	}
	return wholeFile(codec, packSet(t, streams...))
}

// addQStreamSeeds adds qcolumnar and qjson tables of several row groups
// (group-at-a-time streaming), with verbatim lines, xz and zstd blocks, a
// short block and a damaged one.
func addQStreamSeeds(f *testing.F) {
	lines, _ := qStreamLines(60)
	segs := []string{`{"a":`, `,"b":`, `,"c":"`, `"}`}
	f.Add(qFile(f, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, 8, lines, true, tagZstd))
	f.Add(qFile(f, CodecQColumnar, "\t", nil, nil, []byte{QInt, QDecimal, QText}, 25, lines, false, tagXZ))
	f.Add(qFile(f, CodecQJSON, "", segs, []string{"a", "b", "c"}, []byte{QInt, QDecimal, QText}, 8, lines, false, tagZstd))
	f.Add(qFileHook(f, CodecQColumnar, ",", nil, nil, []byte{QInt, QDecimal, QText}, 8, lines, true, tagZstd, func(g, c int, b []byte) []byte {
		switch {
		case g == 2 && c == 1:
			return append([]byte{tagZstd}, compress(f, BackendZstd, []byte("1\n2"))...)
		case g == 5 && c == 2:
			b = bytes.Clone(b)
			b[len(b)/2] ^= 0x40
		}
		return b
	}))
}
