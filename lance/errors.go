package lance

import (
	"errors"
	"fmt"

	"github.com/colfmt/colfmt/internal/errs"
)

// Package sentinels. Every error this package returns wraps one of them;
// errors.Is works through the located *CorruptError.
var (
	ErrCorrupt     = errors.New("lance: corrupt input")
	ErrTooLarge    = errors.New("lance: size exceeds limit")
	ErrUnsupported = errors.New("lance: unsupported")
	// ErrInvalidArgument reports a caller mistake: a nil reader, a negative
	// size, a bad read option.
	ErrInvalidArgument = errors.New("lance: invalid argument")
	// ErrInvalidOption reports an Option given an out-of-range argument.
	ErrInvalidOption = errs.Sub(ErrInvalidArgument, "lance: invalid option")
)

// Named validation failures. Each wraps ErrCorrupt, so a caller that only
// cares about "bad file" tests ErrCorrupt; tests and tools can tell the
// rules apart.
var (
	// ErrBufferRange: a buffer, table or metadata range lies outside the file.
	ErrBufferRange = fmt.Errorf("%w: range outside the file", ErrCorrupt)
	// ErrBufferSize: a buffer is shorter than its row count and bit width need.
	ErrBufferSize = fmt.Errorf("%w: buffer too short", ErrCorrupt)
	// ErrOffsets: list or binary offsets break the adjustment rules or are
	// not monotone.
	ErrOffsets = fmt.Errorf("%w: bad offsets", ErrCorrupt)
	// ErrDictIndex: a dictionary index points past the dictionary.
	ErrDictIndex = fmt.Errorf("%w: dictionary index out of range", ErrCorrupt)
	// ErrLength: page lengths do not add up to the rows the schema declares.
	ErrLength = fmt.Errorf("%w: row counts disagree", ErrCorrupt)
	// ErrProto: a protobuf message does not parse or misses a required part.
	ErrProto = fmt.Errorf("%w: bad protobuf", ErrCorrupt)
)

// CorruptError locates a problem: byte offset and column/page path.
type CorruptError = errs.CorruptError
