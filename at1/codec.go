package at1

import "strconv"

// Codec is the codec id in byte 4 of a file.
type Codec byte

// Codec ids. Decode reconstructs Columnar, QColumnar, QJSON, QJSON2 and
// Raw; the others return ErrUnsupported naming the codec.
const (
	CodecSSH       Codec = 0
	CodecJSON      Codec = 1
	CodecOSM       Codec = 2
	CodecLog       Codec = 3
	CodecColumnar  Codec = 4
	CodecVCF       Codec = 5
	CodecJSONDoc   Codec = 6
	CodecQColumnar Codec = 7
	CodecQJSON     Codec = 8
	CodecDICOM     Codec = 9
	CodecEmbed     Codec = 10
	CodecQJSON2    Codec = 11
	CodecBundle    Codec = 12
	CodecRaw       Codec = 255
)

// codecNames are the codecs' names by id ("" for an unknown id): static
// data, so the package's initialisation builds nothing.
var codecNames = [...]string{
	CodecSSH: "ssh", CodecJSON: "json", CodecOSM: "osm", CodecLog: "log",
	CodecColumnar: "columnar", CodecVCF: "vcf", CodecJSONDoc: "jsondoc",
	CodecQColumnar: "qcolumnar", CodecQJSON: "qjson", CodecDICOM: "dicom",
	CodecEmbed: "embed", CodecQJSON2: "qjson2", CodecBundle: "bundle", CodecRaw: "raw",
}

// String returns the codec's name, or "codec(N)" for an unknown id.
func (c Codec) String() string {
	if int(c) < len(codecNames) && codecNames[c] != "" {
		return codecNames[c]
	}
	return "codec(" + strconv.Itoa(int(c)) + ")"
}

// Supported reports whether this package reconstructs the codec.
func (c Codec) Supported() bool {
	switch c {
	case CodecColumnar, CodecQColumnar, CodecQJSON, CodecQJSON2, CodecRaw:
		return true
	}
	return false
}
