package onpair_test

import (
	"fmt"

	"github.com/colfmt/colfmt/onpair"
)

func Example() {
	values := []string{"https://example.com/a", "https://example.com/b", "https://example.org/", ""}
	col, err := onpair.CompressStrings(values)
	if err != nil {
		panic(err)
	}
	row, _ := col.AppendRow(nil, 1)
	fmt.Println(col.Len(), string(row))
	for i, v := range col.All() {
		fmt.Printf("%d %q\n", i, v)
	}
	// Output:
	// 4 https://example.com/b
	// 0 "https://example.com/a"
	// 1 "https://example.com/b"
	// 2 "https://example.org/"
	// 3 ""
}

// Decoding the spec's buffers directly: tokens "he", "llo", " ", "world".
func ExampleDecompress() {
	p := onpair.Parts{
		DictBytes:   append([]byte("hello world"), make([]byte, 11)...), // padding to o[N-1]+16
		DictOffsets: []uint32{0, 2, 5, 6, 11},
		Codes:       []uint16{0, 1, 2, 3},
		Bits:        9,
	}
	out, err := onpair.Decompress(p)
	fmt.Printf("%s %v\n", out, err)
	// Output: hello world <nil>
}

func ExamplePackCodes() {
	packed := onpair.PackCodes([]uint16{0, 1, 3, 0, 1, 2, 3}, 9)
	fmt.Printf("% x\n", packed)
	codes, _ := onpair.UnpackCodes(packed, 9, 7)
	fmt.Println(codes)
	// Output:
	// 00 02 0c 00 10 40 c0 00
	// [0 1 3 0 1 2 3]
}

func ExampleParts_Validate() {
	p := onpair.Parts{DictBytes: make([]byte, 16), DictOffsets: []uint32{0, 1}, Codes: []uint16{1}, Bits: 9}
	fmt.Println(p.Validate())
	// Output: onpair: corrupt input: code out of range: code 1 with 1 tokens (at codes[0])
}

func ExampleTrain() {
	var training []string
	for i := 0; i < 100; i++ {
		training = append(training, fmt.Sprintf("sensor-%02d temperature=%d", i%10, 20+i%7))
	}
	dict, err := onpair.TrainStrings(training)
	if err != nil {
		panic(err)
	}
	// Reuse the dictionary on new data.
	col, err := dict.CompressStrings([]string{"sensor-03 temperature=22"})
	if err != nil {
		panic(err)
	}
	row, _ := col.AppendRow(nil, 0)
	fmt.Println(string(row), col.Parts().NumTokens() == dict.Len())
	// Output: sensor-03 temperature=22 true
}

func ExampleParseColumn() {
	col, _ := onpair.CompressStrings([]string{"alpha", "beta"})
	blob, _ := col.MarshalBinary()
	back, err := onpair.ParseColumn(blob, onpair.WithMaxRows(1000))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(blob[:5]), back.Len())
	// Output: OPCOL 2
}

// Search a column without decoding it: the predicates run on the codes and
// return the matching rows as a bitset.
func ExampleColumn_Contains() {
	c, err := onpair.CompressStrings([]string{"alice@example.com", "bob@example.org", "carol@example.com", "dave@test.net"})
	if err != nil {
		panic(err)
	}
	for r := range c.Contains([]byte("example")).All() {
		row, _ := c.Row(r)
		fmt.Println(r, string(row))
	}
	fmt.Println(c.HasPrefix([]byte("bob")).Count(), c.Equal([]byte("dave@test.net")).Count())
	// Output:
	// 0 alice@example.com
	// 1 bob@example.org
	// 2 carol@example.com
	// 1 1
}

// A Decoder validates and lays out a dictionary once, then decodes any
// number of code blocks with it, from []uint16 or straight from the packed
// form.
func ExampleDecoder() {
	c, err := onpair.CompressStrings([]string{"hello world", "hello there"})
	if err != nil {
		panic(err)
	}
	p := c.Parts()
	d, err := onpair.NewDecoder(p)
	if err != nil {
		panic(err)
	}
	out, err := d.AppendDecode(nil, p.Codes)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	packed := onpair.PackCodes(p.Codes, p.Bits)
	out, err = d.AppendDecodePacked(out[:0], packed, len(p.Codes))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// hello worldhello there
	// hello worldhello there
}
