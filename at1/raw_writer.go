package at1

import (
	"crypto/sha256"
	"fmt"
)

// RawAuto asks AppendRaw for the smallest of the three backends.
const RawAuto = 0xFF

// AppendRaw appends src to dst as a whole-file RAW (codec 255) AT-1 file
// with the SHA-256 integrity trailer - the format's fallback container,
// which any AT-1 decoder reads. backend is BackendXZ, BackendZstd,
// BackendStored or RawAuto (the smallest). The zstd frame always carries
// its content size, as the reference decoder requires. Encode chooses a
// structured codec (or RAW) itself; AppendRaw is for a fixed backend.
// WithLevel and WithExtreme set the xz preset (default DefaultLevel) and
// WithLevel the zstd level (default 9); other options are ignored.
func AppendRaw(dst, src []byte, backend byte, opts ...Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	zlevel := 9 // RAW's zstd default: the level the reference encoder uses
	if c.enc.levelSet {
		zlevel = c.enc.level
	}
	defer zstdHold()()
	var payload []byte
	switch backend {
	case BackendXZ, BackendZstd, BackendStored:
		p, err := rawPayload(src, backend, c.enc.level, c.enc.xzExtreme(), zlevel)
		if err != nil {
			return nil, err
		}
		payload = p
	case RawAuto:
		backend = BackendStored
		payload = src
		for _, b := range []byte{BackendZstd, BackendXZ} {
			p, err := rawPayload(src, b, c.enc.level, c.enc.xzExtreme(), zlevel)
			if err != nil {
				return nil, err
			}
			if len(p) < len(payload) {
				payload, backend = p, b
			}
		}
	default:
		return nil, invalidArg("AppendRaw: unknown backend %d", backend)
	}
	dst = append(dst, MagicWhole...)
	dst = append(dst, byte(CodecRaw), backend)
	dst = append(dst, payload...)
	sum := sha256.Sum256(src)
	dst = append(dst, sum[:]...)
	return append(dst, trailerMagic...), nil
}

func rawPayload(src []byte, backend byte, level int, extreme bool, zlevel int) ([]byte, error) {
	switch backend {
	case BackendXZ:
		out, err := xzCompress(nil, src, level, extreme)
		if err == nil {
			out, err = xzPolish(out, src, level, extreme, xzModels[0])
		}
		if err != nil {
			return nil, fmt.Errorf("at1: xz: %w", err)
		}
		return out, nil
	case BackendZstd:
		return zstdCompress(nil, src, zlevel), nil
	}
	return src, nil
}
