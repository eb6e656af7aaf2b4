package at1

import "github.com/colfmt/colfmt/internal/opt"

// CodecAuto asks the encoder to choose the codec from the input (it is an
// encoder option value, never a codec id on the wire).
const CodecAuto Codec = 254

// Encoder defaults; each can be changed with an Option.
const (
	// DefaultChunkSize is the input size above which Encode writes a
	// framed container, and the size of each frame's input; NewWriter
	// holds about one chunk (plus its compressed forms) in memory.
	DefaultChunkSize = 16 << 20
	// DefaultLevel is the compression effort (1..9) of the backends.
	DefaultLevel = 6
	// DefaultBlockSize is the raw size each qcolumnar/qjson column block
	// aims for when the row-group size is automatic.
	DefaultBlockSize = 64 << 10
)

type encConfig struct {
	codec     Codec
	rowGroup  int   // rows per row group; 0 = automatic
	chunkSize int64 // input bytes per frame
	level     int
	levelSet  bool // WithLevel was given
	extreme   bool // xz's extreme variant of the level (xz -9e)
	// extremeSet: WithExtreme was given; otherwise levels 6..9 use the
	// extreme variant (1-2% smaller on tables at about the same speed).
	extremeSet bool
	verify     bool
	// xzBaseline compresses the input plain with xz too, whatever the
	// structured encoding gives; xzBaselineSet: WithXZBaseline was given
	// (otherwise an estimate decides, see WithXZBaseline).
	xzBaseline    bool
	xzBaselineSet bool
	progress      func(done, total int64)
	// noTokens: columnar never uses token tables (WithTokenTables).
	noTokens bool
	// layout, when set (tests only), keeps only the structured layout of
	// that name ("split", "tokens", "jsontokens", "qjson", "qcolumnar").
	layout string
	// force keeps the structured encoding even when RAW is smaller
	// (WithKeepCodec; tests use it to exercise the codecs on any input).
	force bool
}

func defaultEncConfig() encConfig {
	return encConfig{codec: CodecAuto, chunkSize: DefaultChunkSize, level: DefaultLevel, verify: true, xzBaseline: true}
}

// WithCodec selects the encoder's codec: CodecAuto (the default: detect
// the input's structure, fall back to RAW), CodecColumnar, CodecQColumnar,
// CodecQJSON or CodecRaw. Whatever is asked for, the result is never
// larger than the RAW encoding: a codec that does not pay is replaced by
// RAW, unless WithKeepCodec(true) is given as well.
func WithCodec(codec Codec) Option {
	return func(c *config) error {
		switch codec {
		case CodecAuto, CodecColumnar, CodecQColumnar, CodecQJSON, CodecRaw:
			c.enc.codec = codec
			return nil
		}
		return opt.Invalid(ErrInvalidOption, "WithCodec", codec, "the encoder writes auto, columnar, qcolumnar, qjson or raw")
	}
}

// WithKeepCodec(true) keeps the structured encoding of the codec
// WithCodec names (or, under CodecAuto, of the structure detected) even
// when RAW would be smaller, so that a file asked for as qcolumnar or
// qjson is queryable whatever its size. The default, false, writes RAW
// where the structure does not pay: on 35 of 74 real CSV, TSV and JSON
// Lines files (2026-12-01), qcolumnar's blocks and zone maps cost more
// than they saved. An input in which the codec finds no structure
// (binary data, for instance) is still written RAW.
func WithKeepCodec(keep bool) Option {
	return func(c *config) error {
		c.enc.force = keep
		return nil
	}
}

// WithRowGroupSize sets the structured lines per row group of qcolumnar
// and qjson (1..2^24; 0, the default, sizes groups so each column block
// holds about DefaultBlockSize bytes).
func WithRowGroupSize(n int) Option {
	return func(c *config) error {
		if n < 0 || n > 1<<24 {
			return opt.Invalid(ErrInvalidOption, "WithRowGroupSize", n, "must be in 0..%d", 1<<24)
		}
		c.enc.rowGroup = n
		return nil
	}
}

// WithChunkSize sets the input bytes per frame of a framed container
// (64 KiB..1 GiB; default DefaultChunkSize). Encode writes a whole-file
// container for input up to this size.
func WithChunkSize(n int64) Option {
	return func(c *config) error {
		if n < 64<<10 || n > 1<<30 {
			return opt.Invalid(ErrInvalidOption, "WithChunkSize", n, "must be in %d..%d", 64<<10, 1<<30)
		}
		c.enc.chunkSize = n
		return nil
	}
}

// WithLevel sets the compression effort of the xz and zstd backends
// (1 fastest .. 9 smallest; default DefaultLevel). From level 6 each xz
// stream also tries several LZMA literal models and streams of up to 64
// KiB an optimal-parsing zstd encoder; levels 1-5 skip both. Level 9
// (with the extreme variant, its default) also compresses each xz stream
// with a multi-arrival parser and keeps it when smaller: 0.51% smaller
// than level 6 on 74 real tables and text files (up to 3.9%), for 1.9x
// the CPU.
func WithLevel(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 9 {
			return opt.Invalid(ErrInvalidOption, "WithLevel", n, "must be in 1..9")
		}
		c.enc.level, c.enc.levelSet = n, true
		return nil
	}
}

// WithExtreme selects the extreme variant of the xz level (what xz -6e or
// -9e means: a deeper match search for a slightly smaller stream); zstd
// and stored streams are unaffected. By default levels 6..9 use it (on
// tables it gives 1-2% smaller output for about 20% more CPU) and levels
// 1..5 do not.
func WithExtreme(on bool) Option {
	return func(c *config) error {
		c.enc.extreme, c.enc.extremeSet = on, true
		return nil
	}
}

// xzExtreme is whether xz streams use the extreme variant of the level.
func (e *encConfig) xzExtreme() bool {
	if e.extremeSet {
		return e.extreme
	}
	return e.level >= 6
}

// WithVerify turns the encoder's self-check on or off (default on): it
// decodes its own output and compares it with the input before returning.
func WithVerify(on bool) Option {
	return func(c *config) error {
		c.enc.verify = on
		return nil
	}
}

// WithProgress has the encoder call fn(done, total) with the input bytes
// encoded so far (total is -1 when unknown, as for NewWriter). Calls
// are never concurrent; the last has done == total when total is known.
func WithProgress(fn func(done, total int64)) Option {
	return func(c *config) error {
		c.enc.progress = fn
		return nil
	}
}

// WithXZBaseline sets whether the encoder always compresses the input
// plain with xz as well, which makes the output never larger than plain
// xz; that plain xz takes about half the encoding time of a table. Off,
// the plain baseline is zstd and stored, and xz is tried plain only when
// the structured encoding does not beat those: the output is then only
// guaranteed no larger than plain zstd and stored.
//
// Without this option an estimate decides. When the structure's zstd
// estimate is not well below the plain zstd, the plain xz is made at
// once, beside the structure's streams. Otherwise it is estimated: up to
// 1 MiB exactly with xz's default literal model (a stream the plain xz
// reuses when it is made after all), and it is skipped when the
// structured encoding is under 0.95 times that (the other literal models
// gain 0.1-2%); larger inputs by plain xz of four evenly spread samples
// of up to 128 KiB (an eighth of the input each at most), at the level
// without its extreme variant, and it is skipped when the structured
// encoding is under 0.75 times that (a whole file compresses better than
// its samples, but not by a quarter on any table or log measured).
func WithXZBaseline(on bool) Option {
	return func(c *config) error {
		c.enc.xzBaseline, c.enc.xzBaselineSet = on, true
		return nil
	}
}

// WithTokenTables sets whether columnar may use token tables (default
// on): an empty delimiter (delim_len 0, fields simply concatenated, as
// the spec's delim.join defines it), so a line is cut into pieces of
// its own choosing - each field, each delimiter, digit runs inside a
// field ("1438" "." "359985"), a JSON line's segments and values - and
// the encoder keeps whichever layout is smaller. Off, columnar splits
// lines at the detected delimiter only (and JSON Lines go to qjson),
// for decoders that do not accept an empty delimiter.
func WithTokenTables(on bool) Option {
	return func(c *config) error {
		c.enc.noTokens = !on
		return nil
	}
}
