package xz

import (
	"errors"
	"strings"

	"github.com/colfmt/colfmt/internal/errs"
	"github.com/colfmt/colfmt/internal/opt"
)

// Sentinel errors. The encoder reports caller mistakes only; it never reads
// untrusted input, so ErrCorrupt is declared for symmetry with the other
// packages and for the test decoders.
var (
	ErrCorrupt         = errors.New("xz: corrupt input")
	ErrTooLarge        = errors.New("xz: too large")
	ErrUnsupported     = errors.New("xz: unsupported")
	ErrInvalidArgument = errors.New("xz: invalid argument")
	ErrInvalidOption   = errs.Sub(ErrInvalidArgument, "xz: invalid option")
)

// Check selects the integrity check stored after every block.
type Check byte

// The checks .xz defines that this package writes (the values are the
// stream-flag check IDs).
const (
	CheckNone  Check = 0x00
	CheckCRC32 Check = 0x01
	CheckCRC64 Check = 0x04
)

func (c Check) size() int {
	switch c {
	case CheckCRC32:
		return 4
	case CheckCRC64:
		return 8
	}
	return 0
}

// Defaults and limits.
const (
	// DefaultPreset is xz's default level, 6.
	DefaultPreset = 6
	// MinBlockSize is the smallest block size WithBlockSize accepts.
	MinBlockSize = 4 << 10
	// MaxBlockSize is the largest block size WithBlockSize accepts (the
	// match finders index positions with uint32).
	MaxBlockSize = 1<<31 - 1
	// MaxConcurrency bounds WithConcurrency.
	MaxConcurrency = 256
)

// Option configures AppendEncode and NewWriter.
type Option func(*config) error

type config struct {
	preset      int
	extreme     bool
	check       Check
	blockSize   int   // 0: the preset's default (3 x dictionary, at least 1 MiB)
	cuts        []int // WithBlockCuts
	concurrency int
	maxDecoded  int64            // decoder: WithMaxDecodedSize
	progress    func(out []byte) // decoder: WithProgress
	origin      int              // decoder: len(dst) when the call started
	lc, lp, pb  uint8            // with lcSet: WithLiteralContext's and WithLiteralModel's values
	lcSet       bool
	nice, depth int // with searchSet: WithMatchSearch's values
	searchSet   bool
	arrivals    int // WithArrivals
}

func newConfig(opts []Option) (config, error) {
	c := config{preset: DefaultPreset, check: CheckCRC64, concurrency: 1}
	if err := opt.Apply(&c, opts); err != nil {
		return c, err
	}
	return c, nil
}

// WithPreset selects the compression level 0..9 with the meaning xz gives
// it: dictionary size, match finder, nice length, search depth and parser
// (see the table in the package documentation). The default is 6.
func WithPreset(level int) Option {
	return func(c *config) error {
		if level < 0 || level > 9 {
			return opt.Invalid(ErrInvalidOption, "WithPreset", level, "must be in 0..9")
		}
		c.preset = level
		return nil
	}
}

// WithExtreme selects xz's "extreme" variant of the preset (xz -e): the
// optimal parser with a binary-tree match finder, longer nice length and
// deeper search, for a few percent smaller output at a lower speed.
func WithExtreme(extreme bool) Option {
	return func(c *config) error {
		c.extreme = extreme
		return nil
	}
}

// WithLiteralContext sets the LZMA literal context bits lc (0..4) and
// position bits pb (0..2), with no literal position bits: it is
// WithLiteralModel(lc, 0, pb). Every xz preset uses lc=3, pb=2, the
// default. Text often compresses a little smaller with pb=0 (its bytes
// have no 2- or 4-byte alignment), and lc=4 or lc=0..2 suit some data;
// xz --lzma2=preset=6,lc=4,pb=0 writes the same model.
func WithLiteralContext(lc, pb int) Option {
	return literalModel("WithLiteralContext", lc, 0, pb)
}

// WithLiteralModel sets the whole LZMA literal model: context bits lc
// (0..4), literal position bits lp (0..4, lc+lp at most 4, as LZMA2
// requires) and position bits pb (0..2). lp > 0 suits data of 2- or
// 4-byte units (UTF-16, tables of fixed-width integers); xz
// --lzma2=preset=6,lc=0,lp=2,pb=2 writes the same model.
func WithLiteralModel(lc, lp, pb int) Option {
	return literalModel("WithLiteralModel", lc, lp, pb)
}

func literalModel(name string, lc, lp, pb int) Option {
	return func(c *config) error {
		if lc < 0 || lc > maxLC {
			return opt.Invalid(ErrInvalidOption, name, lc, "lc must be in 0..%d", maxLC)
		}
		if lp < 0 || lc+lp > maxLC {
			return opt.Invalid(ErrInvalidOption, name, lp, "lp must be in 0..%d-lc", maxLC)
		}
		if pb < 0 || pb > maxPB {
			return opt.Invalid(ErrInvalidOption, name, pb, "pb must be in 0..%d", maxPB)
		}
		c.lc, c.lp, c.pb, c.lcSet = uint8(lc), uint8(lp), uint8(pb), true
		return nil
	}
}

// WithArrivals selects the optimal parser's breadth: 1 (the default) is
// liblzma's parser, which keeps the cheapest way of reaching each
// position of its window and so writes what xz writes; k in 2..MaxArrivals
// keeps the k cheapest ways with their own state and reps, and prices with
// tables refreshed before every decision. It only applies to presets that
// parse optimally (4..9, or any with WithExtreme).
func WithArrivals(k int) Option {
	return func(c *config) error {
		if k < 1 || k > MaxArrivals {
			return opt.Invalid(ErrInvalidOption, "WithArrivals", k, "must be in 1..%d", MaxArrivals)
		}
		c.arrivals = k
		return nil
	}
}

// WithMatchSearch sets the match finder's nice length (MinNiceLen..
// MaxNiceLen: a match this long is taken without looking further) and
// search depth (0: the default for the nice length, 16+nice/2 for the
// binary-tree finders and 4+nice/4 for the hash chains; else the most
// candidates looked at per position, up to MaxDepth), in place of the
// preset's: xz --lzma2=preset=P,nice=N,depth=D writes the same data. A
// shorter nice length or shallower search is faster, and on some small
// inputs smaller: the optimal parser then weighs more short matches (on
// 300 small text files from /usr/share, the smallest of five nice lengths
// and the presets' 273 at depth 0 was 0.2% smaller than xz -9e's).
func WithMatchSearch(nice, depth int) Option {
	return func(c *config) error {
		if nice < MinNiceLen || nice > MaxNiceLen {
			return opt.Invalid(ErrInvalidOption, "WithMatchSearch", nice, "nice must be in %d..%d", MinNiceLen, MaxNiceLen)
		}
		if depth < 0 || depth > MaxDepth {
			return opt.Invalid(ErrInvalidOption, "WithMatchSearch", depth, "depth must be in 0..%d", MaxDepth)
		}
		c.nice, c.depth, c.searchSet = nice, depth, true
		return nil
	}
}

// The ranges WithMatchSearch accepts (liblzma allows nice lengths from 2;
// the depth is bounded to keep a search's cost finite).
const (
	MinNiceLen = 8
	MaxNiceLen = matchLenMax
	MaxDepth   = 1 << 12
)

// WithCheck selects the integrity check (default CheckCRC64, as xz).
func WithCheck(check Check) Option {
	return func(c *config) error {
		switch check {
		case CheckNone, CheckCRC32, CheckCRC64:
			c.check = check
			return nil
		}
		return opt.Invalid(ErrInvalidOption, "WithCheck", int(check), "must be CheckNone, CheckCRC32 or CheckCRC64")
	}
}

// WithBlockSize splits the input into independent .xz blocks of n
// uncompressed bytes (the last may be shorter), as xz --block-size does.
// The output depends on the block size but never on the concurrency. The
// default is three times the preset's dictionary size, at least 1 MiB, the
// figure xz -T uses; AppendEncode of an input shorter than that writes one
// block. Every block starts with an empty dictionary, so fewer, larger
// blocks compress better: WithBlockSize(max(len(src), MinBlockSize))
// gives AppendEncode one block, as single-threaded xz writes.
func WithBlockSize(n int) Option {
	return func(c *config) error {
		if n < MinBlockSize || n > MaxBlockSize {
			return opt.Invalid(ErrInvalidOption, "WithBlockSize", n, "must be in %d..%d", MinBlockSize, MaxBlockSize)
		}
		c.blockSize = n
		return nil
	}
}

// WithBlockCuts makes AppendEncode start a new block at each of the
// offsets cuts (increasing, positive; offsets at or past the end of the
// input are ignored), as well as every block size (WithBlockSize) bytes
// after each of them: a caller that knows where its data changes can
// place the blocks, which a decoder may then decode in parallel. The
// Writer ignores it.
func WithBlockCuts(cuts ...int) Option {
	return func(c *config) error {
		for i, v := range cuts {
			if v <= 0 || i > 0 && v <= cuts[i-1] {
				return opt.Invalid(ErrInvalidOption, "WithBlockCuts", v, "cuts must be positive and increasing")
			}
		}
		c.cuts = append([]int(nil), cuts...)
		return nil
	}
}

// WithConcurrency compresses up to n blocks at once (default 1). Memory
// grows with n (see the package documentation); the output does not change.
//
// The decoder takes it too: a stream whose index lists several blocks is
// decoded up to n blocks at once, each into its own region of the output
// (see the package documentation); the output, the errors and what
// WithProgress sees first do not change.
func WithConcurrency(n int) Option {
	return func(c *config) error {
		if n < 1 || n > MaxConcurrency {
			return opt.Invalid(ErrInvalidOption, "WithConcurrency", n, "must be in 1..%d", MaxConcurrency)
		}
		c.concurrency = n
		return nil
	}
}

// mfKind names a match finder.
type mfKind uint8

const (
	mfHC3 mfKind = iota
	mfHC4
	mfBT4
)

// params are the LZMA encoder settings a preset stands for (liblzma's
// lzma_lzma_preset).
type params struct {
	dictSize   uint32
	nice       int
	depth      int
	mf         mfKind
	fast       bool
	lc, lp, pb uint8 // literal context bits, literal position bits, position bits
	// liblzmaTables sizes the hash tables for the whole dictionary, as
	// liblzma does, instead of for a smaller block. The parse is then
	// liblzma's symbol for symbol (TestLiblzmaParity); the smaller
	// tables only change which candidates the depth-limited searches of
	// the non-extreme presets see.
	liblzmaTables bool
	// arrivals > 1 selects the multi-arrival parser (optimum_multi.go).
	arrivals int
}

var dictPow2 = [10]uint8{18, 20, 21, 22, 22, 23, 23, 24, 25, 26}

func presetParams(level int, extreme bool) params {
	p := params{dictSize: 1 << dictPow2[level], lc: defaultLC, pb: defaultPB}
	if level <= 3 {
		p.fast = true
		p.mf = mfHC4
		if level == 0 {
			p.mf = mfHC3
		}
		if level <= 1 {
			p.nice = 128
		} else {
			p.nice = 273
		}
		p.depth = [4]int{4, 8, 24, 48}[level]
	} else {
		p.mf = mfBT4
		switch level {
		case 4:
			p.nice = 16
		case 5:
			p.nice = 32
		default:
			p.nice = 64
		}
	}
	if extreme {
		p.fast = false
		p.mf = mfBT4
		if level == 3 || level == 5 {
			p.nice = 192
			p.depth = 0
		} else {
			p.nice = 273
			p.depth = 512
		}
	}
	p.autoDepth()
	return p
}

// autoDepth sets a depth of 0 to liblzma's default for the nice length
// and match finder.
func (p *params) autoDepth() {
	if p.depth == 0 {
		if p.mf == mfBT4 {
			p.depth = 16 + p.nice/2
		} else {
			p.depth = 4 + p.nice/4
		}
	}
}

func (c *config) params() params {
	p := presetParams(c.preset, c.extreme)
	if c.lcSet {
		p.lc, p.lp, p.pb = c.lc, c.lp, c.pb
	}
	if c.searchSet {
		p.nice, p.depth = c.nice, c.depth
		p.autoDepth()
	}
	if !p.fast {
		p.arrivals = c.arrivals
	}
	return p
}

// defaultBlockSize is xz -T's block size for the preset: 3 x dictionary,
// at least 1 MiB.
func (c *config) effBlockSize() int {
	if c.blockSize != 0 {
		return c.blockSize
	}
	n := 3 * int(c.params().dictSize)
	if n < 1<<20 {
		n = 1 << 20
	}
	return n
}

// blockBounds is where the blocks of an input of n bytes end: every
// block size bytes from the start and from each cut.
func (c *config) blockBounds(n int) []int {
	bs := c.effBlockSize()
	var ends []int
	from := 0
	for _, cut := range append(c.cuts, n) {
		if cut > n {
			cut = n
		}
		for from < cut {
			from += min(bs, cut-from)
			ends = append(ends, from)
		}
	}
	return ends
}

// ParsePreset reads a preset the way xz's command line writes it: a digit
// 0..9, optionally followed by "e" for extreme ("6", "9e"). A leading "-"
// is accepted ("-9e").
func ParsePreset(s string) (level int, extreme bool, err error) {
	t := strings.TrimPrefix(s, "-")
	if strings.HasSuffix(t, "e") {
		extreme = true
		t = t[:len(t)-1]
	}
	if len(t) != 1 || t[0] < '0' || t[0] > '9' {
		return 0, false, errs.Wrap(ErrInvalidArgument, "preset %s: want 0..9, optionally followed by e", errs.Quote(s))
	}
	return int(t[0] - '0'), extreme, nil
}
