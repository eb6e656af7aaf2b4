package at1

import (
	"bytes"
	"testing"
)

func TestAppendRawRoundTrip(t *testing.T) {
	inputs := [][]byte{nil, []byte("x"), []byte("a,b\r\n1,2"), bytes.Repeat([]byte("id,price\n1,2.50\n"), 5000)}
	// Ends with the trailer magic: the trailer written after it keeps it
	// from being mistaken for one.
	inputs = append(inputs, append([]byte("data"), trailerMagic...))
	for _, in := range inputs {
		for _, b := range []byte{BackendXZ, BackendZstd, BackendStored, RawAuto} {
			file, err := AppendRaw(nil, in, b)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasSuffix(file, trailerMagic) || file[4] != byte(CodecRaw) {
				t.Fatalf("backend %d: no RAW header or trailer", b)
			}
			got, err := Decode(file)
			if err != nil || !bytes.Equal(got, in) {
				t.Fatalf("backend %d, %d bytes: %v", b, len(in), err)
			}
		}
	}
	big := inputs[3]
	auto, _ := AppendRaw(nil, big, RawAuto)
	stored, _ := AppendRaw(nil, big, BackendStored)
	if len(auto) >= len(stored)/10 {
		t.Fatalf("auto picked %d bytes for repetitive input (stored %d)", len(auto), len(stored))
	}
	if _, err := AppendRaw(nil, big, 7); err == nil {
		t.Fatal("backend 7 accepted")
	}
}
