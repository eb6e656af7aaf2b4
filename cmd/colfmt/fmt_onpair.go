package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/colfmt/colfmt/onpair"
)

// onpairMaxFile bounds the serialized column the command reads into memory.
const onpairMaxFile int64 = 2 << 30

func init() {
	register(&format{
		Name:    "onpair",
		Summary: "OnPair compressed string column (this library's OPCOL framing)",
		Detect: func(head, _ []byte, _ int64) bool {
			return bytes.HasPrefix(head, []byte(onpair.Magic))
		},
		Inspect:   onpairInspect,
		Cat:       onpairCat,
		Validate:  func(in *input) error { _, _, err := onpairOpen(in); return err },
		PackFlags: onpairPackFlags,
		Demo:      onpairDemo,
		Commands: []command{{
			Name:    "grep",
			Summary: "print OnPair rows matching PATTERN (searched on the codes)",
			Run: func(args []string, stdout, stderr io.Writer) int {
				return report(onpairGrep(args, stdout, stderr), stderr)
			},
		}},
	})
}

// onpairGrep runs `colfmt grep [--contains|--prefix|--equal] [--count]
// PATTERN FILE`: it prints each matching row as ROW<TAB>VALUE (rows from
// 0), or with --count only the number of matching rows. The match runs on
// the compressed codes (onpair.Column.Contains, HasPrefix, Equal). FILE
// may be - for standard input.
func onpairGrep(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("grep", stderr, "grep [--contains|--prefix|--equal] [--count] PATTERN FILE\n"+
		"  PATTERN is matched as bytes (no regular expressions); --contains is the default.")
	contains := fs.Bool("contains", false, "rows containing PATTERN (the default)")
	prefix := fs.Bool("prefix", false, "rows starting with PATTERN")
	equal := fs.Bool("equal", false, "rows equal to PATTERN")
	count := fs.Bool("count", false, "print only the number of matching rows")
	// Flags are accepted before or after PATTERN and FILE.
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 2 {
		return usagef("grep takes PATTERN and FILE")
	}
	modes := 0
	for _, m := range []bool{*contains, *prefix, *equal} {
		if m {
			modes++
		}
	}
	if modes > 1 {
		return usagef("grep: --contains, --prefix and --equal exclude each other")
	}
	pattern, path := []byte(pos[0]), pos[1]
	in, closeIn, err := openInput(path, cmdStdin, false)
	if err != nil {
		return withFile(path, err)
	}
	defer closeIn()
	c, _, err := onpairOpen(in)
	if err != nil {
		return withFile(path, err)
	}
	var set onpair.RowSet
	switch {
	case *prefix:
		set = c.HasPrefix(pattern)
	case *equal:
		set = c.Equal(pattern)
	default:
		set = c.Contains(pattern)
	}
	if *count {
		_, err := fmt.Fprintln(stdout, set.Count())
		return err
	}
	var line, row []byte
	for r := range set.All() {
		row, _ = c.AppendRow(row[:0], r) // r < c.Len()
		line = strconv.AppendInt(line[:0], int64(r), 10)
		line = append(line, '\t')
		line = append(append(line, row...), '\n')
		if _, err := stdout.Write(line); err != nil {
			return err
		}
	}
	return nil
}

func onpairOpen(in *input) (*onpair.Column, []byte, error) {
	if in.Size > onpairMaxFile {
		return nil, nil, fmt.Errorf("%w: %s is %d bytes, more than the %d this command reads", onpair.ErrTooLarge, in.Name, in.Size, onpairMaxFile)
	}
	b := make([]byte, in.Size)
	if _, err := in.R.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("colfmt: %s: %w", in.Name, err)
	}
	c, err := onpair.ParseColumn(b)
	if err != nil {
		return nil, nil, withFile(in.Name, err) // grep calls this outside fileCommand
	}
	return c, b, nil
}

// onpairInspect prints onpair.Column.Describe.
func onpairInspect(w io.Writer, in *input) error {
	c, _, err := onpairOpen(in)
	if err != nil {
		return err
	}
	return c.Describe(w)
}

func onpairCat(w io.Writer, in *input, _ catOptions) error {
	c, _, err := onpairOpen(in)
	if err != nil {
		return err
	}
	for _, row := range c.All() {
		if _, err := w.Write(row); err != nil {
			return err
		}
		if _, err := w.Write([]byte{'\n'}); err != nil {
			return err
		}
	}
	return nil
}

// onpairPackFlags: one row per input line ('\n'-separated; a final newline
// does not start an empty row).
func onpairPackFlags(fs *flag.FlagSet) packFunc {
	bits := fs.Int("bits", onpair.DefaultBits, "dictionary budget 2^bits tokens, 9..16")
	frac := fs.Float64("sample-fraction", onpair.DefaultSampleFraction, "share of the input scanned by training, (0,1]")
	return packWhole(func(w io.Writer, data []byte) error {
		c, err := onpairPack(data, onpair.WithBits(*bits), onpair.WithSampleFraction(*frac))
		if errors.Is(err, onpair.ErrInvalidOption) {
			return usagef("%v", err) // a flag out of range is a usage error
		}
		if err != nil {
			return err
		}
		b, err := c.MarshalBinary()
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}

func onpairPack(data []byte, opts ...onpair.Option) (*onpair.Column, error) {
	if uint64(len(data)) > 1<<32-1 {
		return nil, fmt.Errorf("%w: input of %d bytes (at most 4 GiB)", onpair.ErrTooLarge, len(data))
	}
	offsets := []uint32{0}
	rows := make([]byte, 0, len(data))
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data)
		}
		rows = append(rows, data[:i]...)
		offsets = append(offsets, uint32(len(rows)))
		data = data[min(i+1, len(data)):]
	}
	return onpair.Compress(rows, offsets, opts...)
}

// onpairSample generates the demo column: 4,000 synthetic customer
// records (name, city, e-mail, URL), about 400 KB, from a fixed seed.
func onpairSample() []byte {
	first := []string{"Anna", "Ben", "Carla", "David", "Elena", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Klara", "Lukas", "Maria", "Noah", "Olga", "Paul"}
	last := []string{"Schmidt", "Meyer", "Rossi", "Garcia", "Novak", "Jensen", "Dubois", "Kowalski", "Silva", "Smith", "Bianchi", "Horvat"}
	city := []string{"Berlin", "Milano", "Lyon", "Porto", "Krakow", "Aarhus", "Zagreb", "Madrid", "Leeds", "Graz"}
	host := []string{"example.com", "mail.example.org", "shop.example.net", "corp.example.io"}
	r := rand.New(rand.NewPCG(42, 42))
	var b bytes.Buffer
	for i := 0; i < 4000; i++ {
		f, l, c, h := first[r.IntN(len(first))], last[r.IntN(len(last))], city[r.IntN(len(city))], host[r.IntN(len(host))]
		fmt.Fprintf(&b, "%s %s;%s;%s.%s%d@%s;https://%s/customers/%d?ref=%s\n", f, l, c, f, l, r.IntN(100), h, h, r.IntN(1000000), c)
	}
	return b.Bytes()
}

func onpairDemo() (demoRow, error) {
	sample := onpairSample()
	t0 := time.Now()
	c, err := onpairPack(sample)
	if err != nil {
		return demoRow{}, err
	}
	enc, err := c.MarshalBinary()
	if err != nil {
		return demoRow{}, err
	}
	encTime := time.Since(t0)
	t1 := time.Now()
	back, err := onpair.ParseColumn(enc)
	if err != nil {
		return demoRow{}, err
	}
	var out bytes.Buffer
	out.Grow(len(sample))
	for _, row := range back.All() {
		out.Write(row)
		out.WriteByte('\n')
	}
	decTime := time.Since(t1)
	if !bytes.Equal(out.Bytes(), sample) {
		return demoRow{}, errors.New("onpair: demo round trip differs from the input")
	}
	mbps := func(d time.Duration) float64 { return float64(len(sample)) / 1e6 / max(d.Seconds(), 1e-9) }
	return demoRow{
		Format: "onpair", Input: "4000 synthetic customer rows",
		InputBytes: len(sample), EncodedBytes: len(enc),
		EncodeMBps: mbps(encTime), DecodeMBps: mbps(decTime),
	}, nil
}
