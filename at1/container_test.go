package at1

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

var abc = []byte("a,b\n1,2\n")

func TestRawBackends(t *testing.T) {
	for _, b := range []byte{BackendXZ, BackendZstd, BackendStored} {
		src := append(wholeFile(CodecRaw, []byte{b}), compress(t, b, abc)...)
		got, err := Decode(src)
		if err != nil || !bytes.Equal(got, abc) {
			t.Fatalf("backend %d: %q %v", b, got, err)
		}
		got, err = Decode(withTrailer(src, abc))
		if err != nil || !bytes.Equal(got, abc) {
			t.Fatalf("backend %d with trailer: %q %v", b, got, err)
		}
		if _, err := Decode(withTrailer(src, []byte("other"))); !errors.Is(err, ErrChecksum) {
			t.Fatalf("backend %d bad trailer: %v", b, err)
		}
	}
	// The zstd writer's empty frame is valid and carries its size.
	empty := append(wholeFile(CodecRaw, []byte{BackendZstd}), compress(t, BackendZstd, nil)...)
	if got, err := Decode(empty); err != nil || len(got) != 0 {
		t.Fatalf("empty zstd: %q %v", got, err)
	}
}

func TestContainerErrors(t *testing.T) {
	zst := compress(t, BackendZstd, abc)
	cases := []struct {
		name     string
		src      []byte
		sentinel error
		want     string
	}{
		{"short", []byte("AT1"), ErrCorrupt, "shorter than the 5-byte header"},
		{"bad magic", []byte("AT2\x02\xff\x02"), ErrCorrupt, "bad magic"},
		{"go binding reject: 16383 streams", []byte{0x41, 0x54, 0x31, 0x02, 0x07, 0xff, 0xff, 0x00}, ErrCorrupt, "n_streams"},
		{"257 streams", wholeFile(CodecColumnar, append([]byte(uvs(257)), bytes.Repeat([]byte("\x01a\x02\x00"), 257)...)), ErrTooLarge, "stream count"},
		{"unsupported codec named", wholeFile(CodecVCF, []byte{0}), ErrUnsupported, "codec 5 (vcf)"},
		{"unsupported bundle", wholeFile(CodecBundle, []byte{0}), ErrUnsupported, "bundle"},
		{"zstd bytes after frame", append(append(wholeFile(CodecRaw, []byte{1}), zst...), 0), ErrCorrupt, "after the frame"},
		{"zstd truncated", append(wholeFile(CodecRaw, []byte{1}), zst[:len(zst)-3]...), ErrCorrupt, "zstd"},
		{"xz truncated", append(wholeFile(CodecRaw, []byte{0}), compress(t, 0, abc)[:40]...), ErrCorrupt, "xz"},
		{"raw without payload", wholeFile(CodecRaw, nil), ErrCorrupt, "missing backend byte"},
		{"stream data past end", wholeFile(CodecColumnar, []byte("\x01\x04meta\x02\x09ab")), ErrCorrupt, "runs past"},
		{"framed payload_len 0", framed(CodecColumnar, []byte{}), ErrCorrupt, "payload_len 0"},
		{"framed method 2", framed(CodecColumnar, []byte{2, 0}), ErrCorrupt, "unknown frame method 2"},
		{"raw codec structured frame", framed(CodecRaw, []byte{0, 0}), ErrCorrupt, "structured frame in a RAW"},
		{"framed unsupported codec", framed(CodecOSM, []byte{0, 0}), ErrUnsupported, "osm"},
		{"framed truncated", framed(CodecRaw, append([]byte{1, 2}, abc...))[:12], ErrCorrupt, "runs past"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(tc.src)
			if !errors.Is(err, tc.sentinel) {
				t.Fatalf("got %q, error %v; want %v", got, err, tc.sentinel)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

func TestStreamSetRules(t *testing.T) {
	// One verbatim row and no columns, so the output is the verbatim line.
	streams := []tstream{
		{"meta", BackendStored, []byte("\x01\x00\x00\x01,\x00")},
		{"row_modes", BackendZstd, []byte{0}},
		{"verbatim" + strings.Repeat("_", 30), BackendStored, []byte("not verbatim")},
		{"verbatim", BackendStored, []byte("first")},
		{"verbatim", BackendXZ, []byte("second")},
		{"bloom", BackendZstd, []byte("an unknown footer stream")},
	}
	got, err := Decode(wholeFile(CodecColumnar, packSet(t, streams...)))
	if err != nil || string(got) != "first" {
		t.Fatalf("got %q %v, want the first verbatim stream", got, err)
	}
	// Names match on their first 31 bytes: the first of two names that
	// share them wins.
	key := strings.Repeat("v", 31)
	ss := &streamSet{streams: []StreamInfo{{Name: key + "A"}, {Name: key + "B"}}}
	if ss.find(key+"B") != 0 || ss.find(key) != 0 || ss.find("v") != -1 {
		t.Fatal("31-byte prefix match")
	}
	// A missing stream reads as empty: no verbatim stream gives "".
	got, err = Decode(wholeFile(CodecColumnar, packSet(t, streams[:2]...)))
	if err != nil || string(got) != "" {
		t.Fatalf("missing verbatim: %q %v", got, err)
	}
}

func TestSpecLiteralStreams(t *testing.T) {
	// Same streams with and without backend bytes decode alike.
	rows := [][]string{{"1", "x"}, {"2", "y"}}
	with := columnarFile(t, BackendXZ, "", rows, []string{"int", "text"}, true)
	want, err := Decode(with)
	if err != nil {
		t.Fatal(err)
	}
	// Rewrite the stream set without backend bytes.
	ss, err := (&config{maxStreams: 256, maxDecoded: 1 << 20, maxStream: 1 << 20, memoryLimit: 1 << 30}).decoder().parseStreamSet(with[5:], 5)
	if err != nil {
		t.Fatal(err)
	}
	legacy := uvs(uint64(len(ss.streams)))
	for i, s := range ss.streams {
		legacy += string(lstr(nil, []byte(s.Name))) + string(lstr(nil, ss.data[i]))
	}
	got, err := Decode(wholeFile(CodecColumnar, []byte(legacy)))
	if err != nil || !bytes.Equal(got, want) || string(want) != "1,x\n2,y\n" {
		t.Fatalf("legacy form: %q %v (want %q)", got, err, want)
	}
	f, err := Open(bytes.NewReader(wholeFile(CodecColumnar, []byte(legacy))), int64(len(legacy)+5))
	if err != nil || len(f.Streams) != 10 || !f.Streams[0].Legacy {
		t.Fatalf("Open legacy: %+v %v", f, err)
	}
	// Framed raw frame without a backend byte.
	fr := framed(CodecRaw, append([]byte{1}, compress(t, BackendXZ, abc)...))
	if got, err := Decode(fr); err != nil || !bytes.Equal(got, abc) {
		t.Fatalf("legacy raw frame: %q %v", got, err)
	}
}

func TestLimits(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 1000)
	for _, b := range []byte{BackendXZ, BackendZstd, BackendStored} {
		src := append(wholeFile(CodecRaw, []byte{b}), compress(t, b, big)...)
		if _, err := Decode(src, WithMaxDecodedSize(9999)); !errors.Is(err, ErrTooLarge) {
			t.Errorf("backend %d: max decoded: %v", b, err)
		}
		if _, err := Decode(src, WithMaxStreamSize(5000)); !errors.Is(err, ErrTooLarge) {
			t.Errorf("backend %d: max stream: %v", b, err)
		}
		if got, err := Decode(src, WithMaxDecodedSize(10000)); err != nil || len(got) != 10000 {
			t.Errorf("backend %d: exact limit: %v", b, err)
		}
	}
	col := columnarFile(t, BackendZstd, "", [][]string{{"1"}}, []string{"int"}, false)
	if _, err := Decode(col, WithMaxStreams(9)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("max streams: %v", err)
	}
	if _, err := Decode(col, WithMaxStreams(10)); err != nil {
		t.Errorf("10 streams with limit 10: %v", err)
	}
	for _, o := range []Option{WithMaxDecodedSize(0), WithMaxStreamSize(-1), WithMaxStreamSize(1 << 33),
		WithMaxStreams(0), WithMaxStreams(257), WithConcurrency(0), WithMaxXZDictionary(10)} {
		if _, err := Decode(col, o); err == nil {
			t.Error("invalid option accepted")
		}
	}
	// An xz stream whose dictionary exceeds the limit fails before allocating it.
	xzsrc := append(wholeFile(CodecRaw, []byte{0}), compress(t, 0, abc)...)
	if _, err := Decode(xzsrc, WithMaxXZDictionary(4096)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("xz dictionary limit: %v", err)
	}
}

func TestFramedWithTrailer(t *testing.T) {
	col := columnarFile(t, BackendZstd, "", [][]string{{"a", "1"}, {"b", "2"}}, []string{"text", "int"}, true)
	frame0 := append([]byte{0}, col[5:]...)
	frame1 := append([]byte{1, 2}, "c,3\n"...)
	frame2 := append([]byte{1, 0}, compress(t, BackendXZ, []byte("d,4"))...)
	body := framed(CodecColumnar, frame0, frame1, frame2)
	want := "a,1\nb,2\nc,3\nd,4"
	for _, src := range [][]byte{body, withTrailer(body, []byte(want))} {
		for _, conc := range []int{1, 3} {
			got, err := Decode(src, WithConcurrency(conc))
			if err != nil || string(got) != want {
				t.Fatalf("Decode conc %d: %q %v", conc, got, err)
			}
		}
		z, err := NewReader(bytes.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(z)
		if err != nil || string(got) != want {
			t.Fatalf("NewReader: %q %v", got, err)
		}
		// One byte at a time goes through Read, not WriteTo.
		z, _ = NewReader(bytes.NewReader(src))
		var sb strings.Builder
		buf := make([]byte, 1)
		for {
			n, err := z.Read(buf)
			sb.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if sb.String() != want {
			t.Fatalf("Read: %q", sb.String())
		}
	}
	bad := withTrailer(body, []byte("nope"))
	if _, err := Decode(bad); !errors.Is(err, ErrChecksum) {
		t.Fatalf("Decode bad trailer: %v", err)
	}
	z, err := NewReader(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(z); !errors.Is(err, ErrChecksum) {
		t.Fatalf("NewReader bad trailer: %v", err)
	}
}

func TestNewReaderVectors(t *testing.T) {
	for _, v := range loadManifest(t) {
		src := readVector(t, v.File)
		want, derr := Decode(src)
		z, err := NewReader(bytes.NewReader(src))
		var got []byte
		if err == nil {
			var buf bytes.Buffer
			_, err = z.WriteTo(&buf)
			got = buf.Bytes()
		}
		// WriteTo streams: on an error it may already have written bytes
		// (unverified ones when the trailer does not match).
		if (err == nil) != (derr == nil) || (err == nil && !bytes.Equal(got, want)) {
			t.Errorf("%s: NewReader %q %v, Decode %q %v", v.Name, got, err, want, derr)
		}
	}
}
