package at1

import (
	"errors"
	"strings"
	"testing"
)

// prefixed re-packs the streams of a qjson file under "t{k}:" names.
func prefixed(t *testing.T, file []byte, prefix string) []tstream {
	t.Helper()
	c, _ := newConfig(nil)
	ss, err := c.decoder().parseStreamSet(file[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	var out []tstream
	for i, s := range ss.streams {
		d, err := c.decoder().decompress(s.Backend, ss.data[i], 1<<20, 0, s.Name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tstream{prefix + s.Name, BackendStored, d})
	}
	return out
}

func TestQJSON2(t *testing.T) {
	t0 := qFile(t, CodecQJSON, "", []string{`{"a":`, `}`}, nil, []byte{QInt}, 2,
		[]qLine{{row: []string{"1"}}, {row: []string{"2"}}, {row: []string{"3"}}}, false, tagZstd)
	t1 := qFile(t, CodecQJSON, "", []string{`{"b":`, `,"c":`, `}`}, nil, []byte{QText, QDecimal}, 4,
		[]qLine{{row: []string{`"x"`, "1.5"}}, {verbatim: "{odd}"}}, false, tagXZ)
	streams := []tstream{
		{"meta", BackendStored, []byte(uvs(7) + "\x01" + uvs(2))},
		{"line_map", BackendStored, []byte(uvs(1, 0, 2, 1, 2, 0, 1))},
		{"verbatim", BackendStored, []byte("# top\n# tail")},
	}
	streams = append(streams, prefixed(t, t0, "t0:")...)
	streams = append(streams, prefixed(t, t1, "t1:")...)
	src := wholeFile(CodecQJSON2, packSet(t, streams...))
	got, err := Decode(src)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{`{"a":1}`, `# top`, `{"b":"x","c":1.5}`, `{"a":2}`, `{odd}`, `# tail`, `{"a":3}`}, "\n") + "\n"
	if string(got) != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// A template that runs out of lines, a route past the templates, and
	// the final newline only when there are lines.
	bad := append([]tstream{{"meta", BackendStored, []byte(uvs(5) + "\x00" + uvs(2))},
		{"line_map", BackendStored, []byte(uvs(2, 2, 2, 0, 0))}}, streams[2:]...)
	if _, err := Decode(wholeFile(CodecQJSON2, packSet(t, bad...))); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("template running out: %v", err)
	}
	bad[1].data = []byte(uvs(3, 0, 0, 0, 0))
	if _, err := Decode(wholeFile(CodecQJSON2, packSet(t, bad...))); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("route past the templates: %v", err)
	}
	empty := []tstream{{"meta", BackendStored, []byte("\x00\x01\x00")}}
	if got, err := Decode(wholeFile(CodecQJSON2, packSet(t, empty...))); err != nil || len(got) != 0 {
		t.Fatalf("empty qjson2: %q %v", got, err)
	}
	if _, err := Decode(wholeFile(CodecQJSON2, packSet(t, tstream{"meta", BackendStored, []byte("\x00\x01\x41")}))); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("65 templates: %v", err)
	}
}
